// Sequential byte sources for foreign trace files: plain files, xz (liblzma) and gzip
// (zlib). Every stream reads through a fixed buffer, so a file of any size costs the
// same memory.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace zng::importers {

class ByteStream {
public:
    virtual ~ByteStream() = default;
    // Reads up to `size` bytes; returns 0 only at the end of the data. Throws
    // TraceError naming the file when the data is unreadable or corrupt.
    virtual size_t read(void* dst, size_t size) = 0;
    virtual const std::string& path() const = 0;
};

// Opens `path` as plain bytes.
std::unique_ptr<ByteStream> open_plain_stream(const std::string& path);
// Opens `path` as an .xz container and yields the decompressed bytes.
std::unique_ptr<ByteStream> open_xz_stream(const std::string& path);
// Opens `path` with zlib's gzip reader (which also passes plain files through).
std::unique_ptr<ByteStream> open_gzip_stream(const std::string& path);
// Picks the decoder from the file name: ".xz" -> xz, ".gz" -> gzip, otherwise plain.
std::unique_ptr<ByteStream> open_stream_by_name(const std::string& path);

// Reads exactly `size` bytes unless the stream ends first; returns the count read.
size_t read_fully(ByteStream& in, void* dst, size_t size);

}  // namespace zng::importers
