#include "traces/workloads/storage/io_bench.hpp"
#include "traces/workloads/cache_vol/cache_vol_workloads.hpp"
#include "traces/workloads/streamer/streamer_ml.hpp"
#include "traces/workloads/workload_registry.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "traces/workloads/dense/dense_workloads.hpp"
#include "traces/workloads/trace_sources_digest.hpp"  // generated at build time
#include "traces/xxhash64.hpp"
#ifdef ZNG_HAVE_GRAPH_WORKLOADS
#include "traces/workloads/graph/graph_readers.hpp"
#include "traces/workloads/graph/graph_workloads.hpp"
#endif

namespace zng::workloads {

namespace fs = std::filesystem;

namespace {
// Part of every cache key: bump when the framework's encoding of workloads changes.
constexpr uint32_t kFrameworkVersion = 1;

uint64_t fnv1a(const std::string& s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}
// The input's identity is the content of every file the generator reads (a GraphBIG
// directory is two files): rewriting any of them, even keeping its size and time,
// invalidates the cached trace. Hashing costs a read of the input, far less than
// generating from it.
std::string input_identity(const std::string& input) {
#ifdef ZNG_HAVE_GRAPH_WORKLOADS
    const std::vector<std::string> files = graph::graph_input_files(input);
#else
    const std::vector<std::string> files{input};
#endif
    std::string id;
    std::vector<char> buf(1 << 20);
    for (const auto& f : files) {
        std::error_code ec;
        if (!fs::is_regular_file(f, ec))
            throw std::invalid_argument("workload option 'input': '" + f + "' is not a readable file");
        std::ifstream in(f, std::ios::binary);
        if (!in) throw std::invalid_argument("workload option 'input': cannot read '" + f + "'");
        trace::Xxh64 h;
        uint64_t bytes = 0;
        while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
            h.update(reinterpret_cast<const uint8_t*>(buf.data()), static_cast<size_t>(in.gcount()));
            bytes += static_cast<uint64_t>(in.gcount());
        }
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h.digest()));
        id += "input_file=" + fs::path(f).filename().string() + " bytes=" + std::to_string(bytes) + " xxh64=" + hex + "\n";
    }
    return id;
}

}  // namespace

void validate_options(const WorkloadOptions& o) {
    if (o.preset != "small" && o.preset != "paper")
        throw std::invalid_argument("workload option 'preset': '" + o.preset + "' is not one of: small, paper");
    if (o.scale < 0) throw std::invalid_argument("workload option 'scale': must be >= 0 (0 = preset default)");
    if (o.edge_factor < 0)
        throw std::invalid_argument("workload option 'edge_factor': must be >= 0 (0 = preset default)");
    if (o.max_launches < -1)
        throw std::invalid_argument("workload option 'max_launches': must be >= 0, or -1 for the default");
}

namespace {

std::string option_names(const WorkloadInfo& info) {
    std::string out;
    for (const auto& p : info.program_options) out += (out.empty() ? "--" : ", --") + p.name;
    return out.empty() ? "none" : out;
}

const ProgramOption* find_program_option(const WorkloadInfo& info, const std::string& name) {
    for (const auto& p : info.program_options)
        if (p.name == name) return &p;
    return nullptr;
}

}  // namespace

void validate_program_options(const WorkloadInfo& info, const WorkloadOptions& o) {
    for (const auto& [name, value] : o.program) {
        const ProgramOption* p = find_program_option(info, name);
        if (p == nullptr)
            throw std::invalid_argument("workload '" + info.name + "' has no option '--" + name +
                                        "' (its options: " + option_names(info) + ")");
        if (value < p->min || value > p->max)
            throw std::invalid_argument("workload option '" + name + "': " + std::to_string(value) +
                                        " is outside " + std::to_string(p->min) + ".." + std::to_string(p->max));
    }
}

WorkloadOptions options_for_workload(const std::string& name, const WorkloadOptions& o) {
    const WorkloadInfo& info = builtin_workloads().get(name).info;
    WorkloadOptions mine = o;
    std::erase_if(mine.program, [&](const auto& kv) { return find_program_option(info, kv.first) == nullptr; });
    return mine;
}

void check_program_options_apply(const std::vector<std::string>& names, const WorkloadOptions& o) {
    for (const auto& kv : o.program) {
        if (std::any_of(names.begin(), names.end(), [&](const std::string& n) {
                return find_program_option(builtin_workloads().get(n).info, kv.first) != nullptr;
            }))
            continue;
        std::string theirs;
        for (const auto& n : names)
            theirs += (theirs.empty() ? "" : "; ") + n + ": " + option_names(builtin_workloads().get(n).info);
        throw std::invalid_argument("option '--" + kv.first + "' is not an option of the workload" +
                                    (names.size() > 1 ? "s" : "") + " (their options: " + theirs + ")");
    }
}

std::vector<ProgramOptionUse> builtin_program_options() {
    std::vector<ProgramOptionUse> uses;
    for (const auto& e : builtin_workloads().entries())
        for (const auto& p : e.info.program_options) {
            auto it = std::find_if(uses.begin(), uses.end(), [&](const auto& u) { return u.option.name == p.name; });
            if (it == uses.end()) it = uses.insert(uses.end(), ProgramOptionUse{p, {}});
            it->workloads.push_back(e.info.name);
        }
    return uses;
}

void WorkloadRegistry::add(WorkloadInfo info, WorkloadGenerator generate, uint32_t version) {
    if (info.name.empty()) throw std::invalid_argument("WorkloadRegistry: empty workload name");
    if (find(info.name) != nullptr)
        throw std::invalid_argument("WorkloadRegistry: workload '" + info.name + "' registered twice");
    if (!generate) throw std::invalid_argument("WorkloadRegistry: workload '" + info.name + "' has no generator");
    entries_.push_back(WorkloadEntry{std::move(info), std::move(generate), version});
}

const WorkloadEntry* WorkloadRegistry::find(const std::string& name) const {
    for (const auto& e : entries_)
        if (e.info.name == name) return &e;
    return nullptr;
}

const WorkloadEntry& WorkloadRegistry::get(const std::string& name) const {
    if (const WorkloadEntry* e = find(name)) return *e;
    throw std::invalid_argument("unknown workload '" + name + "'; valid workloads: " + names());
}

std::string WorkloadRegistry::names() const {
    std::vector<std::string> n;
    for (const auto& e : entries_) n.push_back(e.info.name);
    std::sort(n.begin(), n.end());
    std::string out;
    for (const auto& s : n) out += (out.empty() ? "" : ", ") + s;
    return out;
}

const WorkloadRegistry& builtin_workloads() {
    static const WorkloadRegistry registry = [] {
        WorkloadRegistry r;
#ifdef ZNG_HAVE_GRAPH_WORKLOADS
        register_graph_workloads(r);
#endif
        register_dense_workloads(r);
        register_storage_workloads(r);
        register_cache_vol_workloads(r);
        register_streamer_workloads(r);
        return r;
    }();
    return registry;
}

const std::vector<WorkloadInfo>& list_workloads() {
    static const std::vector<WorkloadInfo> infos = [] {
        std::vector<WorkloadInfo> v;
        for (const auto& e : builtin_workloads().entries()) v.push_back(e.info);
        return v;
    }();
    return infos;
}

void generate_workload(const std::string& name, const WorkloadOptions& options, const std::string& out_path) {
    validate_options(options);
    const WorkloadEntry& entry = builtin_workloads().get(name);
    validate_program_options(entry.info, options);
    try {
        WorkloadContext ctx(name, options, out_path);
        entry.generate(ctx);
        ctx.finish();
    } catch (...) {
        // A partial trace must never be mistaken for a complete one.
        std::error_code ec;
        fs::remove(out_path, ec);
        throw;
    }
}

std::string workload_cache_text(const std::string& name, const WorkloadOptions& o) {
    validate_options(o);
    const WorkloadEntry& entry = builtin_workloads().get(name);
    validate_program_options(entry.info, o);
    std::string canon = "zngsim-workload framework=" + std::to_string(kFrameworkVersion) +
                        " format=" + std::to_string(trace::kTraceFormatVersion) +
                        " generator=" + std::to_string(entry.version) +
                        // The version numbers record deliberate changes; the digest of the
                        // sources catches every change, bumped or not, so a cache entry is
                        // never reused by a build whose generators or writer differ.
                        "\nsources=" + kTraceSourcesDigest + "\nname=" + name +
                        "\npreset=" + o.preset + "\ninput=" + o.input;
    if (!o.input.empty()) canon += "\n" + input_identity(o.input);
    canon += "\nscale=" + std::to_string(o.scale) + "\nedge_factor=" + std::to_string(o.edge_factor) +
             "\nseed=" + std::to_string(o.seed) + "\nskip_init=" + (o.skip_init ? "1" : "0") +
             "\nmax_launches=" + std::to_string(o.max_launches);
    for (const auto& [option, value] : o.program) canon += "\nprogram." + option + "=" + std::to_string(value);
    return canon;
}

std::string trace_sources_digest() { return kTraceSourcesDigest; }

std::string workload_cache_key(const std::string& name, const WorkloadOptions& o) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(fnv1a(workload_cache_text(name, o))));
    return hex;
}

std::string cached_workload_trace(const std::string& name, const WorkloadOptions& options,
                                  const std::string& cache_dir) {
    const std::string key = workload_cache_key(name, options);
    std::error_code ec;
    fs::create_directories(cache_dir, ec);
    if (ec) throw std::runtime_error("workload cache '" + cache_dir + "': cannot create: " + ec.message());
    const fs::path final_path = fs::path(cache_dir) / (name + "-" + key + ".ztr");
    if (fs::exists(final_path, ec)) return final_path.string();

    static std::atomic<uint64_t> counter{0};
    const fs::path tmp = fs::path(cache_dir) / (name + "-" + key + ".tmp." + std::to_string(::getpid()) + "." +
                                                std::to_string(counter.fetch_add(1)));
    generate_workload(name, options, tmp.string());
    fs::rename(tmp, final_path, ec);
    if (ec) {
        const std::string why = ec.message();
        fs::remove(tmp, ec);
        throw std::runtime_error("workload cache: cannot move trace into '" + final_path.string() + "': " + why);
    }
    return final_path.string();
}

}  // namespace zng::workloads
