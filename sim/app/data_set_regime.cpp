#include "sim/app/data_set_regime.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/errors.hpp"
#include "traces/trace_summary.hpp"

namespace zng::cli {
namespace {

constexpr uint64_t kGranule = 4096;  // capacities are whole 4 KiB pages

double share_of(const ConfigNode& entry) {
    const std::string where = fmt::format("{}: {}", entry.loc().str(), entry.path());
    if (!entry.is_scalar()) throw ConfigError(where + ": expected a share (a number > 0)");
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(entry.scalar(), &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != entry.scalar().size() || !(v > 0) || !std::isfinite(v))
        throw ConfigError(where + ": '" + entry.scalar() + "' is not a share (a number > 0)");
    return v;
}

// What identifies the contents of a trace file well enough to reuse its footprint: its
// size and modification time ("" when the file cannot be examined).
std::string file_identity(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const uintmax_t size = fs::file_size(path, ec);
    if (ec) return "";
    const auto mtime = fs::last_write_time(path, ec);
    if (ec) return "";
    return fmt::format("{} {}", size, mtime.time_since_epoch().count());
}

// The footprint remembered for trace_file, or 0 when none is remembered for its
// current contents.
uint64_t remembered_footprint(const std::string& trace_file) {
    const std::string id = file_identity(trace_file);
    if (id.empty()) return 0;
    std::ifstream in(footprint_file(trace_file));
    std::string line;
    if (!std::getline(in, line) || line != id) return 0;
    uint64_t bytes = 0;
    if (!(in >> bytes)) return 0;
    return bytes;
}

// Remembers the footprint of trace_file; written under a temporary name and renamed,
// so concurrent runs never read half a file. Failing to remember costs only time.
void remember_footprint(const std::string& trace_file, uint64_t bytes) {
    const std::string id = file_identity(trace_file);
    if (id.empty()) return;
    const std::string dest = footprint_file(trace_file);
    const std::string tmp = fmt::format("{}.tmp{}", dest, ::getpid());
    {
        std::ofstream out(tmp);
        out << id << '\n' << bytes << '\n';
        if (!out) {
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
            return;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, dest, ec);
    if (ec) std::filesystem::remove(tmp, ec);
}

uint64_t footprint_of(const DataSetInput& a) {
    if (!a.trace_file.empty())
        if (const uint64_t known = remembered_footprint(a.trace_file)) return known;
    std::unique_ptr<trace::TraceSource> src = a.open();
    const uint64_t bytes = trace::summarize(*src).footprint_bytes();
    if (bytes != 0 && !a.trace_file.empty()) remember_footprint(a.trace_file, bytes);
    return bytes;
}

}  // namespace

std::string footprint_file(const std::string& trace_file) { return trace_file + ".footprint"; }

uint64_t data_set_bytes(const std::vector<DataSetInput>& apps) {
    uint64_t total = 0;
    for (const auto& a : apps) {
        const uint64_t app = footprint_of(a);
        if (app == 0)
            throw ConfigError(fmt::format("run.data_set_ratio needs each application's data set, but the trace of "
                                          "'{}' touches no global memory",
                                          a.name));
        total += app;
    }
    return total;
}

void apply_data_set_regime(ConfigNode& root, const std::vector<DataSetInput>& apps) {
    const ConfigNode* ratio_node = root.find_path("run.data_set_ratio");
    const ConfigNode* caps = root.find_path("run.data_set_capacities");
    double ratio = 0;
    if (ratio_node) {
        size_t used = 0;
        try {
            ratio = std::stod(ratio_node->scalar(), &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (!ratio_node->is_scalar() || used != ratio_node->scalar().size() || !(ratio >= 0) || !std::isfinite(ratio))
            throw ConfigError(ratio_node->loc().str() + ": run.data_set_ratio: expected a number >= 0");
    }
    // A platform listing no capacity holds every data set whole (Ideal, Optane, ZnG's flash).
    if (ratio == 0 || apps.empty() || !caps) return;
    if (!caps->is_map())
        throw ConfigError(caps->loc().str() + ": run.data_set_capacities: expected a map of key path -> share");
    const uint64_t data = data_set_bytes(apps);
    std::vector<std::string> sets;
    for (const auto& [key, entry] : caps->entries()) {
        const double share = share_of(entry);
        if (!root.find_path(key))
            throw ConfigError(fmt::format("{}: run.data_set_capacities names '{}', which this platform does not set",
                                          entry.loc().str(), key));
        const double want = std::ceil(ratio * share * static_cast<double>(data) / kGranule);
        const uint64_t bytes = std::max<uint64_t>(1, static_cast<uint64_t>(want)) * kGranule;
        sets.push_back(fmt::format("{}={}B", key, bytes));
    }
    for (const auto& s : sets) apply_override(root, s);
}

}  // namespace zng::cli
