// Device `firmware`: the FirmwareSsd controller (embedded cores, page-mapping FTL, DRAM
// buffer; mmu_ftl/ssd) in front of ONFI channels to the flash of its `flash:`
// subsection (Z-NAND for a Z-SSD, TLC timings for a TLC SSD). A command becomes one
// firmware request per flash page, fed to the controller as it has room; the command
// is done when its last page is. This is the SSD Hetero has always used.
#pragma once
#include <deque>
#include <memory>
#include <vector>

#include "flash_model/controller/flash_backbone.hpp"
#include "mmu_ftl/ssd/firmware_ssd.hpp"
#include "storage/ssd/ssd_device.hpp"

namespace zng::storage {

class FirmwareSsdDevice final : public SsdDevice {
public:
    static const ComponentSchema& schema();
    // The keys it reads, for a schema that embeds them (Hetero's `ssd:` section).
    static std::vector<ParamSpec> params();
    // `p` holds params(); `path` names its section in messages; `flash` overrides the
    // flash model (tests).
    FirmwareSsdDevice(Simulator& sim, const Params& p, const std::string& stats_name,
                      flash::FlashOpExecutor* flash = nullptr);

    void start(uint32_t cmd, IoOp op, uint64_t addr, uint64_t bytes) override;
    uint64_t capacity_bytes() const override { return ssd_->capacity_bytes(); }
    uint64_t alignment() const override { return page_size_; }
    uint64_t page_size() const { return page_size_; }
    const ftl::FirmwareSsd& controller() const { return *ssd_; }

private:
    void feed();
    void piece_done(const ftl::FirmwareSsd::Io& io);

    std::unique_ptr<flash::FlashBackbone> backbone_;
    std::unique_ptr<ftl::FirmwareSsd> ssd_;
    uint64_t page_size_;
    std::vector<uint32_t> pieces_left_;          // per command slot
    std::deque<ftl::FirmwareSsd::Io> queue_;     // flash-page requests waiting for the controller
};

}  // namespace zng::storage
