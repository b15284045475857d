// The host's NVMe SSD of the Hetero platform: its own controller (FirmwareSsd: embedded
// cores, page FTL, DRAM buffer) in front of ONFI channels to the flash of its `flash:`
// subsection (Z-NAND for a Z-SSD, TLC timings for a TLC SSD), reached over its own
// PCIe link. A command costs the NVMe submission latency (doorbell, command fetch),
// then one firmware request per flash page, then the DMA of the data over the SSD's
// link (reads: SSD -> host after the flash; writes: host -> SSD before it).
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "flash_model/controller/flash_backbone.hpp"
#include "mmu_ftl/hetero/pcie_link.hpp"
#include "mmu_ftl/ssd/firmware_ssd.hpp"
#include "sim/core/timed_queue.hpp"

namespace zng::ftl {

class NvmeSsd {
public:
    static const ComponentSchema& schema();
    // `section` is the `ssd:` subsection (may be null: defaults, a Z-SSD). `flash`
    // overrides the flash model (tests).
    NvmeSsd(Simulator& sim, const ConfigNode* section, const std::string& path, const std::string& stats_name,
            flash::FlashOpExecutor* flash = nullptr);

    using Done = std::function<void()>;
    // Reads / writes `bytes` starting at logical byte `addr` (flash-page aligned).
    void read(uint64_t addr, uint64_t bytes, Done done);
    void write(uint64_t addr, uint64_t bytes, Done done);

    uint64_t capacity_bytes() const { return ssd_->capacity_bytes(); }
    uint64_t page_size() const { return page_size_; }
    const FirmwareSsd& controller() const { return *ssd_; }
    Tick command_latency() const { return nvme_latency_; }
    const SerialLink& link() const { return link_; }

private:
    struct Command {
        uint64_t addr, bytes;
        bool write;
        uint32_t pieces_left;
        Tick dma_end;
        Done done;
    };
    void issue(uint64_t addr, uint64_t bytes, bool write, Done done);
    void start(uint32_t cmd);
    void feed();
    void piece_done(const FirmwareSsd::Io& io);

    Simulator& sim_;
    std::unique_ptr<flash::FlashBackbone> backbone_;
    std::unique_ptr<FirmwareSsd> ssd_;
    uint64_t page_size_;
    Tick nvme_latency_;
    SerialLink link_;
    std::vector<Command> cmds_;
    std::vector<uint32_t> free_cmds_;
    std::deque<FirmwareSsd::Io> queue_;  // flash-page requests waiting for the controller
    TimedQueue<uint32_t> started_;       // commands whose submission latency has passed
    TimedQueue<uint32_t> finished_;      // commands whose data transfer has ended
};

}  // namespace zng::ftl
