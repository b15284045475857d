// Streams foreign traces through the importers and reports warp instructions and input
// bytes per second plus the peak resident memory, which must stay flat as traces grow
// (set ZNG_IMPORT_BENCH_MB to import a larger synthetic .traceg).
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <lzma.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "traces/importers/importers.hpp"

namespace {

namespace fs = std::filesystem;
using zng::importers::ForeignFormat;

double peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

// A kernel of 256-thread blocks whose warps run a loop body like a stencil's: integer
// and FP work, strided global loads (base+stride), scattered loads (list of addresses),
// irregular stores (base+delta), shared memory and a barrier per iteration.
std::string write_synthetic_accelsim(size_t target_mib) {
    const fs::path dir = fs::path(ZNG_BENCH_TMP_DIR) / fmt::format("accelsim-synthetic-{}", target_mib);
    const fs::path kernel = dir / "kernel-1.traceg";
    if (fs::exists(kernel) && fs::file_size(kernel) >= target_mib << 20) return dir.string();
    fs::create_directories(dir);
    std::ofstream(dir / "kernelslist.g") << "MemcpyHtoD,0x0000000010000000,1048576\nkernel-1.traceg\n";

    const int iterations = 40;
    fmt::memory_buffer warp;
    std::mt19937_64 rng(7);
    auto body = [&](uint64_t tb, int w) {
        warp.clear();
        const uint64_t base = 0x7f0000000000ull + (tb * 8 + w) * 32 * 4;
        int n = 0;
        auto line = [&](const std::string& s) {
            fmt::format_to(std::back_inserter(warp), "{}\n", s);
            ++n;
        };
        for (int it = 0; it < iterations; ++it) {
            line("0010 ffffffff 1 R0 S2R 0 0");
            line("0018 ffffffff 1 R2 IMAD 3 R0 R1 R3 0");
            line(fmt::format("0020 ffffffff 1 R4 LDG.E.64 1 R2 8 1 0x{:x} 8", base + it * 4096));
            line("0028 ffffffff 1 R5 FFMA 3 R4 R4 R6 0");
            std::string scattered = "0030 ffffffff 1 R6 LDG.E 1 R2 4 0";
            for (int l = 0; l < 32; ++l) scattered += fmt::format(" 0x{:016x}", 0x7e0000000000ull + (rng() % (1u << 24)) * 4);
            line(scattered);
            std::string deltas = fmt::format("0038 0000ffff 0 STG.E 2 R6 R0 4 2 0x{:x}", base + 0x100000);
            for (int l = 1; l < 16; ++l) deltas += fmt::format(" {}", int(rng() % 512) - 256);
            line(deltas);
            line(fmt::format("0040 ffffffff 0 STS 2 R1 R5 4 1 0x{:x} 4", 0x7f5000000000ull + w * 128));
            line("0048 ffffffff 0 BAR.SYNC 0 0");
            line("0050 ffffffff 1 R7 LDS.U.32 1 R1 4 1 0x7f5000000200 4");
            line("0058 ffffffff 0 ISETP.GE.AND 2 R0 R7 0");
            line("0060 ffffffff 0 BRA 0 0");
        }
        line("0068 ffffffff 0 EXIT 0 0");
        return n;
    };
    std::FILE* f = std::fopen(kernel.c_str(), "wb");
    fmt::print(f,
               "-kernel name = stencil\n-kernel id = 1\n-grid dim = (65536,1,1)\n-block dim = (256,1,1)\n"
               "-shmem = 4096\n-nregs = 32\n-binary version = 70\n-cuda stream id = 0\n"
               "-shmem base_addr = 0x00007f5000000000\n-local mem base_addr = 0x00007f4000000000\n"
               "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n#traces format\n\n");
    uint64_t written = 0;
    for (uint64_t tb = 0; tb < 65536 && written < (target_mib << 20); ++tb) {
        written += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\n", tb).size();
        fmt::print(f, "#BEGIN_TB\n\nthread block = {},0,0\n\n", tb);
        for (int w = 0; w < 8; ++w) {
            const int n = body(tb, w);
            fmt::print(f, "warp = {}\ninsts = {}\n", w, n);
            std::fwrite(warp.data(), 1, warp.size(), f);
            written += warp.size() + 24;
        }
        fmt::print(f, "#END_TB\n\n");
    }
    std::fclose(f);
    return dir.string();
}

std::string xz_copy(const std::string& dir) {
    const fs::path out = fs::path(dir + "-xz");
    const fs::path kernel = out / "kernel-1.traceg.xz";
    if (fs::exists(kernel)) return out.string();
    fs::create_directories(out);
    std::ofstream(out / "kernelslist.g") << "kernel-1.traceg.xz\n";
    lzma_stream s = LZMA_STREAM_INIT;
    if (lzma_easy_encoder(&s, 1, LZMA_CHECK_CRC64) != LZMA_OK) std::abort();
    std::ifstream in(fs::path(dir) / "kernel-1.traceg", std::ios::binary);
    std::ofstream o(kernel, std::ios::binary);
    std::vector<uint8_t> ib(1 << 16), ob(1 << 16);
    lzma_action action = LZMA_RUN;
    for (;;) {
        if (s.avail_in == 0 && action == LZMA_RUN) {
            in.read(reinterpret_cast<char*>(ib.data()), ib.size());
            s.next_in = ib.data();
            s.avail_in = size_t(in.gcount());
            if (s.avail_in == 0) action = LZMA_FINISH;
        }
        s.next_out = ob.data();
        s.avail_out = ob.size();
        const lzma_ret r = lzma_code(&s, action);
        o.write(reinterpret_cast<const char*>(ob.data()), std::streamsize(ob.size() - s.avail_out));
        if (r == LZMA_STREAM_END) break;
        if (r != LZMA_OK) std::abort();
    }
    lzma_end(&s);
    return out.string();
}

uint64_t bytes_under(const std::string& dir) {
    uint64_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) n += e.file_size();
    return n;
}

void run_import(benchmark::State& state, ForeignFormat f, const std::string& dir) {
    uint64_t instructions = 0;
    for (auto _ : state) {
        zng::importers::ImportReport report;
        auto src = zng::importers::open_foreign_trace(f, dir, &report);
        zng::trace::KernelInfo k;
        zng::trace::CtaTrace cta;
        while (src->next_kernel(k))
            while (src->next_cta(cta)) benchmark::DoNotOptimize(cta.records);
        instructions = report.instructions;
    }
    state.SetItemsProcessed(int64_t(instructions) * state.iterations());
    state.SetBytesProcessed(int64_t(bytes_under(dir)) * state.iterations());
    state.counters["warp_insts"] = double(instructions);
    state.counters["peak_rss_MiB"] = peak_rss_mib();
}

size_t synthetic_mib() {
    const char* e = std::getenv("ZNG_IMPORT_BENCH_MB");
    return e ? std::strtoul(e, nullptr, 10) : 32;
}

void BM_AccelSimText(benchmark::State& state) {
    run_import(state, ForeignFormat::AccelSim, write_synthetic_accelsim(synthetic_mib()));
}
BENCHMARK(BM_AccelSimText)->Unit(benchmark::kMillisecond);

void BM_AccelSimXz(benchmark::State& state) {
    run_import(state, ForeignFormat::AccelSim, xz_copy(write_synthetic_accelsim(synthetic_mib())));
}
BENCHMARK(BM_AccelSimXz)->Unit(benchmark::kMillisecond);

void BM_MacSimVectorMultAdd(benchmark::State& state) {
    const std::string dir = std::string(ZNG_SHARED_DIR) + "/testdata/macsim-nvbit/vectormultadd/" +
                            std::to_string(state.range(0));
    if (!fs::exists(dir)) {
        state.SkipWithError("needs ../shared/testdata/macsim-nvbit");
        return;
    }
    run_import(state, ForeignFormat::MacSim, dir);
}
BENCHMARK(BM_MacSimVectorMultAdd)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);

void BM_AccelSimMatrixMul(benchmark::State& state) {
    const std::string dir = std::string(ZNG_SHARED_DIR) + "/testdata/accelsim/matrixmul-32-32";
    if (!fs::exists(dir)) {
        state.SkipWithError("needs ../shared/testdata/accelsim");
        return;
    }
    run_import(state, ForeignFormat::AccelSim, dir);
}
BENCHMARK(BM_AccelSimMatrixMul)->Unit(benchmark::kMillisecond);

}  // namespace
