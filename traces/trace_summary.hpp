// What `zngsim trace info` and `zngsim trace dump` print: statistics of a whole trace
// (computed in one streaming pass) and a human-readable listing of its records.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "traces/trace.hpp"

namespace zng::trace {

struct KernelSummary {
    std::string name;
    Dim3 grid;
    Dim3 block;
    uint32_t warps_per_cta = 0;
    uint64_t ctas = 0;
    uint64_t warps = 0;
    uint64_t records = 0;
    uint64_t instructions = 0;
};

struct ArrayFootprint {
    std::string name;
    uint64_t base = 0;
    uint64_t size = 0;
    uint64_t lines = 0;   // distinct touched 128 B lines overlapping the array
};

struct TraceSummary {
    static constexpr uint64_t kLineBytes = 128;

    std::string input;   // TraceSource::describe()
    std::string workload;
    std::string source;
    std::vector<KernelSummary> kernels;
    uint64_t ctas = 0;
    uint64_t warps = 0;
    uint64_t records = 0;
    uint64_t instructions = 0;                 // sum of WarpRecord::instructions()
    std::array<uint64_t, kRecordKinds> records_by_kind{};  // indexed by RecordKind
    std::array<uint64_t, 4> memory_by_space{};  // memory warp instructions, by MemSpace

    // Global memory only (the traffic that leaves the SM).
    uint64_t global_loads = 0;     // warp instructions
    uint64_t global_stores = 0;
    uint64_t global_atomics = 0;
    // Per warp memory instruction, the distinct 128 B lines its active lanes touch
    // (a lane touches [addr, addr + access_size), which may straddle two lines).
    uint64_t load_line_requests = 0;
    uint64_t store_line_requests = 0;
    uint64_t atomic_line_requests = 0;
    // Storage I/O asked for by IoSubmit records: one request per active lane.
    uint64_t io_read_requests = 0;
    uint64_t io_write_requests = 0;
    uint64_t io_read_bytes = 0;
    uint64_t io_write_bytes = 0;
    uint64_t phase_ps = 0;                     // sum of Phase durations over all warps
    uint64_t footprint_lines = 0;              // distinct lines touched by the whole trace
    std::vector<ArrayFootprint> arrays;        // the header's arrays, in header order
    uint64_t lines_outside_arrays = 0;         // touched lines overlapping no array

    uint64_t line_requests() const { return load_line_requests + store_line_requests + atomic_line_requests; }
    // (load + atomic line requests) / all line requests; 0 without global traffic.
    double read_ratio() const;
    uint64_t footprint_bytes() const { return footprint_lines * kLineBytes; }
};

// Reads the rest of `src` (normally all of it) and computes its statistics.
TraceSummary summarize(TraceSource& src);

// Distinct 128 B lines touched by the active lanes of one memory record, written to
// `lines` in increasing order; returns how many (at most 2 per lane).
int record_lines(const WarpRecord& r, std::array<uint64_t, 2 * kWarpSize>& lines);

void print_summary(const TraceSummary& s, std::ostream& os);
nlohmann::json summary_to_json(const TraceSummary& s);

// One line per record under kernel / CTA / warp headings, addresses in hex. Stops
// after `max_records` records when it is not 0.
void dump_trace(TraceSource& src, std::ostream& os, uint64_t max_records = 0);

}  // namespace zng::trace
