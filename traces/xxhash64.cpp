#include "traces/xxhash64.hpp"

#include <new>

#include <xxhash.h>

namespace zng::trace {

void Xxh64::FreeState::operator()(XXH64_state_s* s) const { XXH64_freeState(s); }

Xxh64::Xxh64() : state_(XXH64_createState()) {
    if (!state_) throw std::bad_alloc();
    XXH64_reset(state_.get(), 0);
}
Xxh64::~Xxh64() = default;
Xxh64::Xxh64(Xxh64&&) noexcept = default;
Xxh64& Xxh64::operator=(Xxh64&&) noexcept = default;

void Xxh64::update(const uint8_t* p, size_t n) {
    if (n > 0) XXH64_update(state_.get(), p, n);
}

uint64_t Xxh64::digest() const { return XXH64_digest(state_.get()); }

}  // namespace zng::trace
