// Streaming reader of .ztr files (layout in trace_file_format.hpp). Memory is two
// fixed zstd buffers plus the CTA being returned; lengths read from the file are
// checked against caps, and byte blocks grow only as real data arrives, so a corrupt
// length can never trigger a large allocation. Every record is decoded once here so
// that errors are reported with their position and the footer totals can be checked.
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>

#include "traces/cta_builder.hpp"
#include "traces/trace.hpp"
#include "traces/trace_file_format.hpp"
#include "traces/varint.hpp"
#include "traces/warp_scan.hpp"
#include "traces/xxhash64.hpp"

namespace zng::trace {

namespace {

class TraceFileReader final : public TraceSource {
public:
    explicit TraceFileReader(std::string path);
    TraceFileReader(const TraceFileReader&) = delete;
    TraceFileReader& operator=(const TraceFileReader&) = delete;

    const TraceHeader& header() const override { return header_; }
    bool next_kernel(KernelInfo& k) override;
    bool next_cta(CtaTrace& cta) override;
    std::string describe() const override { return path_; }

private:
    enum class State { BetweenKernels, InKernel, Done, Failed };

    [[noreturn]] void fail(const std::string& msg);
    [[noreturn]] void fail_end_of_data(const char* what);
    void check_usable() const;

    // --- uncompressed stream access ---
    bool refill();
    void sync_hash();
    uint64_t offset() const { return buffer_offset_ + out_pos_; }
    uint8_t get_byte(const char* what);
    uint64_t get_varint(const char* what);
    uint32_t get_u32(const char* what);
    std::string get_string(const char* what);
    void append_bytes(std::vector<uint8_t>& dst, uint64_t n, const char* what);
    void check_end_of_file();

    void read_prefix();
    void read_header();
    void read_kernel(KernelInfo& k);
    void read_footer();

    struct FileCloser {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    struct DctxFreer {
        void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
    };

    std::string path_;
    std::unique_ptr<std::FILE, FileCloser> file_;
    std::unique_ptr<ZSTD_DCtx, DctxFreer> dctx_;
    std::vector<uint8_t> zin_;
    std::vector<uint8_t> zout_;
    ZSTD_inBuffer in_{nullptr, 0, 0};
    bool file_eof_ = false;
    bool frame_done_ = false;
    size_t out_pos_ = 0;
    size_t out_end_ = 0;
    size_t hash_pos_ = 0;          // bytes of zout_ already hashed
    uint64_t buffer_offset_ = 0;   // stream offset of zout_[0]
    Xxh64 hash_;

    uint32_t version_ = 0;         // format version of the file
    TraceHeader header_;
    State state_ = State::BetweenKernels;
    KernelInfo kernel_;
    uint64_t kernel_ctas_ = 0;
    int64_t warp_ = -1;            // warp being read, for error messages
    const char* section_ = "header";   // outside kernels: "header" or "footer"
    uint64_t kernels_ = 0, ctas_ = 0, warps_ = 0, records_ = 0, instructions_ = 0;
};

TraceFileReader::TraceFileReader(std::string path) : path_(std::move(path)) {
    file_.reset(std::fopen(path_.c_str(), "rb"));
    if (!file_) throw TraceError(fmt::format("{}: cannot open trace: {}", path_, std::strerror(errno)));
    dctx_.reset(ZSTD_createDCtx());
    if (!dctx_) fail("cannot create a zstd decompression context");
    ZSTD_DCtx_setParameter(dctx_.get(), ZSTD_d_windowLogMax, ztr::kReaderMaxWindowLog);
    zin_.resize(ZSTD_DStreamInSize());
    zout_.resize(ZSTD_DStreamOutSize());
    read_prefix();
    read_header();
}

void TraceFileReader::fail(const std::string& msg) {
    std::string where;
    if (section_ != nullptr) {
        where = fmt::format("{}, ", section_);
    } else {
        where = fmt::format("kernel {} '{}'", kernels_ == 0 ? 0 : kernels_ - 1, kernel_.name);
        if (state_ == State::InKernel || warp_ >= 0) where += fmt::format(", CTA #{}", kernel_ctas_);
        if (warp_ >= 0) where += fmt::format(", warp {}", warp_);
        where += ", ";
    }
    state_ = State::Failed;
    throw TraceError(fmt::format("{}: {}stream offset {}: {}", path_, where, offset(), msg));
}

void TraceFileReader::fail_end_of_data(const char* what) {
    if (!frame_done_)
        fail(fmt::format("file is truncated (compressed stream ends while reading {})", what));
    fail(fmt::format("stream ends while reading {} (footer missing)", what));
}

void TraceFileReader::check_usable() const {
    if (state_ == State::Failed) throw TraceError(path_ + ": trace reader used after an error");
}

bool TraceFileReader::refill() {
    sync_hash();
    buffer_offset_ += out_end_;
    out_pos_ = out_end_ = hash_pos_ = 0;
    while (!frame_done_) {
        if (in_.pos == in_.size && !file_eof_) {
            const size_t n = std::fread(zin_.data(), 1, zin_.size(), file_.get());
            if (n == 0) {
                if (std::ferror(file_.get())) fail(fmt::format("read error: {}", std::strerror(errno)));
                file_eof_ = true;
            }
            in_ = ZSTD_inBuffer{zin_.data(), n, 0};
        }
        ZSTD_outBuffer out{zout_.data(), zout_.size(), 0};
        const size_t ret = ZSTD_decompressStream(dctx_.get(), &out, &in_);
        if (ZSTD_isError(ret)) fail(fmt::format("corrupt compressed data: {}", ZSTD_getErrorName(ret)));
        if (ret == 0) frame_done_ = true;
        if (out.pos > 0) {
            out_end_ = out.pos;
            return true;
        }
        if (in_.pos == in_.size && file_eof_) return false;
    }
    return false;
}

void TraceFileReader::sync_hash() {
    hash_.update(zout_.data() + hash_pos_, out_pos_ - hash_pos_);
    hash_pos_ = out_pos_;
}

uint8_t TraceFileReader::get_byte(const char* what) {
    if (out_pos_ == out_end_ && !refill()) fail_end_of_data(what);
    return zout_[out_pos_++];
}

uint64_t TraceFileReader::get_varint(const char* what) {
    uint8_t buf[varint::kMaxBytes];
    size_t n = 0;
    do {
        buf[n] = get_byte(what);
    } while (buf[n++] >= 0x80 && n < varint::kMaxBytes);
    const uint8_t* p = buf;
    uint64_t v = 0;
    if (varint::get(p, buf + n, v) != varint::Status::Ok) fail(fmt::format("overlong varint in {}", what));
    return v;
}

uint32_t TraceFileReader::get_u32(const char* what) {
    const uint64_t v = get_varint(what);
    if (v > UINT32_MAX) fail(fmt::format("{} {} does not fit 32 bits", what, v));
    return static_cast<uint32_t>(v);
}

std::string TraceFileReader::get_string(const char* what) {
    const uint64_t n = get_varint(what);
    if (n > ztr::kMaxNameBytes) fail(fmt::format("{} is {} bytes long (at most {})", what, n, ztr::kMaxNameBytes));
    std::string s(n, '\0');
    for (auto& c : s) c = static_cast<char>(get_byte(what));
    return s;
}

void TraceFileReader::append_bytes(std::vector<uint8_t>& dst, uint64_t n, const char* what) {
    while (n > 0) {
        if (out_pos_ == out_end_ && !refill()) fail_end_of_data(what);
        const size_t take = static_cast<size_t>(std::min<uint64_t>(n, out_end_ - out_pos_));
        dst.insert(dst.end(), zout_.data() + out_pos_, zout_.data() + out_pos_ + take);
        out_pos_ += take;
        n -= take;
    }
}

void TraceFileReader::read_prefix() {
    uint8_t prefix[ztr::kPrefixBytes];
    const size_t n = std::fread(prefix, 1, sizeof(prefix), file_.get());
    if (n < sizeof(prefix) && std::ferror(file_.get())) fail(fmt::format("read error: {}", std::strerror(errno)));
    if (n < sizeof(ztr::kMagic) || std::memcmp(prefix, ztr::kMagic, sizeof(ztr::kMagic)) != 0)
        throw TraceError(fmt::format("{}: not a zngsim trace (the file does not start with \"ZNGTRACE\")", path_));
    if (n < sizeof(prefix)) throw TraceError(fmt::format("{}: file is truncated inside its format version", path_));
    uint32_t version = 0;
    for (int i = 0; i < 4; ++i) version |= uint32_t(prefix[sizeof(ztr::kMagic) + i]) << (8 * i);
    if (version > ztr::kFormatVersion)
        throw TraceError(fmt::format("{}: trace format version {} is newer than this zngsim reads (version {}); "
                                     "read it with a newer zngsim",
                                     path_, version, ztr::kFormatVersion));
    if (version == 0) throw TraceError(fmt::format("{}: invalid trace format version 0", path_));
    if (version < ztr::kOldestReadableVersion)
        throw TraceError(fmt::format("{}: trace format version {} is no longer read (oldest readable: {}); "
                                     "regenerate the trace",
                                     path_, version, ztr::kOldestReadableVersion));
    version_ = version;
}

void TraceFileReader::read_header() {
    if (get_byte("the header tag") != ztr::kHeaderTag) fail("missing header tag");
    header_.workload = get_string("workload name");
    header_.source = get_string("source name");
    const uint64_t arrays = get_varint("array count");
    if (arrays > ztr::kMaxArrays) fail(fmt::format("{} arrays (at most {})", arrays, ztr::kMaxArrays));
    for (uint64_t i = 0; i < arrays; ++i) {
        ArrayInfo a;
        a.name = get_string("array name");
        a.base = get_varint("array base");
        a.size = get_varint("array size");
        header_.arrays.push_back(std::move(a));
    }
}

void TraceFileReader::read_kernel(KernelInfo& k) {
    KernelInfo info;
    info.name = get_string("kernel name");
    kernel_.name = info.name;   // for error messages from here on
    info.grid.x = get_u32("grid.x");
    info.grid.y = get_u32("grid.y");
    info.grid.z = get_u32("grid.z");
    info.block.x = get_u32("block.x");
    info.block.y = get_u32("block.y");
    info.block.z = get_u32("block.z");
    info.shared_mem_bytes = get_u32("shared memory size");
    info.regs_per_thread = get_u32("registers per thread");
    if (std::string problem = ztr::kernel_info_problem(info); !problem.empty()) fail(problem);
    kernel_ = info;
    k = std::move(info);
}

bool TraceFileReader::next_kernel(KernelInfo& k) {
    check_usable();
    if (state_ == State::Done) return false;
    if (state_ == State::InKernel) {
        CtaTrace skipped;
        while (next_cta(skipped)) {
        }
    }
    const uint8_t tag = get_byte("a kernel or the footer");
    if (tag == ztr::kFooterTag) {
        section_ = "footer";
        read_footer();
        state_ = State::Done;
        return false;
    }
    if (tag != ztr::kKernelTag) fail(fmt::format("expected a kernel or the footer, found tag 0x{:02x}", tag));
    ++kernels_;
    kernel_ctas_ = 0;
    kernel_.name.clear();
    section_ = nullptr;
    read_kernel(k);
    state_ = State::InKernel;
    return true;
}

bool TraceFileReader::next_cta(CtaTrace& cta) {
    check_usable();
    if (state_ != State::InKernel) return false;
    const uint8_t tag = get_byte("a CTA or the end of the kernel");
    if (tag == ztr::kKernelEndTag) {
        const uint64_t count = get_varint("kernel CTA count");
        if (count != kernel_ctas_)
            fail(fmt::format("kernel end says {} CTAs but {} were read", count, kernel_ctas_));
        state_ = State::BetweenKernels;
        return false;
    }
    if (tag != ztr::kCtaTag) fail(fmt::format("expected a CTA or the end of the kernel, found tag 0x{:02x}", tag));

    const uint64_t cta_id = get_varint("CTA id");
    if (cta_id >= kernel_.grid.count())
        fail(fmt::format("CTA id {} outside the grid of {} CTAs", cta_id, kernel_.grid.count()));
    const uint64_t warps = get_varint("warp count");
    if (warps != kernel_.warps_per_cta())
        fail(fmt::format("CTA {} has {} warps, the block needs {}", cta_id, warps, kernel_.warps_per_cta()));
    const uint64_t declared_records = get_varint("record count");

    cta.cta_id = cta_id;
    cta.records = 0;
    cta.warps.resize(warps);
    uint64_t cta_bytes = 0;
    uint64_t cta_instructions = 0;
    for (warp_ = 0; warp_ < static_cast<int64_t>(warps); ++warp_) {
        const uint64_t len = get_varint("warp byte length");
        cta_bytes += len;
        if (len > ztr::kMaxCtaBytes || cta_bytes > ztr::kMaxCtaBytes)
            fail(fmt::format("CTA {} holds more than {} bytes of records", cta_id, ztr::kMaxCtaBytes));
        auto& bytes = cta.warps[warp_];
        bytes.clear();
        const uint64_t start = offset();
        append_bytes(bytes, len, "warp records");
        WarpScan s;
        try {
            s = scan_warp(bytes.data(), bytes.size());
        } catch (const TraceError& e) {
            fail(fmt::format("{} (warp records start at stream offset {})", e.what(), start));
        }
        if (!s.ends_with_exit) fail("warp does not end with an exit record");
        if (s.io_records != 0 && version_ < ztr::kFirstIoVersion)
            fail(fmt::format("warp holds I/O or phase records, which format version {} does not have (they came "
                             "with version {})",
                             version_, ztr::kFirstIoVersion));
        cta.records += s.records;
        cta_instructions += s.instructions;
    }
    warp_ = -1;
    if (cta.records != declared_records)
        fail(fmt::format("CTA {} declares {} records but its warps hold {}", cta_id, declared_records, cta.records));
    ++kernel_ctas_;
    ++ctas_;
    warps_ += warps;
    records_ += cta.records;
    instructions_ += cta_instructions;
    return true;
}

void TraceFileReader::read_footer() {
    const char* names[] = {"kernels", "CTAs", "warps", "records", "instructions"};
    const uint64_t read[] = {kernels_, ctas_, warps_, records_, instructions_};
    uint64_t stored[5];
    for (int i = 0; i < 5; ++i) stored[i] = get_varint("footer totals");
    for (int i = 0; i < 5; ++i)
        if (stored[i] != read[i])
            fail(fmt::format("footer says {} {} but {} were read", stored[i], names[i], read[i]));
    sync_hash();
    const uint64_t computed = hash_.digest();
    uint64_t checksum = 0;
    for (int i = 0; i < 8; ++i) checksum |= uint64_t(get_byte("the checksum")) << (8 * i);
    if (checksum != computed)
        fail(fmt::format("checksum mismatch: footer has {:016x}, stream hashes to {:016x}", checksum, computed));
    check_end_of_file();
}

void TraceFileReader::check_end_of_file() {
    if (out_pos_ < out_end_ || refill()) fail("unexpected data after the footer");
    if (!frame_done_) fail("file is truncated (the zstd frame is incomplete)");
    uint8_t extra;
    if (in_.pos < in_.size || std::fread(&extra, 1, 1, file_.get()) == 1)
        fail("unexpected bytes after the compressed stream");
}

}  // namespace

std::unique_ptr<TraceSource> open_trace(const std::string& path) { return std::make_unique<TraceFileReader>(path); }

}  // namespace zng::trace
