// Everything the shared `flash:` section of a platform says about the flash medium:
// geometry, array timing, interface, I/O ports, registers and the row decoder. Every
// flash-based back end (zng_flash here; HybridGPU's SSD and Hetero's NVMe SSD in
// mmu_ftl/) reads it through load_flash_spec() so that all of them model the same
// Z-NAND.
#pragma once
#include <cstdint>
#include <string>

#include "flash_model/array/flash_geometry.hpp"
#include "flash_model/array/thrashing_checker.hpp"
#include "sim/config/params.hpp"
#include "sim/core/tick.hpp"

namespace zng {
class ConfigNode;
}

namespace zng::flash {

// How the flash registers of a package may be used.
enum class RegisterGrouping : uint8_t {
    Plane,    // each plane uses only its own registers (conventional Z-NAND; zng-base)
    Package,  // all registers of a package form one fully-associative cache (zng-wropt)
};

struct FlashTiming {
    Tick t_read = 3 * kMicrosecond;        // tR: sense a page into a register
    Tick t_prog = 100 * kMicrosecond;      // tPROG: program a register into a page
    Tick t_erase = 1 * kMillisecond;       // tBERS: erase a block
    uint64_t interface_rate = 800'000'000;  // transfers per second on a package I/O port
    uint32_t io_port_width = 8;             // bytes per transfer
    uint32_t command_cycles = 7;            // command/address cycles of one operation on the I/O port
    Tick decoder_search = 0;                // CAM search of the programmable row decoder
};

struct FlashSpec {
    FlashGeometry geometry;
    FlashTiming timing;
    uint32_t io_ports_per_package = 2;
    uint32_t registers_per_plane = 2;
    RegisterGrouping grouping = RegisterGrouping::Plane;
    bool multi_plane = true;             // planes of a die run operations of one kind together
    bool write_miss_sense = false;       // a write miss senses the page at once (else only a partial program merges)
    bool cache_program = true;  // a register is free when its program starts, not when it ends
    bool reads_take_dirty_registers = false;  // a read miss may evict a dirty register (else the page buffer serves it)
    bool reads_keep_pages = true;  // a read miss keeps its page in an empty or clean register (else the page buffer)
    double dirty_watermark = 1.0;        // dirty fraction of a register group above which programs start early
    bool write_staging = false;  // a page is queued for a background program at its first store, programmed FIFO
    // Registers are each plane's program pipeline (page register + cache register): a page
    // is programmed as soon as its plane may, stores merging only while it waits.
    bool program_pipeline = false;
    bool stages_writes() const { return write_staging || program_pipeline; }
    uint32_t endurance = 100'000;        // P/E cycles before a block counts as worn out
    const ConfigNode* register_replacement = nullptr;   // `type:` lru | fifo | random
    const ConfigNode* register_interconnect = nullptr;  // `type:` fcnet | nif | swnet
    std::string register_replacement_path = "flash.register_replacement";
    std::string register_interconnect_path = "flash.register_interconnect";
    ThrashingCheckerConfig thrashing;  // per-package register thrashing checker (zng-wropt)

    // A register records which parts of its page hold current data in chunks of
    // chunk_bytes() (128 B, the L2 line a store carries, or page/64 for pages above 8 KB),
    // one bit each in a 64-bit mask.
    uint32_t chunk_bytes() const {
        const uint32_t page = static_cast<uint32_t>(geometry.page_size());
        return page / 64 > 128 ? page / 64 : 128;
    }
    uint64_t full_chunk_mask() const {
        const uint32_t n = static_cast<uint32_t>(geometry.page_size()) / chunk_bytes();
        return n >= 64 ? ~0ull : (1ull << n) - 1;
    }
    // Chunks touched by `bytes` at `offset` within the page.
    uint64_t chunk_mask(uint32_t offset, uint32_t bytes) const {
        if (bytes == 0) return 0;
        const uint32_t first = offset / chunk_bytes(), last = (offset + bytes - 1) / chunk_bytes();
        const uint64_t upto = last >= 63 ? ~0ull : (1ull << (last + 1)) - 1;
        return upto & ~((1ull << first) - 1);
    }
};

// The schema of the `flash:` section (also printed by `config describe`).
const ComponentSchema& flash_section_schema();
// Reads and validates root's `flash:` section (all defaults when absent). Impossible
// geometry and unknown keys are ConfigErrors naming the file, line and key.
FlashSpec load_flash_spec(const ConfigNode* root);
// Same, from the section itself (path names it in messages).
FlashSpec parse_flash_section(const ConfigNode* section, const std::string& path = "flash");

}  // namespace zng::flash
