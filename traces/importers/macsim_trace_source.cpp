#include "traces/importers/macsim_trace_source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "traces/importers/cta_assembler.hpp"
#include "traces/importers/macsim_config.hpp"
#include "traces/importers/macsim_records.hpp"
#include "traces/importers/raw_record_cursor.hpp"
#include "traces/importers/read_ahead.hpp"
#include "traces/importers/sass_opcodes.hpp"

namespace zng::importers {

using trace::MemSpace;
using trace::RecordKind;
using trace::TraceError;

namespace {

bool valid_access_size(unsigned s) { return s == 1 || s == 2 || s == 4 || s == 8 || s == 16; }

// How MacSim's ptx decoder treats a GPU_* opcode: loads are the records flagged
// is_load (space from the opcode), stores the three MEM_ST opcodes.
OpcodeClass classify_ptx(std::string_view name, bool is_load) {
    OpcodeClass c;
    if (name.empty()) {
        c.known = false;
        return c;
    }
    auto space_of = [](std::string_view n) {
        if (n.ends_with("_LM")) return MemSpace::Local;
        if (n.ends_with("_SM") || n.ends_with("_PM")) return MemSpace::Shared;  // parameters live in shared memory
        if (n.ends_with("_CM")) return MemSpace::Constant;
        return MemSpace::Global;  // _GM, _TM (texture reads global memory) and generic loads
    };
    if (is_load) {
        c.kind = (name.starts_with("ATOM") || name.starts_with("RED")) ? RecordKind::Atomic : RecordKind::Load;
        c.space = space_of(name);
        c.needs_address = true;
    } else if (name == "MEM_ST_GM" || name == "MEM_ST_LM" || name == "MEM_ST_SM") {
        c.kind = RecordKind::Store;
        c.space = space_of(name);
        c.needs_address = true;
    } else if (name == "BAR_SYNC" || name == "BAR_RED") {
        c.kind = RecordKind::Barrier;
    } else if (name == "EXIT") {
        c.kind = RecordKind::Exit;
    }
    return c;
}

// How MacSim's nvbit decoder treats a SASS opcode: records flagged is_load are loads
// (atomics stay atomics), ST/STG/STL/STS are stores; other memory opcodes issue no
// memory access in MacSim unless the tracer gave them an address.
OpcodeClass classify_nvbit(const OpcodeClass& sass, const MacSimRecord& r) {
    OpcodeClass c = sass;
    if (r.is_load) {
        if (c.kind != RecordKind::Atomic) c.kind = RecordKind::Load;
        if (!sass.is_memory()) {
            c.space = MemSpace::Global;
            c.generic = false;
        }
        c.needs_address = c.space != MemSpace::Constant;
    } else if (c.kind == RecordKind::Load || (c.kind == RecordKind::Atomic && r.mem_addr == 0)) {
        c.kind = RecordKind::Compute;
    }
    return c;
}

MemSpace nvbit_space(uint8_t addr_space) {
    switch (static_cast<NvbitMemorySpace>(addr_space)) {
        case NvbitMemorySpace::Local: return MemSpace::Local;
        case NvbitMemorySpace::Shared: return MemSpace::Shared;
        case NvbitMemorySpace::Constant: return MemSpace::Constant;
        default: return MemSpace::Global;
    }
}

struct WarpRef {
    uint64_t block;
    uint32_t warp;
    size_t entry;  // index into MacSimKernelTrace::warps
    bool operator<(const WarpRef& o) const { return block != o.block ? block < o.block : warp < o.warp; }
};

class MacSimTraceSource final : public trace::TraceSource {
public:
    MacSimTraceSource(const std::string& path, ImportReport& report)
        : path_(path), config_(read_macsim_kernel_config(path)), report_(report), assembler_(report) {
        header_.workload = config_.workload;
        header_.source = "macsim-import";
        for (int op = 0; op < 256; ++op) {
            ptx_classes_[0][op] = classify_ptx(ptx_opcode_name(static_cast<uint8_t>(op)), false);
            ptx_classes_[1][op] = classify_ptx(ptx_opcode_name(static_cast<uint8_t>(op)), true);
        }
        // The first kernel's warp files are read from now on, while the platform is built.
        if (!config_.kernel_files.empty()) prepare(0);
    }

    const trace::TraceHeader& header() const override { return header_; }
    std::string describe() const override { return fmt::format("MacSim trace {}", path_); }

    bool next_kernel(trace::KernelInfo& k) override {
        if (next_file_ >= config_.kernel_files.size()) return false;
        // Warps of the last kernel never read (a consumer that moved on early): their
        // streams come first in the read-ahead and are passed over, errors and all.
        for (; next_warp_ < order_.size(); ++next_warp_) {
            try {
                read_ahead_.next();
            } catch (const std::exception&) {
            }
        }
        if (!ahead_.ready) prepare(next_file_);
        ++next_file_;
        Kernel now = std::move(ahead_);
        ahead_ = Kernel{};
        if (now.error) std::rethrow_exception(now.error);
        kernel_ = std::move(now.trace);
        order_ = std::move(now.order);
        // The next kernel's warp files are read while this one runs.
        if (next_file_ < config_.kernel_files.size()) prepare(next_file_);
        info_ = trace::KernelInfo{};
        info_.name = kernel_.name;
        // MacSim traces carry no launch geometry: the grid is the blocks seen, in x; a
        // block is as many full warps as its largest warp index needs.
        info_.grid = trace::Dim3{static_cast<uint32_t>(now.max_block + 1), 1, 1};
        info_.block = trace::Dim3{(now.max_warp + 1) * static_cast<uint32_t>(trace::kWarpSize), 1, 1};
        next_warp_ = 0;
        k = info_;
        ++report_.kernels;
        return true;
    }

    bool next_cta(trace::CtaTrace& cta) override {
        if (next_warp_ >= order_.size()) return false;
        const uint64_t block = order_[next_warp_].block;
        assembler_.begin(block, info_);
        while (next_warp_ < order_.size() && order_[next_warp_].block == block) {
            const WarpRef& w = order_[next_warp_++];
            read_warp(w);
        }
        assembler_.finish(cta);
        return true;
    }

private:
    // A kernel read ahead of its turn: its trace.txt parsed and its warps ordered, or the
    // error doing so met, thrown when the kernel's turn comes (as if read then).
    struct Kernel {
        bool ready = false;
        MacSimKernelTrace trace;
        std::vector<WarpRef> order;
        uint64_t max_block = 0;
        uint32_t max_warp = 0;
        std::exception_ptr error;
    };

    // Reads kernel `f`'s trace.txt into ahead_ and hands its warp files to the read-ahead.
    void prepare(size_t f) {
        ahead_ = Kernel{};
        ahead_.ready = true;
        try {
            const std::string& file = config_.kernel_files[f];
            ahead_.trace = read_macsim_kernel_trace(file);
            const MacSimKernelTrace& t = ahead_.trace;
            std::vector<WarpRef>& order = ahead_.order;
            order.reserve(t.warps.size());
            for (size_t i = 0; i < t.warps.size(); ++i) {
                const uint64_t id = t.warps[i].id;
                const WarpRef ref{id >> kMacSimBlockIdShift, static_cast<uint32_t>(id & 0xffff), i};
                ahead_.max_block = std::max(ahead_.max_block, ref.block);
                ahead_.max_warp = std::max(ahead_.max_warp, ref.warp);
                order.push_back(ref);
            }
            std::sort(order.begin(), order.end());
            for (size_t i = 1; i < order.size(); ++i)
                if (!(order[i - 1] < order[i]))
                    throw TraceError(fmt::format("{}: warp {} is listed twice", file, t.warps[order[i].entry].id));
            if (ahead_.max_block >= (uint64_t(1) << 32))
                throw TraceError(fmt::format("{}: block id {} does not fit a grid dimension", file, ahead_.max_block));
            if (ahead_.max_warp >= trace::CtaBuilder::kMaxWarps)
                throw TraceError(fmt::format("{}: warp index {} exceeds {} warps per block", file, ahead_.max_warp,
                                             trace::CtaBuilder::kMaxWarps));
        } catch (...) {
            ahead_.error = std::current_exception();
            return;
        }
        std::vector<std::string> files;
        files.reserve(ahead_.order.size());
        for (const WarpRef& w : ahead_.order) files.push_back(warp_file(ahead_.trace, ahead_.trace.warps[w.entry]));
        read_ahead_.add(std::move(files));
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw TraceError(fmt::format("{}: record {}: {}", cursor_.path(), cursor_.index(), what));
    }

    static std::string warp_file(const MacSimKernelTrace& kernel, const MacSimWarpEntry& entry) {
        return fmt::format("{}_{}.raw", kernel.raw_prefix, entry.id);
    }

    void read_warp(const WarpRef& w) {
        const MacSimWarpEntry& entry = kernel_.warps[w.entry];
        const bool nvbit = kernel_.type == MacSimTraceType::Nvbit;
        cursor_.open(read_ahead_.next(), nvbit ? kNvbitRecordBytes : kPtxRecordBytes);
        ++report_.warps;
        uint64_t instructions = 0;
        while (const uint8_t* p = cursor_.next()) {
            ++instructions;
            ++report_.instructions;
            if (nvbit)
                nvbit_instruction(w.warp, p);
            else
                ptx_instruction(w.warp, p);
        }
        assembler_.end_warp(w.warp);
        // Only the nvbit tracer's trace_info.txt is known to count warp instructions.
        if (nvbit && entry.instructions_known && entry.instructions != instructions)
            throw TraceError(fmt::format("{}: {} instructions, but trace_info.txt lists {}", cursor_.path(),
                                         instructions, entry.instructions));
    }

    void count_unknown(std::string_view name, uint8_t opcode, const char* family) {
        if (name.empty())
            report_.count_unknown(fmt::format("{}#{}", family, opcode));
        else
            report_.count_unknown(name);
    }

    void nvbit_instruction(uint32_t warp, const uint8_t* p) {
        decode_nvbit_record(p, rec_);
        const std::string_view name = nvbit_opcode_name(rec_.opcode);
        OpcodeClass c;
        if (name.empty()) {
            c.known = false;
        } else {
            c = classify_nvbit(opcodes_.get(name), rec_);
        }
        if (!c.known) count_unknown(name, rec_.opcode, "nvbit");

        if (c.is_memory()) {
            // Child records (same PC and opcode) carry further addresses of this access.
            lanes_used_ = 0;
            entries_[lanes_used_++] = rec_.mem_addr;
            uint8_t child_size = 0;
            while (const uint8_t* q = cursor_.peek()) {
                decode_nvbit_record(q, child_);
                if (child_.inst_addr != rec_.inst_addr || child_.opcode != rec_.opcode) break;
                cursor_.next();
                if (lanes_used_ == trace::kWarpSize) fail("more than 32 child records for one memory instruction");
                entries_[lanes_used_++] = child_.mem_addr;
                child_size = child_.mem_access_size;
                ++report_.macsim_child_records;
            }
            const unsigned size = lanes_used_ > 1 ? child_size : rec_.mem_access_size;
            if (!memory_record(c, size)) {
                assembler_.compute(warp, rec_.inst_addr);
                return;
            }
            assembler_.add(warp, out_);
            return;
        }
        control_or_compute(warp, c, cursor_.peek() == nullptr);
    }

    void ptx_instruction(uint32_t warp, const uint8_t* p) {
        decode_ptx_record(p, rec_);
        const OpcodeClass& c = ptx_classes_[rec_.is_load ? 1 : 0][rec_.opcode];
        if (!c.known) count_unknown(ptx_opcode_name(rec_.opcode), rec_.opcode, "ptx");
        if (c.is_memory()) {
            // Lane 0's address is in the record; lanes 1..31 follow in address records.
            std::array<uint64_t, trace::kWarpSize> lanes{};
            lanes[0] = rec_.mem_addr;
            const uint64_t at = cursor_.index();
            for (int r = 0; r < kPtxAddressRecords; ++r) {
                const uint8_t* q = cursor_.next();
                if (!q)
                    throw TraceError(fmt::format("{}: record {}: memory instruction lacks its {} address records",
                                                 cursor_.path(), at, kPtxAddressRecords));
                for (int i = 0; i < kPtxAddressesPerRecord; ++i) {
                    const int lane = 1 + r * kPtxAddressesPerRecord + i;
                    if (lane < trace::kWarpSize) lanes[lane] = record_word(q, i);
                }
            }
            for (int lane = 0; lane < trace::kWarpSize; ++lane)
                if (lanes[lane] != 0 && !(rec_.active_mask >> lane & 1u))
                    throw TraceError(fmt::format("{}: record {}: lane {} has address {:#x} but is not in active mask {:08x}",
                                                 cursor_.path(), at, lane, lanes[lane], rec_.active_mask));
            if (rec_.active_mask == 0) {
                ++report_.inactive_memory;
                assembler_.compute(warp, rec_.inst_addr);
                return;
            }
            if (!valid_access_size(rec_.mem_access_size))
                throw TraceError(fmt::format("{}: record {}: access size {} is not 1, 2, 4, 8 or 16", cursor_.path(),
                                             at, rec_.mem_access_size));
            out_ = trace::WarpRecord{};
            out_.pc = rec_.inst_addr;
            out_.kind = c.kind;
            out_.space = c.space;
            out_.active_mask = rec_.active_mask;
            out_.access_size = rec_.mem_access_size;
            out_.addr = lanes;
            ++report_.memory_instructions;
            assembler_.add(warp, out_);
            return;
        }
        control_or_compute(warp, c, cursor_.peek() == nullptr);
    }

    // Barrier, Exit or compute for a non-memory record.
    void control_or_compute(uint32_t warp, const OpcodeClass& c, bool last_of_warp) {
        if (c.kind == RecordKind::Exit && !last_of_warp) {
            ++report_.partial_exits;
            assembler_.compute(warp, rec_.inst_addr);
            return;
        }
        if (c.kind != RecordKind::Exit && c.kind != RecordKind::Barrier) {
            assembler_.compute(warp, rec_.inst_addr);
            return;
        }
        out_ = trace::WarpRecord{};
        out_.pc = rec_.inst_addr;
        out_.kind = c.kind;
        out_.active_mask = rec_.active_mask;
        assembler_.add(warp, out_);
    }

    // Builds out_ from an nvbit memory instruction whose addresses are entries_[0..n).
    // One address per warp instruction is expanded as MacSim's access does: the first
    // active lane at the address, each further active lane `size` bytes on. With child
    // records, one address per active lane is taken as is; fewer addresses are segments
    // shared out among the active lanes in order. False: the record counts as compute.
    bool memory_record(const OpcodeClass& c, unsigned size) {
        if (rec_.active_mask == 0) {
            ++report_.inactive_memory;
            return false;
        }
        if (!valid_access_size(size)) fail(fmt::format("access size {} is not 1, 2, 4, 8 or 16", size));
        out_ = trace::WarpRecord{};
        out_.pc = rec_.inst_addr;
        out_.kind = c.kind;
        out_.space = c.generic ? nvbit_space(rec_.addr_space) : c.space;
        out_.active_mask = rec_.active_mask;
        out_.access_size = static_cast<uint8_t>(size);
        const int first = std::countr_zero(rec_.active_mask);
        if (lanes_used_ == 1 && out_.space == MemSpace::Constant && rec_.mem_addr == 0) {
            out_.strided = true;  // constant loads carry no address; the SM serves them by latency
        } else if (lanes_used_ == 1 && out_.space == MemSpace::Local) {
            out_.strided = true;  // NVBit's local address is the thread's own, the same in every lane
            out_.base = rec_.mem_addr;
        } else if (lanes_used_ == 1) {
            out_.strided = true;
            out_.stride = size;
            out_.base = rec_.mem_addr - uint64_t(first) * size;
        } else {
            const int active = std::popcount(rec_.active_mask);
            const int n = lanes_used_;
            int rank = 0, entry_start_rank = 0, current = -1;
            for (int lane = 0; lane < trace::kWarpSize; ++lane) {
                if (!(rec_.active_mask >> lane & 1u)) continue;
                const int e = n == active ? rank : rank * n / active;
                if (e != current) {
                    current = e;
                    entry_start_rank = rank;
                }
                out_.addr[lane] = entries_[e] + uint64_t(rank - entry_start_rank) * (n == active ? 0 : size);
                ++rank;
            }
        }
        // Thread offsets to the lanes' places in the warp's local window (trace.hpp).
        if (out_.space == MemSpace::Local) trace::thread_offsets_to_window(out_);
        ++report_.memory_instructions;
        return true;
    }

    std::string path_;
    MacSimKernelConfig config_;
    ImportReport& report_;
    trace::TraceHeader header_;
    size_t next_file_ = 0;
    MacSimKernelTrace kernel_;
    trace::KernelInfo info_;
    std::vector<WarpRef> order_;
    size_t next_warp_ = 0;
    CtaAssembler assembler_;
    Kernel ahead_;          // the kernel after this one
    ReadAhead read_ahead_;  // the warp files of this kernel and the next, in their order_
    RawRecordCursor cursor_;
    SassOpcodeCache opcodes_;
    std::array<std::array<OpcodeClass, 256>, 2> ptx_classes_{};
    MacSimRecord rec_, child_;
    std::array<uint64_t, trace::kWarpSize> entries_{};
    int lanes_used_ = 0;
    trace::WarpRecord out_;
};

}  // namespace

std::unique_ptr<trace::TraceSource> open_macsim_trace(const std::string& path, ImportReport& report) {
    return std::make_unique<MacSimTraceSource>(path, report);
}

}  // namespace zng::importers
