// Parameters of the L2 (the `gpu.l2` section) and its bank interleaving.
#pragma once
#include <bit>
#include <cstdint>
#include <string>

#include "sim/config/params.hpp"

namespace zng::gpu {

enum class ArrayTechnology : uint8_t { Sram, SttMram };

struct L2Config {
    uint32_t banks = 6;
    uint64_t size = 6ull << 20;  // all banks together
    uint32_t ways = 8;
    uint32_t line = 128;
    ArrayTechnology technology = ArrayTechnology::Sram;
    uint32_t read_latency = 1;   // cycles
    uint32_t write_latency = 1;  // cycles
    // Shared: one array port, held by a read 1 cycle and by a write or fill write_latency
    // cycles. ReadWrite: a read port and a write port, each held 1 cycle per access, the
    // latencies pipelined (MacSim's cache-bank ports, the paper's GPU simulator).
    enum class Ports : uint8_t { Shared, ReadWrite } ports = Ports::Shared;
    uint64_t interleave = 256;   // bytes of contiguous physical address per bank
    uint32_t mshr_entries = 64;  // per bank
    uint32_t mshr_merge = 16;
    uint32_t input_queue = 8;    // requests buffered at a bank's crossbar side
    uint32_t memory_queue = 16;  // requests waiting to enter the memory back end, reads and writes each
    const ConfigNode* policy = nullptr;  // `policy:` section (slot l2_policy)
    std::string path;                    // config path, for messages

    uint32_t sets_per_bank() const { return static_cast<uint32_t>(size / banks / ways / line); }

    static const ComponentSchema& schema();
    static L2Config from(const Params& p);
};

// Physical address -> (bank, line index within the bank). Consecutive `interleave`-byte
// chunks go to consecutive banks, so streams spread over all banks.
class L2AddressMap {
public:
    L2AddressMap(uint32_t banks, uint64_t interleave, uint32_t line)
        : banks_(banks),
          interleave_(interleave),
          lines_per_chunk_(interleave / line),
          interleave_shift_(std::has_single_bit(interleave) ? std::countr_zero(interleave) : -1),
          line_shift_(std::countr_zero(uint64_t{line})) {}
    uint32_t bank(uint64_t paddr) const { return static_cast<uint32_t>(chunk_of(paddr) % banks_); }
    uint64_t local_line(uint64_t paddr) const {
        return (chunk_of(paddr) / banks_) * lines_per_chunk_ + (offset_in_chunk(paddr) >> line_shift_);
    }

private:
    // Every crossbar hop and L2 lookup maps an address: shifts and masks where the
    // interleave is a power of two (the usual case; a 64-bit division costs tens of host
    // cycles), the division otherwise. The line size is a power of two (L2Config::from).
    uint64_t chunk_of(uint64_t paddr) const {
        return interleave_shift_ >= 0 ? paddr >> interleave_shift_ : paddr / interleave_;
    }
    uint64_t offset_in_chunk(uint64_t paddr) const {
        return interleave_shift_ >= 0 ? paddr & (interleave_ - 1) : paddr % interleave_;
    }

    uint64_t banks_, interleave_, lines_per_chunk_;
    int interleave_shift_;  // log2(interleave), or -1 when it is not a power of two
    int line_shift_;
};

}  // namespace zng::gpu
