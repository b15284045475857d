#include "sim/stats/stats.hpp"

#include <gtest/gtest.h>

namespace zng {
namespace {

TEST(Stats, HierarchicalJson) {
    StatRegistry r;
    StatGroup l2(r, "l2");
    Counter& hits = l2.sub("bank3").counter("hits", "hits");
    Counter& misses = l2.sub("bank3").counter("misses", "misses");
    hits += 30;
    ++misses;
    l2.formula("hit_rate", "hits / accesses", "", [&] {
        return static_cast<double>(hits.get()) / static_cast<double>(hits.get() + misses.get());
    });
    auto j = r.to_json();
    EXPECT_EQ(j["l2"]["bank3"]["hits"], 30);
    EXPECT_EQ(j["l2"]["bank3"]["misses"], 1);
    EXPECT_DOUBLE_EQ(j["l2"]["hit_rate"].get<double>(), 30.0 / 31.0);
    EXPECT_DOUBLE_EQ(r.value("l2.bank3.hits"), 30.0);
    EXPECT_THROW(r.counter("l2.bank3.hits", "dup"), std::logic_error);
}

TEST(Stats, AverageAndHistogram) {
    StatRegistry r;
    Average& a = r.average("lat", "latency", "ns");
    a.sample(10);
    a.sample(20, 3);  // weight 3
    EXPECT_DOUBLE_EQ(a.mean(), 70.0 / 4.0);
    Histogram& h = r.histogram("h", "linear", "", 10, 3);
    for (uint64_t x : {0, 9, 10, 25, 31, 1000}) h.sample(x);
    // Buckets [0,10) [10,20) [20,30) and overflow >= 30.
    EXPECT_EQ(h.buckets(), (std::vector<uint64_t>{2, 1, 1, 2}));
    Histogram& g = r.histogram("g", "log2", "", 1, 8, true);
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

}  // namespace
}  // namespace zng
