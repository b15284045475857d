// Encoding of one WarpRecord. Layout (all varints are canonical LEB128):
//   byte 0     bits 0-2 kind, bits 3-4 space, bit 5 partial mask, bit 6 strided,
//              bit 7 compute present
//   pc         varint
//   mask       4 bytes little-endian, only when bit 5 (the mask is not full)
//   compute    varint >= 1, only when bit 7
//   memory kinds only:
//     size     1 byte (1, 2, 4, 8 or 16)
//     strided: base varint, stride zigzag varint
//     else:    first active lane's address varint, then for each further active lane
//              the zigzag difference from the previous active lane's address
//   IoSubmit (kind 6; bit 3 of byte 0 set for a write, bit 4 clear):
//     io_bytes varint (1 .. kMaxIoBytes), io_tag varint (32 bits), io_dest varint,
//     io_dest_stride zigzag varint, then the storage offsets as a memory record's
//     addresses (strided or per lane)
//   kind 7 extends the kinds: bits 3-4 of byte 0 name it (0 IoWait, 1 Phase), bit 6 clear
//     IoWait:  io_tag varint
//     Phase:   duration_ps varint (1 .. kMaxPhasePs)
// Records are stateless (no delta against the previous record) so a consumer can start
// decoding any warp at any record boundary without history.
#include <bit>
#include <string>

#include "traces/trace.hpp"
#include "traces/varint.hpp"

namespace zng::trace {

namespace {

constexpr uint8_t kKindMask = 0x07;
constexpr uint8_t kSpaceShift = 3;
constexpr uint8_t kSpaceMask = 0x18;
constexpr uint8_t kPartialMaskBit = 0x20;
constexpr uint8_t kStridedBit = 0x40;
constexpr uint8_t kComputeBit = 0x80;
constexpr uint8_t kLastKind = static_cast<uint8_t>(RecordKind::Phase);
constexpr uint8_t kLastSpace = static_cast<uint8_t>(MemSpace::Constant);
// Kind codes of byte 0: 0-6 are RecordKind values, 7 is followed by a sub-kind in bits 3-4.
constexpr uint8_t kIoSubmitCode = static_cast<uint8_t>(RecordKind::IoSubmit);
constexpr uint8_t kExtendedCode = 7;
constexpr uint8_t kIoWaitSub = 0;
constexpr uint8_t kPhaseSub = 1;
constexpr uint8_t kIoWriteBit = 0x08;

constexpr bool is_memory_kind(uint8_t kind) {
    return kind == static_cast<uint8_t>(RecordKind::Load) || kind == static_cast<uint8_t>(RecordKind::Store) ||
           kind == static_cast<uint8_t>(RecordKind::Atomic);
}

constexpr bool valid_access_size(uint8_t s) { return s == 1 || s == 2 || s == 4 || s == 8 || s == 16; }

[[noreturn, gnu::noinline, gnu::cold]] void malformed(const char* what) {
    throw TraceError(std::string("malformed record: ") + what);
}

[[noreturn, gnu::noinline, gnu::cold]] void varint_failure(varint::Status st, const char* field) {
    std::string msg = st == varint::Status::Truncated ? "ends inside " : "overlong varint in ";
    malformed((msg + field).c_str());
}

// A varint read by `Get`; a truncated or overlong one is a malformed record.
template <varint::Status (*Get)(const uint8_t*&, const uint8_t*, uint64_t&)>
[[gnu::always_inline]] inline uint64_t get_checked(const uint8_t*& p, const uint8_t* end, const char* field) {
    uint64_t v;
    const varint::Status st = Get(p, end, v);
    if (st != varint::Status::Ok) [[unlikely]]
        varint_failure(st, field);
    return v;
}

[[gnu::always_inline]] inline uint64_t get_varint(const uint8_t*& p, const uint8_t* end, const char* field) {
    return get_checked<varint::get>(p, end, field);
}

// For addresses and their deltas, whose byte lengths vary from lane to lane.
[[gnu::always_inline]] inline uint64_t get_wide_varint(const uint8_t*& p, const uint8_t* end, const char* field) {
    return get_checked<varint::get_wide>(p, end, field);
}

}  // namespace

const char* to_string(RecordKind k) {
    switch (k) {
        case RecordKind::Compute: return "compute";
        case RecordKind::Load: return "load";
        case RecordKind::Store: return "store";
        case RecordKind::Atomic: return "atomic";
        case RecordKind::Barrier: return "barrier";
        case RecordKind::Exit: return "exit";
        case RecordKind::IoSubmit: return "io_submit";
        case RecordKind::IoWait: return "io_wait";
        case RecordKind::Phase: return "phase";
    }
    return "invalid-kind";
}

const char* to_string(MemSpace s) {
    switch (s) {
        case MemSpace::Global: return "global";
        case MemSpace::Shared: return "shared";
        case MemSpace::Local: return "local";
        case MemSpace::Constant: return "constant";
    }
    return "invalid-space";
}

void encode_record(const WarpRecord& r, std::vector<uint8_t>& out) {
    const auto kind = static_cast<uint8_t>(r.kind);
    if (kind > kLastKind) throw TraceError("cannot encode record: kind " + std::to_string(kind) + " is not valid");
    const bool memory = is_memory_kind(kind);
    if (kind == static_cast<uint8_t>(RecordKind::Compute) && r.compute == 0)
        throw TraceError("cannot encode record: compute record with compute == 0 (pc " + std::to_string(r.pc) + ")");
    if (r.kind == RecordKind::IoSubmit && (r.io_bytes == 0 || r.io_bytes > kMaxIoBytes))
        throw TraceError("cannot encode record: I/O request of " + std::to_string(r.io_bytes) +
                         " bytes per lane is outside 1 B .. 1 GiB (pc " + std::to_string(r.pc) + ")");
    if (r.kind == RecordKind::Phase && (r.duration_ps == 0 || r.duration_ps > kMaxPhasePs))
        throw TraceError("cannot encode record: phase of " + std::to_string(r.duration_ps) +
                         " ps is outside 1 ps .. 2^50 ps (pc " + std::to_string(r.pc) + ")");
    if (memory) {
        if (static_cast<uint8_t>(r.space) > kLastSpace)
            throw TraceError("cannot encode record: memory space " + std::to_string(static_cast<int>(r.space)) +
                             " is not valid (pc " + std::to_string(r.pc) + ")");
        if (!valid_access_size(r.access_size))
            throw TraceError("cannot encode record: access size " + std::to_string(r.access_size) +
                             " is not 1, 2, 4, 8 or 16 (pc " + std::to_string(r.pc) + ")");
    }

    uint8_t buf[kMaxEncodedRecordBytes];
    uint8_t* p = buf;
    const bool addressed = memory || kind == kIoSubmitCode;
    uint8_t head = kind;
    if (r.kind == RecordKind::IoWait) head = kExtendedCode | kIoWaitSub << kSpaceShift;
    if (r.kind == RecordKind::Phase) head = kExtendedCode | kPhaseSub << kSpaceShift;
    const bool partial = r.active_mask != kFullWarpMask;
    if (partial) head |= kPartialMaskBit;
    if (r.compute != 0) head |= kComputeBit;
    if (memory) head |= static_cast<uint8_t>(static_cast<uint8_t>(r.space) << kSpaceShift);
    if (addressed && r.strided) head |= kStridedBit;
    if (r.kind == RecordKind::IoSubmit && r.io_write) head |= kIoWriteBit;
    *p++ = head;
    p = varint::put(p, r.pc);
    if (partial) {
        const uint32_t m = r.active_mask;
        p[0] = static_cast<uint8_t>(m);
        p[1] = static_cast<uint8_t>(m >> 8);
        p[2] = static_cast<uint8_t>(m >> 16);
        p[3] = static_cast<uint8_t>(m >> 24);
        p += 4;
    }
    if (r.compute != 0) p = varint::put(p, r.compute);
    if (r.kind == RecordKind::IoWait) p = varint::put(p, r.io_tag);
    if (r.kind == RecordKind::Phase) p = varint::put(p, r.duration_ps);
    if (r.kind == RecordKind::IoSubmit) {
        p = varint::put(p, r.io_bytes);
        p = varint::put(p, r.io_tag);
        p = varint::put(p, r.io_dest);
        p = varint::put(p, varint::zigzag(r.io_dest_stride));
    }
    if (addressed) {
        if (memory) *p++ = r.access_size;
        if (r.strided) {
            p = varint::put(p, r.base);
            p = varint::put(p, varint::zigzag(r.stride));
        } else {
            uint32_t m = r.active_mask;
            if (m != 0) {
                uint64_t prev = r.addr[std::countr_zero(m)];
                p = varint::put(p, prev);
                for (m &= m - 1; m != 0; m &= m - 1) {
                    const uint64_t a = r.addr[std::countr_zero(m)];
                    p = varint::put(p, varint::zigzag(static_cast<int64_t>(a - prev)));
                    prev = a;
                }
            }
        }
    }
    out.insert(out.end(), buf, p);
}

namespace {

// decode_record, and with kLaneAddresses false check_record: the same checks in the
// same order (so the same errors), with the lane addresses of a scattered record only
// walked, not summed and stored (their varint values go unused and are not computed).
template <bool kLaneAddresses>
inline void decode(const uint8_t*& p, const uint8_t* end, WarpRecord& r) {
    const uint8_t* q = p;
    if (q >= end) malformed("no bytes left");
    const uint8_t head = *q++;
    uint8_t kind = head & kKindMask;
    const bool memory = is_memory_kind(kind);
    uint8_t space = (head & kSpaceMask) >> kSpaceShift;
    const bool strided = (head & kStridedBit) != 0;
    if (!memory) {
        if (kind == kIoSubmitCode) {
            if (space & ~(kIoWriteBit >> kSpaceShift)) malformed("space bits on an I/O submission");
            r.io_write = space != 0;
        } else if (kind == kExtendedCode) {
            if (space > kPhaseSub) malformed("invalid kind");
            if (strided) malformed("strided flag on a non-memory record");
            kind = space == kIoWaitSub ? static_cast<uint8_t>(RecordKind::IoWait) : static_cast<uint8_t>(RecordKind::Phase);
        } else if (space != 0 || strided) {
            malformed("space or strided flag on a non-memory record");
        }
        space = 0;
    }

    r.kind = static_cast<RecordKind>(kind);
    r.space = static_cast<MemSpace>(space);
    r.pc = get_varint(q, end, "pc");
    if (head & kPartialMaskBit) {
        if (end - q < 4) malformed("ends inside active mask");
        const uint32_t m = static_cast<uint32_t>(q[0]) | static_cast<uint32_t>(q[1]) << 8 |
                           static_cast<uint32_t>(q[2]) << 16 | static_cast<uint32_t>(q[3]) << 24;
        if (m == kFullWarpMask) malformed("full active mask stored explicitly");
        r.active_mask = m;
        q += 4;
    } else {
        r.active_mask = kFullWarpMask;
    }
    if (head & kComputeBit) {
        const uint64_t c = get_varint(q, end, "compute");
        if (c == 0 || c > UINT32_MAX) malformed("compute count out of range");
        r.compute = static_cast<uint32_t>(c);
    } else {
        if (kind == static_cast<uint8_t>(RecordKind::Compute)) malformed("compute record without compute count");
        r.compute = 0;
    }
    r.strided = strided;
    if (!memory) {
        r.access_size = 0;
        r.base = 0;
        r.stride = 0;
        if (kind == static_cast<uint8_t>(RecordKind::IoWait)) {
            const uint64_t tag = get_varint(q, end, "I/O tag");
            if (tag > UINT32_MAX) malformed("I/O tag out of range");
            r.io_tag = static_cast<uint32_t>(tag);
        } else if (kind == static_cast<uint8_t>(RecordKind::Phase)) {
            const uint64_t d = get_varint(q, end, "phase duration");
            if (d == 0 || d > kMaxPhasePs) malformed("phase duration out of range");
            r.duration_ps = d;
        }
        if (kind != kIoSubmitCode) {
            p = q;
            return;
        }
        const uint64_t bytes = get_varint(q, end, "I/O bytes");
        if (bytes == 0 || bytes > kMaxIoBytes) malformed("I/O request size out of range");
        r.io_bytes = static_cast<uint32_t>(bytes);
        const uint64_t tag = get_varint(q, end, "I/O tag");
        if (tag > UINT32_MAX) malformed("I/O tag out of range");
        r.io_tag = static_cast<uint32_t>(tag);
        r.io_dest = get_wide_varint(q, end, "I/O destination");
        r.io_dest_stride = varint::unzigzag(get_wide_varint(q, end, "I/O destination stride"));
    } else {
        if (q >= end) malformed("ends inside access size");
        const uint8_t size = *q++;
        if (!valid_access_size(size)) malformed("access size not 1, 2, 4, 8 or 16");
        r.access_size = size;
    }
    if (strided) {
        r.base = get_varint(q, end, "base address");
        r.stride = varint::unzigzag(get_varint(q, end, "stride"));
    } else {
        r.base = 0;
        r.stride = 0;
        // Inactive lanes keep whatever they held: clearing them cost a quarter of the
        // decoding time on divergent traces, and no consumer may read them.
        uint32_t m = r.active_mask;
        if (!kLaneAddresses) {
            if (m != 0) get_wide_varint(q, end, "lane address");
            for (m &= m - 1; m != 0; m &= m - 1) get_wide_varint(q, end, "lane address delta");
        } else if (m != 0) {
            uint64_t prev = get_wide_varint(q, end, "lane address");
            r.addr[std::countr_zero(m)] = prev;
            for (m &= m - 1; m != 0; m &= m - 1) {
                prev += static_cast<uint64_t>(varint::unzigzag(get_wide_varint(q, end, "lane address delta")));
                r.addr[std::countr_zero(m)] = prev;
            }
        }
    }
    p = q;
}

}  // namespace

void decode_record(const uint8_t*& p, const uint8_t* end, WarpRecord& r) { decode<true>(p, end, r); }
void check_record(const uint8_t*& p, const uint8_t* end, WarpRecord& r) { decode<false>(p, end, r); }

bool equivalent(const WarpRecord& a, const WarpRecord& b) {
    if (a.kind != b.kind || a.pc != b.pc || a.active_mask != b.active_mask || a.compute != b.compute) return false;
    switch (a.kind) {
        case RecordKind::IoWait: return a.io_tag == b.io_tag;
        case RecordKind::Phase: return a.duration_ps == b.duration_ps;
        case RecordKind::IoSubmit:
            if (a.io_write != b.io_write || a.io_bytes != b.io_bytes || a.io_tag != b.io_tag ||
                a.io_dest != b.io_dest || a.io_dest_stride != b.io_dest_stride || a.strided != b.strided)
                return false;
            break;
        default:
            if (!a.is_memory()) return true;
            if (a.space != b.space || a.access_size != b.access_size || a.strided != b.strided) return false;
    }
    if (a.strided) return a.base == b.base && a.stride == b.stride;
    for (uint32_t m = a.active_mask; m != 0; m &= m - 1) {
        const int lane = std::countr_zero(m);
        if (a.addr[lane] != b.addr[lane]) return false;
    }
    return true;
}

}  // namespace zng::trace
