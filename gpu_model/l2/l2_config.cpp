#include "gpu_model/l2/l2_config.hpp"

#include <bit>

#include "gpu_model/common/schema_helpers.hpp"

namespace zng::gpu {

const ComponentSchema& L2Config::schema() {
    static const ComponentSchema s{
        .slot = "gpu.l2",
        .name = "l2",
        .description = "shared L2: interleaved banks, write-back write-allocate, MSHRs, atomics, SRAM or STT-MRAM "
                       "array, pluggable policy hook",
        .params =
            {
                uint_param("banks", "6", "L2 banks (one memory port each)", 1, 1024),
                typed_param("size", ParamType::Size, "6MiB", "capacity of all banks together", 1024,
                            static_cast<double>(uint64_t{1} << 40)),
                uint_param("ways", "8", "associativity", 1, 64),
                typed_param("line", ParamType::Size, "128B", "line size (power of two, 32 B .. 1 KiB)", 32, 1024),
                choice_param("technology", "sram", {"sram", "stt_mram"},
                             "array technology: sets the default write latency (sram 1 cycle, stt_mram 5 cycles)"),
                uint_param("read_latency", "1", "tag + data read latency, GPU cycles", 0, 100000),
                uint_param("write_latency", "0",
                           "array write latency in GPU cycles; 0 = the technology's (sram 1, stt_mram 5)", 0, 100000),
                choice_param("ports", "shared", {"shared", "read_write"},
                             "bank array ports: shared (one port; a read holds it 1 cycle, a write or fill "
                             "write_latency cycles) or read_write (a read and a write port, each held 1 cycle per "
                             "access, latencies pipelined, as MacSim's cache banks)"),
                typed_param("interleave", ParamType::Size, "256B",
                            "contiguous physical bytes mapped to one bank before moving to the next", 32,
                            static_cast<double>(uint64_t{1} << 30)),
                uint_param("mshr_entries", "64", "lines being fetched at once, per bank", 1, 1 << 16),
                uint_param("mshr_merge", "16", "requests merged into one line fetch", 1, 4096),
                uint_param("input_queue", "8", "requests buffered at each bank's crossbar side", 1, 1 << 16),
                uint_param("memory_queue", "16", "requests buffered toward the memory back end, per bank and per direction (reads and writes queue apart)", 2,
                           1 << 16),
                section_param("policy", "L2 policy / prefetcher hook (slot l2_policy; type none by default)"),
            },
        .ports = {"bank<b>.mem: to the memory back end, one per bank"}};
    return s;
}

L2Config L2Config::from(const Params& p) {
    L2Config c;
    c.banks = p.u32("banks");
    c.size = p.size("size");
    c.ways = p.u32("ways");
    c.line = static_cast<uint32_t>(p.size("line"));
    c.technology = p.str("technology") == "stt_mram" ? ArrayTechnology::SttMram : ArrayTechnology::Sram;
    c.ports = p.str("ports") == "read_write" ? L2Config::Ports::ReadWrite : L2Config::Ports::Shared;
    c.read_latency = p.u32("read_latency");
    c.write_latency = p.u32("write_latency");
    if (c.write_latency == 0) c.write_latency = c.technology == ArrayTechnology::SttMram ? 5 : 1;
    c.interleave = p.size("interleave");
    c.mshr_entries = p.u32("mshr_entries");
    c.mshr_merge = p.u32("mshr_merge");
    c.input_queue = p.u32("input_queue");
    c.memory_queue = p.u32("memory_queue");
    c.policy = p.section("policy");
    c.path = p.path();
    if (!std::has_single_bit(c.line)) p.fail("line", std::to_string(c.line) + " B is not a power of two");
    if (c.interleave % c.line) p.fail("interleave", "must be a multiple of the line size");
    const uint64_t unit = uint64_t{c.banks} * c.ways * c.line;
    if (c.size % unit)
        p.fail("size", "must be a multiple of banks x ways x line (" + std::to_string(unit) + " B) to give whole sets");
    return c;
}

}  // namespace zng::gpu
