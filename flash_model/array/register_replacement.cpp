#include "flash_model/array/register_replacement.hpp"

#include <vector>

namespace zng::flash {

RegisterReplacementSlot& register_replacement_slot() {
    static RegisterReplacementSlot slot("flash_register_replacement");
    return slot;
}

namespace {

// Evicts the register with the oldest stamp; LRU stamps on every access, FIFO only on fill.
// Every stamp is a fresh clock value, so the registers ordered by stamp form a list in
// which a stamped register moves to the end: the oldest of any candidates is the first
// of them in that list.
class StampPolicy : public RegisterReplacementPolicy {
public:
    explicit StampPolicy(bool stamp_on_access) : on_access_(stamp_on_access) {}
    void resize(size_t n) override {
        stamp_.assign(n, 0);
        prev_.resize(n);
        next_.resize(n);
        for (uint32_t r = 0; r < n; ++r) {
            prev_[r] = r == 0 ? kEndOfOrder : r - 1;
            next_[r] = r + 1 == n ? kEndOfOrder : r + 1;
        }
        head_ = n == 0 ? kEndOfOrder : 0;
        tail_ = n == 0 ? kEndOfOrder : static_cast<uint32_t>(n - 1);
    }
    void on_fill(uint32_t r) override { stamp(r); }
    void on_access(uint32_t r) override {
        if (on_access_) stamp(r);
    }
    size_t choose(const uint32_t* c, size_t n) override {
        size_t best = 0;
        for (size_t i = 1; i < n; ++i)
            if (stamp_[c[i]] < stamp_[c[best]]) best = i;
        return best;
    }
    bool keeps_order() const override { return true; }
    uint32_t first_in_order() const override { return head_; }
    const uint32_t* next_in_order() const override { return next_.data(); }

private:
    void stamp(uint32_t r) {
        stamp_[r] = ++clock_;
        if (tail_ == r) return;
        // Unlink r, then append it.
        (prev_[r] == kEndOfOrder ? head_ : next_[prev_[r]]) = next_[r];
        prev_[next_[r]] = prev_[r];
        prev_[r] = tail_;
        next_[r] = kEndOfOrder;
        next_[tail_] = r;
        tail_ = r;
    }
    bool on_access_;
    std::vector<uint64_t> stamp_;
    uint64_t clock_ = 0;
    std::vector<uint32_t> prev_, next_;  // registers by stamp, oldest first
    uint32_t head_ = kEndOfOrder, tail_ = kEndOfOrder;
};

// Uniform choice from a seeded xorshift generator: deterministic run to run.
class RandomPolicy : public RegisterReplacementPolicy {
public:
    explicit RandomPolicy(uint64_t seed) : s_(seed ? seed : 0x9e3779b97f4a7c15ull) {}
    void resize(size_t) override {}
    void on_fill(uint32_t) override {}
    void on_access(uint32_t) override {}
    size_t choose(const uint32_t*, size_t n) override {
        advance();
        return static_cast<size_t>(s_ % n);
    }

private:
    void advance() {
        s_ ^= s_ << 13;
        s_ ^= s_ >> 7;
        s_ ^= s_ << 17;
    }
    uint64_t s_;
};

const Param<param_kind::UInt> kSeed{"seed", "1", "generator seed"};

}  // namespace

void register_replacement_policies() {
    auto& slot = register_replacement_slot();
    slot.add({"", "lru", "evict the least recently used idle register", {}, {}},
             [](const Params&) { return std::make_unique<StampPolicy>(true); });
    slot.add({"", "fifo", "evict the idle register filled longest ago", {}, {}},
             [](const Params&) { return std::make_unique<StampPolicy>(false); });
    slot.add({"",
              "random",
              "evict a uniformly chosen idle register (seeded, deterministic)",
              {kSeed},
              {}},
             [](const Params& p) { return std::make_unique<RandomPolicy>(p[kSeed]); });
}

}  // namespace zng::flash
