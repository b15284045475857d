#include "memory/gddr5_memory.hpp"

#include <fmt/format.h>

#include "memory/dram_params.hpp"
#include "sim/core/errors.hpp"

namespace zng::memory {

namespace {
using namespace param_kind;
const auto kChannels = Param<UInt32>("channels", "6", "memory channels (controllers)").range(1, 1024);
const auto kBanks = Param<UInt32>("banks", "16", "banks per channel").range(1, 1024);
const auto kRowSize = Param<Size>("row_size", "2KiB", "bytes of one row across the channel").min(1);
const auto kCapacity = Param<Size>("capacity", "1536MiB", "total bytes served").min(1);
const DramParams kDram("1002MHz", "4008MT/s", "32", "32");
const auto kTRCD = Param<Time>("tRCD", "12ns", "ACT to column command").min(0);
const auto kTCL = Param<Time>("tCL", "11976ps", "read command to first data (CAS latency)").min(0);
const auto kTCWL = Param<Time>("tCWL", "3992ps", "write command to first data (write latency)").min(0);
const auto kTRP = Param<Time>("tRP", "12ns", "PRE to ACT").min(0);
const auto kTRAS = Param<Time>("tRAS", "28ns", "ACT to PRE").min(0);
const auto kTRTP = Param<Time>("tRTP", "1996ps", "read command to PRE").min(0);
const auto kTWR = Param<Time>("tWR", "12ns", "end of write data to PRE (write recovery)").min(0);
const auto kTCCD = Param<Time>("tCCD", "1996ps", "column command to column command (one burst)").min(0);
const auto kTRRD = Param<Time>("tRRD", "6ns", "ACT to ACT in different banks").min(0);
const auto kTFAW = Param<Time>("tFAW", "23ns", "window with at most four ACTs (0 = none)").min(0);
const auto kTWTR = Param<Time>("tWTR", "5ns", "end of write data to read command").min(0);
const auto kTRTW = Param<Time>("tRTW", "1996ps", "bus turnaround between read data and write data").min(0);
const auto kTREFI = Param<Time>("tREFI", "3.9us", "refresh interval (0 = no refresh)").min(0);
const auto kTRFC = Param<Time>("tRFC", "65ns", "all-bank refresh duration").min(0);

AddressMapping gddr5_mapping(const Params& p) {
    return AddressMapping::from_params(p, p[kChannels], p[kBanks], p[kRowSize]);
}
}  // namespace

const ComponentSchema& Gddr5Memory::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c;
        c.name = "gddr5";
        c.description =
            "GDDR5 channels, each a memory controller with read/write queues, FR-FCFS scheduling, banks with "
            "open-row state and JEDEC-style timing (tRCD/tCL/tRP/tRAS/tWR/tCCD/tRRD/tFAW/tWTR/refresh)";
        c.params = kDram.around({kChannels, kBanks, kRowSize, kCapacity},
                                {kTRCD, kTCL, kTCWL, kTRP, kTRAS, kTRTP, kTWR, kTCCD, kTRRD, kTFAW, kTWTR, kTRTW,
                                 kTREFI, kTRFC});
        c.ports = {"port<i>: one response port per L2 bank; any port reaches any channel"};
        return c;
    }();
    return s;
}

Gddr5Memory::Gddr5Memory(const Params& p, Simulator& sim, const BackendContext& ctx)
    : DramChannelBackend(sim, p.path(), ctx.ports, kDram.command_clock(p), gddr5_mapping(p), p[kCapacity]),
      peak_(kDram.bus_peak(p) * p[kChannels]), sim_(sim), line_size_(ctx.line_size) {
    DramChannelConfig cfg;
    cfg.banks = p[kBanks];
    kDram.read_bus(p, clock_, cfg.timing);
    kDram.read_controller(p, clock_, cfg);
    DramTiming& t = cfg.timing;
    t.tRCD = read_cycles(p, kTRCD, clock_);
    t.tCL = read_cycles(p, kTCL, clock_);
    t.tCWL = read_cycles(p, kTCWL, clock_);
    t.tRP = read_cycles(p, kTRP, clock_);
    t.tRAS = read_cycles(p, kTRAS, clock_);
    t.tRTP = read_cycles(p, kTRTP, clock_);
    t.tWR = read_cycles(p, kTWR, clock_);
    t.tCCD = read_cycles(p, kTCCD, clock_);
    t.tRRD = read_cycles(p, kTRRD, clock_);
    t.tFAW = read_cycles(p, kTFAW, clock_);
    t.tWTR = read_cycles(p, kTWTR, clock_);
    t.tRTW = read_cycles(p, kTRTW, clock_);
    t.tREFI = read_cycles(p, kTREFI, clock_);
    t.tRFC = read_cycles(p, kTRFC, clock_);
    if (t.tRP == 0) p.fail(kTRP.key(), "DRAM needs a non-zero precharge time");
    if (t.tCCD == 0) p.fail(kTCCD.key(), "column commands need a non-zero spacing");
    if (t.tREFI != 0 && t.tRFC + t.tRP >= t.tREFI)
        p.fail(kTREFI.key(), "the refresh interval must exceed tRFC + tRP, or the channel would only refresh");
    // Between two refreshes a row must open, move one burst and close again, or no access
    // ever completes and the run makes no progress.
    const Cycle row_cycle = t.tRCD + std::max(t.tCL, t.tCWL) + t.burst + t.tRP;
    if (t.tREFI != 0 && t.tRFC + row_cycle >= t.tREFI)
        p.fail(kTREFI.key(),
               fmt::format("the refresh interval ({} cycles) must exceed tRFC + tRCD + max(tCL, tCWL) + one "
                           "burst + tRP ({} cycles; tRCD is {} cycles at {}), or no access completes "
                           "between refreshes",
                           t.tREFI, t.tRFC + row_cycle, t.tRCD, p.where(kTRCD.key())));
    if (ctx.ports == 0) throw ConfigError(p.where(kChannels.key()) + ": the memory needs at least one port");
    for (uint32_t i = 0; i < mapping_.channels(); ++i)
        channels_.push_back(
            std::make_unique<DramChannel>(sim, fmt::format("{}.ch{}", name_, i), clock_, cfg,
                                          static_cast<DramChannelClient&>(*this), i));
    const double peak = peak_;
    sim.stats().formula(name_ + ".peak_bandwidth_gbps", "channels x bus width x data rate", "GB/s",
                        [peak] { return peak / 1e9; });
}

bool Gddr5Memory::recv_request(MemRequest* r, ResponsePort& port) {
    check_in_capacity(name_, *r, capacity_);
    const DecodedAddress d = mapping_.decode(r->paddr);
    DramChannel& ch = *channels_[d.channel];
    DramTxn t;
    t.req = r;
    t.bank = d.bank;
    t.row = d.row;
    t.bursts = bursts_for(r->size, ch.config().timing.burst_bytes);
    t.kind = is_write_op(r->op) ? DramTxnKind::Write : DramTxnKind::Read;
    const bool atomic = r->op == MemOp::Atomic;
    if (!ch.has_room(t.kind) || (atomic && !ch.has_room(DramTxnKind::Write))) {
        ports_.refused(port, d.channel);
        traffic_.refused();
        return false;
    }
    if (atomic) ch.reserve_write();  // the write half of the read-modify-write
    traffic_.accepted(r);
    ch.enqueue(t);
    return true;
}

void Gddr5Memory::attach_dma() {
    if (dma_) return;
    dma_ = std::make_unique<DmaTrafficInjector>(sim_, name_, line_size_, [this](uint64_t a, uint32_t b, bool w) {
        return try_dma(a, b, w);
    });
}

void Gddr5Memory::dma_access(uint64_t addr, uint64_t bytes, Tick first, Tick last, bool write) {
    if (!dma_) throw SimError(name_ + ": storage DMA before attach_dma()");
    dma_->add(addr, bytes, first, last, write);
}

bool Gddr5Memory::try_dma(uint64_t addr, uint32_t bytes, bool write) {
    // A DMA buffer is addressed as the GPU's memory is; addresses past the capacity
    // wrap (the buffer's frames are wherever the allocator put them).
    const DecodedAddress d = mapping_.decode(addr % capacity_);
    DramChannel& ch = *channels_[d.channel];
    DramTxn t;
    t.req = nullptr;  // posted: nobody waits for its completion
    t.bank = d.bank;
    t.row = d.row;
    t.bursts = bursts_for(bytes, ch.config().timing.burst_bytes);
    t.kind = write ? DramTxnKind::Write : DramTxnKind::Read;
    if (!ch.has_room(t.kind)) return false;
    ch.enqueue(t);
    return true;
}

void Gddr5Memory::room_freed(DramChannel& ch) {
    DramChannelBackend::room_freed(ch);  // the L2's refused requests first, as before
    if (dma_) dma_->room_freed();
}

void Gddr5Memory::txn_done(DramChannel& ch, const DramTxn& t) {
    if (!t.req) return;  // an atomic's write half: nobody waits for it
    if (t.req->op == MemOp::Atomic) {
        DramTxn w = t;
        w.req = nullptr;
        w.kind = DramTxnKind::Write;
        ch.enqueue(w, true);
    }
    traffic_.respond(t.req);
}

uint64_t Gddr5Memory::medium_bytes_read() const {
    uint64_t n = 0;
    for (const auto& c : channels_) n += c->read_bursts() * c->config().timing.burst_bytes;
    return n;
}

uint64_t Gddr5Memory::medium_bytes_written() const {
    uint64_t n = 0;
    for (const auto& c : channels_) n += c->write_bursts() * c->config().timing.burst_bytes;
    return n;
}

}  // namespace zng::memory
