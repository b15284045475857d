#include "storage/ssd/nvme_ssd.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
// Seed 000 IV-B evaluates BaM with "a queue depth of 1024, and the number of queues
// per controller of 128" on P5510s.
const auto kQueuePairs =
    Param<UInt32>("queue_pairs", "128", "I/O submission/completion queue pairs (seed 000 IV-B: 128 per controller)")
        .range(1, 65535);
const auto kQueueDepth =
    Param<UInt32>("queue_depth", "1024", "commands one queue pair holds (seed 000 IV-B: 1024; NVMe allows 65536)")
        .range(1, 65536);
const Param<Time> kDoorbell{"doorbell_latency", "500ns",
                            "the SQ tail doorbell's MMIO write reaching the SSD (assumption: half a PCIe round trip)"};
const Param<Time> kCommandFetch{"command_fetch_latency", "1us",
                                "the SSD fetching the 64 B command from the queue (assumption: one PCIe read round "
                                "trip)"};
const Param<Time> kCompletionWrite{"completion_write_latency", "500ns",
                                   "the SSD writing the 16 B completion entry (assumption: a posted PCIe write)"};
const auto kNotice = Param<Choice>("completion", "polling",
                                   "how the issuer learns of a completion (seed 000: SPDK, BaM and CAM poll; "
                                   "libaio takes interrupts)")
                         .choices({"interrupt", "polling"});
const Param<Time> kInterrupt{"interrupt_latency", "2us", "MSI-X interrupt to the handler reading the entry (assumption)"};
const Param<Time> kPoll{"poll_latency", "100ns", "a polling thread seeing a new completion entry (assumption)"};
const auto kLbaSize =
    Param<Size>("lba_size", "512B", "logical block size of the namespace (NVMe LBA formats: 512 B or 4 KiB)")
        .range(512, 1 << 16);
const Param<Section> kDevice{"device", "",
                             "the device behind the queues (type: calibrated | firmware; default calibrated)"};
}  // namespace

const std::string& NvmeSettings::device_key() { return kDevice.key(); }

std::vector<ParamSpec> NvmeSettings::params() {
    return {kQueuePairs, kQueueDepth, kDoorbell, kCommandFetch, kCompletionWrite,
            kNotice,     kInterrupt,  kPoll,     kLbaSize,      kDevice};
}

const ComponentSchema& NvmeSettings::schema() {
    static const CataloguedSchema s{{.slot = "storage",
                                     .name = "nvme_ssd",
                                     .description = "One NVMe SSD: queue pairs of a fixed depth, submission "
                                                    "(doorbell, command fetch) and completion (entry write, "
                                                    "interrupt or poll) costs, and a device model behind them.",
                                     .params = params(),
                                     .ports = {}}};
    return s.schema;
}

NvmeSettings NvmeSettings::read(const Params& p) {
    NvmeSettings s;
    s.queue_pairs = p[kQueuePairs];
    s.queue_depth = p[kQueueDepth];
    s.doorbell_latency = p[kDoorbell];
    s.command_fetch_latency = p[kCommandFetch];
    s.completion_write_latency = p[kCompletionWrite];
    s.notice = p[kNotice] == "interrupt" ? CompletionNotice::Interrupt : CompletionNotice::Polling;
    s.interrupt_latency = p[kInterrupt];
    s.poll_latency = p[kPoll];
    s.lba_bytes = p[kLbaSize];
    if (s.lba_bytes & (s.lba_bytes - 1)) p.fail(kLbaSize.key(), "must be a power of two");
    return s;
}

NvmeSsd::NvmeSsd(Simulator& sim, uint32_t index, const NvmeSettings& s, std::unique_ptr<SsdDevice> device,
                 SsdDataPath& path)
    : sim_(sim), index_(index), s_(s), device_(std::move(device)), path_(path), outstanding_(s.queue_pairs, 0),
      started_(sim, [this](uint32_t& c) { fetched(c); }, "nvme-start"),
      finished_(sim, [this](uint32_t& c) { complete(c); }, "nvme-finish") {
    if (s.queue_pairs == 0 || s.queue_depth == 0) throw SimError("NVMe SSD: needs a queue pair of depth 1 or more");
    device_->set_done([this](uint32_t c) { device_done(c); });
}

void NvmeSsd::submit(IoRequest r) {
    const uint64_t addr = r.lba * s_.lba_bytes;
    if (r.bytes == 0 || r.bytes % s_.lba_bytes != 0 || addr % device_->alignment() != 0 ||
        addr + r.bytes > capacity_bytes() || r.lba > capacity_bytes() / s_.lba_bytes)
        throw SimError("NVMe SSD " + std::to_string(index_) + ": command of " + std::to_string(r.bytes) +
                       " B at LBA " + std::to_string(r.lba) + " is unaligned, empty or beyond the " +
                       std::to_string(capacity_bytes()) + " B capacity");
    if (!can_submit(r.queue))
        throw SimError("NVMe SSD " + std::to_string(index_) + ": queue pair " + std::to_string(r.queue) +
                       " is full (the issuer must wait for a completion)");
    ++outstanding_[r.queue];
    uint32_t c;
    if (!free_cmds_.empty()) {
        c = free_cmds_.back();
        free_cmds_.pop_back();
    } else {
        c = static_cast<uint32_t>(cmds_.size());
        cmds_.emplace_back();
    }
    r.submitted = sim_.now();
    cmds_[c].io = std::move(r);
    cmds_[c].dma_end = 0;
    started_.push(c, sim_.now() + s_.submission_cost());
}

void NvmeSsd::fetched(uint32_t c) {
    Command& cmd = cmds_[c];
    IoRequest& io = cmd.io;
    io.fetched = sim_.now();
    ++commands_;
    // Write data crosses into the SSD while the device works on the command.
    if (io.is_write()) {
        cmd.dma_end = path_.memory_to_ssd(index_, io.memory, sim_.now(), io.bytes, io.dest);
        bytes_written_ += io.bytes;
    } else {
        bytes_read_ += io.bytes;
    }
    device_->start(c, io.op, io.lba * s_.lba_bytes, io.bytes);
}

void NvmeSsd::device_done(uint32_t c) {
    Command& cmd = cmds_[c];
    IoRequest& io = cmd.io;
    io.device_done = sim_.now();
    const Tick data = io.is_write() ? std::max(sim_.now(), cmd.dma_end)
                                    : path_.ssd_to_memory(index_, io.memory, sim_.now(), io.bytes, io.dest);
    finished_.push(c, data + s_.completion_cost());
}

void NvmeSsd::complete(uint32_t c) {
    IoRequest io = std::move(cmds_[c].io);
    free_cmds_.push_back(c);
    --outstanding_[io.queue];
    io.completed = sim_.now();
    if (io.done) io.done(io);
    if (on_room_) on_room_(io.queue);
}

}  // namespace zng::storage
