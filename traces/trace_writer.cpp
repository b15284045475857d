// TraceWriter: serialises the stream described in trace_file_format.hpp and pushes it
// through one zstd stream. The file is written under a temporary name and renamed by
// finish(), so an interrupted generator never leaves a plausible-looking trace behind.
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>

#include "traces/cta_builder.hpp"
#include "traces/trace.hpp"
#include "traces/trace_file_format.hpp"
#include "traces/varint.hpp"
#include "traces/xxhash64.hpp"

namespace zng::trace {

namespace {
// Small fields are gathered here before they reach zstd; per-call overhead of
// ZSTD_compressStream2 would dominate if every varint went in on its own.
constexpr size_t kStageBytes = 64 * 1024;
}  // namespace

struct TraceWriter::Impl {
    enum class State { Idle, InKernel, InCta, Finished };

    std::string path;
    std::string temp_path;
    std::FILE* file = nullptr;
    ZSTD_CCtx* cctx = nullptr;
    std::vector<uint8_t> stage;
    std::vector<uint8_t> zout;
    Xxh64 hash;
    State state = State::Idle;

    KernelInfo kernel;
    uint64_t kernel_ctas = 0;
    CtaBuilder builder;
    CtaTrace cta;   // recycled buffers for the CTA being written

    uint64_t kernels = 0, ctas = 0, warps = 0, records = 0, instructions = 0;

    [[noreturn]] void fail(const std::string& msg) const {
        throw TraceError(fmt::format("{}: {}", path, msg));
    }

    void put_varint(uint64_t v) {
        uint8_t buf[varint::kMaxBytes];
        put_raw(buf, static_cast<size_t>(varint::put(buf, v) - buf));
    }
    void put_byte(uint8_t b) { put_raw(&b, 1); }
    void put_string(const std::string& s) {
        put_varint(s.size());
        put_raw(reinterpret_cast<const uint8_t*>(s.data()), s.size());
    }
    // Appends bytes to the stream; large blocks go to zstd directly, not via the stage.
    void put_raw(const uint8_t* p, size_t n) {
        hash.update(p, n);
        if (stage.size() + n <= kStageBytes) {
            stage.insert(stage.end(), p, p + n);
            return;
        }
        flush_stage();
        if (n <= kStageBytes)
            stage.insert(stage.end(), p, p + n);
        else
            compress(p, n, ZSTD_e_continue);
    }
    void flush_stage() {
        if (!stage.empty()) compress(stage.data(), stage.size(), ZSTD_e_continue);
        stage.clear();
    }
    void compress(const uint8_t* p, size_t n, ZSTD_EndDirective mode) {
        ZSTD_inBuffer in{p, n, 0};
        for (;;) {
            ZSTD_outBuffer out{zout.data(), zout.size(), 0};
            const size_t left = ZSTD_compressStream2(cctx, &out, &in, mode);
            if (ZSTD_isError(left)) fail(fmt::format("zstd compression failed: {}", ZSTD_getErrorName(left)));
            write_file(zout.data(), out.pos);
            const bool done = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
            if (done) return;
        }
    }
    void write_file(const void* p, size_t n) {
        if (n != 0 && std::fwrite(p, 1, n, file) != n)
            fail(fmt::format("write to {} failed: {}", temp_path, std::strerror(errno)));
    }

    void write_cta(const CtaTrace& c, uint64_t cta_instructions) {
        put_byte(ztr::kCtaTag);
        put_varint(c.cta_id);
        put_varint(c.warps.size());
        put_varint(c.records);
        for (const auto& w : c.warps) {
            put_varint(w.size());
            put_raw(w.data(), w.size());
        }
        ++kernel_ctas;
        ++ctas;
        warps += c.warps.size();
        records += c.records;
        instructions += cta_instructions;
    }

    void require(State s, const char* call) const {
        if (state != s) {
            static constexpr const char* kNames[] = {"outside a kernel", "inside a kernel", "inside a CTA",
                                                     "after finish"};
            fail(fmt::format("{} called {}", call, kNames[static_cast<int>(state)]));
        }
    }

    void close_quietly() {
        if (file != nullptr) std::fclose(file);
        file = nullptr;
        if (cctx != nullptr) ZSTD_freeCCtx(cctx);
        cctx = nullptr;
    }

    // Also runs when the constructor throws: an unfinished file is never left behind.
    ~Impl() {
        close_quietly();
        if (created_temp && state != State::Finished) std::remove(temp_path.c_str());
    }
    bool created_temp = false;
};

TraceWriter::TraceWriter(const std::string& path, const TraceHeader& header) : impl_(std::make_unique<Impl>()) {
    Impl& w = *impl_;
    w.path = path;
    w.temp_path = path + ".partial";
    if (std::string problem = ztr::header_problem(header); !problem.empty()) w.fail("invalid header: " + problem);
    w.file = std::fopen(w.temp_path.c_str(), "wb");
    if (w.file == nullptr) w.fail(fmt::format("cannot create {}: {}", w.temp_path, std::strerror(errno)));
    w.created_temp = true;
    w.cctx = ZSTD_createCCtx();
    if (w.cctx == nullptr) w.fail("cannot create a zstd compression context");
    ZSTD_CCtx_setParameter(w.cctx, ZSTD_c_compressionLevel, ztr::kDefaultCompressionLevel);
    ZSTD_CCtx_setParameter(w.cctx, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(w.cctx, ZSTD_c_windowLog, ztr::kWriterWindowLog);
    w.zout.resize(ZSTD_CStreamOutSize());
    w.stage.reserve(kStageBytes);

    uint8_t prefix[ztr::kPrefixBytes];
    std::memcpy(prefix, ztr::kMagic, sizeof(ztr::kMagic));
    for (int i = 0; i < 4; ++i) prefix[sizeof(ztr::kMagic) + i] = static_cast<uint8_t>(ztr::kFormatVersion >> (8 * i));
    w.write_file(prefix, sizeof(prefix));

    w.put_byte(ztr::kHeaderTag);
    w.put_string(header.workload);
    w.put_string(header.source);
    w.put_varint(header.arrays.size());
    for (const auto& a : header.arrays) {
        w.put_string(a.name);
        w.put_varint(a.base);
        w.put_varint(a.size);
    }
}

TraceWriter::~TraceWriter() = default;

void TraceWriter::begin_kernel(const KernelInfo& k) {
    Impl& w = *impl_;
    w.require(Impl::State::Idle, "begin_kernel");
    if (std::string problem = ztr::kernel_info_problem(k); !problem.empty())
        w.fail(fmt::format("kernel {} '{}': {}", w.kernels, k.name, problem));
    w.kernel = k;
    w.kernel_ctas = 0;
    w.put_byte(ztr::kKernelTag);
    w.put_string(k.name);
    for (uint32_t v : {k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z, k.shared_mem_bytes,
                       k.regs_per_thread})
        w.put_varint(v);
    w.state = Impl::State::InKernel;
}

void TraceWriter::begin_cta(uint64_t cta_id) {
    Impl& w = *impl_;
    w.require(Impl::State::InKernel, "begin_cta");
    if (cta_id >= w.kernel.grid.count())
        w.fail(fmt::format("kernel {} '{}': CTA id {} outside the grid of {} CTAs", w.kernels, w.kernel.name, cta_id,
                           w.kernel.grid.count()));
    w.builder.begin(cta_id, w.kernel);
    w.state = Impl::State::InCta;
}

void TraceWriter::add(uint32_t warp, const WarpRecord& r) {
    Impl& w = *impl_;
    if (w.state != Impl::State::InCta) w.require(Impl::State::InCta, "add");
    try {
        w.builder.add(warp, r);
    } catch (const TraceError& e) {
        w.fail(fmt::format("kernel {} '{}': {}", w.kernels, w.kernel.name, e.what()));
    }
}

void TraceWriter::add_encoded_cta(const CtaTrace& cta) {
    Impl& w = *impl_;
    w.require(Impl::State::InKernel, "add_encoded_cta");
    const uint32_t expected = w.kernel.warps_per_cta();
    if (cta.warps.size() != expected)
        w.fail(fmt::format("kernel {} '{}': CTA {} has {} warps, the block needs {}", w.kernels, w.kernel.name,
                           cta.cta_id, cta.warps.size(), expected));
    begin_cta(cta.cta_id);
    try {
        for (uint32_t i = 0; i < cta.warps.size(); ++i)
            w.builder.add_encoded(i, cta.warps[i].data(), cta.warps[i].size());
    } catch (const TraceError& e) {
        w.fail(fmt::format("kernel {} '{}': {}", w.kernels, w.kernel.name, e.what()));
    }
    if (w.builder.records() != cta.records)
        w.fail(fmt::format("kernel {} '{}': CTA {} says it has {} records but its warps hold {}", w.kernels,
                           w.kernel.name, cta.cta_id, cta.records, w.builder.records()));
    end_cta();
}

void TraceWriter::end_cta() {
    Impl& w = *impl_;
    w.require(Impl::State::InCta, "end_cta");
    w.builder.finish(w.cta);
    w.write_cta(w.cta, w.builder.instructions());
    w.state = Impl::State::InKernel;
}

void TraceWriter::end_kernel() {
    Impl& w = *impl_;
    w.require(Impl::State::InKernel, "end_kernel");
    w.put_byte(ztr::kKernelEndTag);
    w.put_varint(w.kernel_ctas);
    ++w.kernels;
    w.state = Impl::State::Idle;
}

void TraceWriter::finish() {
    Impl& w = *impl_;
    w.require(Impl::State::Idle, "finish");
    w.put_byte(ztr::kFooterTag);
    for (uint64_t v : {w.kernels, w.ctas, w.warps, w.records, w.instructions}) w.put_varint(v);
    const uint64_t checksum = w.hash.digest();
    uint8_t sum[8];
    for (int i = 0; i < 8; ++i) sum[i] = static_cast<uint8_t>(checksum >> (8 * i));
    w.put_raw(sum, sizeof(sum));
    w.flush_stage();
    w.compress(nullptr, 0, ZSTD_e_end);
    std::FILE* f = w.file;
    w.file = nullptr;
    const bool flushed = std::fflush(f) == 0;
    const int saved_errno = errno;
    if (std::fclose(f) != 0 || !flushed)
        w.fail(fmt::format("closing {} failed: {}", w.temp_path, std::strerror(flushed ? errno : saved_errno)));
    if (std::rename(w.temp_path.c_str(), w.path.c_str()) != 0)
        w.fail(fmt::format("cannot rename {} to {}: {}", w.temp_path, w.path, std::strerror(errno)));
    w.state = Impl::State::Finished;
    w.close_quietly();
}

void write_trace(TraceSource& src, const std::string& path) {
    TraceWriter w(path, src.header());
    KernelInfo k;
    CtaTrace cta;
    while (src.next_kernel(k)) {
        w.begin_kernel(k);
        while (src.next_cta(cta)) w.add_encoded_cta(cta);
        w.end_kernel();
    }
    w.finish();
}

}  // namespace zng::trace
