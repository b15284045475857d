// Decompresses a small, well-formed gzip file in one go: the file read into a reused
// buffer, each member inflated by libdeflate's whole-buffer decompressor. zlib's gzip
// reader (open_gzip_stream) costs each file an lseek, its own 96 KiB of buffers and a
// fresh inflate state; a MacSim trace keeps every warp in a gzip file of a few hundred
// bytes (6,144 files for vectormultadd 65536), and those per-file costs were most of the
// time its import took. libdeflate rather than zlib's inflate: it decodes a whole member
// at once without zlib's streaming state machine, and its CRC-32 uses the host's
// carry-less multiply, which took a quarter off the time of inflating those 6,144 files.
//
// Only the plain case is taken: the file opens and reads, holds fewer than
// kMaxCompressed bytes, and is one or more complete gzip members with nothing after
// them, none with a header CRC (zlib checks it, libdeflate skips it), decompressing to
// at most `cap` bytes. Anything else (a missing or unreadable file, plain, corrupt or
// cut-off data, bytes after the last member, a larger file) returns false with `out`
// as it was, and the caller opens the file with open_gzip_stream, which then yields its
// usual bytes and errors: the result of a read never depends on which path took it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct libdeflate_decompressor;

namespace zng::importers {

class GzipWholeFile {
public:
    static constexpr size_t kMaxCompressed = 64u << 10;

    GzipWholeFile();
    ~GzipWholeFile();
    GzipWholeFile(const GzipWholeFile&) = delete;
    GzipWholeFile& operator=(const GzipWholeFile&) = delete;

    // Appends the decompressed bytes of `path` to `out` and returns true, or returns
    // false (out unchanged) when the file is not of the plain case above.
    bool read(const std::string& path, size_t cap, std::vector<uint8_t>& out);

private:
    // Fills in_ with the file's bytes; false when it cannot, or it holds kMaxCompressed or more.
    bool load(const std::string& path);
    bool inflate_members(size_t cap, std::vector<uint8_t>& out);

    libdeflate_decompressor* decompressor_ = nullptr;  // null when it could not be allocated
    std::vector<uint8_t> in_;
    size_t in_size_ = 0;
};

}  // namespace zng::importers
