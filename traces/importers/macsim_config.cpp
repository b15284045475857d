#include "traces/importers/macsim_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "traces/importers/path_names.hpp"
#include "traces/importers/token_reader.hpp"
#include "traces/trace.hpp"

namespace zng::importers {

namespace fs = std::filesystem;
using trace::TraceError;

namespace {

// MacSim refuses every GPU trace version but 1.4.
constexpr int kSupportedVersion = 14;
// Bound on warps per kernel trace (a full 2^31-thread grid has 2^26 warps).
constexpr int64_t kMaxWarps = int64_t(1) << 26;

MacSimTraceType parse_type(TokenReader& in, std::string_view tok) {
    if (tok == "nvbit") return MacSimTraceType::Nvbit;
    if (tok == "ptx" || tok == "newptx") return MacSimTraceType::Ptx;
    in.fail(fmt::format("trace type '{}' is not a GPU trace type (nvbit, newptx or ptx)", tok));
}

void expect_version(TokenReader& in) {
    const int v = in.need_int<int>("trace version");
    if (v != kSupportedVersion) in.fail(fmt::format("trace version {} is not the supported 14", v));
}

}  // namespace

MacSimKernelConfig read_macsim_kernel_config(const std::string& path) {
    std::error_code ec;
    fs::path config = path;
    if (fs::is_directory(config, ec)) config /= "kernel_config.txt";
    if (!fs::exists(config, ec)) throw TraceError(fmt::format("{}: no such file", config.string()));
    const fs::path dir = config.has_parent_path() ? config.parent_path() : fs::path(".");

    MacSimKernelConfig out;
    out.workload = directory_name(dir);
    TokenReader in(config.string());
    parse_type(in, in.need("trace type"));
    expect_version(in);
    const int64_t count = in.need_int<int64_t>("kernel count (-1)");
    if (count != -1) {
        // Single-kernel form: this file is the kernel's own trace header.
        out.kernel_files.push_back(config.string());
        return out;
    }
    std::string_view tok;
    while (in.next(tok)) {
        // MacSim keeps the listed path from its last directory component on and puts it
        // under the config's directory, so a moved trace directory still resolves.
        const std::string listed(tok);
        const size_t last = listed.find_last_of('/');
        std::string tail = listed;
        if (last != std::string::npos && last > 0) {
            const size_t prev = listed.rfind('/', last - 1);
            tail = prev == std::string::npos ? listed : listed.substr(prev + 1);
        }
        out.kernel_files.push_back((dir / tail).string());
    }
    if (out.kernel_files.empty()) in.fail("no kernel trace files listed");
    return out;
}

MacSimKernelTrace read_macsim_kernel_trace(const std::string& trace_txt) {
    MacSimKernelTrace k;
    const fs::path p(trace_txt);
    k.name = directory_name(p.has_parent_path() ? p.parent_path() : fs::path("."));
    const std::string stem = (p.has_parent_path() ? p.parent_path() / p.stem() : p.stem()).string();
    k.raw_prefix = stem;

    {
        std::error_code ec;
        if (!fs::exists(p, ec)) throw TraceError(fmt::format("{}: no such file", trace_txt));
        TokenReader in(trace_txt);
        const std::string_view type_tok = in.need("trace type");
        k.type = parse_type(in, type_tok);
        expect_version(in);
        if (type_tok == "nvbit" || type_tok == "newptx") k.max_blocks = in.need_uint<uint32_t>("max blocks per core");
        const int64_t warps = in.need_int<int64_t>("warp count");
        if (warps <= 0 || warps > kMaxWarps) in.fail(fmt::format("warp count {} is outside 1..{}", warps, kMaxWarps));
        for (int64_t i = 0; i < warps; ++i) {
            MacSimWarpEntry w;
            w.id = in.need_uint<uint64_t>("warp id");
            in.need_uint<uint64_t>("warp start instruction");
            k.warps.push_back(w);
        }
        std::string_view extra;
        if (in.next(extra)) in.fail(fmt::format("unexpected '{}' after the {} listed warps", extra, warps));
    }

    const std::string info = stem + "_info.txt";
    std::error_code ec;
    if (fs::exists(info, ec)) {
        TokenReader in(info);
        // trace_info lists the same warps; match by id (the order is the tracer's).
        std::vector<std::pair<uint64_t, size_t>> by_id;
        by_id.reserve(k.warps.size());
        for (size_t i = 0; i < k.warps.size(); ++i) by_id.emplace_back(k.warps[i].id, i);
        std::sort(by_id.begin(), by_id.end());
        for (size_t i = 0; i < k.warps.size(); ++i) {
            const uint64_t id = in.need_uint<uint64_t>("warp id");
            const uint64_t n = in.need_uint<uint64_t>("instruction count");
            auto it = std::lower_bound(by_id.begin(), by_id.end(), std::make_pair(id, size_t(0)));
            if (it == by_id.end() || it->first != id)
                in.fail(fmt::format("warp {} is not listed in {}", id, trace_txt));
            MacSimWarpEntry& w = k.warps[it->second];
            if (w.instructions_known) in.fail(fmt::format("warp {} listed twice", id));
            w.instructions = n;
            w.instructions_known = true;
        }
        std::string_view extra;
        if (in.next(extra)) in.fail(fmt::format("unexpected '{}' after the {} warps", extra, k.warps.size()));
    }
    return k;
}

}  // namespace zng::importers
