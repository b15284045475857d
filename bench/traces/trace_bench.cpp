// Throughput of the trace format on realistic traces: a topology-driven graph kernel
// (one thread per vertex walking its CSR neighbour list, as in GraphBIG's BFS/PageRank).
// Coalesced loads of the offsets array become strided records, neighbour gathers become
// scattered ones, and divergence comes from the degrees. Two graphs (benchmark argument):
//   0  the GraphBIG LDBC sample (../shared/testdata/graphbig-small; 1,000 vertices)
//   1  a seeded synthetic graph of 65,536 vertices with skewed degrees and half of the
//      edges local, large enough that zstd cannot see the whole trace at once.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "traces/cta_builder.hpp"
#include "traces/trace.hpp"
#include "traces/trace_summary.hpp"
#include "traces/vector_trace_source.hpp"

namespace zng::trace {
namespace {

struct Csr {
    std::vector<uint64_t> offsets;   // V + 1
    std::vector<uint64_t> edges;     // destination per edge
    std::string origin;
};

std::vector<uint64_t> read_u64s(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<uint64_t> v;
    uint64_t x;
    while (in.read(reinterpret_cast<char*>(&x), sizeof(x))) v.push_back(x);
    return v;
}

Csr graphbig_small() {
    const std::string dir = std::string(ZNG_SHARED_DIR) + "/testdata/graphbig-small/";
    Csr g;
    g.offsets = read_u64s(dir + "vertex.CSR");
    g.edges = read_u64s(dir + "edge.CSR");
    g.origin = "graphbig-small";
    if (g.offsets.size() < 2 || g.offsets.back() != g.edges.size()) g.offsets.clear();
    return g;
}

Csr synthetic_graph() {
    constexpr uint64_t kVertices = 65536;
    std::mt19937_64 rng(1);
    std::exponential_distribution<double> degree(1.0 / 16.0);
    Csr g;
    g.origin = "synthetic-64k";
    g.offsets.push_back(0);
    for (uint64_t v = 0; v < kVertices; ++v) {
        const uint64_t deg = 1 + static_cast<uint64_t>(degree(rng));
        for (uint64_t i = 0; i < deg; ++i)
            g.edges.push_back(rng() % 2 ? (v + rng() % 256) % kVertices : rng() % kVertices);
        g.offsets.push_back(g.edges.size());
    }
    return g;
}

struct BenchTrace {
    TraceHeader header;
    KernelInfo kernel;
    int iterations = 0;                   // kernel launches
    std::vector<WarpRecord> records;      // one launch, CTA-major then warp-major
    std::vector<uint32_t> warp_records;   // records per (CTA, warp), same order
};

// Builds one launch of the neighbour-gather kernel, warp by warp in lockstep.
BenchTrace make_trace(const Csr& g) {
    BenchTrace t;
    if (g.offsets.empty()) return t;
    const uint64_t vertices = g.offsets.size() - 1;
    const uint64_t offsets_base = 0x7f0000000000, edges_base = 0x7f1000000000, level_base = 0x7f2000000000,
                   out_base = 0x7f3000000000;
    t.header.workload = "neighbour-gather-" + g.origin;
    t.header.source = "traces_bench";
    t.header.arrays = {{"offsets", offsets_base, (vertices + 1) * 8},
                       {"edges", edges_base, g.edges.size() * 8},
                       {"level", level_base, vertices * 4},
                       {"out", out_base, vertices * 4}};
    t.kernel.name = "gather";
    t.kernel.block = {256, 1, 1};
    t.kernel.grid = {static_cast<uint32_t>((vertices + 255) / 256), 1, 1};
    t.iterations = 1;
    const uint64_t warps = t.kernel.grid.x * t.kernel.warps_per_cta();
    for (uint64_t w = 0; w < warps; ++w) {
        const size_t first = t.records.size();
        const uint64_t v0 = w * kWarpSize;
        uint32_t mask = 0;
        for (int l = 0; l < kWarpSize; ++l)
            if (v0 + l < vertices) mask |= 1u << l;
        if (mask != 0) {
            WarpRecord r;
            r.active_mask = mask;
            r.kind = RecordKind::Load;
            r.access_size = 8;
            r.strided = true;
            r.stride = 8;
            r.pc = 0x100;
            r.compute = 6;
            r.base = offsets_base + v0 * 8;
            t.records.push_back(r);   // offsets[v]
            r.pc = 0x108;
            r.compute = 0;
            r.base += 8;
            t.records.push_back(r);   // offsets[v + 1]
            uint64_t max_deg = 0;
            for (int l = 0; l < kWarpSize; ++l)
                if (mask >> l & 1u) max_deg = std::max(max_deg, g.offsets[v0 + l + 1] - g.offsets[v0 + l]);
            for (uint64_t i = 0; i < max_deg; ++i) {
                WarpRecord e;
                e.kind = RecordKind::Load;
                e.access_size = 8;
                e.pc = 0x140;
                e.compute = 3;
                e.active_mask = 0;
                WarpRecord lv = e;
                lv.access_size = 4;
                lv.pc = 0x150;
                lv.compute = 2;
                WarpRecord st = lv;
                st.kind = RecordKind::Store;
                st.pc = 0x168;
                st.compute = 1;
                for (int l = 0; l < kWarpSize; ++l) {
                    if (!(mask >> l & 1u)) continue;
                    const uint64_t beg = g.offsets[v0 + l], end = g.offsets[v0 + l + 1];
                    if (beg + i >= end) continue;
                    const uint64_t dst = g.edges[beg + i];
                    e.active_mask |= 1u << l;
                    e.addr[l] = edges_base + (beg + i) * 8;
                    lv.active_mask |= 1u << l;
                    lv.addr[l] = level_base + dst * 4;
                    if (dst % 3 == 0) {   // "unvisited" neighbours get a new level
                        st.active_mask |= 1u << l;
                        st.addr[l] = lv.addr[l];
                    }
                }
                t.records.push_back(e);
                t.records.push_back(lv);
                if (st.active_mask != 0) t.records.push_back(st);
            }
            r.kind = RecordKind::Store;
            r.pc = 0x1a0;
            r.compute = 4;
            r.access_size = 4;
            r.stride = 4;
            r.base = out_base + v0 * 4;
            t.records.push_back(r);
            WarpRecord x;
            x.kind = RecordKind::Exit;
            x.pc = 0x1b0;
            x.active_mask = mask;
            t.records.push_back(x);
        }
        t.warp_records.push_back(static_cast<uint32_t>(t.records.size() - first));
    }
    return t;
}

const BenchTrace& bench_trace(int64_t which) {
    static const BenchTrace small = make_trace(graphbig_small());
    static const BenchTrace large = make_trace(synthetic_graph());
    return which == 0 ? small : large;
}

// Skips the benchmark when the shared sample graph is absent.
const BenchTrace* trace_for(benchmark::State& state) {
    const BenchTrace& t = bench_trace(state.range(0));
    if (t.records.empty()) {
        state.SkipWithError("needs ../shared/testdata/graphbig-small");
        return nullptr;
    }
    state.SetLabel(t.header.workload);
    return &t;
}

std::string temp_file(const char* name) { return std::string(ZNG_BENCH_TMP_DIR) + "/" + name; }

uint64_t file_size(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    return static_cast<uint64_t>(in.tellg());
}

void write_bench_trace(const BenchTrace& t, const std::string& path) {
    TraceWriter w(path, t.header);
    const uint32_t wpc = t.kernel.warps_per_cta();
    for (int it = 0; it < t.iterations; ++it) {
        w.begin_kernel(t.kernel);
        size_t rec = 0;
        for (size_t warp = 0; warp < t.warp_records.size(); ++warp) {
            if (warp % wpc == 0) w.begin_cta(warp / wpc);
            for (uint32_t i = 0; i < t.warp_records[warp]; ++i) w.add(static_cast<uint32_t>(warp % wpc), t.records[rec++]);
            if (warp % wpc == wpc - 1) w.end_cta();
        }
        w.end_kernel();
    }
    w.finish();
}

uint64_t trace_records(const BenchTrace& t) { return t.records.size() * t.iterations; }

// Encoded (uncompressed) size of the records: the "trace data" rate of the file
// benchmarks is measured in these bytes, the compressed size is a separate counter.
uint64_t encoded_bytes(const BenchTrace& t) {
    std::vector<uint8_t> buf;
    uint64_t n = 0;
    for (const auto& r : t.records) {
        buf.clear();
        encode_record(r, buf);
        n += buf.size();
    }
    return n * t.iterations;
}

void BM_EncodeRecords(benchmark::State& state) {
    const BenchTrace* t = trace_for(state);
    if (t == nullptr) return;
    const auto& recs = t->records;
    std::vector<uint8_t> out;
    out.reserve(recs.size() * 64);
    for (auto _ : state) {
        out.clear();
        for (const auto& r : recs) encode_record(r, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * recs.size()));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * out.size()));
    state.counters["bytes_per_record"] = static_cast<double>(out.size()) / static_cast<double>(recs.size());
}
BENCHMARK(BM_EncodeRecords)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_DecodeRecords(benchmark::State& state) {
    const BenchTrace* t = trace_for(state);
    if (t == nullptr) return;
    const auto& recs = t->records;
    std::vector<uint8_t> bytes;
    for (const auto& r : recs) encode_record(r, bytes);
    WarpRecord r;
    for (auto _ : state) {
        uint64_t sum = 0;
        for (WarpCursor cur(bytes); !cur.done();) {
            cur.next(r);
            sum += r.pc;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * recs.size()));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_DecodeRecords)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_WriteTrace(benchmark::State& state) {
    const BenchTrace* t = trace_for(state);
    if (t == nullptr) return;
    const std::string path = temp_file("bench_write.ztr");
    for (auto _ : state) write_bench_trace(*t, path);
    const uint64_t size = file_size(path);
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * trace_records(*t)));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * encoded_bytes(*t)));
    state.counters["records"] = static_cast<double>(trace_records(*t));
    state.counters["file_bytes_per_record"] = static_cast<double>(size) / static_cast<double>(trace_records(*t));
    std::remove(path.c_str());
}
BENCHMARK(BM_WriteTrace)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_ReadTrace(benchmark::State& state) {
    const BenchTrace* t = trace_for(state);
    if (t == nullptr) return;
    const std::string path = temp_file("bench_read.ztr");
    write_bench_trace(*t, path);
    const uint64_t size = file_size(path);
    uint64_t stream_bytes = 0;
    WarpRecord r;
    for (auto _ : state) {
        auto src = open_trace(path);
        KernelInfo k;
        CtaTrace cta;
        uint64_t n = 0, bytes = 0;
        while (src->next_kernel(k))
            while (src->next_cta(cta))
                for (const auto& w : cta.warps) {
                    bytes += w.size();
                    for (WarpCursor cur(w); !cur.done(); ++n) cur.next(r);
                }
        if (n != trace_records(*t)) state.SkipWithError("record count mismatch");
        stream_bytes = bytes;
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * trace_records(*t)));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * stream_bytes));
    state.counters["file_bytes_per_record"] = static_cast<double>(size) / static_cast<double>(trace_records(*t));
    state.counters["encoded_bytes_per_record"] = static_cast<double>(stream_bytes) / static_cast<double>(trace_records(*t));
    std::remove(path.c_str());
}
BENCHMARK(BM_ReadTrace)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Summarize(benchmark::State& state) {
    const BenchTrace* t = trace_for(state);
    if (t == nullptr) return;
    const std::string path = temp_file("bench_summary.ztr");
    write_bench_trace(*t, path);
    for (auto _ : state) {
        auto src = open_trace(path);
        const TraceSummary s = summarize(*src);
        benchmark::DoNotOptimize(s.footprint_lines);
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * trace_records(*t)));
    std::remove(path.c_str());
}
BENCHMARK(BM_Summarize)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace zng::trace
