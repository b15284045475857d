#include "memory/optane_memory.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "memory/dram_params.hpp"

namespace zng::memory {

namespace {
using namespace param_kind;
constexpr uint64_t kSector = 32;  // write masks track 32 B sectors, the L2's sector size

const auto kChannels = Param<UInt32>("channels", "6", "DIMMs, each behind its own memory controller").range(1, 1024);
const auto kMediaPartitions =
    Param<UInt32>("media_partitions", "5", "media partitions per DIMM that read or program lines concurrently")
        .range(1, 1024);
const auto kMediaLine = Param<Size>("media_line", "256B", "media access granularity (XPLine)").range(32, 2048);
const auto kCapacity = Param<Size>("capacity", "768GiB", "total bytes served").min(1);
const DramParams kDram("1333MHz", "2666MT/s", "64", "32");
const auto kTRCD = Param<Time>("tRCD", "190ns", "media read of one line into a partition's buffer").min(0);
const auto kTCL = Param<Time>("tCL", "8.9ns", "read command to first data on the bus").min(0);
const auto kTRP = Param<Time>("tRP", "763ns", "media program of one written line (partition busy)").min(0);
const auto kTCWL = Param<Time>("tCWL", "10.5ns", "write command to first data on the bus").min(0);
const auto kTCCD = Param<Time>("tCCD", "3ns", "column command to column command (one burst)").min(0);
const auto kTWTR = Param<Time>("tWTR", "2.5ns", "end of write data to read command").min(0);
const auto kTRTW = Param<Time>("tRTW", "1.5ns", "bus turnaround between read data and write data").min(0);
const auto kWriteBuffer = Param<Size>("write_buffer", "16KiB", "write-combining buffer per DIMM (XPBuffer)").min(1);
const auto kWriteBufferFreeTarget =
    Param<UInt32>("write_buffer_free_target", "5",
                  "the buffer programs lines into the media whenever fewer lines than this are free")
        .min(1);

AddressMapping optane_mapping(const Params& p) {
    return AddressMapping::from_params(p, p[kChannels], p[kMediaPartitions], p[kMediaLine]);
}
}  // namespace

const ComponentSchema& OptaneMemory::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c;
        c.name = "optane";
        c.description =
            "Optane DC PMMs, one per memory controller on a DDR-T channel: 256 B media lines read into "
            "per-partition line buffers (tRCD), read out over the bus (tCL), writes merged in an on-DIMM "
            "write-combining buffer and programmed into the media (tRP), partial lines read-modify-written";
        c.params = kDram.around({kChannels, kMediaPartitions, kMediaLine, kCapacity},
                                {kTRCD, kTCL, kTRP, kTCWL, kTCCD, kTWTR, kTRTW, kWriteBuffer, kWriteBufferFreeTarget});
        c.ports = {"port<i>: one response port per L2 bank; any port reaches any DIMM"};
        return c;
    }();
    return s;
}

OptaneMemory::OptaneMemory(const Params& p, Simulator& sim, const BackendContext& ctx)
    : DramChannelBackend(sim, p.path(), ctx.ports, kDram.command_clock(p), optane_mapping(p), p[kCapacity]),
      line_(p[kMediaLine]) {
    if (line_ % kSector != 0) p.fail(kMediaLine.key(), fmt::format("must be a multiple of {} B", kSector));
    const uint64_t wb_bytes = p[kWriteBuffer];
    if (wb_bytes % line_ != 0)
        p.fail(kWriteBuffer.key(), fmt::format("{} B is not a whole number of {} B media lines", wb_bytes, line_));
    if (wb_bytes / line_ > (1u << 20)) p.fail(kWriteBuffer.key(), "more than 2^20 lines");
    const uint32_t wb_lines = static_cast<uint32_t>(wb_bytes / line_);
    const uint32_t free_target = p[kWriteBufferFreeTarget];
    if (free_target > wb_lines)
        p.fail(kWriteBufferFreeTarget.key(),
               fmt::format("{} exceeds the {} lines of the buffer", free_target, wb_lines));
    if (ctx.ports == 0) throw ConfigError(p.where(kChannels.key()) + ": the memory needs at least one port");

    DramChannelConfig cfg;
    cfg.banks = mapping_.banks();
    cfg.internal_queue = wb_lines;  // at most every buffered line programming at once
    kDram.read_bus(p, clock_, cfg.timing);
    kDram.read_controller(p, clock_, cfg);
    DramTiming& t = cfg.timing;
    t.tRCD = read_cycles(p, kTRCD, clock_);
    t.tCL = read_cycles(p, kTCL, clock_);
    t.tCWL = read_cycles(p, kTCWL, clock_);
    t.tCCD = read_cycles(p, kTCCD, clock_);
    t.tWTR = read_cycles(p, kTWTR, clock_);
    t.tRTW = read_cycles(p, kTRTW, clock_);
    t.tPROG = read_cycles(p, kTRP, clock_);
    t.tRP = 0;  // a clean line buffer is dropped, not written back
    if (t.tCCD == 0) p.fail(kTCCD.key(), "column commands need a non-zero spacing");
    if (t.tRCD == 0) p.fail(kTRCD.key(), "a media read cannot take zero time");
    if (t.tPROG == 0) p.fail(kTRP.key(), "a media program cannot take zero time");

    const double dimms = p[kChannels];
    const double media_read = static_cast<double>(cfg.banks * line_) / ticks_to_seconds(clock_.cycles(t.tRCD));
    peak_read_ = dimms * std::min(kDram.bus_peak(p), media_read);
    peak_write_ = dimms * static_cast<double>(cfg.banks * line_) / ticks_to_seconds(clock_.cycles(t.tPROG));

    const uint32_t sectors = static_cast<uint32_t>(line_ / kSector);
    for (uint32_t i = 0; i < mapping_.channels(); ++i) {
        const std::string ch = fmt::format("{}.ch{}", name_, i);
        Dimm d;
        d.channel = std::make_unique<DramChannel>(sim, ch, clock_, cfg, static_cast<DramChannelClient&>(*this), i);
        d.buffer = std::make_unique<WriteCombiningBuffer>(wb_lines, sectors, free_target);
        StatGroup g(sim.stats(), ch);
        d.buffer_read_hits = &g.counter("buffer_read_hits", "reads served from the write-combining buffer", "reads");
        d.write_combines = &g.counter("write_combines", "writes merged into a line already buffered", "writes");
        d.rmw_writebacks = &g.counter("rmw_writebacks", "partly written lines read from the media, then programmed", "lines");
        d.full_writebacks = &g.counter("full_writebacks", "fully written lines programmed without a media read", "lines");
        dimms_.push_back(std::move(d));
    }
    const double pr = peak_read_, pw = peak_write_;
    sim.stats().formula(name_ + ".peak_read_bandwidth_gbps",
                        "DIMMs x min(bus peak, partitions x media line / tRCD)", "GB/s", [pr] { return pr / 1e9; });
    sim.stats().formula(name_ + ".peak_write_bandwidth_gbps", "DIMMs x partitions x media line / tRP", "GB/s",
                        [pw] { return pw / 1e9; });
}

uint64_t OptaneMemory::sector_mask(const MemRequest& r) const {
    const uint64_t off = r.paddr % line_;
    const uint64_t size = std::max<uint64_t>(r.size, 1);
    const uint64_t first = off / kSector;
    const uint64_t last = std::min(off + size - 1, line_ - 1) / kSector;
    const uint64_t n = last - first + 1;
    return (n >= 64 ? ~0ull : ((1ull << n) - 1)) << first;
}

DramTxn OptaneMemory::media_txn(uint64_t addr) const {
    const DecodedAddress d = mapping_.decode(addr);
    DramTxn t;
    t.bank = d.bank;
    t.row = d.row;
    return t;
}

bool OptaneMemory::recv_request(MemRequest* r, ResponsePort& port) {
    check_in_capacity(name_, *r, capacity_);
    const DecodedAddress d = mapping_.decode(r->paddr);
    Dimm& dimm = dimms_[d.channel];
    DramChannel& ch = *dimm.channel;
    DramTxn t;
    t.req = r;
    t.bank = d.bank;
    t.row = d.row;
    t.tag = r->paddr / line_;
    t.aux = sector_mask(*r);
    t.bursts = bursts_for(r->size, ch.config().timing.burst_bytes);
    const bool atomic = r->op == MemOp::Atomic;
    if (is_write_op(r->op)) t.kind = DramTxnKind::BufferWrite;
    else t.kind = dimm.buffer->covers(t.tag, t.aux) ? DramTxnKind::BufferRead : DramTxnKind::Read;
    if (!ch.has_room(t.kind) || (atomic && !ch.has_room(DramTxnKind::BufferWrite))) {
        ports_.refused(port, d.channel);
        traffic_.refused();
        return false;
    }
    if (atomic) ch.reserve_write();
    if (t.kind == DramTxnKind::BufferRead) ++*dimm.buffer_read_hits;
    traffic_.accepted(r);
    ch.enqueue(t);
    return true;
}

bool OptaneMemory::may_issue(DramChannel& ch, const DramTxn& t) {
    return dimms_[ch.index()].buffer->can_accept(t.tag);
}

void OptaneMemory::issued(DramChannel& ch, const DramTxn& t) {
    Dimm& d = dimms_[ch.index()];
    if (d.buffer->write(t.tag, t.aux)) ++*d.write_combines;
    while (d.buffer->wants_writeback()) {
        const WriteCombiningBuffer::Writeback wb = d.buffer->begin_writeback();
        DramTxn m = media_txn(wb.line * line_);
        m.kind = DramTxnKind::MediaWrite;
        m.tag = wb.slot;
        m.activate_first = !wb.full;
        ++*(wb.full ? d.full_writebacks : d.rmw_writebacks);
        ch.enqueue(m);
    }
}

void OptaneMemory::txn_done(DramChannel& ch, const DramTxn& t) {
    Dimm& d = dimms_[ch.index()];
    if (t.kind == DramTxnKind::MediaWrite) {
        d.buffer->finish_writeback(static_cast<uint32_t>(t.tag));
        ch.kick();  // writes waiting for a free buffer line may go now
        return;
    }
    if (!t.req) return;  // an atomic's write half
    if (t.req->op == MemOp::Atomic) {  // the read half done: the write half follows
        DramTxn w = t;
        w.req = nullptr;
        w.kind = DramTxnKind::BufferWrite;
        ch.enqueue(w, true);
    }
    traffic_.respond(t.req);
}

uint64_t OptaneMemory::medium_bytes_read() const {
    uint64_t n = 0;
    for (const Dimm& d : dimms_) n += d.channel->activations() * line_;
    return n;
}

uint64_t OptaneMemory::medium_bytes_written() const {
    uint64_t n = 0;
    for (const Dimm& d : dimms_) n += d.channel->programs() * line_;
    return n;
}

}  // namespace zng::memory
