// XXH64 (seed 0) over a stream fed in arbitrary pieces, computed by libxxhash (the
// reference implementation, Debian's libxxhash-dev). It checksums the uncompressed .ztr
// stream: a well-known, documented function (xxhsum, python-xxhash, ... compute the same
// value) that runs at several bytes per cycle, where byte-wise FNV-1a cost as much as
// decoding the records. The library stays out of this header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

struct XXH64_state_s;

namespace zng::trace {

class Xxh64 {
public:
    Xxh64();
    ~Xxh64();
    Xxh64(Xxh64&&) noexcept;
    Xxh64& operator=(Xxh64&&) noexcept;
    void update(const uint8_t* p, size_t n);
    // Digest of everything fed so far; more data may follow.
    uint64_t digest() const;

private:
    struct FreeState {
        void operator()(XXH64_state_s* s) const;
    };
    std::unique_ptr<XXH64_state_s, FreeState> state_;
};

}  // namespace zng::trace
