#include "traces/workloads/graph/device_worklist.hpp"

#include <stdexcept>

#include "traces/workloads/graph/gpu_run.hpp"

namespace zng::workloads::graph {

DeviceWorklist::DeviceWorklist(DeviceMemory& mem, const std::string& name, uint64_t capacity)
    : name_(name),
      items_array_(mem.alloc(name + ".item_array", 8, capacity)),
      end_array_(mem.alloc(name + ".end", 4, 1)) {}

void DeviceWorklist::host_push(uint64_t v) {
    if (end_ >= items_array_.count)
        throw std::length_error(name_ + ": worklist of " + std::to_string(items_array_.count) +
                                " items overflows");
    if (items_.size() <= end_) items_.resize(end_ + 1);
    items_[end_++] = v;
}

void DeviceWorklist::push_range(WarpOps& w, const WorklistPcs& pc, uint32_t mask,
                                const LocalWorklists& from, const Lanes<uint32_t>& n) {
    if (mask == 0) return;
    Lanes<uint64_t> old{};
    uint32_t longest = 0;
    for_each_lane(mask, [&](int l) {
        old[l] = end_;
        if (uint64_t{end_} + n[l] > items_array_.count)
            throw std::length_error(name_ + ": worklist of " + std::to_string(items_array_.count) +
                                    " items overflows");
        end_ += n[l];
        if (n[l] > longest) longest = n[l];
    });
    w.compute(1);
    w.atomic_one(pc.atomic_end, mask, end_array_, 0);
    if (items_.size() < end_) items_.resize(std::max<size_t>(end_, items_.size() * 2));
    Lanes<uint32_t> i_lane{};
    Lanes<uint64_t> slot{};
    for (uint32_t i = 0; i < longest; ++i) {
        const uint32_t active = lanes_where(mask, [&](int l) { return i < n[l]; });
        for_each_lane(active, [&](int l) {
            i_lane[l] = i;
            slot[l] = old[l] + i;
            items_[slot[l]] = from[l][i];
        });
        w.compute(2);
        w.local_load(pc.local_load, active, i_lane, 8);
        w.store(pc.store_item, active, items_array_, slot);
    }
    // The loop test of the last iteration (every lane then leaves).
    w.compute(2);
}

uint32_t DeviceWorklist::thread_items(WarpOps& w, uint64_t pc_end, uint64_t pc_item, const WarpThreads& t,
                                     Lanes<uint64_t>& tid, Lanes<uint64_t>& v) const {
    const uint32_t m = thread_ids(t, end_, tid);
    w.compute(kTidCompute);
    w.load_one(pc_end, t.live, end_array_, 0);
    w.compute(kTestCompute);
    if (m == 0) return 0;
    for_each_lane(m, [&](int l) { v[l] = items_[tid[l]]; });
    w.load(pc_item, m, items_array_, tid);
    return m;
}

void DeviceWorklist::push_local(WarpOps& w, uint64_t pc_local, const WorklistPcs& full, uint32_t mask,
                                const Lanes<uint64_t>& v, LocalWorklists& local, Lanes<uint32_t>& work) {
    Lanes<uint32_t> slot{};
    for_each_lane(mask, [&](int l) {
        slot[l] = work[l];
        local[l][work[l]++] = v[l];
    });
    w.local_store(pc_local, mask, slot, 8);
    const uint32_t filled = lanes_where(mask, [&](int l) { return work[l] == kLocalWorklistSize; });
    w.compute(kTestCompute);
    if (filled == 0) return;
    push_range(w, full, filled, local, work);
    for_each_lane(filled, [&](int l) { work[l] = 0; });
}

}  // namespace zng::workloads::graph
