// Human-readable listing of a trace, one line per record.
#include <fmt/format.h>

#include <bit>

#include "traces/trace_summary.hpp"
#include "traces/warp_scan.hpp"

namespace zng::trace {

namespace {

void format_record(fmt::memory_buffer& out, uint64_t index, const WarpRecord& r) {
    auto it = std::back_inserter(out);
    fmt::format_to(it, "      {:>6} pc {:#x} {}", index, r.pc, to_string(r.kind));
    if (r.is_memory()) fmt::format_to(it, " {} size {}", to_string(r.space), r.access_size);
    fmt::format_to(it, " mask {:08x}", r.active_mask);
    if (r.compute != 0) fmt::format_to(it, " compute {}", r.compute);
    if (r.kind == RecordKind::IoSubmit)
        fmt::format_to(it, " {} bytes {} tag {} dest {:#x} dest_stride {}", r.io_write ? "write" : "read",
                       r.io_bytes, r.io_tag, r.io_dest, r.io_dest_stride);
    if (r.kind == RecordKind::IoWait) fmt::format_to(it, " tag {}", r.io_tag);
    if (r.kind == RecordKind::Phase) fmt::format_to(it, " duration {} ps", r.duration_ps);
    if (r.has_lane_addresses()) {
        if (r.strided) {
            fmt::format_to(it, " strided base {:#x} stride {}", r.base, r.stride);
        } else {
            fmt::format_to(it, " addrs");
            for (uint32_t m = r.active_mask; m != 0; m &= m - 1) {
                const int lane = std::countr_zero(m);
                fmt::format_to(it, " {}:{:#x}", lane, r.addr[lane]);
            }
        }
    }
    out.push_back('\n');
}

}  // namespace

void dump_trace(TraceSource& src, std::ostream& os, uint64_t max_records) {
    fmt::memory_buffer out;
    auto it = std::back_inserter(out);
    auto flush = [&] {
        os.write(out.data(), static_cast<std::streamsize>(out.size()));
        out.clear();
    };
    const TraceHeader& h = src.header();
    fmt::format_to(it, "trace {} workload \"{}\" source \"{}\"\n", src.describe(), h.workload, h.source);
    for (const auto& a : h.arrays) fmt::format_to(it, "array \"{}\" base {:#x} size {}\n", a.name, a.base, a.size);

    uint64_t printed = 0;
    uint64_t kernel_index = 0;
    KernelInfo k;
    CtaTrace cta;
    WarpRecord r;
    while (src.next_kernel(k)) {
        fmt::format_to(it, "kernel {} \"{}\" grid ({},{},{}) block ({},{},{}) shared {} regs {}\n", kernel_index++,
                       k.name, k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z, k.shared_mem_bytes,
                       k.regs_per_thread);
        while (src.next_cta(cta)) {
            fmt::format_to(it, "  cta {} warps {} records {}\n", cta.cta_id, cta.warps.size(), cta.records);
            for (size_t w = 0; w < cta.warps.size(); ++w) {
                fmt::format_to(it, "    warp {}\n", w);
                uint64_t index = 0;
                for (WarpCursor cur(cta.warps[w]); !cur.done();) {
                    if (max_records != 0 && printed == max_records) {
                        fmt::format_to(it, "... stopped after {} records\n", printed);
                        flush();
                        return;
                    }
                    try {
                        cur.next(r);
                    } catch (const TraceError& e) {
                        flush();
                        throw_record_error(src.describe(), kernel_index - 1, cta.cta_id, w, index, e);
                    }
                    format_record(out, index++, r);
                    ++printed;
                }
                flush();
            }
        }
    }
    flush();
}

}  // namespace zng::trace
