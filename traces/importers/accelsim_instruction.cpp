#include "traces/importers/accelsim_instruction.hpp"

#include <fmt/format.h>

#include <bit>

#include "traces/importers/text_fields.hpp"

namespace zng::importers {

using trace::TraceError;

namespace {

// Register lists hold at most a handful of operands; a larger count is a corrupt line.
constexpr unsigned kMaxRegisterOperands = 16;

std::string_view need(Tokens& t, const char* what) {
    std::string_view tok;
    if (!t.next(tok)) throw TraceError(fmt::format("line ends before the {}", what));
    return tok;
}

template <typename T>
T need_uint(Tokens& t, const char* what, int base = 10) {
    const std::string_view tok = need(t, what);
    T v{};
    if (!parse_uint(tok, v, base)) throw TraceError(fmt::format("bad {} '{}'", what, tok));
    return v;
}

int64_t need_int(Tokens& t, const char* what) {
    const std::string_view tok = need(t, what);
    int64_t v{};
    if (!parse_int(tok, v)) throw TraceError(fmt::format("bad {} '{}'", what, tok));
    return v;
}

void skip_registers(Tokens& t, unsigned count, const char* what) {
    if (count > kMaxRegisterOperands) throw TraceError(fmt::format("{} count {} is implausible", what, count));
    for (unsigned i = 0; i < count; ++i) need(t, what);
}

}  // namespace

void parse_accelsim_instruction(std::string_view line, const AccelSimLineFormat& f, AccelSimInstruction& out) {
    Tokens t(line);
    if (f.tracer_version < 3) {
        // Traces before version 3 repeat the thread block and warp on every line.
        for (const char* what : {"thread block x", "thread block y", "thread block z", "warp id"})
            need_uint<uint32_t>(t, what);
    }
    if (f.lineinfo) need_uint<uint32_t>(t, "source line number");
    out.pc = need_uint<uint64_t>(t, "PC", 16);
    out.mask = need_uint<uint32_t>(t, "active mask", 16);
    skip_registers(t, need_uint<unsigned>(t, "destination count"), "destination register");
    out.opcode = need(t, "opcode");
    skip_registers(t, need_uint<unsigned>(t, "source count"), "source register");
    out.mem_width = need_uint<unsigned>(t, "memory width");
    out.has_addresses = out.mem_width > 0;
    out.addr.fill(0);
    out.stride_base = 0;
    out.stride = 0;

    if (out.has_addresses) {
        const unsigned mode = need_uint<unsigned>(t, "address encoding");
        const int active = std::popcount(out.mask);
        switch (mode) {
            case 0: {
                out.mode = AccelSimAddressMode::ListAll;
                for (int lane = 0; lane < trace::kWarpSize; ++lane)
                    if (out.mask >> lane & 1u) out.addr[lane] = need_uint<uint64_t>(t, "lane address", 16);
                break;
            }
            case 1: {
                out.mode = AccelSimAddressMode::BaseStride;
                const uint64_t base = need_uint<uint64_t>(t, "base address", 16);
                out.stride = need_int(t, "stride");
                if (active > 0) {
                    const int first = std::countr_zero(out.mask);
                    const uint32_t run = out.mask >> first;
                    if ((run & (run + 1)) != 0)
                        throw TraceError(fmt::format(
                            "base+stride address encoding with non-contiguous active mask {:08x}", out.mask));
                    out.stride_base = base - static_cast<uint64_t>(int64_t(first) * out.stride);
                    for (int lane = first; lane < trace::kWarpSize && (out.mask >> lane & 1u); ++lane)
                        out.addr[lane] = out.stride_base + static_cast<uint64_t>(int64_t(lane) * out.stride);
                }
                break;
            }
            case 2: {
                out.mode = AccelSimAddressMode::BaseDelta;
                uint64_t a = need_uint<uint64_t>(t, "base address", 16);
                bool first = true;
                for (int lane = 0; lane < trace::kWarpSize; ++lane) {
                    if (!(out.mask >> lane & 1u)) continue;
                    if (!first) a += static_cast<uint64_t>(need_int(t, "address delta"));
                    out.addr[lane] = a;
                    first = false;
                }
                break;
            }
            default: throw TraceError(fmt::format("unknown address encoding {}", mode));
        }
    }

    std::string_view tok;
    if (f.tracer_version >= 5) {
        // Version 5 ends every line with the instruction's immediate (printed signed).
        const std::string_view imm = need(t, "immediate");
        int64_t s{};
        uint64_t u{};
        if (!parse_int(imm, s) && !parse_uint(imm, u)) throw TraceError(fmt::format("bad immediate '{}'", imm));
    }
    if (t.next(tok))
        throw TraceError(fmt::format("unexpected '{}' after the {} (more addresses than active lanes?)", tok,
                                     f.tracer_version >= 5 ? "immediate" : "addresses"));
}

}  // namespace zng::importers
