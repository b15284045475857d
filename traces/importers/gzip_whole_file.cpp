#include "traces/importers/gzip_whole_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace zng::importers {

namespace {

bool gzip_signature(const uint8_t* p, size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

}  // namespace

GzipWholeFile::GzipWholeFile() : in_(kMaxCompressed) {
    // 15 + 16: a 32 KiB window, and a gzip wrapper whose CRC-32 and length are checked.
    ready_ = inflateInit2(&strm_, 15 + 16) == Z_OK;
}

GzipWholeFile::~GzipWholeFile() {
    if (ready_) inflateEnd(&strm_);
}

bool GzipWholeFile::read(const std::string& path, size_t cap, std::vector<uint8_t>& out) {
    if (!ready_ || !load(path)) return false;
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
    if (in_size_ < 18 || !gzip_signature(in_.data(), in_size_)) return false;
    const size_t limit = out.size() + std::min<size_t>(cap, size_t{1} << 40);  // out may not pass it
    size_t pos = out.size();
    // The first room: the length in the last member's trailer (a single member's whole
    // length, modulo 2^32), so the usual file is inflated into room of its own size.
    const uint8_t* isize = in_.data() + in_size_ - 4;
    size_t grow = std::max<size_t>(1, isize[0] | isize[1] << 8 | isize[2] << 16 | size_t{isize[3]} << 24);
    strm_.next_in = in_.data();
    strm_.avail_in = static_cast<uInt>(in_size_);
    for (;;) {  // one gzip member a pass
        if (inflateReset(&strm_) != Z_OK) return false;
        int rc = Z_OK;
        while (rc == Z_OK) {
            if (pos == out.size()) {  // room for more; one byte past the limit shows it was passed
                out.resize(std::min(out.size() + grow, limit + 1));
                grow = std::max<size_t>(4096, 4 * size_t{strm_.avail_in});
            }
            strm_.next_out = out.data() + pos;
            strm_.avail_out = static_cast<uInt>(out.size() - pos);
            rc = inflate(&strm_, Z_NO_FLUSH);
            pos = out.size() - strm_.avail_out;
            if (pos > limit) return false;
        }
        // Z_BUF_ERROR here: the input ended inside the member (a cut-off file).
        if (rc != Z_STREAM_END) return false;
        if (strm_.avail_in == 0) break;
        // Another member may follow (as gzread reads them); other bytes are left to it.
        if (!gzip_signature(strm_.next_in, strm_.avail_in)) return false;
    }
    out.resize(pos);
    return true;
}

}  // namespace zng::importers
