// GraphBIG's my_worklist: a device array of vertex ids plus an end counter, filled by
// pushRange (one atomicAdd reserving room, then a copy loop) and cleared by the host.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "traces/workloads/graph/device_graph.hpp"

namespace zng::workloads::graph {

// A thread's private buffer (uint64_t local_worklist[LOCAL_SIZE] in the kernels).
constexpr uint32_t kLocalWorklistSize = 128;
using LocalWorklists = Lanes<std::array<uint64_t, kLocalWorklistSize>>;

struct WorklistPcs {
    uint64_t atomic_end;    // atomicAdd(end, num)
    uint64_t local_load;    // from_array[i]
    uint64_t store_item;    // item_array[i + old_end] = ...
};

class DeviceWorklist {
public:
    // init(): cudaMalloc of item_array (capacity uint64 slots) then end (uint32).
    DeviceWorklist(DeviceMemory& mem, const std::string& name, uint64_t capacity);

    uint32_t size() const { return end_; }
    uint64_t item(uint64_t i) const { return items_[i]; }
    void clear() { end_ = 0; }                       // host cudaMemcpy of 0 into end
    void host_push(uint64_t v);                      // host_initPush

    const DeviceArray& items() const { return items_array_; }
    const DeviceArray& end_counter() const { return end_array_; }

    // pushRange(from, n[l]) executed by the lanes of mask: every lane's atomicAdd (even
    // with n = 0) on end, served lowest lane first, then the copy loop, which runs
    // until the lane with the most items is done. Throws std::length_error if the
    // worklist would overflow (where the CUDA kernel would write out of bounds).
    void push_range(WarpOps& w, const WorklistPcs& pc, uint32_t mask, const LocalWorklists& from,
                    const Lanes<uint32_t>& n);

    // The prologue of the thread-centric kernels that read this worklist: thread tid
    // reads *end (every live lane), and `if (tid < *end) v = item_array[tid]`. Returns
    // the lanes that hold an item.
    uint32_t thread_items(WarpOps& w, uint64_t pc_end, uint64_t pc_item, const WarpThreads& t,
                          Lanes<uint64_t>& tid, Lanes<uint64_t>& v) const;

    // `local_worklist[work_size++] = v[l]` by the lanes of mask (a store to local
    // memory), then `if (work_size == LOCAL_SIZE) { pushRange into this worklist;
    // work_size = 0; }`: the step of the data-driven kernels that queue a vertex.
    void push_local(WarpOps& w, uint64_t pc_local, const WorklistPcs& full, uint32_t mask,
                    const Lanes<uint64_t>& v, LocalWorklists& local, Lanes<uint32_t>& work);

private:
    std::string name_;
    DeviceArray items_array_;
    DeviceArray end_array_;
    std::vector<uint64_t> items_;
    uint32_t end_ = 0;
};

}  // namespace zng::workloads::graph
