// One instruction line of an Accel-Sim .traceg file, as the NVBit tracer writes it and
// Accel-Sim's trace parser reads it:
//   [tb_x tb_y tb_z warp]  (tracer version < 3)   [line_num]  (-enable lineinfo = 1)
//   PC mask dest_num [dests] opcode src_num [srcs] mem_width [mode addresses] [imm (v5)]
// with the address encodings  0: one address per active lane;  1: base stride (active
// lanes contiguous, lane k after the first active one at base + k*stride);  2: base and
// one delta per further active lane (each address = previous active lane's + delta).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "traces/trace.hpp"

namespace zng::importers {

struct AccelSimLineFormat {
    unsigned tracer_version = 4;
    bool lineinfo = false;
};

enum class AccelSimAddressMode : uint8_t { ListAll = 0, BaseStride = 1, BaseDelta = 2 };

struct AccelSimInstruction {
    uint64_t pc = 0;
    uint32_t mask = 0;
    std::string_view opcode;       // view into the parsed line
    unsigned mem_width = 0;        // the trace's width field; 0 = no addresses follow
    bool has_addresses = false;
    AccelSimAddressMode mode = AccelSimAddressMode::ListAll;
    // Addresses of the active lanes (inactive lanes hold 0). For base+stride also kept
    // compactly: lane i's address is stride_base + i * stride for the active lanes.
    std::array<uint64_t, trace::kWarpSize> addr{};
    uint64_t stride_base = 0;
    int64_t stride = 0;
};

// Parses `line` into `out`. Throws trace::TraceError with a message naming the field
// (callers prefix the file and line).
void parse_accelsim_instruction(std::string_view line, const AccelSimLineFormat& fmt, AccelSimInstruction& out);

}  // namespace zng::importers
