// What the fuzz targets share: a scratch directory of their own, writers of plain, gzip
// and xz files, a small text archive that turns one fuzz input into a directory of
// trace files, and the full read of a TraceSource.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "traces/trace.hpp"

namespace zng::fuzz {

// A directory under $TMPDIR made on first use and removed when the process exits.
// Every target writes its input there, since the loaders it drives read files.
const std::filesystem::path& scratch_dir();

void write_file(const std::filesystem::path& path, std::string_view bytes);
void write_gzip(const std::filesystem::path& path, std::string_view bytes);
void write_xz(const std::filesystem::path& path, std::string_view bytes);

// The archive the importer targets read (fuzz/pack_seeds.py writes it):
//   "=== <relative path>\n" <content> { "\n=== <relative path>\n" <content> }*
// A file's content runs to the next "\n=== " or to the end of the input. Paths are up to
// three components of [A-Za-z0-9_.-] (no "." or ".."). A name ending in ".raw" is written
// gzip'd and one ending in ".xz" xz'd, as the tracers store them, so that mutations act
// on the decompressed bytes. Empties `dir` and unpacks the input into it; false (nothing
// to import) when the input is not such an archive or holds more than kMaxArchiveFiles.
constexpr size_t kMaxArchiveFiles = 256;
bool unpack_archive(std::string_view input, const std::filesystem::path& dir);

// Reads every kernel, CTA and record of `src` (decoding each record), as a run does.
void consume(trace::TraceSource& src);

// An input refused as the loader should refuse it: printed when ZNG_FUZZ_VERBOSE is set
// (to see why a seed does not load), silent otherwise.
void refused(const char* what);

// Aborts the process (a finding, saved by libFuzzer) when the input being run has used
// more than kCpuSecondsPerInput of CPU time: libFuzzer's -timeout counts wall time, which
// on a loaded machine (fuzzers run at nice 19 beside other work) flags inputs that
// merely waited for a CPU. Constructed around each input.
constexpr int kCpuSecondsPerInput = 10;
class CpuTimeLimit {
public:
    CpuTimeLimit();
    ~CpuTimeLimit();
    CpuTimeLimit(const CpuTimeLimit&) = delete;
    CpuTimeLimit& operator=(const CpuTimeLimit&) = delete;
};

// A finding: prints what was thrown and aborts, so that libFuzzer saves the input.
[[noreturn]] void unexpected_exception(const char* target, const char* what);

}  // namespace zng::fuzz
