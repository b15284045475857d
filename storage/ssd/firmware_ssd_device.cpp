#include "storage/ssd/firmware_ssd_device.hpp"

#include <algorithm>

#include "flash_model/flash_spec.hpp"
#include "mmu_ftl/wear/free_block_pool.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const Param<Section> kFlash{"flash", "", "the SSD's flash medium (same keys as the platform's `flash:` section)"};
const Param<Section> kWearLeveling{"wear_leveling", "",
                                   "free-block choice of the SSD's FTL (type: least_erased | fifo)"};
}  // namespace

std::vector<ParamSpec> FirmwareSsdDevice::params() {
    std::vector<ParamSpec> ps = {kFlash, kWearLeveling};
    for (ParamSpec& p : ftl::FirmwareSsdSettings::params()) ps.push_back(p);
    for (ParamSpec& p : flash::FlashBackboneSettings::params()) ps.push_back(p);
    return ps;
}

const ComponentSchema& FirmwareSsdDevice::schema() {
    static const ComponentSchema s{
        .slot = "ssd_device",
        .name = "firmware",
        .description = "SSD controller running FTL firmware (embedded cores, page FTL, DRAM buffer) over ONFI "
                       "channels to the flash model.",
        .params = params(),
        .ports = {}};
    return s;
}

FirmwareSsdDevice::FirmwareSsdDevice(Simulator& sim, const Params& p, const std::string& stats_name,
                                     flash::FlashOpExecutor* flash) {
    if (!flash) {
        flash::FlashBackboneSettings bs = flash::FlashBackboneSettings::read(p, stats_name + ".flash");
        bs.default_network = "onfi_bus";
        backbone_ = std::make_unique<flash::FlashBackbone>(
            sim, flash::parse_flash_section(p[kFlash], p.path() + "." + kFlash.key()), bs);
        flash = backbone_.get();
    }
    const flash::FlashGeometry& g = flash->geometry();
    page_size_ = g.page_size();
    auto pool = ftl::wear_leveling_slot().create(p[kWearLeveling], p.path() + "." + kWearLeveling.key(),
                                                 "least_erased", static_cast<uint32_t>(g.planes()),
                                                 g.blocks_per_plane());
    ssd_ = std::make_unique<ftl::FirmwareSsd>(sim, StatGroup(sim.stats(), stats_name),
                                              ftl::FirmwareSsdSettings::read(p), *flash, std::move(pool),
                                              [this](const ftl::FirmwareSsd::Io& io) { piece_done(io); });
    ssd_->set_on_room([this] { feed(); });
}

void FirmwareSsdDevice::start(uint32_t cmd, IoOp op, uint64_t addr, uint64_t bytes) {
    if (cmd >= pieces_left_.size()) pieces_left_.resize(cmd + 1);
    pieces_left_[cmd] = static_cast<uint32_t>((bytes + page_size_ - 1) / page_size_);
    for (uint64_t off = 0; off < bytes; off += page_size_) {
        ftl::FirmwareSsd::Io io;
        io.addr = addr + off;
        io.bytes = static_cast<uint32_t>(std::min<uint64_t>(page_size_, bytes - off));
        io.write = op == IoOp::Write;
        io.tag = cmd;
        queue_.push_back(io);
    }
    feed();
}

void FirmwareSsdDevice::feed() {
    while (!queue_.empty() && ssd_->can_accept()) {
        ssd_->submit(queue_.front());
        queue_.pop_front();
    }
}

void FirmwareSsdDevice::piece_done(const ftl::FirmwareSsd::Io& io) {
    const uint32_t cmd = static_cast<uint32_t>(io.tag);
    if (--pieces_left_[cmd] == 0) done_(cmd);
}

}  // namespace zng::storage
