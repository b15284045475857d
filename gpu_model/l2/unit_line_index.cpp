#include "gpu_model/l2/unit_line_index.hpp"

#include "sim/core/errors.hpp"

namespace zng::gpu {

UnitLineIndex::UnitLineIndex(uint64_t max_units)
    : records_by_block_(2 * max_units), records_(2 * max_units) {
    for (uint32_t i = static_cast<uint32_t>(records_.size()); i-- > 0;) free_records_.push_back(i);
}

uint64_t UnitLineIndex::bytes(uint64_t max_units) {
    return FixedHashMap<uint32_t>::table_bytes(2 * max_units) + 2 * max_units * (sizeof(Record) + sizeof(uint32_t));
}

void UnitLineIndex::put(uint64_t line, uint32_t unit) {
    const uint64_t block = line >> kBlockShift;
    const uint32_t* r = records_by_block_.get(block);
    uint32_t i;
    if (r) {
        i = *r;
    } else {
        if (free_records_.empty()) throw SimError("L2: unit lines span more blocks than their units allow");
        i = free_records_.back();
        free_records_.pop_back();
        records_by_block_.put(block, i);
    }
    Record& rec = records_[i];
    rec.present |= uint64_t{1} << (line & kLineMask);
    rec.unit[line & kLineMask] = unit;
    ++size_;
}

void UnitLineIndex::erase(uint64_t line) {
    const uint64_t block = line >> kBlockShift;
    uint32_t* r = records_by_block_.get(block);
    if (!r) return;
    Record& rec = records_[*r];
    const uint64_t bit = uint64_t{1} << (line & kLineMask);
    if (!(rec.present & bit)) return;
    rec.present &= ~bit;
    --size_;
    if (rec.present) return;
    free_records_.push_back(*r);
    records_by_block_.erase(block);
}

}  // namespace zng::gpu
