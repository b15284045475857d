// The `first_touch` translation policy: a page gets the next free physical frame the
// first time any access of its application touches it, so frames are handed out in
// first-touch order across all applications (each has its own address space, the
// frames are shared). Used by platforms whose memory holds every data set (ideal,
// optane, hybridgpu). Running out of frames is a SimError: the platform's memory is
// too small for the workload.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/core/hash_map.hpp"
#include "sim/mem/address_translator.hpp"

namespace zng::gpu {

class FirstTouchTranslator final : public AddressTranslator {
public:
    // capacity 0 = no limit.
    FirstTouchTranslator(uint64_t page_size, uint64_t capacity_bytes);

    static const ComponentSchema& schema();

    uint64_t page_size() const override { return page_size_; }
    bool translate(uint16_t app, uint64_t vpn, uint64_t& ppn) override;
    void resolve_fault(uint16_t app, uint64_t vpn, FaultDone done) override;

    uint64_t frames_used() const { return next_frame_; }

private:
    uint64_t page_size_;
    uint64_t max_frames_;  // 0 = unbounded
    uint64_t next_frame_ = 0;
    std::vector<GrowingHashMap<uint64_t>> maps_;  // per application
};

void register_first_touch_translator();

}  // namespace zng::gpu
