#include "flash_model/controller/flash_backbone.hpp"

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace zng::flash {

namespace {
using namespace param_kind;
const auto kControllerClock =
    Param<Frequency>("controller_clock", "1.2GHz",
                     "flash controller clock (assumption: the GPU interconnect clock it is attached to)")
        .min(1);
const auto kQueueDepth =
    Param<UInt32>("queue_depth", "64", "demand reads a controller holds (accepted, unanswered)").range(1, 1 << 20);
// Paper I: "To accommodate the write requests, ZnG increases the number of registers";
// V-B: small writes are buffered in "both the L2 cache and flash registers". Writes are
// posted into a queue of their own so that they never take a read's place.
const auto kWriteQueueDepth =
    Param<UInt32>("write_queue_depth", "64",
                  "posted demand writes a controller holds until a register absorbs them (assumption: as many as "
                  "reads)")
        .range(1, 1 << 20);
const auto kPlaneDepth =
    Param<UInt32>("plane_depth", "2", "commands a controller keeps in flight per plane (the package queues them); "
                  "reads and writes each have their own plane_depth when flash.reads_keep_pages is false")
        .range(1, 1024);
const auto kControllerLatency =
    Param<UInt32>("controller_latency", "4", "controller cycles to decode and queue a request").range(0, 1 << 20);
const Param<Section> kScheduler{"scheduler", "", "per-plane command scheduler (type: fifo | read_priority)"};
const Param<Section> kNetwork{"network", "", "controller-package network (type: mesh | onfi_bus)"};
}  // namespace

std::vector<ParamSpec> FlashBackboneSettings::params() {
    return {kControllerClock, kQueueDepth, kWriteQueueDepth, kPlaneDepth, kControllerLatency, kScheduler, kNetwork};
}

FlashBackboneSettings FlashBackboneSettings::read(const Params& p, const std::string& name) {
    FlashBackboneSettings s;
    s.name = name;
    s.controller_clock_hz = p[kControllerClock];
    s.controller.queue_depth = p[kQueueDepth];
    s.controller.write_queue_depth = p[kWriteQueueDepth];
    s.controller.plane_depth = p[kPlaneDepth];
    s.controller.latency = p[kControllerLatency];
    s.scheduler = p[kScheduler];
    s.scheduler_path = p.path() + "." + kScheduler.key();
    s.network = p[kNetwork];
    s.network_path = p.path() + "." + kNetwork.key();
    return s;
}

FlashBackbone::FlashBackbone(Simulator& sim, const FlashSpec& spec, const FlashBackboneSettings& s)
    : OwnedClock(ClockDomain(s.name + ".interface", spec.timing.interface_rate)),
      shared_(spec),
      controller_clock_(s.name + ".controller", s.controller_clock_hz) {
    const FlashGeometry& g = shared_.spec.geometry;
    StatGroup st(sim.stats(), s.name);
    FlashCounters& c = shared_.c;
    c.senses = &st.counter("senses", "pages sensed from the array (tR)", "pages");
    c.programs = &st.counter("programs", "pages programmed (tPROG)", "pages");
    c.erases = &st.counter("erases", "blocks erased (tBERS)", "blocks");
    c.register_read_hits = &st.counter("register_read_hits", "demand reads served by a register (no tR)", "reads");
    c.register_write_hits = &st.counter("register_write_hits", "demand writes absorbed by a register holding the page", "writes");
    c.register_misses = &st.counter("register_misses", "demand accesses that had to take a register", "accesses");
    c.evictions = &st.counter("evictions", "dirty registers programmed (to make room or above the watermark)", "pages");
    c.log_hits = &st.counter("log_hits", "senses redirected to a log page by the row decoder", "senses");
    c.migrations = &st.counter("migrations", "pages moved between a register and a remote plane", "pages");
    c.bytes_sensed = &st.counter("bytes_sensed", "bytes sensed from the array", "B");
    c.bytes_programmed = &st.counter("bytes_programmed", "bytes programmed into the array", "B");
    c.merges_requested = &st.counter("merges_requested", "full log blocks handed to the FTL for merging", "blocks");
    c.evictions_held_for_merge = &st.counter("evictions_held_for_merge",
                                             "dirty pages whose program waited for their log group's merge to end", "pages");
    c.forwarded_requests = &st.counter("forwarded_requests",
                                       "demand requests to a block a merge retired, sent to the block's new home", "requests");
    c.reads_of_erased_pages = &st.counter("reads_of_erased_pages", "senses of pages holding no data", "senses");
    c.demand_senses = &st.counter("demand_senses", "senses for demand reads (not for writes or merges)", "senses");
    c.read_reaccesses =
        &st.counter("read_reaccesses", "demand-read senses of a data page a demand read sensed before (Fig. 5b, 12)", "senses");
    c.merge_senses = &st.counter("merge_senses",
                                 "senses of a page's old copy before a partly written register is programmed", "senses");
    c.background_programs = &st.counter("background_programs",
                                        "dirty registers programmed because their group exceeded dirty_watermark", "pages");
    c.page_buffer_reads = &st.counter(
        "page_buffer_reads", "demand reads sensed into their plane's page buffer (no empty or clean register)", "reads");
    c.page_buffer_hits = &st.counter(
        "page_buffer_hits", "demand reads served by the page their plane's page buffer still held (no tR)", "reads");
    c.thrashing_episodes =
        &st.counter("thrashing_episodes", "times a package's thrashing checker switched L2 redirection on", "episodes");
    c.thrashing_rewrites =
        &st.counter("thrashing_rewrites", "register write misses to a page the registers had recently evicted", "writes");
    st.formula("write_redundancy",
               "(register programs + pages still dirty in registers) / distinct pages written (Fig. 12)", "ratio",
               [this] { return write_redundancy(); });
    st.formula("register_hit_rate",
               "demand accesses served by a register holding the page / demand accesses (page-buffer reads "
               "included)", "ratio",
               [this] {
                   const FlashCounters& k = shared_.c;
                   const double hits =
                       static_cast<double>(k.register_read_hits->get() + k.register_write_hits->get());
                   const double all = hits + static_cast<double>(k.register_misses->get() +
                                                                 k.page_buffer_reads->get() + k.page_buffer_hits->get());
                   return all > 0 ? hits / all : 0.0;
               });
    st.formula("read_reaccesses_per_page", "demand-read senses per distinct data page a demand read sensed", "senses/page",
               [this] {
        return shared_.senses_per_page.size() == 0 ? 0.0
                                               : static_cast<double>(shared_.c.demand_senses->get()) /
                                                     static_cast<double>(shared_.senses_per_page.size());
    });
    st.formula("thrashing_packages", "packages asking the L2 to hold their dirty pages (at the end)", "packages",
               [this] { return static_cast<double>(shared_.thrashing_packages); });
    if (spec.thrashing.enabled)
        sim.stats().add_series_column(st.full("thrashing_packages"),
                                      [this] { return static_cast<double>(shared_.thrashing_packages); });
    st.formula("distinct_pages_programmed", "distinct pages programmed from a register", "pages",
               [this] { return static_cast<double>(shared_.pages_programmed.size()); });
    st.formula("touched_blocks", "blocks with program/erase state (sparse table size)", "blocks",
               [this] { return static_cast<double>(shared_.blocks.touched_blocks()); });
    st.formula("max_erase_count", "largest P/E count of any block", "erases",
               [this] { return static_cast<double>(shared_.blocks.max_erase_count()); });
    st.formula("worn_blocks", "blocks erased more often than their endurance", "blocks",
               [this] { return static_cast<double>(shared_.blocks.worn_blocks()); });

    FlashNetworkLayout layout;
    layout.controllers = g.channels();
    for (uint32_t k = 0; k < g.packages(); ++k) layout.package_channel.push_back(k / g.packages_per_channel());
    shared_.controllers = layout.controllers;
    network_ = flash_network_slot().create(s.network, s.network_path, s.default_network, sim, s.name + ".network",
                                           layout);
    shared_.network = network_.get();
    for (uint32_t ch = 0; ch < g.channels(); ++ch) {
        controllers_.push_back(std::make_unique<FlashController>(
            sim, fmt::format("{}.controller{}", s.name, ch), controller_clock_, shared_, ch,
            flash_scheduler_slot().create(s.scheduler, s.scheduler_path, "fifo"), s.controller));
        network_->attach(ch, controllers_.back().get());
    }
    for (uint32_t k = 0; k < g.packages(); ++k) {
        packages_.push_back(std::make_unique<FlashPackage>(sim, fmt::format("{}.package{}", s.name, k), own_clock,
                                                           shared_, k / g.packages_per_channel(),
                                                           k % g.packages_per_channel()));
        network_->attach(shared_.package_endpoint(k), packages_.back().get());
    }
    st.formula("read_wait_programming_share",
               "share of the demand reads' wait (acceptance by a controller to service in a package) that their dies spent "
               "programming or erasing",
               "ratio", [this] {
                   double wait_ps = 0, programming_ps = 0;
                   for (const auto& k : packages_) {
                       wait_ps += k->read_wait_ps();
                       programming_ps += k->read_wait_programming_ps();
                   }
                   return wait_ps > 0 ? programming_ps / wait_ps : 0.0;
               });
}

FlashBackbone::~FlashBackbone() = default;

bool FlashBackbone::accept(MemRequest* r) {
    const FlashGeometry& g = shared_.spec.geometry;
    FlashAddress a = g.decode(r->paddr);
    if (r->size == 0 || g.page_offset(r->paddr) + r->size > g.page_size())
        throw SimError(fmt::format("flash request {:#x} of {} bytes is empty or crosses a {}-byte page", r->paddr,
                                   r->size, g.page_size()));
    // The request keeps its physical address (the L2 matches the response by it); only
    // the flash-side transaction follows the data to the block a merge moved it to.
    const bool forwarded = shared_.log_map && shared_.log_map->forward(a);
    if (!controllers_[a.channel]->accept(r, a)) return false;
    if (forwarded) ++*shared_.c.forwarded_requests;
    return true;
}

void FlashBackbone::set_room_callback(std::function<void()> f) {
    for (auto& c : controllers_) c->set_room_callback(f);
}

void FlashBackbone::submit(FlashOp op) {
    shared_.spec.geometry.check(op.addr);
    controllers_[op.addr.channel]->submit(std::move(op));
}

void FlashBackbone::set_block_erased(const FlashAddress& block) {
    shared_.blocks.set_erased(block);
    package_of(block).block_erased_externally(shared_.spec.geometry.plane_in_package(block), block.block);
}

void FlashBackbone::block_moved(const FlashAddress& from, const FlashAddress& to) {
    if (!from.same_plane(to))
        throw SimError(fmt::format("block_moved({}, {}): a data block keeps its plane (its log block and registers "
                                   "are per plane)",
                                   from.to_string(), to.to_string()));
    package_of(from).block_moved(shared_.spec.geometry.plane_in_package(from), from.block, to.block);
    // Firmware operations keep their exact addresses; data-page transactions follow.
    shared_.txns.for_each_live([&](FlashTxn& t) {
        bool data_page = t.kind == TxnKind::DemandRead || t.kind == TxnKind::DemandWrite || t.kind == TxnKind::Evict;
        if (data_page && t.addr.same_block(from)) t.addr.block = to.block;
    });
}

FlashAddress FlashBackbone::newest_copy(const FlashAddress& data_page) const {
    const FlashGeometry& g = shared_.spec.geometry;
    g.check(data_page);
    const FlashPackage& pkg = *packages_[g.package_index(data_page)];
    ProgrammableRowDecoder::Row row =
        pkg.decoder(g.plane_in_package(data_page)).resolve(data_page.block, data_page.page);
    return data_page.with_block(row.block).with_page(row.page);
}

uint64_t FlashBackbone::in_flight() const {
    // Every unanswered request or firmware operation is held by its controller; network
    // messages of posted writes and evictions carry data the flash side already owns.
    uint64_t n = 0;
    for (const auto& c : controllers_) n += c->in_flight();
    return n;
}

double FlashBackbone::write_redundancy() const {
    if (shared_.pages_written.size() == 0) return 0.0;
    // A page still dirty in a register is one program still to come.
    uint64_t total = shared_.register_programs;
    for (const auto& p : packages_) total += p->registers().dirty_count();
    return static_cast<double>(total) / static_cast<double>(shared_.pages_written.size());
}

}  // namespace zng::flash
