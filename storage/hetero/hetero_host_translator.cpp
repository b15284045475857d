#include "storage/hetero/hetero_host_translator.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace zng::storage {
using ftl::LruPageCache;

namespace {
using namespace param_kind;
const auto kPageSize =
    Param<Size>("page_size", "4KiB",
                "migration granule (a power of two, a multiple of the SSD's flash page; assumption)")
        .min(4096);
const auto kGpuMemory =
    Param<Size>("gpu_memory", "1536MiB", "GPU memory for resident pages (GTX 580: 1.5 GB)").min(4096);
const Param<Time> kInterruptLatency{"interrupt_latency", "2us", "GPU fault to host interrupt delivery (assumption)"};
const Param<Time> kHostHandling{"host_handling", "20us",
                                "host fault handling per batch: driver, page-table and user/kernel switches "
                                "(assumption, the order measured for GPU unified memory faults)"};
const auto kFaultBatchSize =
    Param<UInt32>("fault_batch_size", "32", "faults the host handles per interrupt").range(1, 4096);
const Param<Time> kFaultBatchWindow{"fault_batch_window", "2us",
                                   "time a fault waits for others to join its batch (0: handle at once)"};
const Param<Section> kSsd{"ssd", "", "the host NVMe SSD (Z-SSD or TLC SSD; see configs/fragments)"};
const PcieLinkParams kPcie("pcie_", "the GPU's host link", 16, "8GT/s", "1us");
}  // namespace

const ComponentSchema& HeteroHostTranslator::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c;
        c.name = "hetero_host";
        c.description =
            "Hetero: GPU virtual memory over a host NVMe SSD. Page faults interrupt the host, which reads the page "
            "from the SSD and copies it over PCIe into GPU memory; LRU eviction with write-back of dirty pages.";
        c.params = {kPageSize,       kGpuMemory,        kInterruptLatency, kHostHandling,
                    kFaultBatchSize, kFaultBatchWindow, kSsd};
        for (const ParamSpec& p : kPcie.specs()) c.params.push_back(p);
        return c;
    }();
    return s;
}

HeteroHostTranslator::HeteroHostTranslator(Simulator& sim, const Params& p, const TranslatorContext& ctx,
                                           flash::FlashOpExecutor* ssd_flash)
    : sim_(sim), page_size_(p[kPageSize]), interrupt_(p[kInterruptLatency]),
      handling_(p[kHostHandling]), window_(p[kFaultBatchWindow]),
      batch_size_(p[kFaultBatchSize]),
      frames_([&] {
          uint64_t f = p[kGpuMemory] / p[kPageSize];
          if (f == 0 || f >= LruPageCache::kNone) p.fail(kGpuMemory.key(), "must hold between 1 and 2^32-2 pages");
          return f;
      }()),
      host_ready_(sim, [this](uint32_t& f) { ssd_read(f); }, "hetero-host"),
      copied_(sim, [this](uint32_t& f) { install(f); }, "hetero-copy"),
      faults_(sim.stats().counter("translation.faults", "GPU page faults sent to the host", "faults")),
      batches_(sim.stats().counter("translation.batches", "host interrupts (fault batches)", "interrupts")),
      evictions_(sim.stats().counter("translation.evictions", "pages evicted from GPU memory", "pages")),
      writebacks_(sim.stats().counter("translation.writebacks", "dirty pages copied back and written to the SSD", "pages")),
      fault_latency_(sim.stats().average("translation.fault_latency", "fault raised to page usable", "ns")) {
    if (page_size_ & (page_size_ - 1)) p.fail(kPageSize.key(), "must be a power of two");
    host_path_ = ctx.storage_plane ? ctx.storage_plane->find_interface<OsFaultPlane>() : nullptr;
    if (host_path_) {
        // The node's storage serves the faults; keys describing a storage of the
        // translator's own would be silently unused.
        if (p.has(kSsd.key()))
            p.fail(kSsd.key(), "the platform's storage section (control plane os_fault) holds the host SSDs; leave out "
                               "fragments/hetero_zssd.yaml (or --set translation.ssd=~) or the storage section");
        for (const ParamSpec& s : kPcie.specs())
            if (p.has(s.key))
                p.fail(s.key, "the GPU's link is storage.pcie's when the platform's storage section serves the faults");
    } else {
        own_ssd_ = std::make_unique<HeteroHostSsd>(sim, p[kSsd], p.path() + "." + kSsd.key(), "translation.ssd",
                                                   kPcie.read(p), ssd_flash);
        host_path_ = &own_ssd_->plane();
    }
    host_path_->set_driven();
    const uint64_t granule = host_path_->granule();
    if (page_size_ % granule != 0)
        p.fail(kPageSize.key(), fmt::format("{} B is not a multiple of the SSD's {} B flash page or logical block",
                                            page_size_, granule));
}

uint64_t HeteroHostTranslator::key(uint16_t app, uint64_t vpn) {
    if (vpn >> 48) throw SimError(fmt::format("hetero_host: virtual page {:#x} beyond 48 bits", vpn));
    return (uint64_t{app} << 48) | vpn;
}

bool HeteroHostTranslator::translate(uint16_t app, uint64_t vpn, uint64_t& ppn) {
    uint32_t slot = frames_.find(key(app, vpn));
    if (slot == LruPageCache::kNone || frames_.pinned(slot)) return false;  // not resident or still arriving
    frames_.touch(slot);
    ppn = slot;
    return true;
}

void HeteroHostTranslator::note_access(uint64_t paddr, bool write) {
    uint32_t slot = static_cast<uint32_t>(paddr / page_size_);
    if (!frames_.holds(slot) || frames_.pinned(slot)) return;  // a late access to an evicted page
    frames_.touch(slot);
    if (write) frames_.set_dirty(slot, true);
}

uint32_t HeteroHostTranslator::new_fault() {
    uint32_t f;
    if (!free_faults_.empty()) {
        f = free_faults_.back();
        free_faults_.pop_back();
    } else {
        f = static_cast<uint32_t>(faults_v_.size());
        faults_v_.emplace_back();
    }
    faults_v_[f].waiters.clear();
    return f;
}

void HeteroHostTranslator::resolve_fault(uint16_t app, uint64_t vpn, FaultDone done) {
    const uint64_t k = key(app, vpn);
    uint64_t ppn = 0;
    if (!pending_.contains(k) && translate(app, vpn, ppn)) {
        done(ppn);  // became resident between the walk and this call
        return;
    }
    if (const uint32_t* joined = pending_.get(k)) {  // the page is already on its way: join that fault
        faults_v_[*joined].waiters.push_back(std::move(done));
        return;
    }
    const uint32_t f = new_fault();
    faults_v_[f].key = k;
    faults_v_[f].since = sim_.now();
    faults_v_[f].waiters.push_back(std::move(done));
    pending_.put(k, f);
    ++faults_;
    batch_.push_back(f);
    if (batch_.size() >= batch_size_ || window_ == 0)
        sim_.schedule(batch_ev_, sim_.now());
    else if (!batch_ev_.scheduled())
        sim_.schedule(batch_ev_, sim_.now() + window_);
}

void HeteroHostTranslator::handle_batch() {
    if (batch_.empty()) return;
    ++batches_;
    const Tick t0 = sim_.now() + interrupt_ + handling_;
    for (uint32_t f : batch_) {
        if (take_frame(f, t0))
            host_ready_.push(f, t0);
        else
            waiting_frame_.push_back(f);
    }
    batch_.clear();
}

bool HeteroHostTranslator::take_frame(uint32_t f, Tick at) {
    Fault& ft = faults_v_[f];
    ft.frame_free = 0;
    if (frames_.full()) {
        uint32_t v = frames_.victim();
        if (v == LruPageCache::kNone) return false;  // every frame is being filled
        const uint64_t vk = frames_.key(v);
        ++evictions_;
        if (shootdown_) shootdown_(static_cast<uint16_t>(vk >> 48), vk & ((uint64_t{1} << 48) - 1));
        if (frames_.dirty(v)) {
            ++writebacks_;
            ft.frame_free = host_path_->gpu_to_host(at, page_size_, uint64_t{v} * page_size_);
            host_path_->write(ssd_address(vk), page_size_, nullptr);
        }
        frames_.erase(v);
    }
    ft.frame = frames_.insert(ft.key);
    frames_.pin(ft.frame);
    return true;
}

uint64_t HeteroHostTranslator::ssd_address(uint64_t k) {
    const uint32_t* placed = placement_.get(k);
    uint32_t page = placed ? *placed : 0;
    if (!placed) {
        if ((ssd_pages_used_ + 1) * page_size_ > host_path_->capacity_bytes())
            throw SimError(fmt::format("hetero_host: the data touched exceeds the SSD's {} B", host_path_->capacity_bytes()));
        page = static_cast<uint32_t>(ssd_pages_used_++);
        placement_.put(k, page);
    }
    return uint64_t{page} * page_size_;
}

void HeteroHostTranslator::ssd_read(uint32_t f) {
    host_path_->read(ssd_address(faults_v_[f].key), page_size_, [this, f](IoRequest&) {
        Fault& ft = faults_v_[f];
        copied_.push(f, host_path_->host_to_gpu(std::max(sim_.now(), ft.frame_free), page_size_, uint64_t{ft.frame} * page_size_));
    });
}

void HeteroHostTranslator::install(uint32_t f) {
    Fault& ft = faults_v_[f];
    frames_.unpin(ft.frame);
    frames_.set_dirty(ft.frame, false);
    pending_.erase(ft.key);
    fault_latency_.sample(static_cast<double>(sim_.now() - ft.since) / kNanosecond);
    std::vector<FaultDone> waiters;
    waiters.swap(ft.waiters);
    const uint64_t ppn = ft.frame;
    free_faults_.push_back(f);
    // A frame is evictable again: faults that found none take one now.
    std::vector<uint32_t> retry;
    retry.swap(waiting_frame_);
    for (uint32_t w : retry) {
        if (take_frame(w, sim_.now()))
            host_ready_.push(w, sim_.now());
        else
            waiting_frame_.push_back(w);
    }
    for (auto& d : waiters) d(ppn);
}

}  // namespace zng::storage
