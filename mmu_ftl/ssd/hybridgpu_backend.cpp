#include "mmu_ftl/ssd/hybridgpu_backend.hpp"

#include <fmt/format.h>

#include "flash_model/flash_spec.hpp"
#include "mmu_ftl/common/lru_page_cache.hpp"

namespace zng::ftl {
namespace {
using namespace param_kind;
const auto kDispatcherQueueDepth =
    Param<UInt32>("dispatcher_queue_depth", "64", "requests the dispatcher queue holds").range(1, 1 << 20);
const Param<Time> kDispatchLatency{"dispatch_latency", "2ns",
                                   "time the dispatcher spends per request (one at a time; assumption)"};
const Param<Bool> kBufferWriteStaging{
    "buffer_write_staging", "false",
    "every write that turns a DRAM buffer page dirty queues the page for a background flush to flash, and one "
    "flush at a time runs in the order of the pages' first writes while the page stays readable in the buffer "
    "(seed 004 III-A: \"for each write request, the application writes the data to the NLS and adds a data "
    "migration task to the pool; the library then executes the data migration tasks from the pool one by one\"); "
    "false: a dirty page is written back when it is evicted"};
const Param<Section> kWearLeveling{"wear_leveling", "", "free-block choice of the FTL (type: least_erased | fifo)"};
}  // namespace

const ComponentSchema& HybridGpuBackend::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c;
        c.name = "hybridgpu";
        c.description =
            "FlashGPU / HybridGPU: one request dispatcher -> SSD controller (embedded cores running a page-mapping "
            "FTL with over-provisioning and greedy GC, and FlashGPU's PC/warp access pattern tracker prefetching "
            "sequential reads) -> one DRAM buffer on a 32-bit bus -> ONFI bus channels "
            "-> the Z-NAND of the `flash:` section.";
        c.params = {kDispatcherQueueDepth, kDispatchLatency, kWearLeveling, kBufferWriteStaging};
        for (ParamSpec& p : FirmwareSsdSettings::params()) c.params.push_back(p);
        for (ParamSpec& p : ReadPrefetchSettings::params()) c.params.push_back(p);
        for (ParamSpec& p : flash::FlashBackboneSettings::params()) c.params.push_back(p);
        c.ports = {"port[i]: one per L2 bank"};
        return c;
    }();
    return s;
}

HybridGpuBackend::HybridGpuBackend(Simulator& sim, const Params& p, const BackendContext& ctx,
                                   flash::FlashOpExecutor* flash)
    : sim_(sim), refused_(ctx.ports, 0), turn_(ctx.ports), queue_depth_(p[kDispatcherQueueDepth]), queue_(queue_depth_),
      dispatch_latency_(p[kDispatchLatency]),
      requests_(sim.stats().counter("memory.requests", "requests received from the L2", "requests")),
      refusals_(sim.stats().counter("memory.refusals", "requests refused because the dispatcher queue was full", "requests")) {
    for (uint32_t i = 0; i < ctx.ports; ++i) {
        ports_.push_back(std::make_unique<ResponsePort>(*this, "memory.port" + std::to_string(i)));
        ports_.back()->index = i;
    }
    if (!flash) {
        flash::FlashBackboneSettings bs = flash::FlashBackboneSettings::read(p, "memory.flash");
        bs.default_network = "onfi_bus";
        backbone_ = std::make_unique<flash::FlashBackbone>(sim, flash::load_flash_spec(ctx.root), bs);
        flash = backbone_.get();
    }
    const flash::FlashGeometry& g = flash->geometry();
    auto pool = wear_leveling_slot().create(p[kWearLeveling], p.path() + "." + kWearLeveling.key(), "least_erased",
                                            static_cast<uint32_t>(g.planes()), g.blocks_per_plane());
    FirmwareSsdSettings settings = FirmwareSsdSettings::read(p);
    // Checked here, where the geometry is known, so the message names the key.
    const uint64_t buffer_slots = settings.buffer_bytes / g.page_size();
    if (buffer_slots > LruPageCache::kMaxSlots)
        p.fail(FirmwareSsdSettings::buffer_size_key(), fmt::format("{} B holds {} flash pages of {} B; the buffer indexes at most {}",
                                          settings.buffer_bytes, buffer_slots, g.page_size(), LruPageCache::kMaxSlots));
    // Greedy GC needs the open block plus one to relocate into, so it must start before a
    // plane's last free block is taken.
    if (settings.gc_threshold >= g.blocks_per_plane())
        p.fail(FirmwareSsdSettings::gc_threshold_key(), fmt::format("{} free blocks must be fewer than the {} blocks of a plane "
                                           "(flash.blocks_per_plane)",
                                           settings.gc_threshold, g.blocks_per_plane()));
    settings.prefetch = ReadPrefetchSettings::read(p);  // FlashGPU's access pattern tracker
    settings.write_staging = p[kBufferWriteStaging];
    ssd_ = std::make_unique<FirmwareSsd>(sim, StatGroup(sim.stats(), "memory.ssd"), settings,
                                         *flash, std::move(pool), [this](const FirmwareSsd::Io& io) {
                                             auto* r = reinterpret_cast<MemRequest*>(io.tag);
                                             r->mark(Stage::MediumDone, sim_.now());
                                             --in_flight_;
                                             send_response(r);
                                         });
    ssd_->set_on_room([this] { wake_dispatcher(); });
}

bool HybridGpuBackend::recv_request(MemRequest* r, ResponsePort& port) {
    if (queue_.size() == queue_depth_) {
        ++refusals_;
        refused_[port.index] = 1;
        return false;
    }
    ++requests_;
    ++in_flight_;
    r->mark(Stage::MemArrive, sim_.now());
    queue_.push_back(r);
    wake_dispatcher();
    return true;
}

void HybridGpuBackend::wake_dispatcher() {
    if (!in_dispatch_) dispatch();
}

void HybridGpuBackend::dispatch() {
    if (queue_.empty() || !ssd_->can_accept()) return;
    in_dispatch_ = queue_.take_front();
    sim_.schedule(deliver_ev_, sim_.now() + dispatch_latency_);
    // A queue slot freed: let refused banks try again, round-robin.
    turn_.pass([&](uint32_t i) {
        if (!refused_[i]) return false;
        refused_[i] = 0;
        ports_[i]->retry();
        return true;
    });
}

void HybridGpuBackend::delivered() {
    MemRequest* r = in_dispatch_;
    in_dispatch_ = nullptr;
    r->mark(Stage::MediumStart, sim_.now());
    FirmwareSsd::Io io;
    io.addr = r->paddr;
    io.bytes = r->size;
    io.write = is_write_op(r->op) || r->op == MemOp::Atomic;
    io.tag = reinterpret_cast<uint64_t>(r);
    io.pc = r->pc;  // the tracker keys its histories by PC and warp
    io.warp = r->warp;
    ssd_->submit(io);  // room was checked when the dispatch began; only the dispatcher submits
    dispatch();
}

}  // namespace zng::ftl
