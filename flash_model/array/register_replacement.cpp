#include "flash_model/array/register_replacement.hpp"

#include <vector>

namespace zng::flash {

RegisterReplacementSlot& register_replacement_slot() {
    static RegisterReplacementSlot slot("flash_register_replacement");
    return slot;
}

namespace {

// Evicts the register with the oldest stamp; LRU stamps on every access, FIFO only on fill.
class StampPolicy : public RegisterReplacementPolicy {
public:
    explicit StampPolicy(bool stamp_on_access) : on_access_(stamp_on_access) {}
    void resize(size_t n) override { stamp_.assign(n, 0); }
    void on_fill(uint32_t r) override { stamp_[r] = ++clock_; }
    void on_access(uint32_t r) override {
        if (on_access_) stamp_[r] = ++clock_;
    }
    size_t choose(const uint32_t* c, size_t n) override {
        size_t best = 0;
        for (size_t i = 1; i < n; ++i)
            if (stamp_[c[i]] < stamp_[c[best]]) best = i;
        return best;
    }

private:
    bool on_access_;
    std::vector<uint64_t> stamp_;
    uint64_t clock_ = 0;
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
              {{"seed", ParamType::UInt, "1", "generator seed"}},
              {}},
             [](const Params& p) { return std::make_unique<RandomPolicy>(p.u64("seed")); });
}

}  // namespace zng::flash
