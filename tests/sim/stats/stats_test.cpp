#include "sim/stats/stats.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace zng {
namespace {

TEST(Stats, HierarchicalJson) {
    StatRegistry r;
    StatGroup l2(r, "l2");
    Counter& hits = l2.sub("bank3").counter("hits", "hits", "accesses");
    Counter& misses = l2.sub("bank3").counter("misses", "misses", "accesses");
    hits += 30;
    ++misses;
    l2.formula("hit_rate", "hits / accesses", "ratio", [&] {
        return static_cast<double>(hits.get()) / static_cast<double>(hits.get() + misses.get());
    });
    auto j = r.to_json();
    EXPECT_EQ(j["l2"]["bank3"]["hits"], 30);
    EXPECT_EQ(j["l2"]["bank3"]["misses"], 1);
    EXPECT_DOUBLE_EQ(j["l2"]["hit_rate"].get<double>(), 30.0 / 31.0);
    EXPECT_DOUBLE_EQ(r.value("l2.bank3.hits"), 30.0);
    EXPECT_THROW(r.counter("l2.bank3.hits", "dup", "accesses"), std::logic_error);
}

// Groups keep the order in which their first statistic was registered, however the
// registrations of different groups interleave, and a value and a group of the same name
// take turns as the later registration decides. The text is written out by hand.
TEST(Stats, JsonTreeOrderWithInterleavedGroupsAndSharedNames) {
    StatRegistry r;
    r.counter("a.x.p", "d", "u") += 1;
    r.counter("b.y", "d", "u") += 2;
    r.counter("a.x.q", "d", "u") += 3;
    r.counter("a.z", "d", "u") += 4;
    r.counter("b.w.v", "d", "u") += 5;
    r.counter("a.x.r.s", "d", "u") += 6;
    r.counter("c", "d", "u") += 7;
    r.counter("c.d", "d", "u") += 8;    // the group replaces the value "c"
    r.counter("e.f", "d", "u") += 9;
    r.counter("e", "d", "u") += 10;     // the value replaces the group "e"
    r.counter("a.x.t", "d", "u") += 11;
    EXPECT_EQ(r.to_json().dump(),
              R"({"a":{"x":{"p":1,"q":3,"r":{"s":6},"t":11},"z":4},"b":{"y":2,"w":{"v":5}},"c":{"d":8},"e":10})");
}

TEST(Stats, AverageAndHistogram) {
    StatRegistry r;
    Average& a = r.average("lat", "latency", "ns");
    a.sample(10);
    a.sample(20, 3);  // weight 3
    EXPECT_DOUBLE_EQ(a.mean(), 70.0 / 4.0);
    Histogram& h = r.histogram("h", "linear", "ns", 10, 3);
    for (uint64_t x : {0, 9, 10, 25, 31, 1000}) h.sample(x);
    // Buckets [0,10) [10,20) [20,30) and overflow >= 30.
    EXPECT_EQ(h.buckets(), (std::vector<uint64_t>{2, 1, 1, 2}));
    Histogram& g = r.histogram("g", "log2", "ns", 1, 8, true);
    for (uint64_t x : {0, 1, 2, 3, 4, 7, 8}) g.sample(x);
    // [0,1) [1,2) [2,4) [4,8) [8,16) ...
    EXPECT_EQ(g.buckets()[0], 1u);
    EXPECT_EQ(g.buckets()[1], 1u);
    EXPECT_EQ(g.buckets()[2], 2u);
    EXPECT_EQ(g.buckets()[3], 2u);
    EXPECT_EQ(g.buckets()[4], 1u);
    auto j = r.to_json();
    EXPECT_EQ(j["h"]["count"], 6);
    EXPECT_EQ(j["h"]["buckets"].size(), 4u);
    EXPECT_TRUE(j["lat"]["min"] == 10.0);
}

// stats.meta.json documents every value: a statistic without a unit or a description is
// refused where it is registered, and the meta lists kind, unit and description by name.
TEST(Stats, MetaJsonAndUndocumentedStatisticsRefused) {
    StatRegistry r;
    r.counter("l2.hits", "read hits", "accesses");
    r.average("l2.latency", "arrival to response", "ns");
    EXPECT_THROW(r.counter("l2.misses", "read misses", ""), std::logic_error);
    EXPECT_THROW(r.formula("l2.rate", "", "ratio", [] { return 0.0; }), std::logic_error);
    EXPECT_EQ(r.find("l2.misses"), nullptr);
    auto m = r.meta_json();
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m.begin().key(), "l2.hits");  // registration order
    EXPECT_EQ(m["l2.hits"]["kind"], "counter");
    EXPECT_EQ(m["l2.hits"]["unit"], "accesses");
    EXPECT_EQ(m["l2.hits"]["description"], "read hits");
    EXPECT_EQ(m["l2.latency"]["kind"], "average");
    EXPECT_EQ(m["l2.latency"]["unit"], "ns");
}

}  // namespace
}  // namespace zng
