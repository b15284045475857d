#include "memory/gddr5_memory.hpp"

#include <fmt/format.h>

#include "memory/dram_params.hpp"

namespace zng::memory {

const ComponentSchema& Gddr5Memory::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c;
        c.name = "gddr5";
        c.description =
            "GDDR5 channels, each a memory controller with read/write queues, FR-FCFS scheduling, banks with "
            "open-row state and JEDEC-style timing (tRCD/tCL/tRP/tRAS/tWR/tCCD/tRRD/tFAW/tWTR/refresh)";
        append(c.params, {
                             param("channels", ParamType::UInt, "6", "memory channels (controllers)", 1, 1024),
                             param("banks", ParamType::UInt, "16", "banks per channel", 1, 1024),
                             param("row_size", ParamType::Size, "2KiB", "bytes of one row across the channel", 1),
                             param("capacity", ParamType::Size, "1536MiB", "total bytes served", 1),
                         });
        append(c.params, AddressMapping::schema_params("channel,column,bank,row", "256B"));
        append(c.params, dram_bus_params("1002MHz", "4008MT/s"));
        append(c.params, dram_controller_params("32", "32"));
        append(c.params,
               {
                   param("tRCD", ParamType::Time, "12ns", "ACT to column command", 0),
                   param("tCL", ParamType::Time, "11976ps", "read command to first data (CAS latency)", 0),
                   param("tCWL", ParamType::Time, "3992ps", "write command to first data (write latency)", 0),
                   param("tRP", ParamType::Time, "12ns", "PRE to ACT", 0),
                   param("tRAS", ParamType::Time, "28ns", "ACT to PRE", 0),
                   param("tRTP", ParamType::Time, "1996ps", "read command to PRE", 0),
                   param("tWR", ParamType::Time, "12ns", "end of write data to PRE (write recovery)", 0),
                   param("tCCD", ParamType::Time, "1996ps", "column command to column command (one burst)", 0),
                   param("tRRD", ParamType::Time, "6ns", "ACT to ACT in different banks", 0),
                   param("tFAW", ParamType::Time, "23ns", "window with at most four ACTs (0 = none)", 0),
                   param("tWTR", ParamType::Time, "5ns", "end of write data to read command", 0),
                   param("tRTW", ParamType::Time, "1996ps", "bus turnaround between read data and write data", 0),
                   param("tREFI", ParamType::Time, "3.9us", "refresh interval (0 = no refresh)", 0),
                   param("tRFC", ParamType::Time, "65ns", "all-bank refresh duration", 0),
               });
        c.ports = {"port<i>: one response port per L2 bank; any port reaches any channel"};
        return c;
    }();
    return s;
}

namespace {
AddressMapping gddr5_mapping(const Params& p) {
    return AddressMapping::from_params(p, p.u32("channels"), p.u32("banks"), p.size("row_size"));
}
}  // namespace

Gddr5Memory::Gddr5Memory(const Params& p, Simulator& sim, const BackendContext& ctx)
    : name_(p.path()),
      sim_(sim),
      clock_(p.path() + ".clock", p.frequency("command_clock")),
      mapping_(gddr5_mapping(p)),
      capacity_(p.size("capacity")),
      peak_(dram_bus_peak(p) * p.u32("channels")),
      ports_(*this, p.path(), ctx.ports),
      traffic_(sim, p.path()) {
    DramChannelConfig cfg;
    cfg.banks = p.u32("banks");
    read_dram_bus(p, clock_, cfg.timing);
    read_dram_controller(p, clock_, cfg);
    DramTiming& t = cfg.timing;
    t.tRCD = read_cycles(p, "tRCD", clock_);
    t.tCL = read_cycles(p, "tCL", clock_);
    t.tCWL = read_cycles(p, "tCWL", clock_);
    t.tRP = read_cycles(p, "tRP", clock_);
    t.tRAS = read_cycles(p, "tRAS", clock_);
    t.tRTP = read_cycles(p, "tRTP", clock_);
    t.tWR = read_cycles(p, "tWR", clock_);
    t.tCCD = read_cycles(p, "tCCD", clock_);
    t.tRRD = read_cycles(p, "tRRD", clock_);
    t.tFAW = read_cycles(p, "tFAW", clock_);
    t.tWTR = read_cycles(p, "tWTR", clock_);
    t.tRTW = read_cycles(p, "tRTW", clock_);
    t.tREFI = read_cycles(p, "tREFI", clock_);
    t.tRFC = read_cycles(p, "tRFC", clock_);
    if (t.tRP == 0) p.fail("tRP", "DRAM needs a non-zero precharge time");
    if (t.tCCD == 0) p.fail("tCCD", "column commands need a non-zero spacing");
    if (t.tREFI != 0 && t.tRFC + t.tRP >= t.tREFI)
        p.fail("tREFI", "the refresh interval must exceed tRFC + tRP, or the channel would only refresh");
    // Between two refreshes a row must open, move one burst and close again, or no access
    // ever completes and the run makes no progress.
    const Cycle row_cycle = t.tRCD + std::max(t.tCL, t.tCWL) + t.burst + t.tRP;
    if (t.tREFI != 0 && t.tRFC + row_cycle >= t.tREFI)
        p.fail("tREFI", fmt::format("the refresh interval ({} cycles) must exceed tRFC + tRCD + max(tCL, tCWL) + one "
                                    "burst + tRP ({} cycles; tRCD is {} cycles at {}), or no access completes "
                                    "between refreshes",
                                    t.tREFI, t.tRFC + row_cycle, t.tRCD, p.where("tRCD")));
    if (ctx.ports == 0) throw ConfigError(p.where("channels") + ": the memory needs at least one port");
    for (uint32_t i = 0; i < mapping_.channels(); ++i)
        channels_.push_back(
            std::make_unique<DramChannel>(sim, fmt::format("{}.ch{}", name_, i), clock_, cfg,
                                          static_cast<DramChannelClient&>(*this), i));
    const double peak = peak_;
    sim.stats().formula(name_ + ".peak_bandwidth_gbps", "channels x bus width x data rate", "GB/s",
                        [peak] { return peak / 1e9; });
}

bool Gddr5Memory::recv_request(MemRequest* r, ResponsePort& port) {
    check_in_capacity(name_, *r, capacity_);
    const DecodedAddress d = mapping_.decode(r->paddr);
    DramChannel& ch = *channels_[d.channel];
    DramTxn t;
    t.req = r;
    t.bank = d.bank;
    t.row = d.row;
    t.bursts = bursts_for(r->size, ch.config().timing.burst_bytes);
    t.kind = is_write_op(r->op) ? DramTxnKind::Write : DramTxnKind::Read;
    const bool atomic = r->op == MemOp::Atomic;
    if (!ch.has_room(t.kind) || (atomic && !ch.has_room(DramTxnKind::Write))) {
        ports_.refused(port, d.channel);
        traffic_.refused();
        return false;
    }
    if (atomic) ch.reserve_write();  // the write half of the read-modify-write
    traffic_.accepted(r);
    ch.enqueue(t);
    return true;
}

void Gddr5Memory::txn_done(DramChannel& ch, const DramTxn& t) {
    if (!t.req) return;  // an atomic's write half: nobody waits for it
    if (t.req->op == MemOp::Atomic) {
        DramTxn w = t;
        w.req = nullptr;
        w.kind = DramTxnKind::Write;
        ch.enqueue(w, true);
    }
    traffic_.respond(t.req);
}

uint64_t Gddr5Memory::medium_bytes_read() const {
    uint64_t n = 0;
    for (const auto& c : channels_) n += c->read_bursts() * c->config().timing.burst_bytes;
    return n;
}

uint64_t Gddr5Memory::medium_bytes_written() const {
    uint64_t n = 0;
    for (const auto& c : channels_) n += c->write_bursts() * c->config().timing.burst_bytes;
    return n;
}

}  // namespace zng::memory
