#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/config/config_node.hpp"
#include "sim/config/params.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/errors.hpp"
#include "support/scratch_path.hpp"

namespace zng {
namespace {

const std::string kData = ZNG_TEST_DATA_DIR;

ComponentSchema cache_schema() {
    ComponentSchema s;
    s.slot = "cache";
    s.name = "test_cache";
    s.description = "a cache for tests";
    s.params = {
        {"size", ParamType::Size, "1MiB", "capacity"},
        {"ways", ParamType::UInt, "4", "associativity", 1, 64},
        {"latency", ParamType::Time, "2ns", "hit latency"},
        {"policy", "lru", {"lru", "fifo"}, "replacement"},
        {"clock", ParamType::Frequency, "1GHz", "clock"},
        {"bw", ParamType::Bandwidth, "16GB/s", "bandwidth"},
        {"rate", ParamType::Rate, "800MT/s", "interface rate"},
        {"ratio", ParamType::Real, "0.5", "a ratio", 0.0, 1.0},
        {"enabled", ParamType::Bool, "true", "on/off"},
    };
    return s;
}

// Returns the message of the ConfigError thrown by f (or fails the test).
template <class F>
std::string config_error(F f) {
    try {
        f();
    } catch (const ConfigError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no ConfigError thrown";
    return "";
}

TEST(Config, IncludeMergesAndIncludingFileWins) {
    ConfigNode root = load_config_file(kData + "/platform.yaml");
    const ConfigNode* cache = root.find("cache");
    ASSERT_NE(cache, nullptr);
    auto schema = cache_schema();
    Params p(cache, schema, "cache");
    EXPECT_EQ(p.size("size"), 6u << 20);    // from the fragment
    EXPECT_EQ(p.u64("ways"), 16u);          // overridden by the including file
    EXPECT_EQ(p.time("latency"), 1000u);    // from the fragment
    EXPECT_EQ(p.str("policy"), "lru");
    EXPECT_EQ(p.frequency("clock"), 1'000'000'000u);  // default
    // Where each value came from is remembered: ways at platform.yaml line 3.
    EXPECT_NE(p.where("ways").find("platform.yaml:3"), std::string::npos) << p.where("ways");
    EXPECT_NE(p.where("size").find("base_fragment.yaml:3"), std::string::npos) << p.where("size");
}

TEST(Config, IncludeInsideASectionMergesIntoThatSection) {
    ConfigNode root = load_config_file(kData + "/nested.yaml");
    auto schema = cache_schema();
    Params p(root.find("cache"), schema, "cache");
    EXPECT_EQ(p.size("size"), 2u << 20);  // from the fragment
    EXPECT_EQ(p.u64("ways"), 2u);         // the section's own key wins
    EXPECT_EQ(p.time("latency"), 3000u);
    EXPECT_NE(p.where("size").find("cache_fragment.yaml:2"), std::string::npos) << p.where("size");
    EXPECT_EQ(root.find("cache")->find("include"), nullptr);
}

TEST(Config, TypoedKeyFailsWithItsLineNumber) {
    ConfigNode root = load_config_file(kData + "/typo.yaml");
    auto schema = cache_schema();
    std::string msg = config_error([&] { Params p(root.find("cache"), schema, "cache"); });
    EXPECT_NE(msg.find("typo.yaml:3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("unknown key 'wyas'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("ways"), std::string::npos) << msg;  // lists the known keys
}

TEST(Config, WrongTypeAndOutOfRangeNameFileLineKey) {
    auto schema = cache_schema();
    ConfigNode a = parse_config_text("cache:\n  ways: eight\n", "a.yaml");
    std::string m1 = config_error([&] { Params p(a.find("cache"), schema, "cache"); });
    EXPECT_NE(m1.find("a.yaml:2"), std::string::npos) << m1;
    EXPECT_NE(m1.find("cache.ways"), std::string::npos) << m1;

    ConfigNode b = parse_config_text("cache:\n  size: 1MiB\n  ways: 128\n", "b.yaml");
    std::string m2 = config_error([&] { Params p(b.find("cache"), schema, "cache"); });
    EXPECT_NE(m2.find("b.yaml:3"), std::string::npos) << m2;
    EXPECT_NE(m2.find("out of range"), std::string::npos) << m2;

    ConfigNode c = parse_config_text("cache:\n  latency: 3 parsecs\n", "c.yaml");
    std::string m3 = config_error([&] { Params p(c.find("cache"), schema, "cache"); });
    EXPECT_NE(m3.find("c.yaml:2"), std::string::npos) << m3;
    EXPECT_NE(m3.find("unit 'parsecs' unknown"), std::string::npos) << m3;

    ConfigNode d = parse_config_text("cache:\n  policy: random\n", "d.yaml");
    std::string m4 = config_error([&] { Params p(d.find("cache"), schema, "cache"); });
    EXPECT_NE(m4.find("not one of: lru, fifo"), std::string::npos) << m4;

    ConfigNode e = parse_config_text("cache:\n  ratio: 1.5\n", "e.yaml");
    EXPECT_THROW(Params(e.find("cache"), schema, "cache"), ConfigError);
    ConfigNode f = parse_config_text("cache:\n  enabled: maybe\n", "f.yaml");
    EXPECT_THROW(Params(f.find("cache"), schema, "cache"), ConfigError);
    ConfigNode g = parse_config_text("cache:\n  size: [1, 2]\n", "g.yaml");
    EXPECT_THROW(Params(g.find("cache"), schema, "cache"), ConfigError);
}

TEST(Config, CommandLineOverride) {
    ConfigNode root = load_config_file(kData + "/platform.yaml");
    apply_override(root, "cache.size=24MiB");
    apply_override(root, "cache.latency=5ns");
    apply_override(root, "new.section.key=7");
    auto schema = cache_schema();
    Params p(root.find("cache"), schema, "cache");
    EXPECT_EQ(p.size("size"), 24u << 20);
    EXPECT_EQ(p.time("latency"), 5000u);
    EXPECT_EQ(p.u64("ways"), 16u);
    ASSERT_NE(root.find_path("new.section.key"), nullptr);
    EXPECT_EQ(root.find_path("new.section.key")->scalar(), "7");
    EXPECT_NE(p.where("size").find("--set cache.size=24MiB"), std::string::npos) << p.where("size");
    // "~" removes a key: it takes its default again.
    apply_override(root, "cache.latency=~");
    Params q(root.find("cache"), schema, "cache");
    EXPECT_EQ(q.time("latency"), 2000u);  // the schema default
    EXPECT_FALSE(q.has("latency"));
    // Overriding into a value is an error, as is a malformed assignment.
    EXPECT_THROW(apply_override(root, "cache.size.x=1"), ConfigError);
    EXPECT_THROW(apply_override(root, "cache.size"), ConfigError);
    EXPECT_THROW(apply_override(root, "=3"), ConfigError);
}

// stats.json carries the resolved config with the types YAML gives its values: a plain
// number is a number, a plain bool a bool, a quoted value and a value with a unit a string.
TEST(Config, JsonKeepsYamlTypes) {
    ConfigNode root = parse_config_text(
        "a:\n  ways: 16\n  neg: -3\n  ratio: 0.25\n  exp: 1e3\n  on: true\n  off: False\n  size: 24MiB\n"
        "  quoted: \"16\"\n  single: '0.5'\n  name: zng\n  huge: 99999999999999999999\n  list: [1, x]\n",
        "types.yaml");
    apply_override(root, "a.set=8");
    apply_override(root, "a.set_quoted='8'");
    const nlohmann::ordered_json j = root.to_json()["a"];
    EXPECT_EQ(j["ways"], 16);
    EXPECT_TRUE(j["ways"].is_number_integer());
    EXPECT_EQ(j["neg"], -3);
    EXPECT_DOUBLE_EQ(j["ratio"].get<double>(), 0.25);
    EXPECT_DOUBLE_EQ(j["exp"].get<double>(), 1000.0);
    EXPECT_EQ(j["on"], true);
    EXPECT_EQ(j["off"], false);
    EXPECT_EQ(j["size"], "24MiB");
    EXPECT_EQ(j["quoted"], "16");
    EXPECT_EQ(j["single"], "0.5");
    EXPECT_EQ(j["name"], "zng");
    EXPECT_EQ(j["huge"], "99999999999999999999");  // 2^64 is about 1.8e19: kept exact as text
    EXPECT_EQ(j["list"], nlohmann::ordered_json::parse(R"([1, "x"])"));
    EXPECT_EQ(j["set"], 8);
    EXPECT_EQ(j["set_quoted"], "8");
    // `config show` writes a quoted value back quoted, so that it stays a string.
    EXPECT_NE(root.to_yaml().find("quoted: \"16\""), std::string::npos) << root.to_yaml();
}

// A Param is declared once (key, kind, default, range, description): the schema takes
// its spec and the reader reads through it, with the kind's unit and C++ type.
TEST(Config, DeclaredParamIsTheSchemaEntryAndTheReader) {
    using namespace param_kind;
    const auto ways = Param<UInt32>("ways", "8", "associativity").range(1, 64);
    const Param<Time> latency{"latency", "2ns", "hit latency"};
    const auto policy = Param<Choice>("policy", "lru", "replacement").choices({"lru", "fifo"});
    const Param<Bool> enabled{"enabled", "true", "on/off"};
    ComponentSchema s;
    s.slot = "cache";
    s.name = "declared";
    s.params = {ways, latency, policy, enabled};
    ASSERT_NE(s.find("ways"), nullptr);
    EXPECT_EQ(s.find("ways")->type, ParamType::UInt);
    EXPECT_EQ(s.find("ways")->max, 64.0);
    EXPECT_EQ(s.find("policy")->choices, (std::vector<std::string>{"lru", "fifo"}));
    ConfigNode root = parse_config_text("cache:\n  ways: 16\n  latency: 3us\n", "declared.yaml");
    Params p(root.find("cache"), s, "cache");
    const uint32_t w = p[ways];
    EXPECT_EQ(w, 16u);
    EXPECT_EQ(p[latency], 3'000'000u);  // 3 us = 3e6 ps
    EXPECT_EQ(p[policy], "lru");        // the default
    EXPECT_TRUE(p[enabled]);
    ConfigNode bad = parse_config_text("cache:\n  ways: 65\n", "declared.yaml");
    const std::string e = config_error([&] { Params q(bad.find("cache"), s, "cache"); });
    EXPECT_NE(e.find("declared.yaml:2"), std::string::npos) << e;
    EXPECT_NE(e.find("ways"), std::string::npos) << e;
}

TEST(Config, IncludeCycleAndMissingFileAndSyntaxError) {
    std::string m1 = config_error([&] { load_config_file(kData + "/cycle_a.yaml"); });
    EXPECT_NE(m1.find("include cycle"), std::string::npos) << m1;
    std::string m2 = config_error([&] { load_config_file(kData + "/does_not_exist.yaml"); });
    EXPECT_NE(m2.find("cannot open"), std::string::npos) << m2;
    std::string m3 = config_error([&] { parse_config_text("a:\n  b: [1, 2\n", "bad.yaml"); });
    EXPECT_NE(m3.find("bad.yaml:"), std::string::npos) << m3;
    std::string m4 = config_error([&] { parse_config_text("a: 1\na: 2\n", "dup.yaml"); });
    EXPECT_NE(m4.find("dup.yaml:2"), std::string::npos) << m4;
}

TEST(Config, IncludeCycleNamesTheChain) {
    // cycle_a.yaml includes cycle_b.yaml, which includes cycle_a.yaml.
    std::string m = config_error([&] { load_config_file(kData + "/cycle_a.yaml"); });
    const size_t a = m.find("cycle_a.yaml -> "), b = m.find("cycle_b.yaml -> ");
    ASSERT_NE(a, std::string::npos) << m;
    ASSERT_NE(b, std::string::npos) << m;
    EXPECT_LT(a, b) << m;
}

TEST(Config, DirectoriesAndEmptyConfigsAreRefused) {
    std::string dir = config_error([&] { load_config_file(kData); });
    EXPECT_NE(dir.find("is a directory"), std::string::npos) << dir;
    const std::filesystem::path tmp = zng::test::scratch_path("zng-config-test");
    std::filesystem::create_directories(tmp);
    std::ofstream(tmp / "includes_dir.yaml") << "# a platform\ninclude: " << kData << "\n";
    std::string inc = config_error([&] { load_config_file((tmp / "includes_dir.yaml").string()); });
    EXPECT_NE(inc.find("includes_dir.yaml:2"), std::string::npos) << inc;
    EXPECT_NE(inc.find("is a directory"), std::string::npos) << inc;
    std::ofstream(tmp / "empty.yaml") << "# nothing but a comment\n";
    std::string empty = config_error([&] { load_config_file((tmp / "empty.yaml").string()); });
    EXPECT_NE(empty.find("the config is empty"), std::string::npos) << empty;
    std::filesystem::remove_all(tmp);
}

TEST(Config, IncludeNameTheFileSystemCannotLookUpIsAConfigError) {
    // A file name of 300 bytes is past Linux's NAME_MAX (255): looking it up fails with
    // ENAMETOOLONG, which must be reported at the include's line, not escape as a
    // std::filesystem::filesystem_error (found by fuzz/fuzz_config).
    const std::filesystem::path tmp = zng::test::scratch_path("zng-config-test");
    std::filesystem::create_directories(tmp);
    std::ofstream(tmp / "long_include.yaml") << "# a platform\nplatform:\n  name: x\ninclude: " << std::string(300, 'a')
                                             << ".yaml\n";
    std::string e = config_error([&] { load_config_file((tmp / "long_include.yaml").string()); });
    EXPECT_NE(e.find("long_include.yaml:4"), std::string::npos) << e;
    EXPECT_NE(e.find("cannot look up"), std::string::npos) << e;
    // The same name given as the config file itself.
    std::string top = config_error([&] { load_config_file((tmp / std::string(300, 'b')).string()); });
    EXPECT_NE(top.find("cannot look up"), std::string::npos) << top;
    std::filesystem::remove_all(tmp);
}

TEST(Config, AliasExpansionIsBounded) {
    // Nine levels of nine aliases: 9^9 = 387,420,489 leaves, far above the bound of
    // 100,000 values; the error comes before the expansion allocates.
    std::string doc = "l0: &l0 [x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i <= 9; ++i) {
        doc += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
        for (int j = 0; j < 9; ++j) doc += (j ? ", *l" : "*l") + std::to_string(i - 1);
        doc += "]\n";
    }
    std::string m = config_error([&] { parse_config_text(doc, "bomb.yaml"); });
    EXPECT_NE(m.find("more than 100000 values"), std::string::npos) << m;
    // Five levels stay within it: 9^5 = 59,049 leaves + 7,381 lists + 5 keys + the root.
    std::string small = "l0: &l0 [x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i <= 4; ++i) {
        small += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
        for (int j = 0; j < 9; ++j) small += (j ? ", *l" : "*l") + std::to_string(i - 1);
        small += "]\n";
    }
    EXPECT_EQ(parse_config_text(small, "ok.yaml").find("l4")->items().size(), 9u);
}

struct Widget {
    virtual ~Widget() = default;
    virtual uint64_t value() const = 0;
};
struct BigWidget : Widget {
    uint64_t v;
    explicit BigWidget(const Params& p) : v(p.u64("ways") * 100) {}
    uint64_t value() const override { return v; }
};

TEST(Config, SlotChoosesImplementationByType) {
    Slot<Widget> slot("widget");
    auto schema = cache_schema();
    schema.name = "big";
    slot.add(schema, [](const Params& p) { return std::make_unique<BigWidget>(p); });
    ConfigNode n = parse_config_text("w:\n  type: big\n  ways: 3\n", "w.yaml");
    EXPECT_EQ(slot.create(n.find("w"), "w", "big")->value(), 300u);
    // Defaults apply when the section is absent.
    EXPECT_EQ(slot.create(nullptr, "w", "big")->value(), 400u);
    ConfigNode bad = parse_config_text("w:\n  type: huge\n", "w2.yaml");
    std::string msg = config_error([&] { slot.create(bad.find("w"), "w", "big"); });
    EXPECT_NE(msg.find("w2.yaml:2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("unknown widget 'huge'"), std::string::npos) << msg;
    EXPECT_NE(SchemaCatalog::global().find("widget", "big"), nullptr);
}

}  // namespace
}  // namespace zng
