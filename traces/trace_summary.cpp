// One streaming pass over a trace: counts, 128 B line requests and the footprint.
#include "traces/trace_summary.hpp"

#include <algorithm>
#include <bit>

#include "traces/array_index.hpp"
#include "traces/line_set.hpp"
#include "traces/warp_scan.hpp"

namespace zng::trace {

double TraceSummary::read_ratio() const {
    const uint64_t all = line_requests();
    return all == 0 ? 0.0 : static_cast<double>(load_line_requests + atomic_line_requests) / static_cast<double>(all);
}

int record_lines(const WarpRecord& r, std::array<uint64_t, 2 * kWarpSize>& lines) {
    constexpr uint64_t kLine = TraceSummary::kLineBytes;
    int n = 0;
    for (uint32_t m = r.active_mask; m != 0; m &= m - 1) {
        const uint64_t a = r.lane_addr(std::countr_zero(m));
        const uint64_t first = a / kLine;
        // An access running past the top of the address space ends in the last line.
        const uint64_t end = r.access_size == 0 ? a : last_byte_of(a, r.access_size);
        lines[n++] = first;
        if (end / kLine != first) lines[n++] = end / kLine;
    }
    // Insertion sort: lane addresses are usually already increasing, so this is linear.
    for (int i = 1; i < n; ++i) {
        const uint64_t v = lines[i];
        int j = i - 1;
        while (j >= 0 && lines[j] > v) {
            lines[j + 1] = lines[j];
            --j;
        }
        lines[j + 1] = v;
    }
    return static_cast<int>(std::unique(lines.begin(), lines.begin() + n) - lines.begin());
}

namespace {

uint64_t lines_of_array(const ArrayFootprint& a, const LineSet& touched) {
    constexpr uint64_t kLine = TraceSummary::kLineBytes;
    if (a.size == 0) return 0;
    const uint64_t first = a.base / kLine;
    const uint64_t last = last_byte_of(a.base, a.size) / kLine;
    uint64_t n = 0;
    // Probe whichever is smaller: the array's lines or the touched lines.
    if (last - first < touched.size()) {
        for (uint64_t l = first;; ++l) {
            n += touched.contains(l);
            if (l == last) break;
        }
    } else {
        touched.for_each([&](uint64_t l) { n += l >= first && l <= last; });
    }
    return n;
}

}  // namespace

TraceSummary summarize(TraceSource& src) {
    TraceSummary s;
    s.input = src.describe();
    s.workload = src.header().workload;
    s.source = src.header().source;
    for (const auto& a : src.header().arrays) s.arrays.push_back(ArrayFootprint{a.name, a.base, a.size, 0});

    LineSet touched;
    std::array<uint64_t, 2 * kWarpSize> lines;
    KernelInfo k;
    CtaTrace cta;
    WarpRecord r;
    while (src.next_kernel(k)) {
        KernelSummary ks;
        ks.name = k.name;
        ks.grid = k.grid;
        ks.block = k.block;
        ks.warps_per_cta = k.warps_per_cta();
        while (src.next_cta(cta)) {
            ++ks.ctas;
            ks.warps += cta.warps.size();
            for (size_t wi = 0; wi < cta.warps.size(); ++wi) {
                uint64_t index = 0;
                for (WarpCursor cur(cta.warps[wi]); !cur.done(); ++index) {
                    try {
                        cur.next(r);
                    } catch (const TraceError& e) {
                        throw_record_error(s.input, s.kernels.size(), cta.cta_id, wi, index, e);
                    }
                    ++ks.records;
                    ks.instructions += r.instructions();
                    ++s.records_by_kind[static_cast<size_t>(r.kind)];
                    if (r.kind == RecordKind::IoSubmit) {
                        const uint64_t n = static_cast<uint64_t>(std::popcount(r.active_mask));
                        (r.io_write ? s.io_write_requests : s.io_read_requests) += n;
                        (r.io_write ? s.io_write_bytes : s.io_read_bytes) += n * r.io_bytes;
                    }
                    if (r.kind == RecordKind::Phase) s.phase_ps += r.duration_ps;
                    if (!r.is_memory()) continue;
                    ++s.memory_by_space[static_cast<size_t>(r.space)];
                    if (r.space != MemSpace::Global) continue;
                    const int n = record_lines(r, lines);
                    for (int i = 0; i < n; ++i) touched.insert(lines[i]);
                    switch (r.kind) {
                        case RecordKind::Load: ++s.global_loads, s.load_line_requests += n; break;
                        case RecordKind::Store: ++s.global_stores, s.store_line_requests += n; break;
                        default: ++s.global_atomics, s.atomic_line_requests += n; break;
                    }
                }
            }
        }
        s.ctas += ks.ctas;
        s.warps += ks.warps;
        s.records += ks.records;
        s.instructions += ks.instructions;
        s.kernels.push_back(std::move(ks));
    }

    s.footprint_lines = touched.size();
    for (auto& a : s.arrays) a.lines = lines_of_array(a, touched);
    const ArrayIndex index(s.arrays);
    touched.for_each([&](uint64_t l) {
        const uint64_t first = l * TraceSummary::kLineBytes;
        s.lines_outside_arrays += !index.overlaps(first, first + (TraceSummary::kLineBytes - 1));
    });
    return s;
}

}  // namespace zng::trace
