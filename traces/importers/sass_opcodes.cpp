#include "traces/importers/sass_opcodes.hpp"


#include "traces/importers/text_fields.hpp"

namespace zng::importers {

using trace::MemSpace;
using trace::RecordKind;

namespace {

struct TableEntry {
    std::string_view name;
    RecordKind kind;
    MemSpace space;
    bool generic;
    bool needs_address;
};

// Opcodes that are not plain compute. Texture and surface fetches read global memory;
// LDGSTS copies global to shared and is traced (and charged) as its global read.
constexpr TableEntry kSpecialOpcodes[] = {
    {"LDG", RecordKind::Load, MemSpace::Global, false, true},
    {"LDGSTS", RecordKind::Load, MemSpace::Global, false, true},
    {"LD", RecordKind::Load, MemSpace::Global, true, true},
    {"TEX", RecordKind::Load, MemSpace::Global, false, true},
    {"TEXS", RecordKind::Load, MemSpace::Global, false, true},
    {"TLD", RecordKind::Load, MemSpace::Global, false, true},
    {"TLDS", RecordKind::Load, MemSpace::Global, false, true},
    {"TLD4", RecordKind::Load, MemSpace::Global, false, true},
    {"TLD4S", RecordKind::Load, MemSpace::Global, false, true},
    {"TXD", RecordKind::Load, MemSpace::Global, false, true},
    {"SULD", RecordKind::Load, MemSpace::Global, false, true},
    {"LDS", RecordKind::Load, MemSpace::Shared, false, true},
    {"LDSM", RecordKind::Load, MemSpace::Shared, false, true},
    {"LDSLK", RecordKind::Load, MemSpace::Shared, false, true},
    {"LDL", RecordKind::Load, MemSpace::Local, false, true},
    {"LDC", RecordKind::Load, MemSpace::Constant, false, false},
    {"ULDC", RecordKind::Load, MemSpace::Constant, false, false},
    {"STG", RecordKind::Store, MemSpace::Global, false, true},
    {"ST", RecordKind::Store, MemSpace::Global, true, true},
    {"SUST", RecordKind::Store, MemSpace::Global, false, true},
    {"STS", RecordKind::Store, MemSpace::Shared, false, true},
    {"STSCUL", RecordKind::Store, MemSpace::Shared, false, true},
    {"STL", RecordKind::Store, MemSpace::Local, false, true},
    {"ATOMG", RecordKind::Atomic, MemSpace::Global, false, true},
    {"ATOM", RecordKind::Atomic, MemSpace::Global, true, true},
    {"RED", RecordKind::Atomic, MemSpace::Global, false, true},
    {"SUATOM", RecordKind::Atomic, MemSpace::Global, false, true},
    {"SURED", RecordKind::Atomic, MemSpace::Global, false, true},
    {"ATOMS", RecordKind::Atomic, MemSpace::Shared, false, true},
    {"BAR", RecordKind::Barrier, MemSpace::Global, false, false},
};

// SASS opcodes of Kepler through Ampere (the ISA tables of Accel-Sim and the MacSim
// nvbit tracer) that execute without touching memory or the CTA barrier.
constexpr std::string_view kComputeOpcodes[] = {
    "B2R",      "BMMA",     "BMOV",      "BMSK",     "BPT",       "BRA",       "BREAK",    "BREV",
    "BRK",      "BRX",      "BRXU",      "BSSY",     "BSYNC",     "CAL",       "CALL",     "CCTL",
    "CCTLL",    "CCTLT",    "CONT",      "CS2R",     "CSET",      "CSETP",     "CSMTEST",  "DADD",
    "DEPBAR",   "DFMA",     "DMMA",      "DMNMX",    "DMUL",      "DSET",      "DSETP",    "ERRBAR",
    "F2F",      "F2I",      "F2IP",      "FADD",     "FADD32I",   "FCHK",      "FCMP",     "FFMA",
    "FFMA32I",  "FLO",      "FMNMX",     "FMUL",     "FMUL32I",   "FRND",      "FSEL",     "FSET",
    "FSETP",    "FSWZ",     "FSWZADD",   "GETLMEMBASE", "HADD2",  "HADD2_32I", "HFMA2",    "HFMA2_32I",
    "HMMA",     "HMNMX2",   "HMUL2",     "HMUL2_32I", "HSET2",    "HSETP2",    "I2F",      "I2FP",
    "I2I",      "I2IP",     "IABS",      "IADD",     "IADD3",     "IADD32I",   "ICMP",     "IDP",
    "IDP4A",    "IMAD",     "IMADSP",    "IMMA",     "IMNMX",     "IMUL",      "IMUL32I",  "ISAD",
    "ISCADD",   "ISCADD32I", "ISET",     "ISETP",    "ISUB",      "JCAL",      "JMP",      "JMX",
    "JMXU",     "KILL",     "LDGDEPBAR", "LEA",      "LEPC",      "LOP",       "LOP3",     "LOP32I",
    "MATCH",    "MEMBAR",   "MOV",       "MOV32I",   "MOVM",      "MUFU",      "NANOSLEEP", "NOP",
    "P2R",      "PBK",      "PCNT",      "PEXIT",    "PLOP3",     "PMTRIG",    "POPC",     "PRET",
    "PRMT",     "PSET",     "PSETP",     "QSPC",     "R2B",       "R2P",       "R2UR",     "REDUX",
    "RET",      "RPCMOV",   "RRO",       "RTT",      "S2R",       "S2UR",      "SEL",      "SETCTAID",
    "SETLMEMBASE", "SGXT",  "SHF",       "SHFL",     "SHL",       "SHR",       "SSY",      "SUBFM",
    "SUCLAMP",  "SUEAU",    "SULDGA",    "SUQUERY",  "SUSTGA",    "SYNC",      "TMML",     "TXQ",
    "UBMSK",    "UBREV",    "UCLEA",     "UF2FP",    "UFLO",      "UIADD3",    "UIADD3_64", "UIMAD",
    "UISETP",   "ULEA",     "ULOP",      "ULOP3",    "ULOP32I",   "UMOV",      "UP2UR",    "UPLOP3",
    "UPOPC",    "UPRMT",    "UPSETP",    "UR2UP",    "USEL",      "USGXT",     "USHF",     "USHL",
    "USHR",     "VABSDIFF", "VABSDIFF4", "VADD",     "VMNMX",     "VOTE",      "VOTEU",    "VOTE_VTG",
    "WARPSYNC", "XMAD",     "YIELD",     "EXIT",     "SETP",      "CSET2",     "F2FP",     "HMNMX",
    "IMNMX3",   "FMNMX3",   "UCGABAR_ARV", "UCGABAR_WAIT", "ACQBULK", "FENCE",
};

const std::unordered_map<std::string_view, TableEntry>& special_table() {
    static const auto* table = [] {
        auto* m = new std::unordered_map<std::string_view, TableEntry>();
        for (const auto& e : kSpecialOpcodes) m->emplace(e.name, e);
        return m;
    }();
    return *table;
}

const std::unordered_map<std::string_view, bool>& compute_table() {
    static const auto* table = [] {
        auto* m = new std::unordered_map<std::string_view, bool>();
        for (auto n : kComputeOpcodes) m->emplace(n, true);
        return m;
    }();
    return *table;
}

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

}  // namespace

std::string_view sass_base_name(std::string_view opcode) {
    const size_t dot = opcode.find('.');
    return dot == std::string_view::npos ? opcode : opcode.substr(0, dot);
}

uint8_t sass_width_suffix_bytes(std::string_view opcode) {
    size_t pos = opcode.find('.');
    while (pos != std::string_view::npos) {
        const size_t next = opcode.find('.', pos + 1);
        std::string_view tok = opcode.substr(pos + 1, next == std::string_view::npos ? std::string_view::npos
                                                                                     : next - pos - 1);
        pos = next;
        // A bare bit count, or a type letter (unsigned/signed/float/bits) and a bit count.
        if (!all_digits(tok)) {
            if (tok.size() < 2 || (tok[0] != 'U' && tok[0] != 'S' && tok[0] != 'F' && tok[0] != 'B')) continue;
            tok.remove_prefix(1);
            if (!all_digits(tok)) continue;
        }
        unsigned bits = 0;
        if (!parse_uint(tok, bits)) continue;
        switch (bits) {
            case 8: return 1;
            case 16: return 2;
            case 32: return 4;
            case 64: return 8;
            case 128: return 16;
            default: return 0;
        }
    }
    return 0;
}

OpcodeClass classify_sass(std::string_view opcode) {
    OpcodeClass op;
    const std::string_view base = sass_base_name(opcode);
    op.suffix_bytes = sass_width_suffix_bytes(opcode);
    if (base == "EXIT") {
        op.kind = RecordKind::Exit;
        return op;
    }
    if (auto it = special_table().find(base); it != special_table().end()) {
        op.kind = it->second.kind;
        op.space = it->second.space;
        op.generic = it->second.generic;
        op.needs_address = it->second.needs_address;
        // BAR.ARV signals arrival and runs on; only the waiting forms synchronize.
        if (op.kind == RecordKind::Barrier && opcode.find(".ARV") != std::string_view::npos) {
            op.kind = RecordKind::Compute;
            op.barrier_arrive = true;
        }
        return op;
    }
    op.known = compute_table().count(base) != 0;
    return op;
}

const OpcodeClass& SassOpcodeCache::get(std::string_view opcode) {
    if (auto it = map_.find(opcode); it != map_.end()) return it->second;
    return map_.emplace(std::string(opcode), classify_sass(opcode)).first->second;
}

}  // namespace zng::importers
