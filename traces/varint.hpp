// LEB128-style unsigned varints and zigzag signed mapping, shared by the record
// encoding and the .ztr container. Decoding accepts only the canonical (shortest)
// form so that every value has exactly one byte string: a corrupted byte is then
// far more likely to be caught than silently reinterpreted.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace zng::trace::varint {

constexpr size_t kMaxBytes = 10;   // ceil(64 / 7)

inline constexpr uint64_t zigzag(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline constexpr int64_t unzigzag(uint64_t v) {
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

// Writes v at p (which must have kMaxBytes of room); returns the byte after it.
inline uint8_t* put(uint8_t* p, uint64_t v) {
    while (v >= 0x80) {
        *p++ = static_cast<uint8_t>(v | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);
    return p;
}

inline constexpr size_t size_of(uint64_t v) {
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        ++n;
    }
    return n;
}

enum class Status : uint8_t { Ok, Truncated, Overlong };

// Gathers the 7-bit groups of up to eight varint bytes (little-endian in x, bits past
// the last byte already cleared) into one value: three merge steps instead of a
// data-dependent loop, which mispredicts on the mixed lengths of address deltas.
inline constexpr uint64_t compact_groups(uint64_t x) {
    x &= 0x7f7f7f7f7f7f7f7full;
    x = ((x & 0x7f007f007f007f00ull) >> 1) | (x & 0x007f007f007f007full);
    x = ((x & 0x3fff00003fff0000ull) >> 2) | (x & 0x00003fff00003fffull);
    x = ((x & 0x0fffffff00000000ull) >> 4) | (x & 0x000000000fffffffull);
    return x;
}

// Byte-at-a-time reader, also the fallback of the faster ones below.
inline Status get_bytewise(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    const uint8_t* q = p;
    uint64_t result = 0;
    for (unsigned i = 0; i < kMaxBytes; ++i) {
        if (q >= end) return Status::Truncated;
        const uint8_t b = *q++;
        if (i == kMaxBytes - 1 && b > 1) return Status::Overlong;
        result |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
        if (b < 0x80) {
            if (b == 0 && i > 0) return Status::Overlong;
            v = result;
            p = q;
            return Status::Ok;
        }
    }
    return Status::Overlong;
}

// Reads a varint whose length is unpredictable (address deltas): when eight bytes are
// readable, lengths 1..8 decode without a length-dependent branch.
// Reads from [p, end); on success advances p. Overlong covers more than ten bytes, bits
// beyond 64, and non-shortest forms (a final zero byte after the first).
inline Status get_wide(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    if constexpr (std::endian::native == std::endian::little) {
        if (end - p >= 8) {
            uint64_t x;
            std::memcpy(&x, p, sizeof(x));
            const uint64_t stops = ~x & 0x8080808080808080ull;
            if (stops != 0) {   // the varint ends within these 8 bytes
                const int bits = std::countr_zero(stops) + 1;   // 8 * length
                const uint64_t kept = bits == 64 ? x : x & ((uint64_t(1) << bits) - 1);
                if (bits > 8 && (kept >> (bits - 8)) == 0) return Status::Overlong;
                v = compact_groups(kept);
                p += bits / 8;
                return Status::Ok;
            }
        }
    }
    return get_bytewise(p, end, v);
}

// Reads a varint that is usually one byte (pc deltas, counts, sizes).
inline Status get(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    if (p < end && *p < 0x80) {
        v = *p++;
        return Status::Ok;
    }
    return get_wide(p, end, v);
}

}  // namespace zng::trace::varint
