#include "traces/warp_scan.hpp"

#include <fmt/format.h>

#include "traces/trace.hpp"

namespace zng::trace {

WarpScan scan_warp(const uint8_t* data, size_t size) {
    WarpScan s;
    const uint8_t* p = data;
    const uint8_t* const end = data + size;
    WarpRecord r;
    while (p < end) {
        const uint8_t* at = p;
        if (s.ends_with_exit)
            throw TraceError(fmt::format("record {} at byte {} of the warp follows its exit record", s.records,
                                         at - data));
        try {
            check_record(p, end, r);
        } catch (const TraceError& e) {
            throw TraceError(fmt::format("record {} at byte {} of the warp: {}", s.records, at - data, e.what()));
        }
        ++s.records;
        s.instructions += r.instructions();
        s.ends_with_exit = r.kind == RecordKind::Exit;
        s.io_records += r.kind >= RecordKind::IoSubmit;
        s.last_pc = r.pc;
    }
    return s;
}

void throw_record_error(const std::string& input, uint64_t kernel, uint64_t cta_id, size_t warp, uint64_t record,
                        const std::exception& e) {
    throw TraceError(
        fmt::format("{}: kernel {}, CTA id {}, warp {}, record {}: {}", input, kernel, cta_id, warp, record, e.what()));
}

}  // namespace zng::trace
