// Text and JSON renderings of a TraceSummary. The text layout is stable (scripts and
// golden tests may compare it); the JSON carries the same numbers with named keys.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "traces/trace_summary.hpp"

namespace zng::trace {

namespace {

std::string dim(const Dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

std::string bytes_text(uint64_t b) {
    constexpr double kMiB = 1024.0 * 1024.0;
    return fmt::format("{} B ({:.2f} MiB)", b, static_cast<double>(b) / kMiB);
}

constexpr RecordKind kKinds[] = {RecordKind::Compute, RecordKind::Load,     RecordKind::Store,
                                 RecordKind::Atomic,  RecordKind::Barrier,  RecordKind::Exit,
                                 RecordKind::IoSubmit, RecordKind::IoWait, RecordKind::Phase};
// The text lists the I/O and phase kinds only when a trace has them, so the summary of
// a trace without them reads as before they existed.
bool listed_in_text(const TraceSummary& s, RecordKind k) {
    return k < RecordKind::IoSubmit || s.records_by_kind[size_t(k)] != 0;
}
bool has_io(const TraceSummary& s) {
    return s.records_by_kind[size_t(RecordKind::IoSubmit)] + s.records_by_kind[size_t(RecordKind::IoWait)] +
               s.records_by_kind[size_t(RecordKind::Phase)] !=
           0;
}
constexpr MemSpace kSpaces[] = {MemSpace::Global, MemSpace::Shared, MemSpace::Local, MemSpace::Constant};

}  // namespace

void print_summary(const TraceSummary& s, std::ostream& os) {
    fmt::memory_buffer out;
    auto line = [&](std::string_view key, const std::string& value) {
        fmt::format_to(std::back_inserter(out), "{:<22} {}\n", key, value);
    };
    line("trace", s.input);
    line("workload", s.workload);
    line("source", s.source);
    line("kernels", std::to_string(s.kernels.size()));
    line("CTAs", std::to_string(s.ctas));
    line("warps", std::to_string(s.warps));
    line("records", std::to_string(s.records));
    line("warp instructions", std::to_string(s.instructions));
    std::string kinds;
    for (RecordKind k : kKinds)
        if (listed_in_text(s, k))
            kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", to_string(k), s.records_by_kind[size_t(k)]);
    line("records by kind", kinds);
    if (has_io(s)) {
        line("storage I/O", fmt::format("read requests {}, {}; write requests {}, {}", s.io_read_requests,
                                        bytes_text(s.io_read_bytes), s.io_write_requests,
                                        bytes_text(s.io_write_bytes)));
        line("phases", fmt::format("{} ps in all warps", s.phase_ps));
    }
    std::string spaces;
    for (MemSpace m : kSpaces)
        spaces += fmt::format("{}{} {}", spaces.empty() ? "" : ", ", to_string(m), s.memory_by_space[size_t(m)]);
    line("memory by space", spaces);
    line("global instructions",
         fmt::format("loads {}, stores {}, atomics {}", s.global_loads, s.global_stores, s.global_atomics));
    line("128 B line requests", fmt::format("loads {}, stores {}, atomics {}, total {}", s.load_line_requests,
                                            s.store_line_requests, s.atomic_line_requests, s.line_requests()));
    line("read ratio", fmt::format("{:.4f}", s.read_ratio()));
    line("footprint", fmt::format("{} lines, {}", s.footprint_lines, bytes_text(s.footprint_bytes())));
    if (!s.arrays.empty()) {
        fmt::format_to(std::back_inserter(out), "arrays:\n");
        for (const auto& a : s.arrays)
            fmt::format_to(std::back_inserter(out), "  {:<20} base {:#014x} size {:>12} footprint {}\n", a.name,
                           a.base, a.size, bytes_text(a.lines * TraceSummary::kLineBytes));
        fmt::format_to(std::back_inserter(out), "  {:<20} footprint {}\n", "(outside arrays)",
                       bytes_text(s.lines_outside_arrays * TraceSummary::kLineBytes));
    }
    fmt::format_to(std::back_inserter(out), "kernels:\n");
    for (size_t i = 0; i < s.kernels.size(); ++i) {
        const auto& k = s.kernels[i];
        fmt::format_to(std::back_inserter(out),
                       "  {:>4} {:<24} grid {} block {} warps/CTA {} CTAs {} warps {} records {} instructions {}\n", i,
                       k.name, dim(k.grid), dim(k.block), k.warps_per_cta, k.ctas, k.warps, k.records,
                       k.instructions);
    }
    os.write(out.data(), static_cast<std::streamsize>(out.size()));
}

nlohmann::json summary_to_json(const TraceSummary& s) {
    using nlohmann::json;
    auto dim_json = [](const Dim3& d) { return json::array({d.x, d.y, d.z}); };
    json j;
    j["trace"] = s.input;
    j["workload"] = s.workload;
    j["source"] = s.source;
    j["ctas"] = s.ctas;
    j["warps"] = s.warps;
    j["records"] = s.records;
    j["instructions"] = s.instructions;
    json kinds = json::object();
    for (RecordKind k : kKinds) kinds[to_string(k)] = s.records_by_kind[size_t(k)];
    j["records_by_kind"] = kinds;
    j["storage_io"] = {{"read_requests", s.io_read_requests},
                       {"read_bytes", s.io_read_bytes},
                       {"write_requests", s.io_write_requests},
                       {"write_bytes", s.io_write_bytes},
                       {"phase_ps", s.phase_ps}};
    json spaces = json::object();
    for (MemSpace m : kSpaces) spaces[to_string(m)] = s.memory_by_space[size_t(m)];
    j["memory_instructions_by_space"] = spaces;
    j["global_instructions"] = {{"loads", s.global_loads}, {"stores", s.global_stores}, {"atomics", s.global_atomics}};
    j["line_requests"] = {{"line_bytes", TraceSummary::kLineBytes},
                          {"loads", s.load_line_requests},
                          {"stores", s.store_line_requests},
                          {"atomics", s.atomic_line_requests},
                          {"total", s.line_requests()}};
    j["read_ratio"] = s.read_ratio();
    j["footprint"] = {{"lines", s.footprint_lines}, {"bytes", s.footprint_bytes()}};
    json arrays = json::array();
    for (const auto& a : s.arrays)
        arrays.push_back({{"name", a.name},
                          {"base", a.base},
                          {"size", a.size},
                          {"footprint_lines", a.lines},
                          {"footprint_bytes", a.lines * TraceSummary::kLineBytes}});
    j["arrays"] = arrays;
    j["lines_outside_arrays"] = s.lines_outside_arrays;
    json kernels = json::array();
    for (const auto& k : s.kernels)
        kernels.push_back({{"name", k.name},
                           {"grid", dim_json(k.grid)},
                           {"block", dim_json(k.block)},
                           {"warps_per_cta", k.warps_per_cta},
                           {"ctas", k.ctas},
                           {"warps", k.warps},
                           {"records", k.records},
                           {"instructions", k.instructions}});
    j["kernels"] = kernels;
    return j;
}

}  // namespace zng::trace
