// Helpers for the importer tests: a scratch directory, writers of plain, gzip and xz
// files, and a full decode of a TraceSource into plain records.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "traces/trace.hpp"

namespace zng::importers::testing {

// A fresh directory under the system temp dir, removed with its contents on scope exit.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

void write_text(const std::string& path, const std::string& text);
void write_gzip(const std::string& path, const std::vector<uint8_t>& bytes);
// n bytes of a pattern that repeats neither within a gzip window nor across seeds.
std::vector<uint8_t> pattern_bytes(size_t n, uint8_t seed);
std::vector<uint8_t> read_gzip(const std::string& path);
void write_xz(const std::string& path, const std::string& text);

struct DecodedCta {
    uint64_t id = 0;
    std::vector<std::vector<trace::WarpRecord>> warps;
};
struct DecodedKernel {
    trace::KernelInfo info;
    std::vector<DecodedCta> ctas;
};
std::vector<DecodedKernel> decode_all(trace::TraceSource& src);

struct Totals {
    uint64_t kernels = 0, ctas = 0, warps = 0, records = 0, instructions = 0;
    uint64_t loads = 0, stores = 0, atomics = 0, barriers = 0, exits = 0, compute_records = 0;
};
Totals totals_of(const std::vector<DecodedKernel>& kernels);

}  // namespace zng::importers::testing
