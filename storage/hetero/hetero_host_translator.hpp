// Translator `hetero_host`: the Hetero platform's GPU virtual memory backed by a host
// NVMe SSD. Resident pages live in GPU memory (served by the platform's GDDR5 back
// end; ppn = frame number); a miss is a page fault: faults arriving within a batching
// window (up to a batch size) raise one interrupt to the host, which pays its handling
// latency, reads each page from the NVMe SSD (its own controller, FTL and channels,
// then its link to host memory) and copies it over the GPU's PCIe link into a frame.
// The SSD and both links are the storage components: the translator's own (`ssd:` and
// the `pcie_` keys; HeteroHostSsd, one SSD with the firmware device model by default),
// or, when the platform has a `storage:` section with control plane os_fault, that
// section's SSD array, PCIe topology and host, shared with the rest of the node.
// When GPU memory is full the least recently used page is evicted: its TLB entries are
// shot down and, if dirty, it is copied back over PCIe and written to the SSD. The
// LRU order follows translations; whoever sees the GPU-memory traffic (the platform's
// memory path) calls note_access() so that it follows every access and so that
// written pages are dirty (pages never reported as written are evicted clean).
#pragma once
#include <memory>
#include <vector>

#include "mmu_ftl/common/lru_page_cache.hpp"
#include "sim/core/hash_map.hpp"
#include "sim/mem/address_translator.hpp"
#include "sim/mem/dma_traffic_sink.hpp"
#include "sim/mem/resident_page_tracker.hpp"
#include "storage/hetero/hetero_host_ssd.hpp"

namespace zng::storage {

class HeteroHostTranslator final : public AddressTranslator, public ResidentPageTracker, public DmaTrafficSource {
public:
    HeteroHostTranslator(Simulator& sim, const Params& p, const TranslatorContext& ctx,
                         flash::FlashOpExecutor* ssd_flash = nullptr);
    static const ComponentSchema& schema();

    uint64_t page_size() const override { return page_size_; }
    bool translate(uint16_t app, uint64_t vpn, uint64_t& ppn) override;
    void resolve_fault(uint16_t app, uint64_t vpn, FaultDone done) override;
    // ResidentPageTracker: an access reached GPU memory at `paddr` (a write marks the
    // page dirty).
    void note_access(uint64_t paddr, bool write) override;
    // DmaTrafficSource: the page copies of its own SSD's path go through `sink` (with
    // the platform's storage section, the platform wires that section's port).
    void set_dma_sink(DmaTrafficSink* sink) override {
        if (own_ssd_) own_ssd_->gpu_dma().set_sink(sink);
    }

    uint64_t frames() const { return frames_.capacity(); }
    uint64_t gpu_memory_bytes() const override { return frames_.capacity() * page_size_; }
    uint64_t faults() const { return faults_.get(); }
    uint64_t evictions() const { return evictions_.get(); }
    uint64_t writebacks() const { return writebacks_.get(); }
    Tick fault_overhead() const { return interrupt_ + handling_; }
    const BandwidthServer& host_to_gpu() const { return host_path_->pcie().gpu_link_down(); }

protected:
    void* offered_interface(std::string_view name) override {
        return offer<ResidentPageTracker, DmaTrafficSource>(this, name);
    }

private:
    struct Fault {
        uint64_t key = 0;
        uint32_t frame = 0;
        Tick frame_free = 0;  // a dirty victim's copy-out ends
        Tick since = 0;
        std::vector<FaultDone> waiters;
    };
    static uint64_t key(uint16_t app, uint64_t vpn);
    uint32_t new_fault();
    void handle_batch();
    bool take_frame(uint32_t f, Tick at);
    void ssd_read(uint32_t f);
    void install(uint32_t f);
    uint64_t ssd_address(uint64_t key);

    Simulator& sim_;
    uint64_t page_size_;
    Tick interrupt_, handling_, window_;
    uint32_t batch_size_;
    std::unique_ptr<HeteroHostSsd> own_ssd_;  // null when the platform's storage serves the faults
    OsFaultPlane* host_path_;                 // the fault handler's commands and copies
    ftl::LruPageCache frames_;          // slot = GPU frame
    GrowingHashMap<uint32_t> pending_{512};    // page key -> fault
    GrowingHashMap<uint32_t> placement_{512};  // page key -> SSD page (data laid out in first-touch order)
    uint64_t ssd_pages_used_ = 0;
    std::vector<Fault> faults_v_;
    std::vector<uint32_t> free_faults_;
    std::vector<uint32_t> batch_;
    std::vector<uint32_t> waiting_frame_;  // faults that found every frame being filled
    MemberEvent<HeteroHostTranslator, &HeteroHostTranslator::handle_batch> batch_ev_{this, "hetero-fault-batch"};
    TimedQueue<uint32_t> host_ready_;  // faults whose interrupt and handling are paid
    TimedQueue<uint32_t> copied_;      // faults whose page is in GPU memory

    Counter& faults_;
    Counter& batches_;
    Counter& evictions_;
    Counter& writebacks_;
    Average& fault_latency_;
};

}  // namespace zng::storage
