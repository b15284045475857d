// The Accel-Sim and MacSim importers (built once for each, ZNG_FUZZ_FORMAT naming the
// ForeignFormat): a trace directory unpacked from the input (see unpack_archive) and
// imported as `zngsim run --trace-format accelsim|macsim DIR` does. Accel-Sim's holds
// kernelslist.g and kernel-N.traceg[.xz]; MacSim's kernel_config.txt, <kernel>/trace.txt
// and gzip'd <kernel>/trace_<warp id>.raw. A malformed trace must be a TraceError;
// anything else thrown, a crash, a sanitizer report, a hang or more memory than the
// fuzzer's limit is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "traces/importers/importers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const zng::fuzz::CpuTimeLimit cpu_limit;
    using namespace zng;
    constexpr auto kFormat = importers::ForeignFormat::ZNG_FUZZ_FORMAT;
    const auto dir = fuzz::scratch_dir() / importers::to_string(kFormat);
    if (!fuzz::unpack_archive(std::string_view(reinterpret_cast<const char*>(data), size), dir)) return 0;
    try {
        importers::ImportReport report;
        auto src = importers::open_foreign_trace(kFormat, dir.string(), &report);
        fuzz::consume(*src);
        (void)report.warnings();
    } catch (const trace::TraceError& e) {
        fuzz::refused(e.what());
    } catch (const std::exception& e) {
        fuzz::unexpected_exception(importers::to_string(kFormat), e.what());
    }
    return 0;
}
