// Malformed .ztr files: every failure must be a TraceError naming the file, never a
// crash, hang or large allocation. Hand-made streams are compressed here with zstd
// directly so that each field can be set to a bad value.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdio>

#include "tests/traces/allocation_probe.hpp"
#include "tests/traces/trace_test_support.hpp"
#include "traces/cta_builder.hpp"
#include "traces/trace.hpp"
#include "traces/trace_file_format.hpp"
#include "traces/vector_trace_source.hpp"
#include "traces/xxhash64.hpp"

namespace zng::trace {
namespace {

using testing::file_bytes;
using testing::put_file;
using testing::temp_path;

// Reads the whole trace, decoding every record as a consumer would.
void consume(const std::string& path) {
    auto src = open_trace(path);
    KernelInfo k;
    CtaTrace cta;
    WarpRecord r;
    while (src->next_kernel(k))
        while (src->next_cta(cta))
            for (const auto& w : cta.warps)
                for (WarpCursor cur(w); !cur.done();) cur.next(r);
}

// The message of the TraceError thrown by consume(); fails the test if none is thrown.
std::string consume_error(const std::string& path) {
    try {
        consume(path);
    } catch (const TraceError& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << "message names the file: " << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no TraceError for " << path;
    return {};
}

// Builds an uncompressed stream field by field.
struct Stream {
    std::vector<uint8_t> bytes;
    Stream& byte(uint8_t b) {
        bytes.push_back(b);
        return *this;
    }
    Stream& var(uint64_t v) {
        while (v >= 0x80) {
            bytes.push_back(static_cast<uint8_t>(v | 0x80));
            v >>= 7;
        }
        bytes.push_back(static_cast<uint8_t>(v));
        return *this;
    }
    Stream& str(const std::string& s) {
        var(s.size());
        bytes.insert(bytes.end(), s.begin(), s.end());
        return *this;
    }
    // Footer with the given totals and the correct (or a deliberately wrong) checksum.
    Stream& footer(uint64_t kernels, uint64_t ctas, uint64_t warps, uint64_t records, uint64_t instructions,
                   uint64_t checksum_xor = 0) {
        byte('F').var(kernels).var(ctas).var(warps).var(records).var(instructions);
        Xxh64 h;
        h.update(bytes.data(), bytes.size());
        const uint64_t sum = h.digest() ^ checksum_xor;
        for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(sum >> (8 * i)));
        return *this;
    }
};

std::vector<uint8_t> ztr_file(const std::vector<uint8_t>& stream, uint32_t version = ztr::kFormatVersion) {
    std::vector<uint8_t> out(ztr::kMagic, ztr::kMagic + 8);
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(version >> (8 * i)));
    std::vector<uint8_t> z(ZSTD_compressBound(stream.size()));
    const size_t n = ZSTD_compress(z.data(), z.size(), stream.data(), stream.size(), 3);
    EXPECT_FALSE(ZSTD_isError(n));
    out.insert(out.end(), z.begin(), z.begin() + static_cast<long>(n));
    return out;
}

// Header, kernel "k" (grid 1, block 32) with one CTA whose single warp is one Exit.
Stream one_exit_prefix() {
    Stream s;
    s.byte('H').str("w").str("src").var(0);
    s.byte('K').str("k").var(1).var(1).var(1).var(32).var(1).var(1).var(0).var(0);
    return s;
}
Stream one_exit_trace() {
    Stream s = one_exit_prefix();
    s.byte('C').var(0).var(1).var(1).var(2).byte(0x05).byte(0x00);
    s.byte('E').var(1);
    return s;
}

TEST(CorruptTrace, HandMadeStreamIsAccepted) {
    // Guards the other hand-made cases: without corruption the stream is valid.
    const std::string path = temp_path("ztr");
    put_file(path, ztr_file(one_exit_trace().footer(1, 1, 1, 1, 1).bytes));
    auto src = VectorTraceSource::read_all(*open_trace(path));
    ASSERT_EQ(src.kernels().size(), 1u);
    EXPECT_EQ(src.kernels()[0].ctas[0].records, 1u);
    EXPECT_EQ(src.header().source, "src");
    std::remove(path.c_str());
}

TEST(CorruptTrace, EveryTruncationIsATraceError) {
    VectorTraceSource t;
    KernelInfo info;
    info.name = "k";
    info.grid = {2, 1, 1};
    info.block = {64, 1, 1};
    auto& kt = t.add_kernel(info);
    testing::RecordGenerator gen(8);
    CtaBuilder b;
    for (uint64_t c = 0; c < 2; ++c) {
        b.begin(c, info);
        for (int i = 0; i < 12; ++i) {
            WarpRecord r = gen.next();
            if (r.kind == RecordKind::Exit) r.kind = RecordKind::Barrier;
            b.add(static_cast<uint32_t>(i % 2), r);
        }
        kt.ctas.push_back(b.finish());
    }
    const std::string full = temp_path("full.ztr"), cut = temp_path("cut.ztr");
    write_trace(t, full);
    const auto bytes = file_bytes(full);
    ASSERT_GT(bytes.size(), 100u);
    for (size_t n = 0; n < bytes.size(); ++n) {
        put_file(cut, std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<long>(n)));
        EXPECT_THROW(consume(cut), TraceError) << "truncated to " << n << " of " << bytes.size() << " bytes";
    }
    EXPECT_NO_THROW(consume(full));
    std::remove(full.c_str());
    std::remove(cut.c_str());
}

TEST(CorruptTrace, NoFlippedBitChangesTheTraceSilently) {
    // A flip either raises TraceError or leaves the decoded trace identical (zstd
    // ignores a few frame-header bits, e.g. the unused bit of the frame descriptor).
    const std::string good = temp_path("good.ztr"), bad = temp_path("bad.ztr");
    put_file(good, ztr_file(one_exit_trace().footer(1, 1, 1, 1, 1).bytes));
    const auto bytes = file_bytes(good);
    int rejected = 0, identical = 0;
    for (size_t i = 0; i < bytes.size(); ++i)
        for (int bit = 0; bit < 8; ++bit) {
            auto b = bytes;
            b[i] ^= static_cast<uint8_t>(1u << bit);
            put_file(bad, b);
            try {
                auto t = VectorTraceSource::read_all(*open_trace(bad));
                ASSERT_EQ(t.kernels().size(), 1u) << "byte " << i << " bit " << bit;
                ASSERT_EQ(t.kernels()[0].ctas.size(), 1u);
                EXPECT_EQ(t.kernels()[0].ctas[0].warps, (std::vector<std::vector<uint8_t>>{{0x05, 0x00}}));
                EXPECT_EQ(t.header().workload, "w");
                ++identical;
            } catch (const TraceError&) {
                ++rejected;
            }
        }
    // Every byte after the zstd frame header (12 prefix + 4 zstd magic + 1 descriptor
    // + 1 frame size) is covered by zstd's block checks and content checksum.
    EXPECT_LE(identical, 16) << "only frame-header bits may be ignored";
    EXPECT_GT(rejected, 8 * static_cast<int>(bytes.size()) - 16);
    std::remove(good.c_str());
    std::remove(bad.c_str());
}

TEST(CorruptTrace, BadMagicAndVersions) {
    const std::string path = temp_path("ztr");
    auto bytes = ztr_file(one_exit_trace().footer(1, 1, 1, 1, 1).bytes);
    bytes[0] = 'X';
    put_file(path, bytes);
    EXPECT_NE(consume_error(path).find("not a zngsim trace"), std::string::npos);

    put_file(path, ztr_file(one_exit_trace().footer(1, 1, 1, 1, 1).bytes, ztr::kFormatVersion + 1));
    const std::string newer = consume_error(path);
    EXPECT_NE(newer.find(fmt::format("version {} is newer", ztr::kFormatVersion + 1)), std::string::npos) << newer;

    put_file(path, ztr_file(one_exit_trace().footer(1, 1, 1, 1, 1).bytes, 1));
    const std::string older = consume_error(path);
    EXPECT_NE(older.find("version 1 is no longer read"), std::string::npos) << older;

    put_file(path, ztr_file(one_exit_trace().footer(1, 1, 1, 1, 1).bytes, 0));
    EXPECT_NE(consume_error(path).find("version 0"), std::string::npos);

    put_file(path, {});
    EXPECT_NE(consume_error(path).find("not a zngsim trace"), std::string::npos);
    std::remove(path.c_str());
}

TEST(CorruptTrace, HugeLengthsAreRejectedBeforeAllocating) {
    const std::string path = temp_path("ztr");
    struct Case {
        const char* what;
        Stream stream;
        const char* expected;
    };
    std::vector<Case> cases;
    // Offset 7 = tag + six varint bytes of 2^40.
    cases.push_back({"workload name", Stream().byte('H').var(uint64_t(1) << 40), "header, stream offset 7: "});
    cases.push_back({"array count", Stream().byte('H').str("").str("").var(uint64_t(1) << 50), "arrays"});
    cases.push_back({"kernel name", Stream().byte('H').str("").str("").var(0).byte('K').var(5000), "kernel name"});
    {
        Stream s = one_exit_prefix();
        s.byte('C').var(0).var(1u << 20);   // a million warps for a 1-warp block
        cases.push_back({"warp count", s, "warps"});
    }
    {
        Stream s = one_exit_prefix();
        s.byte('C').var(0).var(1).var(1).var(uint64_t(1) << 62);   // warp bytes beyond the CTA cap
        cases.push_back({"warp bytes", s, "more than"});
    }
    {
        // 1 GiB declared (at the cap) but the stream ends: memory must track real data.
        Stream s = one_exit_prefix();
        s.byte('C').var(0).var(1).var(1).var(uint64_t(1) << 30).byte(0x05).byte(0x00);
        cases.push_back({"truncated warp bytes", s, "warp records"});
    }
    for (auto& c : cases) {
        put_file(path, ztr_file(c.stream.bytes));
        testing::reset_largest_allocation();
        const std::string msg = consume_error(path);
        EXPECT_NE(msg.find(c.expected), std::string::npos) << c.what << ": " << msg;
        EXPECT_LT(testing::largest_allocation(), size_t(4) << 20) << c.what;
    }
    std::remove(path.c_str());
}

TEST(CorruptTrace, InconsistentCountsAndChecksum) {
    const std::string path = temp_path("ztr");
    struct Case {
        Stream stream;
        const char* expected;
    };
    std::vector<Case> cases;
    // Offset 34 = header 8 + kernel 11 + CTA 7 + kernel end 2 + footer tag 1 + 5 totals.
    cases.push_back({one_exit_trace().footer(2, 1, 1, 1, 1), "footer, stream offset 34: footer says 2 kernels"});
    cases.push_back({one_exit_trace().footer(1, 1, 1, 1, 9), "footer says 9 instructions"});
    cases.push_back({one_exit_trace().footer(1, 1, 1, 1, 1, 0x10), "checksum mismatch"});
    cases.push_back({one_exit_trace(), "footer missing"});
    {
        Stream s = one_exit_prefix();
        s.byte('C').var(0).var(1).var(3).var(2).byte(0x05).byte(0x00).byte('E').var(1);
        cases.push_back({s.footer(1, 1, 1, 3, 1), "declares 3 records"});
    }
    {
        Stream s = one_exit_prefix();
        s.byte('C').var(0).var(1).var(1).var(2).byte(0x05).byte(0x00).byte('E').var(4);
        cases.push_back({s.footer(1, 1, 1, 1, 1), "kernel end says 4 CTAs"});
    }
    {
        Stream s = one_exit_prefix();   // a barrier only: the warp never exits
        s.byte('C').var(0).var(1).var(1).var(2).byte(0x04).byte(0x00).byte('E').var(1);
        cases.push_back({s.footer(1, 1, 1, 1, 1), "does not end with an exit"});
    }
    {
        Stream s = one_exit_prefix();   // CTA id 1 in a grid of 1
        s.byte('C').var(1).var(1).var(1).var(2).byte(0x05).byte(0x00).byte('E').var(1);
        cases.push_back({s.footer(1, 1, 1, 1, 1), "outside the grid"});
    }
    {
        Stream s = one_exit_prefix();   // bad access size in a load
        s.byte('C').var(0).var(1).var(2).var(7).byte(0x41).byte(0).byte(3).byte(0).byte(0).byte(0x05).byte(0);
        s.byte('E').var(1);
        cases.push_back({s.footer(1, 1, 1, 2, 2), "access size"});
    }
    {
        Stream s;
        s.byte('H').str("").str("").var(0).byte('Z');
        cases.push_back({s, "found tag 0x5a"});
    }
    {
        Stream s;
        s.byte('H').str("").str("").var(0).byte('K').str("k").var(0).var(1).var(1).var(32).var(1).var(1).var(0);
        s.var(0);
        cases.push_back({s, "zero dimension"});
    }
    {
        Stream s = one_exit_trace().footer(1, 1, 1, 1, 1);
        s.byte('K');   // bytes after the footer inside the frame
        cases.push_back({s, "after the footer"});
    }
    for (auto& c : cases) {
        put_file(path, ztr_file(c.stream.bytes));
        const std::string msg = consume_error(path);
        EXPECT_NE(msg.find(c.expected), std::string::npos) << msg;
    }
    // Garbage after a complete zstd frame.
    auto bytes = ztr_file(one_exit_trace().footer(1, 1, 1, 1, 1).bytes);
    bytes.push_back(0);
    put_file(path, bytes);
    EXPECT_THROW(consume(path), TraceError);
    std::remove(path.c_str());
}

TEST(CorruptTrace, ErrorsSayWhereTheyHappened) {
    Stream s = one_exit_prefix();
    s.byte('C').var(0).var(1).var(1).var(2).byte(0x05).byte(0x00).byte('E').var(1);
    s.byte('K').str("second").var(4).var(1).var(1).var(64).var(1).var(1).var(0).var(0);
    s.byte('C').var(3).var(2).var(2).var(2).byte(0x05).byte(0x00).var(2).byte(0x17).byte(0x00);   // kind 7, sub-kind 2: invalid
    const std::string path = temp_path("ztr");
    put_file(path, ztr_file(s.bytes));
    const std::string msg = consume_error(path);
    EXPECT_NE(msg.find("kernel 1 'second'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("CTA #0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("warp 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("invalid kind"), std::string::npos) << msg;
    EXPECT_NE(msg.find("stream offset"), std::string::npos) << msg;
    std::remove(path.c_str());
}

TEST(CorruptTrace, FrameAskingForAHugeWindowIsRefused) {
    // A frame header declaring a 64 MiB window: zstd's own default limit (128 MiB)
    // would accept it and reserve the memory; the reader's 16 MiB limit refuses it
    // while parsing the header, which zstd reports as needing too much memory.
    const std::string path = temp_path("ztr");
    std::vector<uint8_t> bytes(ztr::kMagic, ztr::kMagic + 8);
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(ztr::kFormatVersion >> (8 * i)));
    // zstd magic; descriptor 0x04 (content checksum, no content size, windowed);
    // window descriptor exponent 16 -> 2^(10 + 16) bytes; a last raw block of 1 byte.
    for (uint8_t b : {0x28, 0xb5, 0x2f, 0xfd, 0x04, 16 << 3, 0x09, 0x00, 0x00, 0x48}) bytes.push_back(b);
    put_file(path, bytes);
    const std::string msg = consume_error(path);
    EXPECT_NE(msg.find("too much memory"), std::string::npos) << msg;
    std::remove(path.c_str());
}

TEST(CorruptTrace, ReaderRefusesUseAfterAnError) {
    const std::string path = temp_path("ztr");
    put_file(path, ztr_file(one_exit_trace().footer(1, 1, 1, 1, 1, 1).bytes));
    auto src = open_trace(path);
    KernelInfo k;
    CtaTrace cta;
    ASSERT_TRUE(src->next_kernel(k));
    ASSERT_TRUE(src->next_cta(cta));
    ASSERT_FALSE(src->next_cta(cta));
    EXPECT_THROW(src->next_kernel(k), TraceError);   // checksum
    EXPECT_THROW(src->next_kernel(k), TraceError);   // not a silent end of trace
    std::remove(path.c_str());
}

}  // namespace
}  // namespace zng::trace
