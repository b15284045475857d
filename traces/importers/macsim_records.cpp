#include "traces/importers/macsim_records.hpp"

#include <iterator>

namespace zng::importers {

namespace {

uint32_t le32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
uint64_t le64(const uint8_t* p) { return uint64_t(le32(p)) | uint64_t(le32(p + 4)) << 32; }

// MacSim's NVBIT_OPCODE enum, in order (the number is the index).
constexpr std::string_view kNvbitOpcodes[] = {
    "FADD", "FADD32I", "FCHK", "FFMA32I", "FFMA", "FMNMX", "FMUL", "FMUL32I", "FSEL", "FSET", "FSETP",
    "FSWZADD", "MUFU", "HADD2", "HADD2_32I", "HFMA2", "HFMA2_32I", "HMMA", "HMUL2", "HMUL2_32I", "HSET2",
    "HSETP2", "DADD", "DFMA", "DMUL", "DSETP", "BMMA", "BMSK", "BREV", "FLO", "IABS", "IADD", "IADD3",
    "IADD32I", "IDP", "IDP4A", "IMAD", "IMMA", "IMNMX", "IMUL", "IMUL32I", "ISCADD", "ISCADD32I", "ISETP",
    "LEA", "LOP", "LOP3", "LOP32I", "POPC", "SHF", "SHL", "SHR", "VABSDIFF", "VABSDIFF4", "F2F", "F2I", "I2F",
    "I2I", "I2IP", "FRND", "MOV", "MOV32I", "MOVM", "PRMT", "SEL", "SGXT", "SHFL", "PLOP3", "PSETP", "P2R",
    "R2P", "LD", "LDC", "LDG", "LDL", "LDS", "LDSM", "ST", "STG", "STL", "STS", "MATCH", "QSPC", "ATOM",
    "ATOMS", "ATOMG", "RED", "CCTL", "CCTLL", "ERRBAR", "MEMBAR", "CCTLT", "R2UR", "S2UR", "UBMSK", "UBREV",
    "UCLEA", "UFLO", "UIADD3", "UIADD3_64", "UIMAD", "UISETP", "ULDC", "ULEA", "ULOP", "ULOP3", "ULOP32I",
    "UMOV", "UP2UR", "UPLOP3", "UPOPC", "UPRMT", "UPSETP", "UR2UP", "USEL", "USGXT", "USHF", "USHL", "USHR",
    "VOTEU", "TEX", "TLD", "TLD4", "TMML", "TXD", "TXQ", "SUATOM", "SULD", "SURED", "SUST", "BMOV", "BPT",
    "BRA", "BREAK", "BRX", "BRXU", "BSSY", "BSYNC", "CALL", "EXIT", "JMP", "JMX", "JMXU", "KILL", "NANOSLEEP",
    "RET", "RPCMOV", "RTT", "WARPSYNC", "YIELD", "B2R", "BAR", "CS2R", "DEPBAR", "GETLMEMBASE", "LEPC", "NOP",
    "PMTRIG", "R2B", "S2R", "SETCTAID", "SETLMEMBASE", "VOTE",
};

// MacSim's GPU_OPCODE enum (PTX), in order.
constexpr std::string_view kPtxOpcodes[] = {
    "INVALID", "ABS", "ABS64", "ADD", "ADD64", "ADDC", "AND", "AND64", "ATOM_GM", "ATOM_SM", "ATOM64_GM",
    "ATOM64_SM", "BAR_ARRIVE", "BAR_SYNC", "BAR_RED", "BFE", "BFE64", "BFI", "BFI64", "BFIND", "BFIND64", "BRA",
    "BREV", "BREV64", "BRKPT", "CALL", "CLZ", "CLZ64", "CNOT", "CNOT64", "COPYSIGN", "COPYSIGN64", "COS", "CVT",
    "CVT64", "CVTA", "CVTA64", "DIV", "DIV64", "EX2", "EXIT", "FMA", "FMA64", "ISSPACEP", "LD", "LD64", "LDU",
    "LDU64", "LG2", "MAD24", "MAD", "MAD64", "MADC", "MADC64", "MAX", "MAX64", "MEMBAR_CTA", "MEMBAR_GL",
    "MEMBAR_SYS", "MIN", "MIN64", "MOV", "MOV64", "MUL24", "MUL", "MUL64", "NEG", "NEG64", "NOT", "NOT64", "OR",
    "OR64", "PMEVENT", "POPC", "POPC64", "PREFETCH", "PREFETCHU", "PRMT", "RCP", "RCP64", "RED_GM", "RED_SM",
    "RED64_GM", "RED64_SM", "REM", "REM64", "RET", "RSQRT", "RSQRT64", "SAD", "SAD64", "SELP", "SELP64", "SET",
    "SET64", "SETP", "SETP64", "SHFL", "SHFL64", "SHL", "SHL64", "SHR", "SHR64", "SIN", "SLCT", "SLCT64",
    "SQRT", "SQRT64", "ST", "ST64", "SUB", "SUB64", "SUBC", "SULD", "SULD64", "SURED", "SURED64", "SUST",
    "SUST64", "SUQ", "TESTP", "TESTP64", "TEX", "TLD4", "TXQ", "TRAP", "VABSDIFF", "VADD", "VMAD", "VMAX",
    "VMIN", "VSET", "VSHL", "VSHR", "VSUB", "VOTE", "XOR", "XOR64", "RECONVERGE", "PHI", "MEM_LD_GM",
    "MEM_LD_LM", "MEM_LD_SM", "MEM_LD_CM", "MEM_LD_TM", "MEM_LD_PM", "MEM_LDU_GM", "MEM_ST_GM", "MEM_ST_LM",
    "MEM_ST_SM", "DATA_XFER_GM", "DATA_XFER_LM", "DATA_XFER_SM",
};

static_assert(std::size(kNvbitOpcodes) == 163, "NVBIT_OPCODE_LAST");
static_assert(std::size(kPtxOpcodes) == 153, "GPU_OPCODE_LAST");

// Byte offsets of the fields that differ between the two layouts (the header comment
// of macsim_records.hpp); the first four bytes are the same in both.
struct RecordLayout {
    size_t active_mask, inst_addr, mem_addr, mem_access_size, addr_space;
};
constexpr RecordLayout kNvbitLayout{24, 32, 48, 56, 60};
constexpr RecordLayout kPtxLayout{28, 40, 56, 64, 68};

void decode_record(const uint8_t* p, const RecordLayout& at, MacSimRecord& r) {
    r.opcode = p[0];
    r.is_fp = p[1] != 0;
    r.is_load = p[2] != 0;
    r.cf_type = p[3];
    r.active_mask = le32(p + at.active_mask);
    r.inst_addr = le64(p + at.inst_addr);
    r.mem_addr = le64(p + at.mem_addr);
    r.mem_access_size = p[at.mem_access_size];
    r.addr_space = p[at.addr_space];
}

}  // namespace

void decode_nvbit_record(const uint8_t* p, MacSimRecord& r) { decode_record(p, kNvbitLayout, r); }

void decode_ptx_record(const uint8_t* p, MacSimRecord& r) { decode_record(p, kPtxLayout, r); }

uint64_t record_word(const uint8_t* p, int i) { return le64(p + 8 * i); }

std::string_view nvbit_opcode_name(uint8_t opcode) {
    return opcode < std::size(kNvbitOpcodes) ? kNvbitOpcodes[opcode] : std::string_view{};
}

std::string_view ptx_opcode_name(uint8_t opcode) {
    return opcode < std::size(kPtxOpcodes) ? kPtxOpcodes[opcode] : std::string_view{};
}

}  // namespace zng::importers
