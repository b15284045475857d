#include "traces/importers/byte_stream.hpp"

#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "traces/trace.hpp"

namespace zng::importers {

using trace::TraceError;

namespace {

std::string errno_text() { return std::strerror(errno); }

class PlainStream final : public ByteStream {
public:
    explicit PlainStream(std::string path) : path_(std::move(path)) {
        file_ = std::fopen(path_.c_str(), "rb");
        if (!file_) throw TraceError(fmt::format("{}: cannot open: {}", path_, errno_text()));
    }
    ~PlainStream() override { std::fclose(file_); }
    PlainStream(const PlainStream&) = delete;
    PlainStream& operator=(const PlainStream&) = delete;

    size_t read(void* dst, size_t size) override {
        const size_t n = std::fread(dst, 1, size, file_);
        if (n < size && std::ferror(file_)) throw TraceError(fmt::format("{}: read error: {}", path_, errno_text()));
        return n;
    }
    const std::string& path() const override { return path_; }

private:
    std::string path_;
    std::FILE* file_ = nullptr;
};

// Decoder memory cap: xz files written with the largest standard presets need 64 MiB;
// anything far beyond that is a corrupt or hostile header, not a trace.
constexpr uint64_t kXzMemoryLimit = uint64_t(1) << 30;

class XzStream final : public ByteStream {
public:
    explicit XzStream(const std::string& path) : raw_(path), in_buf_(1 << 16) {
        const lzma_ret r = lzma_stream_decoder(&strm_, kXzMemoryLimit, LZMA_CONCATENATED);
        if (r != LZMA_OK) throw TraceError(fmt::format("{}: cannot start the xz decoder (code {})", path, int(r)));
    }
    ~XzStream() override { lzma_end(&strm_); }
    XzStream(const XzStream&) = delete;
    XzStream& operator=(const XzStream&) = delete;

    size_t read(void* dst, size_t size) override {
        if (finished_ || size == 0) return 0;
        strm_.next_out = static_cast<uint8_t*>(dst);
        strm_.avail_out = size;
        while (strm_.avail_out == size) {
            if (strm_.avail_in == 0 && !input_done_) {
                strm_.next_in = in_buf_.data();
                strm_.avail_in = raw_.read(in_buf_.data(), in_buf_.size());
                if (strm_.avail_in == 0) input_done_ = true;
            }
            const lzma_ret r = lzma_code(&strm_, input_done_ ? LZMA_FINISH : LZMA_RUN);
            if (r == LZMA_STREAM_END) {
                finished_ = true;
                break;
            }
            if (r != LZMA_OK) throw TraceError(fmt::format("{}: {}", path(), describe(r)));
            if (input_done_ && strm_.avail_out == size)
                throw TraceError(fmt::format("{}: xz data ends early (truncated file)", path()));
        }
        return size - strm_.avail_out;
    }
    const std::string& path() const override { return raw_.path(); }

private:
    static std::string describe(lzma_ret r) {
        switch (r) {
            case LZMA_MEM_ERROR: return "out of memory while decoding xz";
            case LZMA_MEMLIMIT_ERROR: return "xz data needs more than 1 GiB of decoder memory";
            case LZMA_FORMAT_ERROR: return "not an xz file";
            case LZMA_OPTIONS_ERROR: return "unsupported xz options";
            case LZMA_DATA_ERROR: return "corrupt xz data";
            case LZMA_BUF_ERROR: return "xz data ends early (truncated file)";
            default: return fmt::format("xz decoder error (code {})", int(r));
        }
    }

    PlainStream raw_;
    std::vector<uint8_t> in_buf_;
    lzma_stream strm_ = LZMA_STREAM_INIT;
    bool input_done_ = false;
    bool finished_ = false;
};

class GzipStream final : public ByteStream {
public:
    explicit GzipStream(std::string path) : path_(std::move(path)) {
        errno = 0;
        file_ = gzopen(path_.c_str(), "rb");
        if (!file_)  // zlib leaves errno set when the file itself could not be opened
            throw TraceError(fmt::format("{}: cannot open: {}", path_, errno ? errno_text() : "zlib out of memory"));
        // MacSim warp streams are mostly small; a modest buffer keeps opening cheap.
        gzbuffer(file_, 1 << 15);
        // zlib reads a file without the gzip signature as plain bytes ("transparent"
        // mode); a stream that must be gzip would then fail later as a wrong-sized
        // record. An empty file holds no stream and no records either way.
        std::error_code ec;
        if (gzdirect(file_) && std::filesystem::file_size(path_, ec) > 0 && !ec) {
            gzclose(file_);
            throw TraceError(fmt::format("{}: not gzip data (no gzip signature 1f 8b at its start)", path_));
        }
    }
    ~GzipStream() override { gzclose(file_); }
    GzipStream(const GzipStream&) = delete;
    GzipStream& operator=(const GzipStream&) = delete;

    size_t read(void* dst, size_t size) override {
        size_t total = 0;
        auto* out = static_cast<uint8_t*>(dst);
        while (total < size) {
            const unsigned chunk = static_cast<unsigned>(std::min<size_t>(size - total, 1u << 30));
            const int n = gzread(file_, out + total, chunk);
            if (n < 0) {
                int code = 0;
                const char* msg = gzerror(file_, &code);
                throw TraceError(fmt::format("{}: gzip data unreadable: {}", path_, msg ? msg : "unknown error"));
            }
            if (n == 0) {
                // zlib hands out what a cut-off stream held and then reports end of
                // file; only gzerror tells that the end came early.
                int code = Z_OK;
                gzerror(file_, &code);
                if (code == Z_BUF_ERROR)
                    throw TraceError(fmt::format("{}: gzip data ends early (truncated file)", path_));
                break;
            }
            total += static_cast<size_t>(n);
        }
        return total;
    }
    const std::string& path() const override { return path_; }

private:
    std::string path_;
    gzFile file_ = nullptr;
};

}  // namespace

std::unique_ptr<ByteStream> open_plain_stream(const std::string& path) { return std::make_unique<PlainStream>(path); }
std::unique_ptr<ByteStream> open_xz_stream(const std::string& path) { return std::make_unique<XzStream>(path); }
std::unique_ptr<ByteStream> open_gzip_stream(const std::string& path) { return std::make_unique<GzipStream>(path); }

std::unique_ptr<ByteStream> open_stream_by_name(const std::string& path) {
    if (path.ends_with(".xz")) return open_xz_stream(path);
    if (path.ends_with(".gz")) return open_gzip_stream(path);
    return open_plain_stream(path);
}

size_t read_fully(ByteStream& in, void* dst, size_t size) {
    size_t total = 0;
    auto* out = static_cast<uint8_t*>(dst);
    while (total < size) {
        const size_t n = in.read(out + total, size - total);
        if (n == 0) break;
        total += n;
    }
    return total;
}

}  // namespace zng::importers
