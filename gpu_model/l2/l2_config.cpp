#include "gpu_model/l2/l2_config.hpp"

#include <bit>
#include <string>

namespace zng::gpu {

namespace {
using namespace param_kind;
const auto kBanks = Param<UInt32>("banks", "6", "L2 banks (one memory port each)").range(1, 1024);
const auto kSize = Param<Size>("size", "6MiB", "capacity of all banks together")
                       .range(1024, static_cast<double>(uint64_t{1} << 40));
const auto kWays = Param<UInt32>("ways", "8", "associativity").range(1, 64);
const auto kLine = Param<Size>("line", "128B", "line size (power of two, 32 B .. 1 KiB)").range(32, 1024);
const auto kTechnology =
    Param<Choice>("technology", "sram",
                  "array technology: sets the default write latency (sram 1 cycle, stt_mram 5 cycles)")
        .choices({"sram", "stt_mram"});
const auto kReadLatency = Param<UInt32>("read_latency", "1", "tag + data read latency, GPU cycles").range(0, 100000);
const auto kWriteLatency =
    Param<UInt32>("write_latency", "0",
                  "array write latency in GPU cycles; 0 = the technology's (sram 1, stt_mram 5)")
        .range(0, 100000);
const auto kPorts = Param<Choice>("ports", "shared",
                                  "bank array ports: shared (one port; a read holds it 1 cycle, a write or fill "
                                  "write_latency cycles) or read_write (a read and a write port, each held 1 cycle "
                                  "per access, latencies pipelined, as MacSim's cache banks)")
                        .choices({"shared", "read_write"});
const auto kInterleave = Param<Size>("interleave", "256B",
                                     "contiguous physical bytes mapped to one bank before moving to the next")
                             .range(32, static_cast<double>(uint64_t{1} << 30));
const auto kMshrEntries =
    Param<UInt32>("mshr_entries", "64", "lines being fetched at once, per bank").range(1, 1 << 16);
const auto kMshrMerge = Param<UInt32>("mshr_merge", "16", "requests merged into one line fetch").range(1, 4096);
const auto kInputQueue =
    Param<UInt32>("input_queue", "8", "requests buffered at each bank's crossbar side").range(1, 1 << 16);
const auto kMemoryQueue =
    Param<UInt32>("memory_queue", "16",
                  "requests buffered toward the memory back end, per bank and per direction (reads and writes "
                  "queue apart)")
        .range(2, 1 << 16);
const Param<Section> kPolicy{"policy", "", "L2 policy / prefetcher hook (slot l2_policy; type none by default)"};
}  // namespace

const ComponentSchema& L2Config::schema() {
    static const ComponentSchema s{
        .slot = "gpu.l2",
        .name = "l2",
        .description = "shared L2: interleaved banks, write-back write-allocate, MSHRs, atomics, SRAM or STT-MRAM "
                       "array, pluggable policy hook",
        .params = {kBanks, kSize, kWays, kLine, kTechnology, kReadLatency, kWriteLatency, kPorts, kInterleave,
                   kMshrEntries, kMshrMerge, kInputQueue, kMemoryQueue, kPolicy},
        .ports = {"bank<b>.mem: to the memory back end, one per bank"}};
    return s;
}

L2Config L2Config::from(const Params& p) {
    L2Config c;
    c.banks = p[kBanks];
    c.size = p[kSize];
    c.ways = p[kWays];
    c.line = static_cast<uint32_t>(p[kLine]);
    c.technology = p[kTechnology] == "stt_mram" ? ArrayTechnology::SttMram : ArrayTechnology::Sram;
    c.ports = p[kPorts] == "read_write" ? L2Config::Ports::ReadWrite : L2Config::Ports::Shared;
    c.read_latency = p[kReadLatency];
    c.write_latency = p[kWriteLatency];
    if (c.write_latency == 0) c.write_latency = c.technology == ArrayTechnology::SttMram ? 5 : 1;
    c.interleave = p[kInterleave];
    c.mshr_entries = p[kMshrEntries];
    c.mshr_merge = p[kMshrMerge];
    c.input_queue = p[kInputQueue];
    c.memory_queue = p[kMemoryQueue];
    c.policy = p[kPolicy];
    c.path = p.path();
    if (!std::has_single_bit(c.line)) p.fail(kLine.key(), std::to_string(c.line) + " B is not a power of two");
    if (c.interleave % c.line) p.fail(kInterleave.key(), "must be a multiple of the line size");
    const uint64_t unit = uint64_t{c.banks} * c.ways * c.line;
    if (c.size % unit)
        p.fail(kSize.key(),
               "must be a multiple of banks x ways x line (" + std::to_string(unit) + " B) to give whole sets");
    return c;
}

}  // namespace zng::gpu
