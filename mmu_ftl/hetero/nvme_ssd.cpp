#include "mmu_ftl/hetero/nvme_ssd.hpp"

#include <algorithm>

#include "flash_model/flash_spec.hpp"

namespace zng::ftl {
namespace {
using namespace param_kind;
const Param<Time> kCommandLatency{"command_latency", "2us",
                                  "NVMe submission: doorbell write, command fetch, completion interrupt (assumption)"};
const Param<Section> kFlash{"flash", "", "the SSD's flash medium (same keys as the platform's `flash:` section)"};
const Param<Section> kWearLeveling{"wear_leveling", "",
                                   "free-block choice of the SSD's FTL (type: least_erased | fifo)"};
const PcieLinkParams kLink("link_", "the SSD's host link", 4, "8GT/s", "1us");
}  // namespace

const ComponentSchema& NvmeSsd::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c;
        c.slot = "hetero_ssd";
        c.name = "nvme";
        c.description = "Host-attached NVMe SSD: NVMe command latency, firmware SSD controller, ONFI channels, "
                        "its own PCIe link to the host.";
        c.params = {kCommandLatency, kFlash, kWearLeveling};
        for (const ParamSpec& p : kLink.specs()) c.params.push_back(p);
        for (ParamSpec& p : FirmwareSsdSettings::params()) c.params.push_back(p);
        for (ParamSpec& p : flash::FlashBackboneSettings::params()) c.params.push_back(p);
        return c;
    }();
    return s;
}

NvmeSsd::NvmeSsd(Simulator& sim, const ConfigNode* section, const std::string& path, const std::string& stats_name,
                 flash::FlashOpExecutor* flash)
    : sim_(sim), started_(sim, [this](uint32_t& c) { start(c); }, "nvme-start"),
      finished_(sim, [this](uint32_t& c) {
          Done d = std::move(cmds_[c].done);
          free_cmds_.push_back(c);
          d();
      }, "nvme-finish") {
    Params p(section, schema(), path);
    nvme_latency_ = p[kCommandLatency];
    PcieLinkSpec link = kLink.read(p);
    link_.configure(link.bytes_per_second(), link.latency);
    if (!flash) {
        flash::FlashBackboneSettings bs = flash::FlashBackboneSettings::read(p, stats_name + ".flash");
        bs.default_network = "onfi_bus";
        backbone_ = std::make_unique<flash::FlashBackbone>(
            sim, flash::parse_flash_section(p[kFlash], path + "." + kFlash.key()), bs);
        flash = backbone_.get();
    }
    const flash::FlashGeometry& g = flash->geometry();
    page_size_ = g.page_size();
    auto pool = wear_leveling_slot().create(p[kWearLeveling], path + "." + kWearLeveling.key(), "least_erased",
                                            static_cast<uint32_t>(g.planes()), g.blocks_per_plane());
    ssd_ = std::make_unique<FirmwareSsd>(sim, StatGroup(sim.stats(), stats_name), FirmwareSsdSettings::read(p), *flash,
                                         std::move(pool), [this](const FirmwareSsd::Io& io) { piece_done(io); });
    ssd_->set_on_room([this] { feed(); });
}

void NvmeSsd::read(uint64_t addr, uint64_t bytes, Done done) { issue(addr, bytes, false, std::move(done)); }
void NvmeSsd::write(uint64_t addr, uint64_t bytes, Done done) { issue(addr, bytes, true, std::move(done)); }

void NvmeSsd::issue(uint64_t addr, uint64_t bytes, bool write, Done done) {
    if (addr % page_size_ != 0 || bytes == 0 || addr + bytes > capacity_bytes())
        throw SimError("NVMe SSD: command of " + std::to_string(bytes) + " B at " + std::to_string(addr) +
                       " is unaligned, empty or beyond the " + std::to_string(capacity_bytes()) + " B capacity");
    uint32_t c;
    if (!free_cmds_.empty()) {
        c = free_cmds_.back();
        free_cmds_.pop_back();
    } else {
        c = static_cast<uint32_t>(cmds_.size());
        cmds_.emplace_back();
    }
    cmds_[c] = {addr, bytes, write, static_cast<uint32_t>((bytes + page_size_ - 1) / page_size_), 0, std::move(done)};
    started_.push(c, sim_.now() + nvme_latency_);
}

void NvmeSsd::start(uint32_t c) {
    Command& cmd = cmds_[c];
    // Write data crosses the link to the SSD while the firmware works on the pages.
    if (cmd.write) cmd.dma_end = link_.transfer(sim_.now(), cmd.bytes);
    for (uint64_t off = 0; off < cmd.bytes; off += page_size_) {
        FirmwareSsd::Io io;
        io.addr = cmd.addr + off;
        io.bytes = static_cast<uint32_t>(std::min<uint64_t>(page_size_, cmd.bytes - off));
        io.write = cmd.write;
        io.tag = c;
        queue_.push_back(io);
    }
    feed();
}

void NvmeSsd::feed() {
    while (!queue_.empty() && ssd_->can_accept()) {
        ssd_->submit(queue_.front());
        queue_.pop_front();
    }
}

void NvmeSsd::piece_done(const FirmwareSsd::Io& io) {
    const uint32_t c = static_cast<uint32_t>(io.tag);
    Command& cmd = cmds_[c];
    if (--cmd.pieces_left != 0) return;
    Tick end = cmd.write ? std::max(sim_.now(), cmd.dma_end) : link_.transfer(sim_.now(), cmd.bytes);
    finished_.push(c, end);
}

}  // namespace zng::ftl
