// Memory back end `hybridgpu`: FlashGPU (DAC'19) as the ZnG paper evaluates it. L2
// misses from every bank enter one request dispatcher (a queue served one request per
// dispatch latency), which hands them to the SSD controller (FirmwareSsd: embedded cores
// running a page-mapping FTL, one DRAM buffer on a 32-bit bus) in front of bus-based
// ONFI flash channels (the flash model's backbone with the onfi_bus network) to the
// Z-NAND of the `flash:` section. The controller prefetches sequential reads as
// FlashGPU's access pattern tracker decides (access_pattern_tracker.hpp); the bound
// below is for demand reads of every line, which prefetch does not raise.
//
// Peak flash-side bandwidth of a streaming read, from the defaults (configs/fragments/
// hybridgpu_ssd.yaml shows the same arithmetic):
//   DRAM buffer: 32 bit x 2400 MT/s = 9.6 GB/s, crossed twice by every flash byte
//     (fill + read-out) -> 4.8 GB/s;
//   cores: 4 cores / (100 cycles at 1 GHz) = 40 M requests/s x 128 B = 5.12 GB/s;
//   dispatcher: 1 request / 2 ns = 500 M requests/s x 128 B = 64 GB/s;
//   ONFI channels: 16 x 1 B x 800 MT/s = 12.8 GB/s;
//   planes: 1024 x 4 KiB / 3 us = 1.4 TB/s.
// The minimum, the buffer's 4.8 GB/s, is the paper's "only 5 GB/s" (Fig. 1b, 4c).
#pragma once
#include <memory>
#include <vector>

#include "flash_model/controller/flash_backbone.hpp"
#include "mmu_ftl/ssd/firmware_ssd.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/mem/memory_backend.hpp"
#include "sim/mem/round_robin.hpp"

namespace zng::ftl {

class HybridGpuBackend final : public MemoryBackend {
public:
    // `flash` overrides the flash model (tests); by default a backbone is built from the
    // `flash:` section and this section's backbone keys.
    HybridGpuBackend(Simulator& sim, const Params& p, const BackendContext& ctx,
                     flash::FlashOpExecutor* flash = nullptr);
    static const ComponentSchema& schema();

    ResponsePort& port(uint32_t i) override { return *ports_.at(i); }
    uint32_t num_ports() const override { return static_cast<uint32_t>(ports_.size()); }
    bool recv_request(MemRequest* r, ResponsePort& port) override;
    uint64_t in_flight() const override { return in_flight_; }
    uint64_t medium_bytes_read() const override { return ssd_->flash_bytes_read(); }
    uint64_t medium_bytes_written() const override { return ssd_->flash_bytes_written(); }
    uint64_t capacity_bytes() const override { return ssd_->capacity_bytes(); }

    const FirmwareSsd& ssd() const { return *ssd_; }

private:
    void dispatch();
    void delivered();
    void wake_dispatcher();

    Simulator& sim_;
    std::vector<std::unique_ptr<ResponsePort>> ports_;
    std::vector<uint8_t> refused_;  // per port: a request was refused, owe a retry
    RoundRobin turn_;               // which refused port retries first when a slot frees
    std::unique_ptr<flash::FlashBackbone> backbone_;
    std::unique_ptr<FirmwareSsd> ssd_;
    size_t queue_depth_;
    RingQueue<MemRequest*> queue_;
    Tick dispatch_latency_;
    MemRequest* in_dispatch_ = nullptr;
    uint64_t in_flight_ = 0;
    MemberEvent<HybridGpuBackend, &HybridGpuBackend::delivered> deliver_ev_{this, "hybridgpu-dispatch"};
    Counter& requests_;
    Counter& refusals_;
};

}  // namespace zng::ftl
