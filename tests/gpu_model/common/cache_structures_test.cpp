// Tag array LRU order and MSHR merging bounds.
#include <gtest/gtest.h>

#include "gpu_model/common/mshr_table.hpp"
#include "gpu_model/common/tag_array.hpp"

namespace zng::gpu {
namespace {

TEST(TagArray, EvictsLeastRecentlyUsedInOrder) {
    TagArray t(1, 4);
    // Fill ways 0..3 with tags 10..13 (invalid ways are taken lowest first).
    for (uint64_t tag = 10; tag < 14; ++tag) t.install(0, t.victim(0), tag);
    EXPECT_EQ(t.find(0, 10), 0);
    EXPECT_EQ(t.find(0, 13), 3);
    // Use order now 10, 11, 12, 13; touching 10 and 12 makes it 11, 13, 10, 12.
    t.touch(0, static_cast<uint32_t>(t.find(0, 10)));
    t.touch(0, static_cast<uint32_t>(t.find(0, 12)));
    std::vector<uint64_t> evicted;
    for (uint64_t tag = 20; tag < 24; ++tag) {
        uint32_t v = t.victim(0);
        evicted.push_back(t.at(0, v).tag);
        t.install(0, v, tag);
    }
    EXPECT_EQ(evicted, (std::vector<uint64_t>{11, 13, 10, 12}));
}

TEST(TagArray, SetOfIsTheIndexModuloTheSetCount) {
    // 64 sets: 1000 = 15 x 64 + 40 -> 40; 0xffff'ffff'ffff'ffff mod 64 = 63.
    TagArray pow2(64, 2);
    EXPECT_EQ(pow2.set_of(1000), 40u);
    EXPECT_EQ(pow2.set_of(~0ull), 63u);
    // 3 sets: 1000 = 333 x 3 + 1 -> 1 (the low two bits, 0b00, would say 0);
    // 2^64 - 1 = 3 x 6148914691236517205 -> 0.
    TagArray three(3, 2);
    EXPECT_EQ(three.set_of(1000), 1u);
    EXPECT_EQ(three.set_of(~0ull), 0u);
    // One set: everything in set 0.
    TagArray one(1, 4);
    EXPECT_EQ(one.set_of(12345), 0u);
}

TEST(TagArray, VictimRespectsAllowedWays) {
    TagArray t(2, 4);
    for (uint64_t tag = 0; tag < 4; ++tag) t.install(1, t.victim(1), tag);
    // Way 0 is the LRU, but only ways 2 and 3 are allowed: way 2 (older of the two).
    EXPECT_EQ(t.victim(1, 0b1100), 2u);
    EXPECT_THROW(t.victim(1, 0), SimError);
    // Set 0 untouched: its first invalid way.
    EXPECT_EQ(t.victim(0), 0u);
}

TEST(TagArray, InvalidatedWayIsMissedAndRefilledFirst) {
    // 3 sets x 6 ways: a set block is 12 words, padded to 16; sets stay apart.
    TagArray t(3, 6);
    for (uint32_t s = 0; s < 3; ++s)
        for (uint64_t w = 0; w < 6; ++w) t.install(s, t.victim(s), 100 * s + w);
    EXPECT_EQ(t.valid_lines(), 18u);
    EXPECT_EQ(t.find(1, 104), 4);
    EXPECT_EQ(t.find(2, 104), TagArray::kMiss);  // tag 104 lives in set 1 only
    t.invalidate(1, 4);
    EXPECT_EQ(t.find(1, 104), TagArray::kMiss);
    EXPECT_FALSE(t.at(1, 4).valid);
    EXPECT_EQ(t.valid_lines(), 17u);
    // Way 0 is the LRU of set 1, but the invalid way 4 is taken first.
    EXPECT_EQ(t.victim(1), 4u);
    // Only ways 0..3 allowed: the LRU among them, way 0 (installed first).
    EXPECT_EQ(t.victim(1, 0b1111), 0u);
    // The key of an invalid way is no tag: looking it up misses, installing it is refused.
    EXPECT_EQ(t.find(1, TagArray::kNoKey), TagArray::kMiss);
    EXPECT_THROW(t.install(1, 4, TagArray::kNoKey), SimError);
    TagLine& l = t.install(1, 4, 777);
    EXPECT_TRUE(l.valid);
    EXPECT_EQ(l.tag, 777u);
    EXPECT_EQ(t.find(1, 777), 4);
    // Installed last, way 4 is now the MRU: the LRU of set 1 is way 0 (tag 100).
    EXPECT_EQ(t.victim(1), 0u);
}

TEST(TagArray, LowestInvalidWayWinsWhateverItsLastUse) {
    // 1 set x 4 ways, tags 10..13 installed in ways 0..3 (stamps 1..4), then way 3 and
    // way 1 touched (stamps 5, 6): LRU order 0, 2, 3, 1.
    TagArray t(1, 4);
    for (uint64_t tag = 10; tag < 14; ++tag) t.install(0, t.victim(0), tag);
    t.touch(0, 3);
    t.touch(0, 1);
    EXPECT_EQ(t.victim(0), 0u);
    // The two most recently used ways become invalid: the lower one, way 1, is taken
    // before the LRU way 0 and before the other invalid way 3.
    t.invalidate(0, 3);
    t.invalidate(0, 1);
    EXPECT_EQ(t.victim(0), 1u);
    // Ways 0 and 2 allowed, both valid: the older, way 0 (stamp 1 against 3).
    EXPECT_EQ(t.victim(0, 0b0101), 0u);
    // Ways 2 and 3 allowed: the invalid way 3 before the valid way 2.
    EXPECT_EQ(t.victim(0, 0b1100), 3u);
    // Way 1 refilled (stamp 7): the lowest invalid way is now 3.
    t.install(0, 1, 20);
    EXPECT_EQ(t.victim(0), 3u);
}

TEST(MshrTable, ReleaseInsideAProbeRunKeepsTheRestFound) {
    // 4 entries: an index of 16 slots, home = top 4 bits of key x 0x9e3779b97f4a7c15.
    // Homes worked out by hand: keys 9, 17, 30 -> 8; key 1 -> 9; keys 8, 21 -> 15.
    MshrTable m(4, 1);
    const int e9 = m.allocate(9);    // slot 8
    const int e17 = m.allocate(17);  // slot 9
    const int e30 = m.allocate(30);  // slot 10
    const int e1 = m.allocate(1);    // home 9, slot 11
    // Releasing 17 empties slot 9: 30 (home 8) and then 1 (home 9) shift back one slot.
    m.release(e17);
    EXPECT_EQ(m.find(17), MshrTable::kNone);
    EXPECT_EQ(m.find(9), e9);
    EXPECT_EQ(m.find(30), e30);
    EXPECT_EQ(m.find(1), e1);
    // Releasing 9 (slot 8): 30 moves to 8, 1 to 9.
    m.release(e9);
    EXPECT_EQ(m.find(9), MshrTable::kNone);
    EXPECT_EQ(m.find(30), e30);
    EXPECT_EQ(m.find(1), e1);
    // A run that wraps: 8 takes slot 15, 21 (home 15) slot 0. Releasing 8 moves 21 back
    // to slot 15, across the end of the index.
    const int e8 = m.allocate(8);
    const int e21 = m.allocate(21);
    EXPECT_TRUE(m.full());
    m.release(e8);
    EXPECT_EQ(m.find(8), MshrTable::kNone);
    EXPECT_EQ(m.find(21), e21);
    EXPECT_EQ(m.find(30), e30);
    EXPECT_EQ(m.find(1), e1);
    EXPECT_EQ(m.in_use(), 3u);
}

TEST(MshrTable, MergesUpToTheLimitAndReleases) {
    MshrTable m(2, 3);
    MemRequest a, b, c, d;
    int e = m.allocate(0x40);
    m.add_waiter(e, &a);
    m.add_waiter(e, &b);
    m.add_waiter(e, &c);
    EXPECT_FALSE(m.can_merge(e));
    EXPECT_THROW(m.add_waiter(e, &d), SimError);
    EXPECT_EQ(m.find(0x40), e);
    EXPECT_EQ(m.waiter(e, 2), &c);
    int f = m.allocate(0x80);
    EXPECT_TRUE(m.full());
    m.release(e);
    EXPECT_EQ(m.find(0x40), MshrTable::kNone);
    EXPECT_EQ(m.find(0x80), f);
    EXPECT_EQ(m.in_use(), 1u);
}

}  // namespace
}  // namespace zng::gpu
