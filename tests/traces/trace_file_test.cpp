// Writing and reading .ztr files: exact round trips of random multi-kernel traces,
// the writer's Exit completion, determinism, copying, and API misuse.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "tests/traces/allocation_probe.hpp"
#include "tests/traces/trace_test_support.hpp"
#include "traces/cta_builder.hpp"
#include "traces/trace.hpp"
#include "traces/vector_trace_source.hpp"

namespace zng::trace {
namespace {

using testing::RecordGenerator;
using testing::file_bytes;
using testing::put_file;
using testing::temp_path;
namespace allocation = testing;

TraceHeader sample_header() {
    TraceHeader h;
    h.workload = "unit";
    h.source = "trace_file_test";
    h.arrays = {{"a", 0x1000, 4096}, {"b", 0x100000, 1 << 20}};
    return h;
}

// Random records for a trace of several kernels; every warp ends with an Exit except
// every third one, which the writer must complete. Returns the expected in-memory trace.
VectorTraceSource random_trace(uint64_t seed, int kernels) {
    RecordGenerator gen(seed);
    VectorTraceSource expected(sample_header());
    CtaBuilder builder;
    for (int k = 0; k < kernels; ++k) {
        KernelInfo info;
        info.name = "kernel" + std::to_string(k);
        info.grid = {3, 2, 1};
        info.block = {48 + 16 * static_cast<uint32_t>(k), 1, 1};   // partial last warp
        info.shared_mem_bytes = 1024u * static_cast<uint32_t>(k);
        info.regs_per_thread = 32;
        KernelTrace& kt = expected.add_kernel(info);
        for (uint64_t c = 0; c < 4; ++c) {
            builder.begin(5 - c, info);
            for (uint32_t w = 0; w < info.warps_per_cta(); ++w) {
                const uint64_t n = gen.pick(40);
                for (uint64_t i = 0; i < n; ++i) {
                    WarpRecord r = gen.next();
                    if (r.kind == RecordKind::Exit) r.kind = RecordKind::Barrier;
                    builder.add(w, r);
                }
            }
            kt.ctas.push_back(builder.finish());
        }
    }
    return expected;
}

void write_with_writer(VectorTraceSource& src, const std::string& path) {
    // Writes record by record through TraceWriter::add (not add_encoded_cta).
    TraceWriter w(path, src.header());
    KernelInfo k;
    CtaTrace cta;
    WarpRecord r;
    while (src.next_kernel(k)) {
        w.begin_kernel(k);
        while (src.next_cta(cta)) {
            w.begin_cta(cta.cta_id);
            for (uint32_t i = 0; i < cta.warps.size(); ++i)
                for (WarpCursor cur(cta.warps[i]); !cur.done();) {
                    cur.next(r);
                    w.add(i, r);
                }
            w.end_cta();
        }
        w.end_kernel();
    }
    w.finish();
}

void expect_same_trace(TraceSource& a, TraceSource& b) {
    EXPECT_EQ(a.header().workload, b.header().workload);
    EXPECT_EQ(a.header().source, b.header().source);
    ASSERT_EQ(a.header().arrays.size(), b.header().arrays.size());
    for (size_t i = 0; i < a.header().arrays.size(); ++i) {
        EXPECT_EQ(a.header().arrays[i].name, b.header().arrays[i].name);
        EXPECT_EQ(a.header().arrays[i].base, b.header().arrays[i].base);
        EXPECT_EQ(a.header().arrays[i].size, b.header().arrays[i].size);
    }
    KernelInfo ka, kb;
    CtaTrace ca, cb;
    int kernels = 0;
    while (a.next_kernel(ka)) {
        ASSERT_TRUE(b.next_kernel(kb));
        EXPECT_EQ(ka.name, kb.name);
        EXPECT_EQ(ka.grid.count(), kb.grid.count());
        EXPECT_EQ(ka.block.x, kb.block.x);
        EXPECT_EQ(ka.shared_mem_bytes, kb.shared_mem_bytes);
        EXPECT_EQ(ka.regs_per_thread, kb.regs_per_thread);
        while (a.next_cta(ca)) {
            ASSERT_TRUE(b.next_cta(cb));
            EXPECT_EQ(ca.cta_id, cb.cta_id);
            EXPECT_EQ(ca.records, cb.records);
            EXPECT_EQ(ca.warps, cb.warps);   // canonical encoding: equal bytes = equal records
        }
        EXPECT_FALSE(b.next_cta(cb));
        ++kernels;
    }
    EXPECT_FALSE(b.next_kernel(kb));
    EXPECT_GT(kernels, 0);
}

// Writes a trace of one kernel with one CTA (id 0); add(w) adds its records.
template <class Add>
void write_one_cta(const std::string& path, const TraceHeader& header, const KernelInfo& info, Add&& add) {
    TraceWriter w(path, header);
    w.begin_kernel(info);
    w.begin_cta(0);
    add(w);
    w.end_cta();
    w.end_kernel();
    w.finish();
}

// Opens `path` and reads the first CTA of its first kernel into `cta`; the returned
// reader stands after it.
std::unique_ptr<TraceSource> open_first_cta(const std::string& path, CtaTrace& cta) {
    auto reader = open_trace(path);
    KernelInfo k;
    if (!reader->next_kernel(k) || !reader->next_cta(cta)) throw TraceError(path + ": no CTA to read");
    return reader;
}

TEST(TraceFile, RandomTraceRoundTrips) {
    VectorTraceSource expected = random_trace(1, 3);
    const std::string path = temp_path("ztr");
    write_with_writer(expected, path);
    expected.rewind();
    auto reader = open_trace(path);
    EXPECT_EQ(reader->describe(), path);
    expect_same_trace(expected, *reader);
    KernelInfo after_end;
    EXPECT_FALSE(reader->next_kernel(after_end)) << "stays at end";
    std::remove(path.c_str());
}

TEST(TraceFile, RecordsDecodeToWhatWasAdded) {
    // Independent of the builder: compare decoded records with the generator's output.
    RecordGenerator gen(3, /*io_kinds=*/true), replay(3, /*io_kinds=*/true);
    KernelInfo info;
    info.name = "k";
    info.block = {64, 1, 1};
    const std::string path = temp_path("ztr");
    write_one_cta(path, sample_header(), info, [&](TraceWriter& w) {
        for (int i = 0; i < 2000; ++i) {
            WarpRecord r = gen.next();
            if (r.kind == RecordKind::Exit) r.kind = RecordKind::Compute, r.compute = r.compute ? r.compute : 1;
            w.add(static_cast<uint32_t>(i % 2), r);
        }
    });
    KernelInfo k;
    CtaTrace cta;
    const auto reader = open_first_cta(path, cta);
    ASSERT_EQ(cta.warps.size(), 2u);
    EXPECT_EQ(cta.records, 2002u);   // 2000 added + one Exit per warp
    WarpCursor cur[2] = {WarpCursor(cta.warps[0]), WarpCursor(cta.warps[1])};
    WarpRecord d;
    for (int i = 0; i < 2000; ++i) {
        WarpRecord r = replay.next();
        if (r.kind == RecordKind::Exit) r.kind = RecordKind::Compute, r.compute = r.compute ? r.compute : 1;
        ASSERT_FALSE(cur[i % 2].done());
        cur[i % 2].next(d);
        ASSERT_TRUE(equivalent(d, r)) << "record " << i;
    }
    for (auto& c : cur) {
        c.next(d);
        EXPECT_EQ(d.kind, RecordKind::Exit);
        EXPECT_TRUE(c.done());
    }
    EXPECT_FALSE(reader->next_cta(cta));
    EXPECT_FALSE(reader->next_kernel(k));
    std::remove(path.c_str());
}

// The format version is the u32 after the magic; the stream checksum does not cover it.
void set_format_version(const std::string& path, uint32_t version) {
    auto bytes = file_bytes(path);
    for (int i = 0; i < 4; ++i) bytes[8 + i] = static_cast<uint8_t>(version >> (8 * i));
    put_file(path, bytes);
}

TEST(TraceFile, VersionTwoFilesAreReadButCannotHoldIoRecords) {
    KernelInfo info;
    info.name = "k";
    info.block = {32, 1, 1};
    WarpRecord load;
    load.kind = RecordKind::Load;
    load.active_mask = kFullWarpMask;
    load.access_size = 4;
    load.strided = true;
    load.base = 0x1000;
    load.stride = 4;
    const std::string path = temp_path("ztr");
    write_one_cta(path, {}, info, [&](TraceWriter& w) { w.add(0, load); });
    EXPECT_EQ(file_bytes(path)[8], kTraceFormatVersion);
    set_format_version(path, 2);
    CtaTrace cta;
    EXPECT_NO_THROW(open_first_cta(path, cta)) << "a version 2 trace without I/O records still reads";

    WarpRecord wait;
    wait.kind = RecordKind::IoWait;
    wait.active_mask = kFullWarpMask;
    wait.io_tag = 1;
    write_one_cta(path, {}, info, [&](TraceWriter& w) {
        w.add(0, load);
        w.add(0, wait);
    });
    EXPECT_NO_THROW(open_first_cta(path, cta));
    set_format_version(path, 2);
    try {
        open_first_cta(path, cta);
        ADD_FAILURE() << "a version 2 trace holding an io_wait record was accepted";
    } catch (const TraceError& e) {
        EXPECT_NE(std::string(e.what()).find("format version 2 does not have"), std::string::npos) << e.what();
    }
    std::remove(path.c_str());
}

TEST(TraceFile, WriterCompletesWarpsWithExit) {
    KernelInfo info;
    info.name = "partial";
    info.block = {40, 1, 1};   // warp 0: 32 lanes, warp 1: 8 lanes
    const std::string path = temp_path("ztr");
    // Warp 0 gets Exit at pc 0x40, warp 1 (empty) a lone Exit.
    write_one_cta(path, {}, info, [](TraceWriter& w) {
        WarpRecord r;
        r.kind = RecordKind::Compute;
        r.compute = 5;
        r.pc = 0x40;
        w.add(0, r);
    });
    CtaTrace cta;
    open_first_cta(path, cta);
    EXPECT_EQ(cta.records, 3u);
    WarpRecord d;
    WarpCursor w0(cta.warps[0]);
    w0.next(d);
    EXPECT_EQ(d.kind, RecordKind::Compute);
    w0.next(d);
    EXPECT_EQ(d.kind, RecordKind::Exit);
    EXPECT_EQ(d.pc, 0x40u);
    EXPECT_EQ(d.active_mask, kFullWarpMask);
    EXPECT_TRUE(w0.done());
    WarpCursor w1(cta.warps[1]);
    w1.next(d);
    EXPECT_EQ(d.kind, RecordKind::Exit);
    EXPECT_EQ(d.active_mask, 0xffu) << "only the 8 existing lanes of the last warp";
    EXPECT_TRUE(w1.done());
    std::remove(path.c_str());
}

TEST(TraceFile, SameInputGivesIdenticalBytes) {
    const std::string p1 = temp_path("1.ztr"), p2 = temp_path("2.ztr"), p3 = temp_path("3.ztr");
    VectorTraceSource t1 = random_trace(11, 2);
    VectorTraceSource t2 = random_trace(11, 2);
    write_with_writer(t1, p1);
    write_trace(t2, p2);   // through add_encoded_cta
    const auto b1 = file_bytes(p1);
    EXPECT_GT(b1.size(), 12u);
    EXPECT_EQ(b1, file_bytes(p2));
    // Copying a file through the reader reproduces it byte for byte.
    auto reader = open_trace(p1);
    write_trace(*reader, p3);
    EXPECT_EQ(b1, file_bytes(p3));
    for (const auto& p : {p1, p2, p3}) std::remove(p.c_str());
}

TEST(TraceFile, ReadingKeepsTheHeapBoundedByOneCta) {
    // 120 CTAs of 8 warps x 60 scattered records (~10 MB of encoded records): the
    // reader may hold one CTA (~85 KB) plus fixed buffers, never the whole trace.
    KernelInfo info;
    info.name = "big";
    info.grid = {120, 1, 1};
    info.block = {256, 1, 1};
    const std::string path = temp_path("ztr");
    RecordGenerator gen(77);
    uint64_t encoded = 0;
    {
        TraceWriter w(path, {});
        w.begin_kernel(info);
        std::vector<uint8_t> tmp;
        for (uint64_t c = 0; c < 120; ++c) {
            w.begin_cta(c);
            for (uint32_t warp = 0; warp < 8; ++warp)
                for (int i = 0; i < 60; ++i) {
                    WarpRecord r = gen.next();
                    r.kind = RecordKind::Load;
                    r.access_size = 4;
                    r.strided = false;
                    r.active_mask = kFullWarpMask;
                    for (auto& a : r.addr) a = gen.pick(uint64_t(1) << 40);
                    tmp.clear();
                    encode_record(r, tmp);
                    encoded += tmp.size();
                    w.add(warp, r);
                }
            w.end_cta();
        }
        w.end_kernel();
        w.finish();
    }
    ASSERT_GT(encoded, uint64_t(8) << 20);
    const size_t before = allocation::live_bytes();
    allocation::reset_peak_live();
    {
        auto src = open_trace(path);
        KernelInfo k;
        CtaTrace cta;
        uint64_t ctas = 0;
        while (src->next_kernel(k))
            while (src->next_cta(cta)) ++ctas;
        EXPECT_EQ(ctas, 120u);
    }
    // zstd's own buffers come from malloc and are fixed in size; what operator new
    // holds must stay near one CTA (85 KB, rounded up by vector growth) + 256 KB buffers.
    EXPECT_LT(allocation::peak_live_bytes() - before, size_t(1) << 20)
        << "peak " << allocation::peak_live_bytes() - before << " bytes";
    std::remove(path.c_str());
}

TEST(TraceFile, EmptyTraceRoundTrips) {
    const std::string path = temp_path("ztr");
    TraceHeader h;
    h.workload = "nothing";
    {
        TraceWriter w(path, h);
        w.finish();
    }
    auto reader = open_trace(path);
    EXPECT_EQ(reader->header().workload, "nothing");
    KernelInfo k;
    EXPECT_FALSE(reader->next_kernel(k));
    std::remove(path.c_str());
}

TEST(TraceFile, SkippingCtasStillValidatesTheRest) {
    VectorTraceSource t = random_trace(21, 3);
    const std::string path = temp_path("ztr");
    write_trace(t, path);
    auto reader = open_trace(path);
    KernelInfo k;
    int kernels = 0;
    while (reader->next_kernel(k)) ++kernels;   // never asks for CTAs
    EXPECT_EQ(kernels, 3);
    std::remove(path.c_str());
}

TEST(TraceFile, UnfinishedWriterLeavesNoFile) {
    const std::string path = temp_path("ztr");
    {
        TraceWriter w(path, {});
        KernelInfo info;
        info.name = "k";
        w.begin_kernel(info);
    }
    EXPECT_FALSE(std::ifstream(path).good());
    EXPECT_FALSE(std::ifstream(path + ".partial").good());
}

TEST(TraceFile, WriterRejectsMisuse) {
    const std::string path = temp_path("ztr");
    KernelInfo info;
    info.name = "k";
    info.grid = {2, 1, 1};
    info.block = {32, 1, 1};
    TraceWriter w(path, {});
    EXPECT_THROW(w.begin_cta(0), TraceError);            // no kernel
    EXPECT_THROW(w.add(0, WarpRecord{}), TraceError);    // no CTA
    KernelInfo empty_block = info;
    empty_block.block = {0, 1, 1};
    EXPECT_THROW(w.begin_kernel(empty_block), TraceError);
    w.begin_kernel(info);
    EXPECT_THROW(w.begin_kernel(info), TraceError);      // kernel open
    EXPECT_THROW(w.begin_cta(2), TraceError);            // outside the 2-CTA grid
    w.begin_cta(1);
    WarpRecord r;
    r.kind = RecordKind::Exit;
    EXPECT_THROW(w.add(1, r), TraceError);               // only warp 0 exists
    w.add(0, r);
    r.kind = RecordKind::Barrier;
    EXPECT_THROW(w.add(0, r), TraceError);               // after Exit
    EXPECT_THROW(w.end_kernel(), TraceError);            // CTA open
    w.end_cta();
    CtaTrace wrong;
    wrong.cta_id = 0;
    wrong.warps.resize(2);
    EXPECT_THROW(w.add_encoded_cta(wrong), TraceError);  // 2 warps for a 1-warp block
    w.end_kernel();
    EXPECT_THROW(w.end_kernel(), TraceError);
    w.finish();
    EXPECT_THROW(w.finish(), TraceError);
    std::remove(path.c_str());
}

TEST(TraceFile, AddEncodedCtaChecksItsRecordCount) {
    KernelInfo info;
    info.name = "k";
    CtaBuilder b;
    b.begin(0, info);
    WarpRecord r;
    r.kind = RecordKind::Barrier;
    b.add(0, r);
    CtaTrace cta = b.finish();
    ASSERT_EQ(cta.records, 2u);   // barrier + appended exit
    cta.records = 5;
    const std::string path = temp_path("ztr");
    TraceWriter w(path, {});
    w.begin_kernel(info);
    EXPECT_THROW(w.add_encoded_cta(cta), TraceError);
}

TEST(TraceFile, DirectoryIsATraceError) {
    EXPECT_THROW(open_trace(ZNG_TEST_TMP_DIR), TraceError);
}

TEST(TraceFile, MissingFileIsATraceError) {
    try {
        open_trace("/nonexistent/dir/x.ztr");
        FAIL() << "expected TraceError";
    } catch (const TraceError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.ztr"), std::string::npos);
    }
}

}  // namespace
}  // namespace zng::trace
