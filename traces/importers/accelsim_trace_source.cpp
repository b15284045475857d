#include "traces/importers/accelsim_trace_source.hpp"

#include <fmt/format.h>

#include <bit>
#include <optional>
#include <vector>

#include "traces/importers/accelsim_instruction.hpp"
#include "traces/importers/accelsim_kernel_list.hpp"
#include "traces/importers/cta_assembler.hpp"
#include "traces/importers/line_reader.hpp"
#include "traces/importers/sass_opcodes.hpp"
#include "traces/importers/text_fields.hpp"

namespace zng::importers {

using trace::MemSpace;
using trace::RecordKind;
using trace::TraceError;

namespace {

// Generic (LD/ST/ATOM) addresses inside these windows above the kernel's shared and
// local base addresses are shared or local accesses; everything else is global.
constexpr uint64_t kGenericWindowBytes = uint64_t(16) << 20;

// "key = value" after a '-' header marker or inside a thread block: the value part.
std::optional<std::string_view> value_after(std::string_view line, std::string_view key) {
    if (!line.starts_with(key)) return std::nullopt;
    std::string_view rest = trim(line.substr(key.size()));
    if (rest.empty() || rest.front() != '=') return std::nullopt;
    return trim(rest.substr(1));
}

// "x,y,z" (blanks allowed around the numbers).
bool parse_triple(std::string_view v, uint32_t (&xyz)[3]) {
    for (int i = 0; i < 3; ++i) {
        const size_t comma = v.find(',');
        if ((i < 2) == (comma == std::string_view::npos)) return false;
        if (!parse_uint(trim(v.substr(0, comma)), xyz[i])) return false;
        v = i < 2 ? v.substr(comma + 1) : std::string_view{};
    }
    return true;
}

struct KernelHeader {
    trace::KernelInfo info;
    AccelSimLineFormat format;
    uint64_t shmem_base = 0;
    uint64_t local_base = 0;
    bool have_grid = false;
    bool have_block = false;
    uint64_t grid_line = 0, block_line = 0;  // where the dims were given, for errors
};

class AccelSimTraceSource final : public trace::TraceSource {
public:
    AccelSimTraceSource(const std::string& path, ImportReport& report)
        : path_(path), list_(read_accelsim_kernel_list(path)), report_(report), assembler_(report) {
        header_.workload = list_.workload;
        header_.source = "accelsim-import";
        header_.arrays = list_.copies;
        report_.memcpy_lines += list_.memcpy_lines;
    }

    const trace::TraceHeader& header() const override { return header_; }
    std::string describe() const override { return fmt::format("Accel-Sim trace {}", path_); }

    bool next_kernel(trace::KernelInfo& k) override {
        if (next_file_ >= list_.kernel_files.size()) {
            reader_.reset();
            return false;
        }
        reader_ = std::make_unique<LineReader>(open_stream_by_name(list_.kernel_files[next_file_++]));
        read_kernel_header();
        k = kernel_.info;
        ++report_.kernels;
        return true;
    }

    bool next_cta(trace::CtaTrace& cta) override {
        if (!reader_) return false;
        if (!in_tb_ && !find_tb_start()) return false;
        read_tb(cta);
        return true;
    }

private:
    [[noreturn]] void fail(const std::string& what) const { fail_at(reader_->line_number(), what); }
    [[noreturn]] void fail_at(uint64_t line, const std::string& what) const {
        throw TraceError(fmt::format("{}:{}: {}", reader_->path(), line, what));
    }

    // Reads '-key = value' lines up to the first '#' line.
    void read_kernel_header() {
        kernel_ = KernelHeader{};
        kernel_.format.tracer_version = 0;  // absent: the oldest line format, as Accel-Sim assumes
        in_tb_ = false;
        std::string_view raw;
        while (reader_->next(raw)) {
            const std::string_view line = trim(raw);
            if (line.empty()) continue;
            if (line.front() == '#') {
                in_tb_ = line.starts_with("#BEGIN_TB");
                break;
            }
            if (line.front() != '-') fail(fmt::format("expected a '-key = value' header line, got '{}'", line));
            parse_header_line(line.substr(1));
        }
        if (!kernel_.have_grid) fail("kernel header lacks '-grid dim'");
        if (!kernel_.have_block) fail("kernel header lacks '-block dim'");
        // CUDA's launch limits; they also keep CTA ids and thread counts within 64 bits.
        const trace::Dim3& g = kernel_.info.grid;
        const trace::Dim3& b = kernel_.info.block;
        if (g.x >= (1u << 31) || g.y > 65535 || g.z > 65535)
            fail_at(kernel_.grid_line, fmt::format("grid dim ({},{},{}) exceeds CUDA's limits", g.x, g.y, g.z));
        if (b.x > 1024 || b.y > 1024 || b.z > 64)
            fail_at(kernel_.block_line, fmt::format("block dim ({},{},{}) exceeds CUDA's limits", b.x, b.y, b.z));
        seen_warp_.assign(kernel_.info.warps_per_cta(), false);
    }

    // "(x,y,z)" with every dimension at least 1.
    static bool parse_dim3(std::string_view v, trace::Dim3& d) {
        if (v.size() < 2 || v.front() != '(' || v.back() != ')') return false;
        uint32_t xyz[3];
        if (!parse_triple(v.substr(1, v.size() - 2), xyz) || !xyz[0] || !xyz[1] || !xyz[2]) return false;
        d = trace::Dim3{xyz[0], xyz[1], xyz[2]};
        return true;
    }

    void parse_header_line(std::string_view line) {
        auto number = [&](std::string_view v, auto& out, int base, const char* key) {
            if (!parse_uint(v, out, base)) fail(fmt::format("bad value '{}' for '-{}'", v, key));
        };
        if (auto v = value_after(line, "kernel name")) {
            kernel_.info.name = std::string(*v);
        } else if (auto v = value_after(line, "grid dim")) {
            if (!parse_dim3(*v, kernel_.info.grid)) fail(fmt::format("bad grid dim '{}'", *v));
            kernel_.have_grid = true;
            kernel_.grid_line = reader_->line_number();
        } else if (auto v = value_after(line, "block dim")) {
            if (!parse_dim3(*v, kernel_.info.block)) fail(fmt::format("bad block dim '{}'", *v));
            kernel_.have_block = true;
            kernel_.block_line = reader_->line_number();
        } else if (auto v = value_after(line, "shmem")) {
            number(*v, kernel_.info.shared_mem_bytes, 10, "shmem");
        } else if (auto v = value_after(line, "nregs")) {
            number(*v, kernel_.info.regs_per_thread, 10, "nregs");
        } else if (auto v = value_after(line, "accelsim tracer version")) {
            number(*v, kernel_.format.tracer_version, 10, "accelsim tracer version");
        } else if (auto v = value_after(line, "enable lineinfo")) {
            unsigned on = 0;
            number(*v, on, 10, "enable lineinfo");
            kernel_.format.lineinfo = on != 0;
        } else if (auto v = value_after(line, "shmem base_addr")) {
            number(*v, kernel_.shmem_base, 16, "shmem base_addr");
        } else if (auto v = value_after(line, "local mem base_addr")) {
            number(*v, kernel_.local_base, 16, "local mem base_addr");
        }
        // Other keys (kernel id, binary version, cuda stream id, nvbit version, ...) do
        // not change how the stream is read.
    }

    // Skips blank and comment lines up to "#BEGIN_TB"; false at the end of the file.
    bool find_tb_start() {
        std::string_view raw;
        while (reader_->next(raw)) {
            const std::string_view line = trim(raw);
            if (line.empty()) continue;
            if (line.starts_with("#BEGIN_TB")) {
                in_tb_ = true;
                return true;
            }
            if (line.front() == '#') continue;
            fail(fmt::format("'{}' outside a thread block", line));
        }
        reader_.reset();
        return false;
    }

    void read_tb(trace::CtaTrace& cta) {
        bool have_block = false;
        std::optional<uint32_t> warp;     // warp whose instructions are being read
        uint64_t warp_insts = 0, warp_seen = 0;
        bool have_insts = false;
        std::fill(seen_warp_.begin(), seen_warp_.end(), false);

        auto close_warp = [&] {
            if (!warp) return;
            if (!have_insts) fail(fmt::format("warp {} has no 'insts = N' line", *warp));
            if (warp_seen != warp_insts)
                fail(fmt::format("warp {} declares insts = {} but has {} instruction lines", *warp, warp_insts,
                                 warp_seen));
            assembler_.end_warp(*warp);
            warp.reset();
        };

        std::string_view raw;
        while (reader_->next(raw)) {
            const std::string_view line = trim(raw);
            if (line.empty()) continue;
            if (line.front() == '#') {
                if (line.starts_with("#END_TB")) {
                    if (!have_block) fail("thread block ends before its 'thread block = x,y,z' line");
                    close_warp();
                    assembler_.finish(cta);
                    in_tb_ = false;
                    return;
                }
                if (line.starts_with("#BEGIN_TB")) fail("thread block starts before the previous one ends");
                continue;
            }
            // Instruction lines start with a hex PC (or a line number); only the few
            // block and warp headers need the keyword checks.
            const char c0 = line.front();
            const bool maybe_header = c0 == 't' || c0 == 'c' || c0 == 'w' || c0 == 'i';
            if (!maybe_header) {
                add_instruction_line(warp, have_insts, warp_seen, warp_insts, line);
            } else if (auto v = value_after(line, "thread block")) {
                if (have_block) fail("second 'thread block' line in one thread block");
                begin_block(*v);
                have_block = true;
            } else if (value_after(line, "cluster id") || value_after(line, "cluster cta") ||
                       value_after(line, "cluster rank")) {
                // Hopper cluster placement: zngsim's GPU has no clusters.
            } else if (auto v = value_after(line, "warp")) {
                if (!have_block) fail("warp listed before the 'thread block' line");
                close_warp();
                uint32_t w = 0;
                if (!parse_uint(*v, w)) fail(fmt::format("bad warp number '{}'", *v));
                if (w >= seen_warp_.size())
                    fail(fmt::format("warp {} does not exist in a block of {} warps", w, seen_warp_.size()));
                if (seen_warp_[w]) fail(fmt::format("warp {} listed twice in one thread block", w));
                seen_warp_[w] = true;
                warp = w;
                have_insts = false;
                warp_seen = 0;
                ++report_.warps;
            } else if (auto v = value_after(line, "insts")) {
                if (!warp) fail("'insts' line outside a warp");
                if (have_insts) fail("second 'insts' line for one warp");
                if (!parse_uint(*v, warp_insts)) fail(fmt::format("bad instruction count '{}'", *v));
                have_insts = true;
            } else {
                add_instruction_line(warp, have_insts, warp_seen, warp_insts, line);
            }
        }
        fail("file ends inside a thread block (no #END_TB)");
    }

    void add_instruction_line(const std::optional<uint32_t>& warp, bool have_insts, uint64_t& warp_seen,
                              uint64_t warp_insts, std::string_view line) {
        if (!warp || !have_insts) fail("instruction line before 'warp = N' and 'insts = N'");
        if (warp_seen == warp_insts)
            fail(fmt::format("warp {} has more instruction lines than its insts = {}", *warp, warp_insts));
        ++warp_seen;
        add_instruction(*warp, line, warp_seen == warp_insts);
    }

    void begin_block(std::string_view v) {
        uint32_t xyz[3];
        if (!parse_triple(v, xyz)) fail(fmt::format("bad thread block coordinates '{}'", v));
        const trace::Dim3& g = kernel_.info.grid;
        if (xyz[0] >= g.x || xyz[1] >= g.y || xyz[2] >= g.z)
            fail(fmt::format("thread block ({},{},{}) is outside the grid ({},{},{})", xyz[0], xyz[1], xyz[2], g.x,
                             g.y, g.z));
        const uint64_t id = xyz[0] + uint64_t(g.x) * (xyz[1] + uint64_t(g.y) * xyz[2]);
        assembler_.begin(id, kernel_.info);
    }

    MemSpace resolve_generic(uint64_t addr) const {
        if (kernel_.shmem_base != 0 && addr >= kernel_.shmem_base && addr - kernel_.shmem_base < kGenericWindowBytes)
            return MemSpace::Shared;
        if (kernel_.local_base != 0 && addr >= kernel_.local_base && addr - kernel_.local_base < kGenericWindowBytes)
            return MemSpace::Local;
        return MemSpace::Global;
    }

    void add_instruction(uint32_t warp, std::string_view line, bool last_of_warp) {
        try {
            parse_accelsim_instruction(line, kernel_.format, ins_);
        } catch (const TraceError& e) {
            fail(e.what());
        }
        ++report_.instructions;
        const OpcodeClass& op = opcodes_.get(ins_.opcode);
        RecordKind kind = op.kind;
        MemSpace space = op.space;
        bool generic = op.generic;
        if (!op.known) {
            report_.count_unknown(sass_base_name(ins_.opcode));
            // An unknown opcode that carries addresses still moves data: keep its traffic.
            if (ins_.has_addresses) {
                kind = RecordKind::Load;
                space = MemSpace::Global;
                generic = true;
            }
        }

        rec_ = trace::WarpRecord{};
        rec_.pc = ins_.pc;
        rec_.active_mask = ins_.mask;
        switch (kind) {
            case RecordKind::Exit:
                if (!last_of_warp) {  // lanes leaving early; the warp runs on
                    ++report_.partial_exits;
                    assembler_.compute(warp, ins_.pc);
                    return;
                }
                rec_.kind = RecordKind::Exit;
                break;
            case RecordKind::Barrier: rec_.kind = RecordKind::Barrier; break;
            case RecordKind::Load:
            case RecordKind::Store:
            case RecordKind::Atomic:
                if (!fill_memory(op, kind, space, generic)) {
                    assembler_.compute(warp, ins_.pc);
                    return;
                }
                ++report_.memory_instructions;
                break;
            default: assembler_.compute(warp, ins_.pc); return;
        }
        assembler_.add(warp, rec_);
    }

    // Fills rec_ as a memory record; false when the instruction must count as compute.
    bool fill_memory(const OpcodeClass& op, RecordKind kind, MemSpace space, bool generic) {
        if (ins_.mask == 0) {
            ++report_.inactive_memory;
            return false;
        }
        if (!ins_.has_addresses && op.needs_address) {
            ++report_.memory_without_address;
            return false;
        }
        rec_.kind = kind;
        uint8_t size = op.suffix_bytes;
        if (size == 0) {
            const unsigned w = ins_.mem_width;
            size = (w == 1 || w == 2 || w == 4 || w == 8 || w == 16) ? static_cast<uint8_t>(w) : 4;
        }
        rec_.access_size = size;
        if (!ins_.has_addresses) {  // constant loads: NVBit gives no address
            rec_.space = space;
            rec_.strided = true;
            return true;
        }
        rec_.space = generic ? resolve_generic(ins_.addr[std::countr_zero(ins_.mask)]) : space;
        if (ins_.mode == AccelSimAddressMode::BaseStride) {
            rec_.strided = true;
            rec_.base = ins_.stride_base;
            rec_.stride = ins_.stride;
        } else {
            rec_.addr = ins_.addr;
        }
        if (rec_.space == MemSpace::Local) {
            // NVBit traces LDL/STL with each thread's own local address (the same in every
            // lane), and a generic access in the local window with that address above
            // `local mem base_addr`: take the thread offset, then the lane's place in the
            // warp's window.
            if (generic) {
                if (rec_.strided) rec_.base -= kernel_.local_base;
                else
                    for (int l = 0; l < trace::kWarpSize; ++l)
                        if (rec_.active_mask >> l & 1u) rec_.addr[l] -= kernel_.local_base;
            }
            trace::thread_offsets_to_window(rec_);
        }
        return true;
    }

    std::string path_;
    AccelSimKernelList list_;
    ImportReport& report_;
    trace::TraceHeader header_;
    size_t next_file_ = 0;
    std::unique_ptr<LineReader> reader_;
    KernelHeader kernel_;
    bool in_tb_ = false;
    std::vector<bool> seen_warp_;
    CtaAssembler assembler_;
    SassOpcodeCache opcodes_;
    AccelSimInstruction ins_;
    trace::WarpRecord rec_;
};

}  // namespace

std::unique_ptr<trace::TraceSource> open_accelsim_trace(const std::string& path, ImportReport& report) {
    return std::make_unique<AccelSimTraceSource>(path, report);
}

}  // namespace zng::importers
