#include "traces/workloads/workload_registry.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace zng::workloads {
namespace {

TEST(WorkloadOptions, ValidationNamesTheKey) {
    WorkloadOptions o;
    EXPECT_NO_THROW(validate_options(o));
    o.preset = "huge";
    try {
        validate_options(o);
        FAIL() << "bad preset accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("preset"), std::string::npos);
    }
    o = WorkloadOptions{};
    o.scale = -1;
    EXPECT_THROW(validate_options(o), std::invalid_argument);
    o = WorkloadOptions{};
    o.max_launches = -2;
    EXPECT_THROW(validate_options(o), std::invalid_argument);
}

TEST(WorkloadRegistry, UnknownNameListsValidOnes) {
    WorkloadRegistry r;
    r.add(WorkloadInfo{"zeta", "S", "d", 0.5, 1, {}}, [](WorkloadContext&) {});
    r.add(WorkloadInfo{"alpha", "S", "d", 0.5, 1, {}}, [](WorkloadContext&) {});
    EXPECT_THROW(r.add(WorkloadInfo{"alpha", "S", "d", 0.5, 1, {}}, [](WorkloadContext&) {}), std::invalid_argument);
    EXPECT_EQ(r.names(), "alpha, zeta");
    try {
        r.get("nope");
        FAIL() << "unknown name accepted";
    } catch (const std::invalid_argument& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("nope"), std::string::npos);
        EXPECT_NE(msg.find("alpha, zeta"), std::string::npos);
    }
    EXPECT_THROW(generate_workload("no-such-workload", WorkloadOptions{}, "/nonexistent/x.ztr"),
                 std::invalid_argument);
}

TEST(WorkloadRegistry, BuiltinCatalogueHasTheDenseWorkloads) {
    for (const char* name : {"back", "gaus", "FDT", "gram"})
        EXPECT_NE(builtin_workloads().find(name), nullptr) << name;
}

TEST(WorkloadCache, KeyDependsOnEveryOption) {
    WorkloadOptions o;
    const std::string k = workload_cache_key("back", o);
    EXPECT_EQ(k.size(), 16u);
    EXPECT_EQ(k, workload_cache_key("back", o));   // deterministic
    EXPECT_NE(k, workload_cache_key("gaus", o));
    auto differs = [&](auto mutate) {
        WorkloadOptions m;
        mutate(m);
        return workload_cache_key("back", m) != k;
    };
    EXPECT_TRUE(differs([](WorkloadOptions& m) { m.preset = "paper"; }));
    EXPECT_TRUE(differs([](WorkloadOptions& m) { m.scale = 3; }));
    EXPECT_TRUE(differs([](WorkloadOptions& m) { m.edge_factor = 3; }));
    EXPECT_TRUE(differs([](WorkloadOptions& m) { m.seed = 2; }));
    EXPECT_TRUE(differs([](WorkloadOptions& m) { m.skip_init = true; }));
    EXPECT_TRUE(differs([](WorkloadOptions& m) { m.max_launches = 0; }));
    WorkloadOptions missing;
    missing.input = "/nonexistent/graph.el";
    EXPECT_THROW(workload_cache_key("back", missing), std::invalid_argument);
}

// FNV-1a 64 written out here (offset basis 0xcbf29ce484222325, prime 0x100000001b3), to
// check the key hashes the whole canonical text without calling the registry's copy.
std::string fnv1a_hex(const std::string& s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return hex;
}

TEST(WorkloadCache, KeyCoversTheDigestOfTheTraceSources) {
    // The published FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c: the test's hash is the real one.
    EXPECT_EQ(fnv1a_hex("a"), "af63dc4c8601ec8c");

    // SHA-256 in hex: 64 lowercase hex digits (its value is checked against the sources
    // by the TraceSourcesDigest test, which recomputes it in Python).
    const std::string digest = trace_sources_digest();
    ASSERT_EQ(digest.size(), 64u);
    EXPECT_EQ(digest.find_first_not_of("0123456789abcdef"), std::string::npos) << digest;

    const WorkloadOptions o;
    const std::string text = workload_cache_text("back", o);
    EXPECT_NE(text.find("\nsources=" + digest + "\n"), std::string::npos) << text;
    EXPECT_EQ(workload_cache_key("back", o), fnv1a_hex(text));
    // Another build's sources (another digest) would give another key for the same options.
    std::string other = text;
    other.replace(other.find(digest), digest.size(), std::string(64, '0'));
    EXPECT_NE(fnv1a_hex(other), workload_cache_key("back", o));
}

}  // namespace
}  // namespace zng::workloads
