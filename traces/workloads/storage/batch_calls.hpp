// GoFS's batched file calls as GPU I/O records (storage/gofs/file_offset.hpp): a call on
// files [first, first + count) of one directory is one io_submit whose storage offset
// has bit 63 set, the first file in bits 40..62, the count in bits 2..39 and the call
// in bits 0..1 (0 batch_open, 1 batch_read/batch_write, 2 create, 3 a host program's
// batch_read/batch_write, each file read transformed on the host). Shared by the
// storage workloads that use them (preprocess, file_query), with the GPU's work on the
// files a batch brought in.
#pragma once
#include <cstdint>

#include "traces/workloads/kernel_emitter.hpp"

namespace zng::workloads {

enum class BatchCall : uint64_t { Open = 0, Data = 1, Create = 2, HostTransform = 3 };

constexpr uint64_t batch_offset(BatchCall call, uint64_t first, uint64_t count) {
    return uint64_t{1} << 63 | first << 40 | count << 2 | static_cast<uint64_t>(call);
}

// The storage offset of byte `offset` of file `file` (file << 40 | offset).
constexpr uint64_t file_offset(uint64_t file, uint64_t offset) { return file << 40 | offset; }

// One call issued by the warp's lane 0 into I/O group `tag`: `bytes` to or from `dest`
// (batch_read/batch_write: the files one after another; batch_open and create move no
// data and pass a nominal 4 KiB).
inline void batch_submit(WarpEmitter& we, uint64_t pc, BatchCall call, bool write, uint64_t first, uint64_t count,
                         uint64_t bytes, uint32_t tag, uint64_t dest) {
    constexpr uint32_t kCallCompute = 4;  // the call's arguments
    we.compute(kCallCompute);
    const bool data = call == BatchCall::Data || call == BatchCall::HostTransform;
    we.io_submit_strided(pc, 1u, write, static_cast<uint32_t>(data ? bytes : 4096), tag,
                         batch_offset(call, first, count), 0, dest, 0);
}

// Warp `wi` of `warps`'s share of the GPU's work on `blocks` 4 KiB blocks at `base`
// costing `ops` instructions in all: blocks wi, wi + warps, ... (one coalesced load
// each, at `load_pc`), its share of the instructions spread evenly before them.
inline void compute_on_blocks(WarpEmitter& we, uint32_t wi, uint32_t warps, uint64_t ops, uint64_t blocks,
                              uint64_t base, uint64_t load_pc) {
    const uint64_t mine = ops / warps + (wi < ops % warps ? 1 : 0);
    const uint64_t my_blocks = blocks / warps + (wi < blocks % warps ? 1 : 0);
    const uint64_t each = my_blocks ? mine / my_blocks : 0;
    for (uint64_t b = wi; b < blocks; b += warps) {
        we.compute(static_cast<uint32_t>(each));
        we.load_strided(load_pc, kFullMask, base + b * 4096, 4, 4);
    }
    if (mine > each * my_blocks) we.compute(static_cast<uint32_t>(mine - each * my_blocks));
}

}  // namespace zng::workloads
