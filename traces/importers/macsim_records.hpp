// Binary warp records of MacSim GPU traces (gzip'd trace_<warp>.raw files), decoded
// field by field from little-endian bytes with the layouts MacSim's trace_read.h gives
// them (natural alignment, x86-64):
//   nvbit (trace_info_nvbit_small_s, 64 bytes)     ptx (trace_info_gpu_small_s, 72 bytes)
//    0 opcode  1 is_fp  2 is_load  3 cf_type         same first 6 bytes,
//    4 num_read_regs  5 num_dest_regs                6 src[5] u16, 16 dst[4] u16, 24 size,
//    6 src[4] u16  14 dst[4] u16  22 size            28 active_mask, 32 br_taken_mask,
//   24 active_mask u32  28 br_taken_mask u32         40 inst_addr, 48 br_target_addr,
//   32 inst_addr u64  40 br_target_addr u64          56 mem_addr / reconv_inst_addr,
//   48 mem_addr (or reconv_inst_addr) u64            64 mem_access_size / barrier_id,
//   56 mem_access_size (or barrier_id) u8            66 num_barrier_threads u16,
//   58 num_barrier_threads u16  60 addr_space u8     68 addr_space, 69 cache_level,
//   61 cache_level  62 cache_operator                70 cache_operator
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace zng::importers {

constexpr size_t kNvbitRecordBytes = 64;
constexpr size_t kPtxRecordBytes = 72;
// A ptx memory record is followed by records holding the other 31 lanes' 64-bit
// addresses, 9 per record (MacSim's trace_uses_64_bit_addr default).
constexpr int kPtxAddressesPerRecord = static_cast<int>(kPtxRecordBytes / 8);
constexpr int kPtxAddressRecords = (31 + kPtxAddressesPerRecord - 1) / kPtxAddressesPerRecord;

struct MacSimRecord {
    uint8_t opcode = 0;
    bool is_fp = false;
    bool is_load = false;
    uint8_t cf_type = 0;
    uint32_t active_mask = 0;
    uint64_t inst_addr = 0;
    uint64_t mem_addr = 0;
    uint8_t mem_access_size = 0;
    uint8_t addr_space = 0;
};

void decode_nvbit_record(const uint8_t* p, MacSimRecord& r);
void decode_ptx_record(const uint8_t* p, MacSimRecord& r);

// 64-bit little-endian word `i` of a raw record (ptx address records).
uint64_t record_word(const uint8_t* p, int i);

// SASS name of a MacSim NVBIT_* opcode number, empty when out of range (the tracer
// writes 255 for opcodes it has no number for).
std::string_view nvbit_opcode_name(uint8_t opcode);
// Name of a MacSim GPU_* (PTX) opcode number without the prefix, empty when out of range.
std::string_view ptx_opcode_name(uint8_t opcode);

// NVBit's InstrType::MemorySpace values as the nvbit tracer stores them in addr_space.
enum class NvbitMemorySpace : uint8_t { None = 0, Local = 1, Generic = 2, Global = 3, Shared = 4, Constant = 5 };

}  // namespace zng::importers
