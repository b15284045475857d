// Decompresses a small, well-formed gzip file in one go: the file read into a reused
// buffer, inflated by one reused zlib stream. zlib's gzip reader (open_gzip_stream)
// costs each file an lseek, its own 96 KiB of buffers and a fresh inflate state; a
// MacSim trace keeps every warp in a gzip file of a few hundred bytes (6,144 files for
// vectormultadd 65536), and those per-file costs were most of the time its import took.
//
// Only the plain case is taken: the file opens and reads, holds fewer than
// kMaxCompressed bytes, and is one or more complete gzip members with nothing after
// them, decompressing to at most `cap` bytes. Anything else (a missing or unreadable
// file, plain, corrupt or cut-off data, bytes after the last member, a larger file)
// returns false with `out` as it was, and the caller opens the file with
// open_gzip_stream, which then yields its usual bytes and errors: the result of a read
// never depends on which path took it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <zlib.h>

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

    z_stream strm_{};
    bool ready_ = false;  // inflateInit2 succeeded
    std::vector<uint8_t> in_;
    size_t in_size_ = 0;
};

}  // namespace zng::importers
