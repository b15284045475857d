// An SSD controller running FTL firmware (HybridGPU's SSD engine; the controller of
// Hetero's NVMe SSD): requests wait for one of a few embedded cores, which spends a
// fixed firmware time on each (HIL + FTL + FIL work); the page-mapping FTL finds the
// flash page; one DRAM buffer on a narrow bus caches flash pages for reads and
// absorbs writes (write-back, LRU); flash reads, programs, erases and GC go to the
// flash model as FlashOps. Requests are at most one flash page and must not cross one.
//
// Read hit: DRAM transfer of the request. Read miss: a buffer slot is taken (a dirty
// victim is read out of DRAM and programmed), the page is sensed and moved to the
// controller, written into DRAM (4 KiB on the bus), then the request's bytes are read
// out. Write: the bytes go into DRAM; a partially written page is completed from flash
// (read-modify-write) when it is evicted. Every flash byte read thus crosses the DRAM
// bus twice, which with the core time bounds the SSD's bandwidth. The front end's
// transfers (read-outs, writes in) and the flash side's (fills, write-backs' read-outs)
// share that bus as its arbitration says (buffer_bus.hpp).
//
// Read prefetch (off unless the settings enable it; HybridGPU's back end does, with
// FlashGPU's public values, see access_pattern_tracker.hpp): every read first updates
// the PC/warp access pattern tracker; a read miss that the tracker marks sequential
// also brings the pages after it into the buffer, one flash read per page at the
// page's FTL location, skipping pages already buffered. A later read of such a page
// is a buffer hit.
//
// Read prefetch policy stream_buffer (seed 002's SSDStreamer, a policy for this buffer):
// a read the tracker marks sequential belongs to its warp's stream; outside the stream's
// window it starts one after its page. Each stream keeps a FIFO of stream_depth sblocks
// of sblock_pages pages read ahead into the buffer; sblock i + 1 is read only after all of
// sblock i has arrived (the seed's sblock chaining), and a read that has moved into a
// later sblock frees the ones before it, which reads the next.
//
// Write staging (off unless the settings enable it; HybridGPU's back end offers it, seed
// 004's Cache VOL policy for this buffer): a write that turns a buffered page dirty also
// queues the page, and one background flush at a time (the page read out of DRAM, the
// rest of a partly written page read from flash, the page programmed) takes the queued
// pages in the order of their first writes, the next starting when a program ends. The
// page is clean from its flush on and stays readable in the buffer; a write during the
// flush dirties and queues it again.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <memory>
#include <string>
#include <vector>

#include "flash_model/array/log_block_map.hpp"
#include "mmu_ftl/common/lru_page_cache.hpp"
#include "mmu_ftl/ssd/buffer_bus.hpp"
#include "mmu_ftl/ssd/access_pattern_tracker.hpp"
#include "mmu_ftl/ssd/page_ftl.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/mem/server_pool.hpp"
#include "sim/stats/stats.hpp"

namespace zng::ftl {

struct FirmwareSsdSettings {
    uint32_t cores = 4;
    Tick firmware_latency = 100 * kNanosecond;  // per request, on one core
    uint32_t queue_depth = 64;                  // requests waiting for a core
    uint64_t buffer_bytes = 512ull << 20;
    double dram_bandwidth = 9.6e9;              // bytes/s on the buffer's bus
    Tick dram_latency = 50 * kNanosecond;       // access latency beyond the transfer
    BufferArbitration dram_arbitration = BufferArbitration::Fifo;  // how host and flash sides share the bus
    double overprovisioning = 0.07;
    uint32_t gc_threshold = 4;                  // free blocks per plane that start GC
    ReadPrefetchSettings prefetch;              // disabled unless a back end enables it
    bool write_staging = false;                 // dirty pages flushed in the background, FIFO

    // The keys of a back end's schema that configure its SSD controller, and their reader
    // (read prefetch has its own keys, ReadPrefetchSettings::params()).
    static std::vector<ParamSpec> params();
    // Keys checked against the flash geometry where it is known (the messages name them).
    static const std::string& buffer_size_key();
    static const std::string& gc_threshold_key();
    static FirmwareSsdSettings read(const Params& p);
};

class FirmwareSsd {
public:
    struct Io {
        uint64_t addr = 0;   // logical byte address
        uint32_t bytes = 0;
        bool write = false;
        uint64_t tag = 0;    // the caller's
        uint64_t pc = 0;     // instruction and warp that caused it (the pattern tracker's input)
        uint32_t warp = 0;
    };
    using Done = std::function<void(const Io&)>;

    FirmwareSsd(Simulator& sim, StatGroup stats, const FirmwareSsdSettings& s, flash::FlashOpExecutor& flash,
                std::unique_ptr<FreeBlockPool> pool, Done done);

    // Room for one more request (a core or a waiting slot).
    bool can_accept() const;
    void submit(const Io& io);
    // Called when room frees after a refusal-worthy state.
    void set_on_room(std::function<void()> f) { on_room_ = std::move(f); }

    uint64_t capacity_bytes() const { return ftl_.logical_pages() * page_size_; }
    uint64_t in_flight() const { return in_flight_; }
    uint64_t flash_bytes_read() const { return flash_reads_.get() * page_size_; }
    uint64_t flash_bytes_written() const { return flash_programs_.get() * page_size_; }
    const PageFtl& ftl() const { return ftl_; }
    const ServerPool<Io>& cores() const { return cores_; }
    const BufferBus& dram() const { return dram_; }

private:
    struct Waiter {
        Io io;
        uint32_t next;
    };
    static constexpr uint32_t kNil = UINT32_MAX;

    // A request that found every buffer slot pinned, with the tracker's decision for it.
    struct Deferred {
        Io io;
        bool prefetch = false;
    };

    void after_firmware(Io& io);
    void serve(const Io& io, bool prefetch);
    // Parks a request that found every buffer slot pinned until a slot frees.
    void defer(const Deferred& d);
    // Fills the pages after `lpn` (up to the prefetch size) that are not buffered.
    void prefetch_after(uint64_t lpn);
    uint64_t line_mask(const Io& io) const;
    // A buffer slot for lpn (evicting); kNone when every slot is pinned.
    uint32_t take_slot(uint64_t lpn);
    void evict(uint32_t slot);
    // Writes dirty page `slot` back to flash (its DRAM read-out, a read of the rest of a
    // partly written page, the program); `programmed` runs when the program ends.
    void write_back(uint32_t slot, std::function<void()> programmed);
    // write_staging: starts the flush of the oldest queued page still dirty, if none runs.
    void flush_next_staged();
    void fill(uint32_t slot, uint64_t lpn);
    void filled(uint32_t slot);
    void add_waiter(uint32_t slot, const Io& io);
    // Performs the FTL's pending operations in order; `programmed`, if any, runs when the
    // first program (the page written, ahead of any GC it started) ends.
    void run_ops(std::function<void()> programmed = {});
    flash::FlashAddress address(const PageFtl::Location& l) const;
    void complete_at(const Io& io, Tick t);
    // The stream_buffer policy.
    struct Sblock {
        uint64_t first;        // its first page
        uint32_t outstanding;  // pages still being filled
        uint32_t id;
    };
    struct Stream {
        uint64_t start = 0, next = 0;  // window: pages [start, next) are the stream's
        std::deque<Sblock> fifo;
    };
    void stream_advance(uint32_t warp, uint64_t lpn);
    void stream_fill(uint32_t stream);
    void stream_page_filled(uint32_t stream, uint32_t sblock);

    Simulator& sim_;
    flash::FlashOpExecutor& flash_;
    const flash::FlashGeometry& geo_;
    uint64_t page_size_;
    Tick firmware_latency_;
    uint64_t sector_bytes_;
    PageFtl ftl_;
    LruPageCache buffer_;
    BufferBus dram_;
    ServerPool<Io> cores_;
    size_t deferred_depth_;
    RingQueue<Deferred> deferred_;       // requests that found every buffer slot pinned
    std::vector<uint32_t> waiters_head_;  // per slot: requests waiting for its fill
    std::vector<uint8_t> filling_;        // per slot: a flash read is filling it
    std::vector<uint8_t> prefetched_;     // per slot: brought in by a prefetch, not yet read
    bool prefetch_enabled_;
    uint32_t prefetch_pages_;
    AccessPatternTracker tracker_;
    bool stream_policy_;
    uint32_t sblock_pages_, stream_depth_;
    std::vector<Stream> streams_;
    std::unordered_map<uint32_t, uint32_t> stream_of_warp_;
    std::vector<uint32_t> slot_sblock_;  // per slot: the stream sblock it fills (0: none)
    std::vector<uint32_t> slot_stream_;
    uint32_t next_sblock_id_ = 0;
    // write_staging: pages queued at their first write, oldest first; an entry is current
    // while its slot is dirty and holds the generation it was queued with.
    struct StagedPage {
        uint32_t slot;
        uint32_t generation;
    };
    bool write_staging_;
    bool flushing_ = false;
    RingQueue<StagedPage> staged_;
    std::vector<uint32_t> slot_generation_;
    std::vector<Waiter> waiter_pool_;
    uint32_t waiter_free_ = kNil;
    std::vector<PageFtl::Op> ops_;
    TimedQueue<Io> complete_;
    TimedQueue<uint32_t> fill_done_;      // slot whose page has been written into DRAM
    std::vector<Io> serving_;             // scratch: waiters released by a fill
    Done done_;
    std::function<void()> on_room_;
    uint64_t in_flight_ = 0;

    Counter& requests_;
    Counter& hits_;
    Counter& misses_;
    Counter& flash_reads_;
    Counter& flash_programs_;
    Counter& flash_erases_;
    Counter& prefetches_;
    Counter& prefetch_reads_;
    Counter& prefetched_used_;
    Counter& stream_sblocks_;
};

}  // namespace zng::ftl
