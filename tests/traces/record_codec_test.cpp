// Record encoding: exact bytes for hand-encoded records, round trips of random records
// of every shape, and rejection of malformed bytes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/traces/trace_test_support.hpp"
#include "traces/trace.hpp"

namespace zng::trace {
namespace {

using testing::RecordGenerator;

std::vector<uint8_t> encode(const WarpRecord& r) {
    std::vector<uint8_t> out;
    encode_record(r, out);
    return out;
}

WarpRecord decode_all(const std::vector<uint8_t>& bytes) {
    WarpRecord r;
    const uint8_t* p = bytes.data();
    decode_record(p, bytes.data() + bytes.size(), r);
    EXPECT_EQ(p, bytes.data() + bytes.size()) << "decoder must consume exactly the record";
    return r;
}

void expect_malformed(const std::vector<uint8_t>& bytes) {
    WarpRecord r;
    const uint8_t* p = bytes.data();
    EXPECT_THROW(decode_record(p, bytes.data() + bytes.size(), r), TraceError);
}

TEST(RecordCodec, StridedLoadHasHandComputedBytes) {
    WarpRecord r;
    r.kind = RecordKind::Load;
    r.pc = 0x10;
    r.active_mask = kFullWarpMask;
    r.access_size = 4;
    r.strided = true;
    r.base = 0x1000;
    r.stride = 4;
    // head 0x41 = kind 1 | strided 0x40; pc 0x10; size 4; base 0x1000 = 4096 = 32 * 128
    // -> LEB128 0x80 0x20; stride zigzag(4) = 8.
    EXPECT_EQ(encode(r), (std::vector<uint8_t>{0x41, 0x10, 0x04, 0x80, 0x20, 0x08}));
    EXPECT_TRUE(equivalent(decode_all(encode(r)), r));
}

TEST(RecordCodec, ScatteredStoreHasHandComputedBytes) {
    WarpRecord r;
    r.kind = RecordKind::Store;
    r.space = MemSpace::Shared;
    r.pc = 5;
    r.active_mask = 0b101;
    r.compute = 3;
    r.access_size = 8;
    r.addr[0] = 100;
    r.addr[1] = 12345;   // inactive: not stored
    r.addr[2] = 90;
    // head = kind 2 | space 1 << 3 | partial 0x20 | compute 0x80 = 0xaa; pc 5;
    // mask 05 00 00 00; compute 3; size 8; first address 100 = 0x64; delta -10
    // zigzag -> 19 = 0x13.
    EXPECT_EQ(encode(r), (std::vector<uint8_t>{0xaa, 0x05, 0x05, 0x00, 0x00, 0x00, 0x03, 0x08, 0x64, 0x13}));
    WarpRecord d;
    d.addr[1] = 777;   // inactive lanes keep what they held
    const auto bytes = encode(r);
    const uint8_t* p = bytes.data();
    decode_record(p, bytes.data() + bytes.size(), d);
    EXPECT_EQ(d.addr[0], 100u);
    EXPECT_EQ(d.addr[1], 777u);
    EXPECT_EQ(d.addr[2], 90u);
    EXPECT_EQ(d.space, MemSpace::Shared);
}

TEST(RecordCodec, IoSubmitHasHandComputedBytes) {
    WarpRecord r;
    r.kind = RecordKind::IoSubmit;
    r.pc = 0x20;
    r.active_mask = 0b11;
    r.io_write = true;
    r.io_bytes = 4096;
    r.io_tag = 3;
    r.io_dest = 0x1000;
    r.io_dest_stride = 4096;
    r.strided = true;
    r.base = 0x200;      // storage byte offsets 512 and 512 + 8192
    r.stride = 8192;
    // head = kind 6 | write 0x08 | partial 0x20 | strided 0x40 = 0x6e; pc 0x20;
    // mask 03 00 00 00; bytes 4096 = 32 * 128 -> 0x80 0x20; tag 3; dest 0x1000 -> 0x80 0x20;
    // dest stride zigzag(4096) = 8192 = 64 * 128 -> 0x80 0x40; base 512 = 4 * 128 -> 0x80 0x04;
    // stride zigzag(8192) = 16384 = 128 * 128 -> 0x80 0x80 0x01.
    EXPECT_EQ(encode(r), (std::vector<uint8_t>{0x6e, 0x20, 0x03, 0x00, 0x00, 0x00, 0x80, 0x20, 0x03, 0x80, 0x20,
                                               0x80, 0x40, 0x80, 0x04, 0x80, 0x80, 0x01}));
    const WarpRecord d = decode_all(encode(r));
    EXPECT_TRUE(equivalent(d, r));
    EXPECT_TRUE(d.io_write);
    EXPECT_EQ(d.io_bytes, 4096u);
    EXPECT_EQ(d.lane_addr(1), 512u + 8192u);
    EXPECT_EQ(d.io_dest_of(1), 0x1000u + 4096u);
    EXPECT_EQ(d.instructions(), 1u);
    EXPECT_FALSE(d.is_memory());
    EXPECT_TRUE(d.has_lane_addresses());
}

TEST(RecordCodec, IoWaitAndPhaseHaveHandComputedBytes) {
    WarpRecord w;
    w.kind = RecordKind::IoWait;
    w.pc = 7;
    w.active_mask = kFullWarpMask;
    w.io_tag = 300;
    // head = extended kind 7 | sub-kind 0; pc 7; tag 300 = 2 * 128 + 44 -> 0xac 0x02.
    EXPECT_EQ(encode(w), (std::vector<uint8_t>{0x07, 0x07, 0xac, 0x02}));
    EXPECT_EQ(decode_all(encode(w)).io_tag, 300u);
    EXPECT_EQ(decode_all(encode(w)).kind, RecordKind::IoWait);

    WarpRecord p;
    p.kind = RecordKind::Phase;
    p.pc = 8;
    p.active_mask = kFullWarpMask;
    p.compute = 2;
    p.duration_ps = 1'000'000;   // 1 us
    // head = 7 | sub-kind 1 << 3 | compute 0x80 = 0x8f; pc 8; compute 2;
    // 1e6 = 0x0f4240 -> LEB128 0xc0 0x84 0x3d.
    EXPECT_EQ(encode(p), (std::vector<uint8_t>{0x8f, 0x08, 0x02, 0xc0, 0x84, 0x3d}));
    const WarpRecord d = decode_all(encode(p));
    EXPECT_EQ(d.kind, RecordKind::Phase);
    EXPECT_EQ(d.duration_ps, 1'000'000u);
    EXPECT_EQ(d.instructions(), 3u);
}

TEST(RecordCodec, NonMemoryRecordDropsMemoryFields) {
    WarpRecord r;
    r.kind = RecordKind::Barrier;
    r.pc = 200;
    r.active_mask = kFullWarpMask;
    r.space = MemSpace::Local;   // ignored for a barrier
    r.access_size = 8;
    r.strided = true;
    // head 0x04; pc 200 = 0xc8 0x01.
    EXPECT_EQ(encode(r), (std::vector<uint8_t>{0x04, 0xc8, 0x01}));
    const WarpRecord d = decode_all(encode(r));
    EXPECT_EQ(d.kind, RecordKind::Barrier);
    EXPECT_EQ(d.space, MemSpace::Global);
    EXPECT_EQ(d.access_size, 0);
    EXPECT_FALSE(d.strided);
}

TEST(RecordCodec, RandomRecordsRoundTripThroughOneBuffer) {
    RecordGenerator gen(42, /*io_kinds=*/true);
    std::vector<WarpRecord> records;
    std::vector<uint8_t> bytes;
    for (int i = 0; i < 50000; ++i) {
        records.push_back(gen.next());
        const size_t before = bytes.size();
        encode_record(records.back(), bytes);
        ASSERT_LE(bytes.size() - before, kMaxEncodedRecordBytes);
    }
    const uint8_t* p = bytes.data();
    const uint8_t* end = bytes.data() + bytes.size();
    WarpRecord d;
    for (size_t i = 0; i < records.size(); ++i) {
        ASSERT_LT(p, end);
        decode_record(p, end, d);
        ASSERT_TRUE(equivalent(d, records[i])) << "record " << i;
        ASSERT_EQ(d.instructions(), records[i].instructions());
    }
    EXPECT_EQ(p, end);
}

TEST(RecordCodec, EncodingIsCanonical) {
    // Re-encoding a decoded record gives the same bytes (one byte string per record).
    RecordGenerator gen(7, /*io_kinds=*/true);
    for (int i = 0; i < 5000; ++i) {
        const auto bytes = encode(gen.next());
        EXPECT_EQ(encode(decode_all(bytes)), bytes);
    }
}

TEST(RecordCodec, WorstCaseScatteredRecordSize) {
    WarpRecord r;
    r.kind = RecordKind::Load;
    r.pc = ~uint64_t(0);
    r.active_mask = kFullWarpMask;
    r.compute = UINT32_MAX;
    r.access_size = 16;
    // Alternating 0 and 2^63: every wrapping delta is -2^63, zigzag 2^64 - 1, 10 bytes.
    for (int lane = 0; lane < kWarpSize; ++lane) r.addr[lane] = lane % 2 ? 0x8000000000000000ull : 0;
    const auto bytes = encode(r);
    // head 1 + pc 10 + compute 5 + size 1 + first address 1 + 31 deltas * 10 = 328.
    EXPECT_EQ(bytes.size(), 328u);
    EXPECT_LE(bytes.size(), kMaxEncodedRecordBytes);
    EXPECT_TRUE(equivalent(decode_all(bytes), r));
}

TEST(RecordCodec, EncoderRejectsInvalidRecords) {
    std::vector<uint8_t> out;
    WarpRecord r;
    r.kind = RecordKind::Compute;
    r.compute = 0;
    EXPECT_THROW(encode_record(r, out), TraceError);
    r.kind = RecordKind::Load;
    r.access_size = 3;
    EXPECT_THROW(encode_record(r, out), TraceError);
    r.access_size = 0;
    EXPECT_THROW(encode_record(r, out), TraceError);
    r.access_size = 4;
    r.space = static_cast<MemSpace>(4);
    EXPECT_THROW(encode_record(r, out), TraceError);
    r.space = MemSpace::Global;
    r.kind = static_cast<RecordKind>(kRecordKinds);
    EXPECT_THROW(encode_record(r, out), TraceError);
    // An I/O request of 0 bytes or more than 1 GiB per lane, a phase of no time.
    r.kind = RecordKind::IoSubmit;
    r.io_bytes = 0;
    EXPECT_THROW(encode_record(r, out), TraceError);
    r.io_bytes = kMaxIoBytes + 1;
    EXPECT_THROW(encode_record(r, out), TraceError);
    r.kind = RecordKind::Phase;
    r.duration_ps = 0;
    EXPECT_THROW(encode_record(r, out), TraceError);
    r.duration_ps = kMaxPhasePs + 1;
    EXPECT_THROW(encode_record(r, out), TraceError);
    EXPECT_TRUE(out.empty()) << "a rejected record must not leave bytes behind";
}

TEST(RecordCodec, DecoderRejectsMalformedBytes) {
    // Extended kind 7 with sub-kinds 2 and 3 (bits 3-4), and with the strided flag.
    expect_malformed({0x17, 0x00, 0x00});
    expect_malformed({0x1f, 0x00, 0x00});
    expect_malformed({0x47, 0x00, 0x00});
    // I/O submission with bit 4 of the space field set; of 0 bytes; of 2^30 + 1 bytes
    // (0x81 0x80 0x80 0x80 0x04); with a tag beyond 32 bits (2^32).
    expect_malformed({0x16, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00});
    expect_malformed({0x46, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});
    expect_malformed({0x46, 0x00, 0x81, 0x80, 0x80, 0x80, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00});
    expect_malformed({0x46, 0x00, 0x01, 0x80, 0x80, 0x80, 0x80, 0x10, 0x00, 0x00, 0x00, 0x00});
    // Wait with a tag beyond 32 bits; phase of 0 ps and of 2^50 + 1 ps.
    expect_malformed({0x07, 0x00, 0x80, 0x80, 0x80, 0x80, 0x10});
    expect_malformed({0x0f, 0x00, 0x00});
    expect_malformed({0x0f, 0x00, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02});
    // Space bits on a barrier; strided flag on an exit.
    expect_malformed({0x04 | 0x08, 0x00});
    expect_malformed({0x05 | 0x40, 0x00});
    // Overlong pc: eleven bytes, and a tenth byte carrying bits beyond 64.
    expect_malformed({0x04, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00});
    expect_malformed({0x04, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02});
    // Non-shortest pc (0 written as 0x80 0x00).
    expect_malformed({0x04, 0x80, 0x00});
    // Access size 3 and 0 on a load.
    expect_malformed({0x41, 0x00, 0x03, 0x00, 0x00});
    expect_malformed({0x41, 0x00, 0x00, 0x00, 0x00});
    // Compute record without compute, and with compute 0.
    expect_malformed({0x00, 0x00});
    expect_malformed({0x80, 0x00, 0x00});
    // Compute count beyond 32 bits (2^32 = 0x80 0x80 0x80 0x80 0x10).
    expect_malformed({0x80, 0x00, 0x80, 0x80, 0x80, 0x80, 0x10});
    // Full mask stored explicitly.
    expect_malformed({0x24, 0x00, 0xff, 0xff, 0xff, 0xff});
    // Nothing at all.
    expect_malformed({});
}

TEST(RecordCodec, EveryStrictPrefixOfARecordIsRejected) {
    RecordGenerator gen(99, /*io_kinds=*/true);
    for (int i = 0; i < 300; ++i) {
        const auto bytes = encode(gen.next());
        for (size_t n = 0; n < bytes.size(); ++n)
            expect_malformed(std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<long>(n)));
    }
}

TEST(RecordCodec, RandomBytesNeverReadPastTheEnd) {
    // Any byte string either decodes within bounds or throws TraceError.
    std::mt19937_64 rng(5);
    std::vector<uint8_t> bytes;
    WarpRecord r;
    int decoded = 0;
    for (int i = 0; i < 20000; ++i) {
        bytes.resize(1 + rng() % 24);
        for (auto& b : bytes) b = static_cast<uint8_t>(rng());
        const uint8_t* p = bytes.data();
        const uint8_t* end = bytes.data() + bytes.size();
        try {
            decode_record(p, end, r);
            ASSERT_GT(p, bytes.data());
            ASSERT_LE(p, end);
            ++decoded;
        } catch (const TraceError&) {
        }
    }
    EXPECT_GT(decoded, 0) << "some random strings are valid records";
}

// What decoding `bytes` with `decode` gives: the error message, or the bytes consumed
// and the record.
template <void (*Decode)(const uint8_t*&, const uint8_t*, WarpRecord&)>
std::pair<std::string, long> outcome(const std::vector<uint8_t>& bytes, WarpRecord& r) {
    const uint8_t* p = bytes.data();
    try {
        Decode(p, bytes.data() + bytes.size(), r);
    } catch (const TraceError& e) {
        return {e.what(), -1};
    }
    return {"", p - bytes.data()};
}

TEST(RecordCodec, CheckRecordFailsAsDecodeRecordDoes) {
    // The scattered store of ScatteredStoreHasHandComputedBytes, lanes 0 and 2 (address
    // 100, then delta -10 -> 0x13), cut inside the delta: both name the delta.
    const std::vector<uint8_t> store{0xaa, 0x05, 0x05, 0x00, 0x00, 0x00, 0x03, 0x08, 0x64, 0x13};
    const std::vector<uint8_t> cut(store.begin(), store.end() - 1);
    WarpRecord a, b;
    EXPECT_EQ(outcome<check_record>(cut, a).first, "malformed record: ends inside lane address delta");
    EXPECT_EQ(outcome<decode_record>(cut, b).first, "malformed record: ends inside lane address delta");
    // The first address written non-shortest (100 as 0xe4 0x00): overlong, for both.
    std::vector<uint8_t> overlong(store.begin(), store.begin() + 8);
    overlong.insert(overlong.end(), {0xe4, 0x00, 0x13});
    EXPECT_EQ(outcome<check_record>(overlong, a).first, "malformed record: overlong varint in lane address");
    EXPECT_EQ(outcome<decode_record>(overlong, b).first, "malformed record: overlong varint in lane address");
    // Whole: both consume the 10 bytes and agree on every field but the addresses.
    EXPECT_EQ(outcome<check_record>(store, a), (std::pair<std::string, long>{"", 10}));
    EXPECT_EQ(outcome<decode_record>(store, b), (std::pair<std::string, long>{"", 10}));
    EXPECT_EQ(a.kind, RecordKind::Store);
    EXPECT_EQ(a.pc, 5u);
    EXPECT_EQ(a.active_mask, 0b101u);
    EXPECT_EQ(a.compute, 3u);
    EXPECT_EQ(a.access_size, 8u);
}

TEST(RecordCodec, CheckRecordAgreesWithDecodeRecordOnRandomBytes) {
    // Random byte strings and random valid records with a byte changed: the same error
    // message or the same length and instruction count from both.
    std::mt19937_64 rng(11);
    RecordGenerator gen(12);
    std::vector<uint8_t> bytes;
    int valid = 0;
    for (int i = 0; i < 20000; ++i) {
        if (i % 2) {
            bytes.resize(1 + rng() % 24);
            for (auto& x : bytes) x = static_cast<uint8_t>(rng());
        } else {
            bytes = encode(gen.next());
            if (i % 4) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
        }
        WarpRecord a, b;
        const auto checked = outcome<check_record>(bytes, a);
        ASSERT_EQ(checked, outcome<decode_record>(bytes, b)) << i;
        if (checked.second < 0) continue;
        ++valid;
        EXPECT_EQ(a.kind, b.kind);
        EXPECT_EQ(a.pc, b.pc);
        EXPECT_EQ(a.instructions(), b.instructions());
    }
    EXPECT_GT(valid, 5000) << "most of the unchanged records decode";
}

TEST(RecordCodec, EquivalentIgnoresFieldsThatAreNotStored) {
    WarpRecord a;
    a.kind = RecordKind::Load;
    a.access_size = 4;
    a.active_mask = 0b11;
    a.addr[0] = 1;
    a.addr[1] = 2;
    WarpRecord b = a;
    b.addr[5] = 77;   // inactive lane
    EXPECT_TRUE(equivalent(a, b));
    b.addr[1] = 3;
    EXPECT_FALSE(equivalent(a, b));
    WarpRecord e1, e2;
    e1.kind = e2.kind = RecordKind::Exit;
    e2.access_size = 8;
    EXPECT_TRUE(equivalent(e1, e2));
    e2.compute = 1;
    EXPECT_FALSE(equivalent(e1, e2));
}

TEST(RecordCodec, KindAndSpaceNames) {
    EXPECT_STREQ(to_string(RecordKind::Atomic), "atomic");
    EXPECT_STREQ(to_string(RecordKind::Exit), "exit");
    EXPECT_STREQ(to_string(MemSpace::Constant), "constant");
    EXPECT_STREQ(to_string(static_cast<RecordKind>(9)), "invalid-kind");
}

}  // namespace
}  // namespace zng::trace
