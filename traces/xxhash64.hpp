// XXH64 (seed 0) over a stream fed in arbitrary pieces, written from the published
// xxHash specification. It checksums the uncompressed .ztr stream: a well-known,
// documented function (xxhsum, python-xxhash, ... compute the same value) that runs at
// several bytes per cycle, where byte-wise FNV-1a cost as much as decoding the records.
#pragma once

#include <cstddef>
#include <cstdint>

namespace zng::trace {

class Xxh64 {
public:
    Xxh64();
    void update(const uint8_t* p, size_t n);
    // Digest of everything fed so far; more data may follow.
    uint64_t digest() const;

private:
    uint64_t acc_[4];
    uint64_t total_ = 0;
    uint8_t pending_[32];   // bytes of an incomplete 32-byte stripe
    size_t pending_size_ = 0;
};

}  // namespace zng::trace
