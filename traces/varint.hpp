// LEB128-style unsigned varints and zigzag signed mapping, shared by the record
// encoding and the .ztr container. Decoding accepts only the canonical (shortest)
// form so that every value has exactly one byte string: a corrupted byte is then
// far more likely to be caught than silently reinterpreted.
#pragma once

#include <cstddef>
#include <cstdint>

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

// Reads a varint from [p, end). On success advances p. Overlong covers more than ten
// bytes, bits beyond 64, and non-shortest forms (a final zero byte after the first).
inline Status get(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    if (p < end && *p < 0x80) {   // one-byte fast path: most fields are small
        v = *p++;
        return Status::Ok;
    }
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

}  // namespace zng::trace::varint
