// The zngsim trace model: a workload is a sequence of kernels; a kernel is a grid of
// CTAs; a CTA is a set of warps; a warp is a stream of records. This header is the
// contract between everything that produces traces (generators, importers) and
// everything that consumes them (the GPU model, `zngsim trace info|dump`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace zng::trace {

// What one warp instruction does. Compute records carry only folded compute work.
// IoSubmit, IoWait and Phase (format version 3) are storage I/O issued by GPU threads
// and fixed-duration steps; see the I/O fields of WarpRecord.
enum class RecordKind : uint8_t {
    Compute = 0,
    Load = 1,
    Store = 2,
    Atomic = 3,
    Barrier = 4,
    Exit = 5,
    IoSubmit = 6,
    IoWait = 7,
    Phase = 8,
};
constexpr size_t kRecordKinds = 9;

// Which address space a memory record touches. Global and Local records go through the
// L1 and the memory hierarchy (Local ones relocated into their warp's frame, below);
// Shared and Constant records are modelled by the SM with fixed latencies.
enum class MemSpace : uint8_t { Global = 0, Shared = 1, Local = 2, Constant = 3 };

// Local memory. A Local record's lane addresses are byte offsets in the local window of
// the warp, as the generators emit them: a thread's elements are interleaved across the
// lanes so that the same element of every lane is coalesced (element i of lane l at
// (i * 32 + l) * size). Local memory is private to a resident thread, so the SM relocates
// the window into the frame of the hardware warp slot running the warp (reused by the
// CTAs that later occupy the slot; gpu_model/sm/local_memory.hpp). The frames live in
// this region of each application's virtual address space: the 1 TiB just below the
// generators' first device allocation (workloads::kDeviceBase), which they never reach.
constexpr uint64_t kLocalRegionBase = 0x7e0000000000ull;
constexpr uint64_t kLocalRegionBytes = uint64_t{1} << 40;

const char* to_string(RecordKind k);
const char* to_string(MemSpace s);

constexpr int kWarpSize = 32;
constexpr uint32_t kFullWarpMask = 0xffffffffu;

// One warp-level record.
// Instruction count of a record: `compute` (compute instructions issued before it)
// plus 1 for every kind except Compute, whose record stands for `compute` instructions
// only (compute >= 1).
struct WarpRecord {
    uint64_t pc = 0;
    RecordKind kind = RecordKind::Compute;
    MemSpace space = MemSpace::Global;
    uint8_t access_size = 0;      // bytes per active lane (1, 2, 4, 8 or 16); 0 for non-memory
    uint32_t active_mask = 0;     // bit i = lane i active
    uint32_t compute = 0;         // folded compute instructions before this instruction
    // Addresses, for memory kinds only. When `strided`, lane i's address is
    // base + i * stride (i = lane index, whether or not the lane is active) and
    // `addr` is unused; otherwise addr[i] is lane i's address for each active lane.
    bool strided = false;
    uint64_t base = 0;
    int64_t stride = 0;
    std::array<uint64_t, kWarpSize> addr{};

    // Storage I/O issued by GPU threads (BaM-style per-thread submission, or the batch
    // a CPU-managed plane such as CAM picks up). An IoSubmit asks for one request per
    // active lane: lane i moves `io_bytes` bytes between storage byte offset
    // lane_addr(i) (addresses encoded as a memory record's) and GPU virtual address
    // io_dest + i * io_dest_stride, reading storage into GPU memory unless `io_write`.
    // The requests join group `io_tag` of the warp's CTA. An IoWait blocks its warp
    // (resident, issuing nothing) until every request its CTA submitted to group
    // `io_tag` before the wait has completed. A Phase keeps its warp busy for
    // `duration_ps` of simulated time: work given as a time, not as instructions.
    bool io_write = false;
    uint32_t io_bytes = 0;
    uint32_t io_tag = 0;
    uint64_t io_dest = 0;
    int64_t io_dest_stride = 0;
    uint64_t duration_ps = 0;

    // The access fields at once: `size` bytes in `s` for the lanes of `mask`, at
    // base + lane * stride when `is_strided` (an unstrided record's addr is the caller's).
    void set_access(MemSpace s, uint8_t size, uint32_t mask, bool is_strided, uint64_t b, int64_t str) {
        space = s;
        access_size = size;
        active_mask = mask;
        strided = is_strided;
        base = b;
        stride = str;
    }

    bool is_memory() const {
        return kind == RecordKind::Load || kind == RecordKind::Store || kind == RecordKind::Atomic;
    }
    // Records whose lanes carry addresses (memory accesses and I/O submissions).
    bool has_lane_addresses() const { return is_memory() || kind == RecordKind::IoSubmit; }
    // GPU virtual address of lane `lane`'s I/O buffer.
    uint64_t io_dest_of(int lane) const {
        return io_dest + static_cast<uint64_t>(static_cast<int64_t>(lane) * io_dest_stride);
    }
    uint64_t lane_addr(int lane) const {
        return strided ? base + static_cast<uint64_t>(static_cast<int64_t>(lane) * stride) : addr[lane];
    }
    uint64_t instructions() const { return kind == RecordKind::Compute ? compute : compute + 1ull; }
};

// Offset in its warp's local window of lane `lane`'s `size`-byte access at byte
// `thread_offset` of the thread's own local memory. Local memory is interleaved so that
// the same address of every thread of a warp is coalesced: consecutive 32-bit words of
// a thread are 128 B apart, the same word of consecutive lanes 4 B apart. An 8 or 16 B
// access keeps its words together (lane l at l * size into the row), which touches the
// same lines as the word-wise split. For 4, 8 and 16 B elements this is the generators'
// layout, element i of lane l at (i * 32 + l) * size.
constexpr uint64_t local_window_offset(uint64_t thread_offset, int lane, uint32_t size) {
    const uint64_t unit = size < 4 ? 4 : size;
    return thread_offset / 4 * (kWarpSize * 4) + static_cast<uint64_t>(lane) * unit + thread_offset % 4;
}
// Rewrites Local record `r`, whose active lanes carry thread offsets (each thread's own
// local address, as NVBit traces LDL/STL: the same value in every lane), into window
// offsets. The result is a scattered record.
inline void thread_offsets_to_window(WarpRecord& r) {
    std::array<uint64_t, kWarpSize> w{};
    for (int l = 0; l < kWarpSize; ++l)
        if (r.active_mask >> l & 1u) w[l] = local_window_offset(r.lane_addr(l), l, r.access_size);
    r.strided = false;
    r.base = 0;
    r.stride = 0;
    r.addr = w;
}

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
    uint64_t count() const { return uint64_t(x) * y * z; }
};

// A named data array of the workload, as allocated on the device.
struct ArrayInfo {
    std::string name;
    uint64_t base = 0;
    uint64_t size = 0;   // bytes
};

struct TraceHeader {
    std::string workload;          // e.g. "bfs1"
    std::string source;            // who made it: "zngsim-gen", "accelsim-import", ...
    std::vector<ArrayInfo> arrays;
};

struct KernelInfo {
    std::string name;
    Dim3 grid;
    Dim3 block;
    uint32_t shared_mem_bytes = 0;
    uint32_t regs_per_thread = 0;  // 0 = unknown
    uint32_t warps_per_cta() const {
        uint64_t t = block.count();
        return static_cast<uint32_t>((t + kWarpSize - 1) / kWarpSize);
    }
};

// One CTA's warps, each as compactly encoded records (see encode_record); the
// consumer decodes on the fly with WarpCursor so resident CTAs cost little memory.
struct CtaTrace {
    uint64_t cta_id = 0;                          // linear id within the grid
    std::vector<std::vector<uint8_t>> warps;      // encoded records per warp
    uint64_t records = 0;                         // total records in this CTA
};

// Thrown for any malformed trace input. `what()` names the file and the record.
struct TraceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Compact, self-delimiting encoding of one record (varints, address deltas), appended
// to `out`. Only the fields that matter for the kind are kept: non-memory records drop
// space/size/addresses, scattered records drop inactive lanes' addresses. Throws
// TraceError for a record that cannot be valid (bad kind or space, memory access size
// not 1/2/4/8/16, Compute record with compute == 0).
void encode_record(const WarpRecord& r, std::vector<uint8_t>& out);
// Decodes one record at p (advancing p). Throws TraceError if the bytes are malformed.
// Fields not stored are reset (space Global, size 0, base/stride 0), except `addr`:
// only the active lanes of a scattered record are written; the other entries keep
// what they held (no consumer may read them).
void decode_record(const uint8_t*& p, const uint8_t* end, WarpRecord& r);
// decode_record's checks and errors, for validation passes: every field but the lane
// addresses of a scattered record is decoded (those are only skipped over).
void check_record(const uint8_t*& p, const uint8_t* end, WarpRecord& r);
// Largest storage request of one lane and longest Phase: bounds that keep totals of
// bytes and time far from overflow whatever a trace holds.
constexpr uint32_t kMaxIoBytes = uint32_t{1} << 30;
constexpr uint64_t kMaxPhasePs = uint64_t{1} << 50;   // about 19 minutes
// Upper bound of encode_record's output for one record (an IoSubmit's extra fields:
// op byte, bytes, tag, destination, destination stride).
constexpr size_t kMaxEncodedRecordBytes = 1 + 10 + 4 + 5 + 1 + 5 + 5 + 10 + 10 + kWarpSize * 10;
// True when a and b have the same encoding, i.e. agree on every field that matters.
bool equivalent(const WarpRecord& a, const WarpRecord& b);

// Iterates the encoded records of one warp.
class WarpCursor {
public:
    WarpCursor() = default;
    explicit WarpCursor(const std::vector<uint8_t>& bytes)
        : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}
    bool done() const { return p_ >= end_; }
    void next(WarpRecord& r) { decode_record(p_, end_, r); }
private:
    const uint8_t* p_ = nullptr;
    const uint8_t* end_ = nullptr;
};

// Anything that yields a workload as a stream: the zngsim trace reader, importers of
// other simulators' formats, in-memory generators. Streams are read once, in order.
class TraceSource {
public:
    virtual ~TraceSource() = default;
    virtual const TraceHeader& header() const = 0;
    // Advances to the next kernel; false at end of trace.
    virtual bool next_kernel(KernelInfo& k) = 0;
    // Next CTA of the current kernel; false when the kernel has no more CTAs.
    virtual bool next_cta(CtaTrace& cta) = 0;
    // Human-readable name of the input, for error messages.
    virtual std::string describe() const = 0;
};

// Version of the .ztr layout this build writes (and the newest it reads). Caches of
// generated traces should include it in their key.
// Version 3 added the IoSubmit, IoWait and Phase records; version 2 files are read too.
constexpr uint32_t kTraceFormatVersion = 3;

// Writes a zngsim trace file (.ztr): versioned header, zstd-compressed stream of
// kernels/CTAs/warps, footer with totals and a checksum so truncation is detected.
// Records are buffered per CTA only. The file is written as <path>.partial and renamed
// by finish(); a writer destroyed before finish() leaves no file. Misuse (calls out of
// order, warp or CTA id out of range, records after a warp's Exit, invalid records)
// throws TraceError naming the path. add_encoded_cta() validates the CTA's records,
// needs exactly warps_per_cta() warps and a correct `records` count.
class TraceWriter {
public:
    TraceWriter(const std::string& path, const TraceHeader& header);
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    void begin_kernel(const KernelInfo& k);
    void begin_cta(uint64_t cta_id);                 // warps = kernel's warps_per_cta()
    void add(uint32_t warp, const WarpRecord& r);    // warp index within the CTA
    void add_encoded_cta(const CtaTrace& cta);       // copy a CTA from a TraceSource
    void end_cta();                                  // appends Exit to warps lacking one
    void end_kernel();
    void finish();                                   // writes footer, closes the file

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Opens and streams a .ztr file. Validates the magic, version, sizes against sane
// bounds and the footer; every failure is a TraceError naming the file and position.
std::unique_ptr<TraceSource> open_trace(const std::string& path);

// Copies a whole source into a .ztr file (used by importers and generators).
void write_trace(TraceSource& src, const std::string& path);

}  // namespace zng::trace
