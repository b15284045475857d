#include "traces/importers/gzip_whole_file.hpp"

#include <fcntl.h>
#include <libdeflate.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace zng::importers {

namespace {

// A gzip member starts with its signature (1f 8b), compression method 8 (deflate) and a
// flag byte (RFC 1952, 2.3.1). FHCRC (bit 1): a CRC-16 of the header, which zlib checks
// and libdeflate skips, so such members are left to zlib.
constexpr size_t kHeaderBytes = 10;
constexpr uint8_t kHeaderCrcFlag = 0x02;

bool gzip_signature(const uint8_t* p, size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

bool plain_member_start(const uint8_t* p, size_t n) {
    return n >= kHeaderBytes && gzip_signature(p, n) && (p[3] & kHeaderCrcFlag) == 0;
}

}  // namespace

GzipWholeFile::GzipWholeFile() : decompressor_(libdeflate_alloc_decompressor()), in_(kMaxCompressed) {}

GzipWholeFile::~GzipWholeFile() { libdeflate_free_decompressor(decompressor_); }

bool GzipWholeFile::read(const std::string& path, size_t cap, std::vector<uint8_t>& out) {
    if (!decompressor_ || !load(path)) return false;
    const size_t start = out.size();
    if (inflate_members(cap, out)) return true;
    out.resize(start);
    return false;
}

bool GzipWholeFile::load(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    in_size_ = 0;
    bool ok = true;
    for (;;) {
        const ssize_t n = ::read(fd, in_.data() + in_size_, in_.size() - in_size_);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        in_size_ += static_cast<size_t>(n);
        if (in_size_ == in_.size()) {  // kMaxCompressed or more: not a small file
            ok = false;
            break;
        }
    }
    ::close(fd);
    return ok;
}

bool GzipWholeFile::inflate_members(size_t cap, std::vector<uint8_t>& out) {
    // The smallest gzip member is 18 bytes (10 of header, an empty block, 8 of trailer).
    if (in_size_ < 18) return false;
    const size_t limit = out.size() + std::min<size_t>(cap, size_t{1} << 40);  // out may not pass it
    size_t pos = out.size();
    // The first room: the length in the last member's trailer (a single member's whole
    // length, modulo 2^32), so the usual file is inflated into room of its own size.
    const uint8_t* isize = in_.data() + in_size_ - 4;
    size_t guess = std::max<size_t>(1, isize[0] | isize[1] << 8 | isize[2] << 16 | size_t{isize[3]} << 24);
    const uint8_t* in = in_.data();
    size_t left = in_size_;
    while (left > 0) {  // one gzip member a pass; another may follow, as gzread reads them
        if (!plain_member_start(in, left)) return false;
        size_t room = std::min(guess, limit - pos);
        size_t used = 0, produced = 0;
        for (;;) {  // a member that outgrows its room is inflated again into more
            out.resize(pos + room);
            const libdeflate_result rc =
                libdeflate_gzip_decompress_ex(decompressor_, in, left, out.data() + pos, room, &used, &produced);
            if (rc == LIBDEFLATE_SUCCESS) break;
            // Bad or cut-off data, or more than the cap allows.
            if (rc != LIBDEFLATE_INSUFFICIENT_SPACE || room == limit - pos) return false;
            room = std::min(limit - pos, std::max<size_t>(4096, 2 * room));
        }
        pos += produced;
        in += used;
        left -= used;
        guess = std::max<size_t>(4096, 4 * left);
    }
    out.resize(pos);
    return true;
}

}  // namespace zng::importers
