// Builds a CtaTrace record by record. Used by TraceWriter and by anything that makes
// traces in memory (tests, generators feeding a VectorTraceSource), so that every CTA
// obeys the same rules: records go to existing warps, nothing follows a warp's Exit,
// and every warp ends with exactly one Exit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "traces/trace.hpp"

namespace zng::trace {

class CtaBuilder {
public:
    // Starts a CTA of `warps` warps running `threads` threads in all (the last warp may
    // be partial: its missing lanes are never active in an appended Exit).
    void begin(uint64_t cta_id, uint32_t warps, uint64_t threads);
    // Starts a CTA shaped by the kernel's block.
    void begin(uint64_t cta_id, const KernelInfo& k);

    void add(uint32_t warp, const WarpRecord& r);
    // Appends records that are already encoded; they are validated first.
    void add_encoded(uint32_t warp, const uint8_t* data, size_t size);

    // Closes the CTA: each warp whose last record is not Exit gets one (pc of its last
    // record or 0, its existing lanes active), then the CTA is moved into `out`. The
    // buffers `out` held are recycled for the next CTA, so a builder and a CtaTrace
    // used in a loop allocate nothing once warmed up.
    void finish(CtaTrace& out);
    CtaTrace finish();

    bool is_open() const { return open_; }
    uint64_t cta_id() const { return cta_.cta_id; }
    uint32_t warps() const { return static_cast<uint32_t>(cta_.warps.size()); }
    // Records in the current CTA so far (appended Exits count once finished).
    uint64_t records() const { return cta_.records; }
    // Instructions (sum of WarpRecord::instructions()) added to the current or just
    // finished CTA, including appended Exits.
    uint64_t instructions() const { return instructions_; }

    // Cap on warps per CTA shared by the writer and reader (CUDA allows 1024 threads).
    static constexpr uint32_t kMaxWarps = 2048;

private:
    struct WarpTail {
        bool exited = false;
        uint64_t last_pc = 0;
    };
    void check_warp(uint32_t warp) const;

    CtaTrace cta_;
    std::vector<WarpTail> tails_;
    std::vector<uint8_t> scratch_;
    uint64_t threads_ = 0;
    uint64_t instructions_ = 0;
    bool open_ = false;
};

}  // namespace zng::trace
