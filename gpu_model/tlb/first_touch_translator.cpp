#include "gpu_model/tlb/first_touch_translator.hpp"

#include <fmt/format.h>

#include <bit>

namespace zng::gpu {

namespace {
using namespace param_kind;
const auto kPageSize = Param<Size>("page_size", "4KiB", "translation granule (power of two, >= 4 KiB)")
                           .range(4096, static_cast<double>(uint64_t{1} << 40));
const auto kCapacity =
    Param<Size>("capacity", "0B", "physical memory that frames come from; 0 = unlimited. Exhausting it is an error")
        .min(0);
}  // namespace

FirstTouchTranslator::FirstTouchTranslator(uint64_t page_size, uint64_t capacity_bytes)
    : page_size_(page_size), max_frames_(capacity_bytes / page_size) {
    if (!std::has_single_bit(page_size) || page_size < 4096)
        throw ConfigError(fmt::format("first_touch: page size {} must be a power of two of at least 4 KiB", page_size));
    if (capacity_bytes != 0 && max_frames_ == 0)
        throw ConfigError(fmt::format("first_touch: capacity {} B holds no page of {} B", capacity_bytes, page_size));
}

const ComponentSchema& FirstTouchTranslator::schema() {
    static const ComponentSchema s{
        .slot = "translation",
        .name = "first_touch",
        .description = "physical frames handed out in first-touch order; per-application address spaces",
        .params = {kPageSize, kCapacity},
        .ports = {}};
    return s;
}

bool FirstTouchTranslator::translate(uint16_t app, uint64_t vpn, uint64_t& ppn) {
    while (app >= maps_.size()) maps_.emplace_back(32);
    GrowingHashMap<uint64_t>& map = maps_[app];
    if (const uint64_t* known = map.get(vpn)) {
        ppn = *known;
        return true;
    }
    if (max_frames_ != 0 && next_frame_ >= max_frames_)
        throw SimError(fmt::format(
            "first_touch: physical memory exhausted: app {} touched virtual address {:#x} but all {} frames "
            "of {} B ({} B) are in use; raise translation.capacity or the memory size",
            app, vpn * page_size_, max_frames_, page_size_, max_frames_ * page_size_));
    map.put(vpn, next_frame_);
    ppn = next_frame_++;
    return true;
}

void FirstTouchTranslator::resolve_fault(uint16_t app, uint64_t vpn, FaultDone done) {
    // translate() maps on first use, so a fault is served at once.
    uint64_t ppn = 0;
    translate(app, vpn, ppn);
    done(ppn);
}

void register_first_touch_translator() {
    translator_slot().add(FirstTouchTranslator::schema(), [](const Params& p, Simulator&, const TranslatorContext&) {
        uint64_t page = p[kPageSize];
        if (!std::has_single_bit(page)) p.fail(kPageSize.key(), fmt::format("{} B is not a power of two", page));
        uint64_t capacity = p[kCapacity];
        if (capacity != 0 && capacity < page) p.fail(kCapacity.key(), "is smaller than one page");
        return std::make_unique<FirstTouchTranslator>(page, capacity);
    });
}

}  // namespace zng::gpu
