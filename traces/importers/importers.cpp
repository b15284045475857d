#include "traces/importers/importers.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "traces/importers/accelsim_trace_source.hpp"
#include "traces/importers/macsim_trace_source.hpp"

namespace zng::importers {

ForeignFormat parse_format(const std::string& name) {
    if (name == "accelsim") return ForeignFormat::AccelSim;
    if (name == "macsim") return ForeignFormat::MacSim;
    throw std::invalid_argument(fmt::format("unknown trace format '{}' (expected accelsim or macsim)", name));
}

const char* to_string(ForeignFormat f) { return f == ForeignFormat::AccelSim ? "accelsim" : "macsim"; }

void ImportReport::count_unknown(std::string_view opcode_name) {
    ++unknown_opcodes;
    if (auto it = unknown_by_name.find(opcode_name); it != unknown_by_name.end())
        ++it->second;
    else
        unknown_by_name.emplace(std::string(opcode_name), 1);
}

std::string ImportReport::warnings() const {
    std::string out;
    if (unknown_opcodes > 0) {
        out += fmt::format("warning: {} instructions with opcodes the importer does not know, imported as compute "
                           "(or as global loads when they carry addresses):",
                           unknown_opcodes);
        for (const auto& [name, n] : unknown_by_name) out += fmt::format(" {} x{}", name, n);
        out += '\n';
    }
    if (memory_without_address > 0)
        out += fmt::format("warning: {} memory instructions carry no address in the trace, imported as compute\n",
                           memory_without_address);
    if (appended_exits > 0)
        out += fmt::format("warning: {} warps did not end with EXIT; an Exit record was appended to each\n",
                           appended_exits);
    if (memcpy_lines > 0)
        out += fmt::format("note: {} memory copy commands noted (host-to-device copies become the header's "
                           "arrays), not simulated\n",
                           memcpy_lines);
    return out;
}

namespace {

// Keeps a report alive for callers who do not ask for one.
class ReportOwningSource final : public trace::TraceSource {
public:
    explicit ReportOwningSource(ForeignFormat f, const std::string& path)
        : inner_(f == ForeignFormat::AccelSim ? open_accelsim_trace(path, report_) : open_macsim_trace(path, report_)) {}
    const trace::TraceHeader& header() const override { return inner_->header(); }
    bool next_kernel(trace::KernelInfo& k) override { return inner_->next_kernel(k); }
    bool next_cta(trace::CtaTrace& cta) override { return inner_->next_cta(cta); }
    std::string describe() const override { return inner_->describe(); }

private:
    ImportReport report_;
    std::unique_ptr<trace::TraceSource> inner_;
};

}  // namespace

std::unique_ptr<trace::TraceSource> open_foreign_trace(ForeignFormat format, const std::string& path,
                                                       ImportReport* report) {
    if (!report) return std::make_unique<ReportOwningSource>(format, path);
    return format == ForeignFormat::AccelSim ? open_accelsim_trace(path, *report) : open_macsim_trace(path, *report);
}

void import_trace(ForeignFormat format, const std::string& in, const std::string& out_ztr, ImportReport* report) {
    auto src = open_foreign_trace(format, in, report);
    trace::write_trace(*src, out_ztr);
}

}  // namespace zng::importers
