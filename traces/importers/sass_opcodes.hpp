// What zngsim does with a SASS opcode (as NVBit prints it, e.g. "LDG.E.64"): the record
// kind, the address space, and the per-lane access size given by its width suffix.
// Shared by the Accel-Sim importer (opcode text) and the MacSim nvbit importer (opcode
// enum mapped to its SASS name).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "traces/trace.hpp"

namespace zng::importers {

struct OpcodeClass {
    trace::RecordKind kind = trace::RecordKind::Compute;
    trace::MemSpace space = trace::MemSpace::Global;
    bool generic = false;        // LD/ST/ATOM: the space follows from the address
    bool needs_address = false;  // memory kinds except constant loads, which NVBit traces without address
    bool known = true;           // false: not in the table (imported as compute, counted)
    bool barrier_arrive = false; // BAR.ARV: arrives without waiting (imported as compute)
    uint8_t suffix_bytes = 0;    // per-lane bytes from the width suffix (.64, .U8, .S16, .128), 0 if none

    bool is_memory() const {
        return kind == trace::RecordKind::Load || kind == trace::RecordKind::Store ||
               kind == trace::RecordKind::Atomic;
    }
};

// The opcode name before the first '.', e.g. "LDG" for "LDG.E.64".
std::string_view sass_base_name(std::string_view opcode);

// Per-lane access size from the first width modifier of `opcode`: a bit count (".32",
// ".64", ".128") or a typed one (".U8", ".S16", ".F32", ".B64"), in bytes; 0 when the
// opcode carries none or the width is not 1, 2, 4, 8 or 16 bytes.
uint8_t sass_width_suffix_bytes(std::string_view opcode);

// Classifies a full SASS opcode.
OpcodeClass classify_sass(std::string_view opcode);

// Memoizes classify_sass per distinct opcode string: a trace has a few hundred of them
// and millions of lines, so the lookup must not allocate once an opcode was seen.
class SassOpcodeCache {
public:
    const OpcodeClass& get(std::string_view opcode);

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, OpcodeClass, Hash, std::equal_to<>> map_;
};

}  // namespace zng::importers
