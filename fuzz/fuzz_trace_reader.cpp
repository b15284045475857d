// The .ztr reader, as `zngsim trace info` reads a file (open_trace, then every record
// through summarize). An input starting with the file magic is written as the file
// itself; any other input is the decompressed stream, wrapped here into a file (magic,
// version, one zstd frame) with its last 8 bytes replaced by the XXH64 of the bytes
// before them, so that mutations reach the record parser and the footer's checksum does
// not refuse every input that parses. A malformed trace must be a TraceError; anything
// else thrown, a crash, a sanitizer report, a hang or more memory than the fuzzer's limit
// is a finding.
#include <zstd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "traces/trace_file_format.hpp"
#include "traces/trace_summary.hpp"
#include "traces/xxhash64.hpp"

namespace {

std::string wrap_stream(const uint8_t* data, size_t size) {
    using namespace zng::trace;
    std::string stream(reinterpret_cast<const char*>(data), size);
    if (size >= 8) {
        Xxh64 h;
        h.update(data, size - 8);
        const uint64_t sum = h.digest();
        for (int i = 0; i < 8; ++i) stream[size - 8 + i] = static_cast<char>(sum >> (8 * i));
    }
    std::string file(ztr::kMagic, sizeof(ztr::kMagic));
    for (int i = 0; i < 4; ++i) file.push_back(static_cast<char>(ztr::kFormatVersion >> (8 * i)));
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    std::string frame(ZSTD_compressBound(size), '\0');
    const size_t n = ZSTD_compress2(c, frame.data(), frame.size(), stream.data(), stream.size());
    ZSTD_freeCCtx(c);
    if (ZSTD_isError(n)) zng::fuzz::unexpected_exception("fuzz_trace_reader", ZSTD_getErrorName(n));
    file.append(frame.data(), n);
    return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const zng::fuzz::CpuTimeLimit cpu_limit;
    using namespace zng;
    const auto path = fuzz::scratch_dir() / "input.ztr";
    if (size >= sizeof(trace::ztr::kMagic) && std::memcmp(data, trace::ztr::kMagic, sizeof(trace::ztr::kMagic)) == 0)
        fuzz::write_file(path, std::string_view(reinterpret_cast<const char*>(data), size));
    else
        fuzz::write_file(path, wrap_stream(data, size));
    try {
        auto src = trace::open_trace(path.string());
        (void)trace::summarize(*src);
    } catch (const trace::TraceError& e) {
        fuzz::refused(e.what());
    } catch (const std::exception& e) {
        fuzz::unexpected_exception("fuzz_trace_reader", e.what());
    }
    return 0;
}
