#include "traces/xxhash64.hpp"

#include <bit>
#include <cstring>

namespace zng::trace {

namespace {

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kP3 = 0x165667B19E3779F9ull;
constexpr uint64_t kP4 = 0x85EBCA77C2B2AE63ull;
constexpr uint64_t kP5 = 0x27D4EB2F165667C5ull;

// The specification reads lanes as little-endian whatever the host.
inline uint64_t load64(const uint8_t* p) {
    uint64_t v = 0;
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(&v, p, sizeof(v));
    } else {
        for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
    }
    return v;
}
inline uint64_t load32(const uint8_t* p) {
    return uint64_t(p[0]) | uint64_t(p[1]) << 8 | uint64_t(p[2]) << 16 | uint64_t(p[3]) << 24;
}

inline uint64_t round(uint64_t acc, uint64_t lane) { return std::rotl(acc + lane * kP2, 31) * kP1; }

inline uint64_t merge(uint64_t h, uint64_t acc) { return (h ^ round(0, acc)) * kP1 + kP4; }

inline void stripe(uint64_t (&acc)[4], const uint8_t* p) {
    acc[0] = round(acc[0], load64(p));
    acc[1] = round(acc[1], load64(p + 8));
    acc[2] = round(acc[2], load64(p + 16));
    acc[3] = round(acc[3], load64(p + 24));
}

}  // namespace

Xxh64::Xxh64() : acc_{kP1 + kP2, kP2, 0, uint64_t(0) - kP1} {}

void Xxh64::update(const uint8_t* p, size_t n) {
    total_ += n;
    if (pending_size_ + n < 32) {
        if (n != 0) std::memcpy(pending_ + pending_size_, p, n);
        pending_size_ += n;
        return;
    }
    if (pending_size_ != 0) {
        const size_t fill = 32 - pending_size_;
        std::memcpy(pending_ + pending_size_, p, fill);
        stripe(acc_, pending_);
        p += fill;
        n -= fill;
        pending_size_ = 0;
    }
    for (; n >= 32; p += 32, n -= 32) stripe(acc_, p);
    if (n != 0) std::memcpy(pending_, p, n);
    pending_size_ = n;
}

uint64_t Xxh64::digest() const {
    uint64_t h;
    if (total_ >= 32) {
        h = std::rotl(acc_[0], 1) + std::rotl(acc_[1], 7) + std::rotl(acc_[2], 12) + std::rotl(acc_[3], 18);
        for (uint64_t a : acc_) h = merge(h, a);
    } else {
        h = kP5;   // seed 0 + PRIME64_5
    }
    h += total_;
    const uint8_t* p = pending_;
    size_t n = pending_size_;
    for (; n >= 8; p += 8, n -= 8) h = std::rotl(h ^ round(0, load64(p)), 27) * kP1 + kP4;
    if (n >= 4) {
        h = std::rotl(h ^ (load32(p) * kP1), 23) * kP2 + kP3;
        p += 4;
        n -= 4;
    }
    for (; n > 0; ++p, --n) h = std::rotl(h ^ (*p * kP5), 11) * kP1;
    h ^= h >> 33;
    h *= kP2;
    h ^= h >> 29;
    h *= kP3;
    h ^= h >> 32;
    return h;
}

}  // namespace zng::trace
