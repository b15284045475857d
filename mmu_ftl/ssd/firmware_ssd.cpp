#include "mmu_ftl/ssd/firmware_ssd.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "sim/core/clock_domain.hpp"

namespace zng::ftl {

namespace {
using namespace param_kind;
const auto kCores =
    Param<UInt32>("cores", "4", "embedded cores running the FTL firmware (paper: 2-5)").range(1, 64);
const auto kCoreClock = Param<Frequency>("core_clock", "1GHz", "embedded core clock (assumption)").min(1);
const auto kFirmwareCycles =
    Param<UInt>("firmware_cycles", "100",
                "core cycles of firmware per request (host interface + FTL + flash interface; assumption)")
        .min(1);
const auto kQueueDepth =
    Param<UInt32>("core_queue_depth", "64", "requests that may wait for a core").range(0, 1 << 20);
const auto kBufferSize =
    Param<Size>("buffer_size", "512MiB", "DRAM buffer caching flash pages (assumption)").min(4096);
const auto kBufferBusWidth =
    Param<UInt32>("buffer_bus_width", "32", "DRAM buffer data bus width in bits").range(8, 1024);
const auto kBufferDataRate =
    Param<Rate>("buffer_data_rate", "2400MT/s", "DRAM buffer transfer rate (assumption: LPDDR4-2400 class)").min(1);
const Param<Time> kBufferLatency{"buffer_latency", "50ns", "DRAM access latency beyond the transfer (assumption)"};
const auto kBufferArbitration =
    Param<Choice>("buffer_arbitration", "fifo",
                  "how the front end and the flash channels' DMA share the DRAM buffer's bus: fifo (whole transfers "
                  "in request order) or round_robin (burst by burst while both move data)")
        .choices({"fifo", "round_robin"});
const auto kOverprovisioning =
    Param<Real>("overprovisioning", "0.07", "fraction of blocks outside the logical space").range(0.0, 0.9);
const auto kGcThreshold =
    Param<UInt32>("gc_threshold", "4", "free blocks per plane below which greedy GC runs").min(2);
}  // namespace

std::vector<ParamSpec> FirmwareSsdSettings::params() {
    return {kCores,          kCoreClock,     kFirmwareCycles,   kQueueDepth,   kBufferSize,
            kBufferBusWidth, kBufferDataRate, kBufferLatency, kBufferArbitration, kOverprovisioning, kGcThreshold};
}

const std::string& FirmwareSsdSettings::buffer_size_key() { return kBufferSize.key(); }
const std::string& FirmwareSsdSettings::gc_threshold_key() { return kGcThreshold.key(); }

FirmwareSsdSettings FirmwareSsdSettings::read(const Params& p) {
    FirmwareSsdSettings s;
    s.cores = p[kCores];
    s.firmware_latency = ClockDomain("fw", p[kCoreClock]).cycles(p[kFirmwareCycles]);
    s.queue_depth = p[kQueueDepth];
    s.buffer_bytes = p[kBufferSize];
    s.dram_bandwidth = static_cast<double>(p[kBufferBusWidth]) / 8.0 * static_cast<double>(p[kBufferDataRate]);
    s.dram_latency = p[kBufferLatency];
    s.dram_arbitration = parse_buffer_arbitration(p[kBufferArbitration], kBufferArbitration.key());
    s.overprovisioning = p[kOverprovisioning];
    s.gc_threshold = p[kGcThreshold];
    return s;
}

FirmwareSsd::FirmwareSsd(Simulator& sim, StatGroup stats, const FirmwareSsdSettings& s,
                         flash::FlashOpExecutor& flash, std::unique_ptr<FreeBlockPool> pool, Done done)
    : sim_(sim), flash_(flash), geo_(flash.geometry()), page_size_(geo_.page_size()),
      firmware_latency_(s.firmware_latency),
      sector_bytes_(std::max<uint64_t>(1, geo_.page_size() / 64)),
      ftl_(static_cast<uint32_t>(
               sim.memory_budget().reserve(geo_.planes(), PageFtl::kUpfrontBytesPerUnit, "SSD FTL's per-plane units")),
           geo_.blocks_per_plane(), geo_.pages_per_block(), s.overprovisioning,
           s.gc_threshold, std::move(pool)),
      buffer_(std::max<uint64_t>(1, s.buffer_bytes / geo_.page_size())), dram_(sim, s.dram_bandwidth, s.dram_latency, s.dram_arbitration,
            [this](uint32_t slot, Tick ready) { fill_done_.push(slot, ready); }),
      cores_(sim, s.cores, s.queue_depth, [this](Io& io) { after_firmware(io); }, "ssd-cores"),
      deferred_depth_(s.cores + s.queue_depth), deferred_(deferred_depth_),
      prefetch_enabled_(s.prefetch.enabled), prefetch_pages_(s.prefetch.pages), tracker_(s.prefetch),
      stream_policy_(s.prefetch.stream_buffer), sblock_pages_(s.prefetch.sblock_pages),
      stream_depth_(s.prefetch.stream_depth),
      write_staging_(s.write_staging),
      complete_(sim, [this](Io& io) {
          --in_flight_;
          done_(io);
      }, "ssd-complete"),
      fill_done_(sim, [this](uint32_t& slot) { filled(slot); }, "ssd-fill"),
      done_(std::move(done)),
      requests_(stats.counter("requests", "requests served", "requests")),
      hits_(stats.counter("buffer_hits", "reads served from the DRAM buffer", "reads")),
      misses_(stats.counter("buffer_misses", "reads that needed a flash read", "reads")),
      flash_reads_(stats.counter("flash_reads", "pages sensed (demand, read-modify-write, GC)", "pages")),
      flash_programs_(stats.counter("flash_programs", "pages programmed (write-backs and GC)", "pages")),
      flash_erases_(stats.counter("flash_erases", "blocks erased by GC", "blocks")),
      prefetches_(stats.counter("prefetches", "read misses the access pattern tracker made prefetch", "reads")),
      prefetch_reads_(stats.counter("prefetch_reads", "pages sensed by prefetches (part of flash_reads)", "pages")),
      prefetched_used_(stats.counter("prefetched_pages_used",
                                     "prefetched pages a later read asked for (in the buffer or still filling)",
                                     "pages")),
      stream_sblocks_(stats.counter("stream_sblocks", "sblocks the stream_buffer prefetch policy read ahead",
                                    "sblocks")) {
    cores_.set_on_room([this] {
        if (on_room_) on_room_();
    });
    const PageFtl* f = &ftl_;
    stats.formula("gc_runs", "greedy GC victims collected", "blocks", [f] { return static_cast<double>(f->gc_runs()); });
    stats.formula("gc_pages_moved", "valid pages relocated by GC", "pages",
                  [f] { return static_cast<double>(f->gc_pages_moved()); });
    const ServerPool<Io>* c = &cores_;
    stats.formula("core_utilisation", "busy core time / (cores x elapsed time)", "ratio", [c, &sim] {
        return sim.now() ? static_cast<double>(c->busy_time()) / (static_cast<double>(sim.now()) * c->servers()) : 0.0;
    });
    stats.formula("core_wait_ns", "mean time a request waited for a core", "ns", [c] {
        return c->jobs() ? static_cast<double>(c->wait_time()) / static_cast<double>(c->jobs()) / kNanosecond : 0.0;
    });
    const BufferBus* d = &dram_;
    stats.formula("buffer_bus_bytes", "bytes moved on the DRAM buffer bus", "B",
                  [d] { return static_cast<double>(d->bytes()); });
}

bool FirmwareSsd::can_accept() const {
    return cores_.has_room() && deferred_.size() + cores_.busy() + cores_.waiting() < deferred_depth_;
}

void FirmwareSsd::submit(const Io& io) {
    if (io.bytes == 0 || io.addr / page_size_ != (io.addr + io.bytes - 1) / page_size_)
        throw SimError("SSD request of " + std::to_string(io.bytes) + " B at " + std::to_string(io.addr) +
                       " is empty or crosses a flash page");
    if (io.addr / page_size_ >= ftl_.logical_pages())
        throw SimError("SSD request at byte " + std::to_string(io.addr) + " beyond the logical capacity of " +
                       std::to_string(capacity_bytes()) + " B");
    ++in_flight_;
    ++requests_;
    cores_.submit(io, firmware_latency_);
}

uint64_t FirmwareSsd::line_mask(const Io& io) const {
    uint64_t off = io.addr % page_size_;
    uint64_t first = off / sector_bytes_, last = (off + io.bytes - 1) / sector_bytes_;
    uint64_t n = last - first + 1;
    return (n >= 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1)) << first;
}

flash::FlashAddress FirmwareSsd::address(const PageFtl::Location& l) const {
    // Consecutive units (planes) differ in channel first, so striping spreads over buses.
    flash::FlashAddress a;
    uint32_t u = l.unit;
    a.channel = u % geo_.channels();
    u /= geo_.channels();
    a.package = u % geo_.packages_per_channel();
    u /= geo_.packages_per_channel();
    a.die = u % geo_.dies_per_package();
    a.plane = u / geo_.dies_per_package();
    a.block = l.block;
    a.page = l.page;
    return a;
}

void FirmwareSsd::complete_at(const Io& io, Tick t) { complete_.push(io, t); }

void FirmwareSsd::run_ops(std::function<void()> programmed) {
    for (const PageFtl::Op& op : ops_) {
        flash::FlashOp f;
        f.addr = address(op.at);
        f.done = [] {};
        switch (op.kind) {
            case PageFtl::Op::DeclareErased: flash_.set_block_erased(f.addr); continue;
            case PageFtl::Op::Read: f.kind = flash::FlashOp::Read; ++flash_reads_; break;
            case PageFtl::Op::Program:
                f.kind = flash::FlashOp::Program;
                ++flash_programs_;
                if (programmed) f.done = std::exchange(programmed, {});
                break;
            case PageFtl::Op::Erase: f.kind = flash::FlashOp::Erase; ++flash_erases_; break;
        }
        flash_.submit(std::move(f));
    }
    ops_.clear();
    if (programmed) throw SimError("FirmwareSsd: a page written back produced no flash program");
}

void FirmwareSsd::after_firmware(Io& io) {
    // The tracker learns from every read once, before the buffer is looked up, so hits
    // train it too (FlashGPU's cache layer updates it ahead of its lookup).
    const bool prefetch = prefetch_enabled_ && !io.write && tracker_.observe(io.pc, io.warp, io.addr / page_size_);
    if (!stream_policy_) return serve(io, prefetch);
    serve(io, false);
    if (prefetch) stream_advance(io.warp, io.addr / page_size_);
}

void FirmwareSsd::stream_advance(uint32_t warp, uint64_t lpn) {
    const auto [it, fresh] = stream_of_warp_.try_emplace(warp, static_cast<uint32_t>(streams_.size()));
    if (fresh) streams_.emplace_back();
    Stream& st = streams_[it->second];
    if (fresh || lpn < st.start || lpn >= st.next) {
        st.start = lpn;
        st.next = lpn + 1;
        st.fifo.clear();  // sblocks still filling stay in the buffer, no longer the stream's
    } else {
        // Seed 002: "the stream manager returns the oldest sblock from the corresponding
        // stream buffer and frees the space this sblock was occupying. In a steady state
        // this initiates another disk read for the next sblock".
        while (!st.fifo.empty() && st.fifo.front().first + sblock_pages_ <= lpn) st.fifo.pop_front();
    }
    stream_fill(it->second);
}

void FirmwareSsd::stream_fill(uint32_t stream) {
    Stream& st = streams_[stream];
    // Seed 002: "Once it finishes reading the sblock, it reads the LBA and effective size
    // for the next sblock ... and initiates disk access. This process is continued as long
    // as there is free space in the stream buffer."
    while (st.fifo.size() < stream_depth_ && (st.fifo.empty() || st.fifo.back().outstanding == 0) &&
           st.next < ftl_.logical_pages()) {
        Sblock b{st.next, 0, ++next_sblock_id_};
        ++stream_sblocks_;
        for (uint64_t p = st.next; p < st.next + sblock_pages_ && p < ftl_.logical_pages(); ++p) {
            if (buffer_.find(p) != LruPageCache::kNone) continue;
            const uint32_t slot = take_slot(p);
            if (slot == LruPageCache::kNone) break;  // every slot is being filled
            prefetched_[slot] = 1;
            slot_sblock_[slot] = b.id;
            slot_stream_[slot] = stream;
            ++prefetch_reads_;
            ++b.outstanding;
            fill(slot, p);
        }
        st.next += sblock_pages_;
        st.fifo.push_back(b);
    }
}

void FirmwareSsd::stream_page_filled(uint32_t stream, uint32_t sblock) {
    for (Sblock& b : streams_[stream].fifo)
        if (b.id == sblock) {
            if (--b.outstanding == 0) stream_fill(stream);
            return;
        }
}

void FirmwareSsd::defer(const Deferred& d) {
    // can_accept() counts deferred requests against the queues, so they never exceed them.
    if (deferred_.size() == deferred_depth_) throw SimError("FirmwareSsd: more requests deferred than the queues hold");
    deferred_.push_back(d);
}

void FirmwareSsd::serve(const Io& io, bool prefetch) {
    const uint64_t lpn = io.addr / page_size_;
    const uint64_t mask = line_mask(io);
    uint32_t slot = buffer_.find(lpn);
    if (slot != LruPageCache::kNone && prefetched_[slot]) {
        prefetched_[slot] = 0;
        if (!io.write) ++prefetched_used_;
    }
    if (!io.write) {
        if (slot != LruPageCache::kNone && (buffer_.lines(slot) & mask) == mask) {
            ++hits_;
            buffer_.touch(slot);
            complete_at(io, dram_.host_transfer(io.bytes));
            return;
        }
        ++misses_;
        if (slot != LruPageCache::kNone && filling_[slot]) {
            add_waiter(slot, io);
            return;
        }
        const bool absent = slot == LruPageCache::kNone;
        if (absent) slot = take_slot(lpn);
        if (slot == LruPageCache::kNone) {
            defer({io, prefetch});
            return;
        }
        add_waiter(slot, io);
        fill(slot, lpn);
        // Only a page missing from the buffer prefetches; one partly written there is
        // completed from flash alone.
        if (prefetch && absent) prefetch_after(lpn);
        return;
    }
    if (slot == LruPageCache::kNone) slot = take_slot(lpn);
    if (slot == LruPageCache::kNone) {
        defer({io, false});
        return;
    }
    buffer_.touch(slot);
    buffer_.set_lines(slot, buffer_.lines(slot) | mask);
    const bool first_write = !buffer_.dirty(slot);
    buffer_.set_dirty(slot, true);
    complete_at(io, dram_.host_transfer(io.bytes));
    if (write_staging_ && first_write) {
        // Seed 004 III-A: "for each write request, the application writes the data to the
        // NLS and adds a data migration task to the pool; the library then executes the
        // data migration tasks from the pool one by one": the write completes from DRAM.
        staged_.push_back({slot, ++slot_generation_[slot]});
        flush_next_staged();
    }
}

void FirmwareSsd::flush_next_staged() {
    while (!flushing_ && !staged_.empty()) {
        const StagedPage p = staged_.take_front();
        // Written back already (evicted) or refilled since: nothing left to migrate.
        if (p.generation != slot_generation_[p.slot] || !buffer_.holds(p.slot) || !buffer_.dirty(p.slot)) continue;
        flushing_ = true;
        write_back(p.slot, [this] {
            flushing_ = false;
            flush_next_staged();
        });
        buffer_.set_dirty(p.slot, false);  // migrated: an eviction now drops it without a program
    }
}

uint32_t FirmwareSsd::take_slot(uint64_t lpn) {
    if (buffer_.full()) {
        uint32_t v = buffer_.victim();
        if (v == LruPageCache::kNone) return LruPageCache::kNone;  // every slot is being filled
        evict(v);
    }
    uint32_t s = buffer_.insert(lpn);
    if (waiters_head_.size() <= s) {
        waiters_head_.resize(s + 1u, kNil);
        filling_.resize(s + 1u, 0);
        prefetched_.resize(s + 1u, 0);
        slot_sblock_.resize(s + 1u, 0);
        slot_stream_.resize(s + 1u, 0);
        slot_generation_.resize(s + 1u, 0);
    }
    prefetched_[s] = 0;
    slot_sblock_[s] = 0;
    return s;
}

void FirmwareSsd::prefetch_after(uint64_t lpn) {
    // FlashGPU reads the demand page and the pages after it, one flash read per page
    // at its mapped location (consecutive pages sit on consecutive channels), and skips
    // pages its cache already holds.
    ++prefetches_;
    for (uint64_t p = lpn + 1; p < lpn + prefetch_pages_ && p < ftl_.logical_pages(); ++p) {
        if (buffer_.find(p) != LruPageCache::kNone) continue;
        uint32_t slot = take_slot(p);
        if (slot == LruPageCache::kNone) return;  // every slot is being filled: no room to prefetch into
        prefetched_[slot] = 1;
        ++prefetch_reads_;
        fill(slot, p);
    }
}

void FirmwareSsd::evict(uint32_t slot) {
    if (buffer_.dirty(slot)) write_back(slot, {});
    buffer_.erase(slot);
}

void FirmwareSsd::write_back(uint32_t slot, std::function<void()> programmed) {
    const uint64_t lpn = buffer_.key(slot);
    if (buffer_.lines(slot) != ~uint64_t{0}) {
        // Partially written page: the rest comes from flash before the program.
        PageFtl::Location old = ftl_.read_location(lpn, ops_);
        run_ops();
        flash::FlashOp r;
        r.kind = flash::FlashOp::Read;
        r.addr = address(old);
        r.done = [] {};
        ++flash_reads_;
        flash_.submit(std::move(r));
    }
    dram_.flash_transfer(page_size_, BufferBus::kNoToken);  // the page leaves the buffer
    ftl_.write_location(lpn, ops_);
    run_ops(std::move(programmed));
}

void FirmwareSsd::fill(uint32_t slot, uint64_t lpn) {
    filling_[slot] = 1;
    buffer_.pin(slot);
    PageFtl::Location at = ftl_.read_location(lpn, ops_);
    run_ops();
    flash::FlashOp r;
    r.kind = flash::FlashOp::Read;
    r.addr = address(at);
    r.done = [this, slot] { dram_.flash_transfer(page_size_, slot); };
    ++flash_reads_;
    flash_.submit(std::move(r));
}

void FirmwareSsd::add_waiter(uint32_t slot, const Io& io) {
    uint32_t n;
    if (waiter_free_ != kNil) {
        n = waiter_free_;
        waiter_free_ = waiter_pool_[n].next;
    } else {
        n = static_cast<uint32_t>(waiter_pool_.size());
        waiter_pool_.push_back({});
    }
    waiter_pool_[n] = {io, waiters_head_[slot]};
    waiters_head_[slot] = n;
}

void FirmwareSsd::filled(uint32_t slot) {
    // The stream sblock this page belongs to, read before the slot can be reused below.
    const uint32_t sblock = slot_sblock_[slot], stream = slot_stream_[slot];
    slot_sblock_[slot] = 0;
    filling_[slot] = 0;
    buffer_.set_lines(slot, ~uint64_t{0});
    buffer_.unpin(slot);
    serving_.clear();
    for (uint32_t n = waiters_head_[slot]; n != kNil;) {
        serving_.push_back(waiter_pool_[n].io);
        uint32_t next = waiter_pool_[n].next;
        waiter_pool_[n].next = waiter_free_;
        waiter_free_ = n;
        n = next;
    }
    waiters_head_[slot] = kNil;
    // The list is newest first; serve in arrival order.
    for (auto it = serving_.rbegin(); it != serving_.rend(); ++it) complete_at(*it, dram_.host_transfer(it->bytes));
    // A slot is evictable again: requests that found none retry, once each.
    for (size_t n = deferred_.size(); n > 0; --n) {
        Deferred d = deferred_.take_front();
        serve(d.io, d.prefetch);
    }
    if (sblock != 0) stream_page_filled(stream, sblock);
    if (on_room_) on_room_();
}

}  // namespace zng::ftl
