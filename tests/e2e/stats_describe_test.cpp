// `zngsim stats describe` documents every statistic a run writes: for every platform in
// configs/, a small run's stats.json holds exactly the statistics that stats describe
// lists for the same config, each with a unit and a description, and stats.meta.json
// beside it says the same.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string run_zngsim(const std::string& args, int& code) {
    const std::string cmd = std::string(ZNG_BINARY) + " " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    std::array<char, 4096> buf{};
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    const int status = pclose(p);
    code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

json load(const fs::path& p) {
    std::ifstream in(p);
    return json::parse(in);
}

// The statistics' names in stats.json: an average or histogram is an object of its own
// (mean, count, ...), so a name ends where stats describe says such a statistic is.
void names_in(const json& node, const std::string& path, const std::map<std::string, std::string>& kinds,
              std::set<std::string>& out) {
    auto k = kinds.find(path);
    if (!node.is_object() || (k != kinds.end() && (k->second == "average" || k->second == "histogram"))) {
        out.insert(path);
        return;
    }
    for (auto it = node.begin(); it != node.end(); ++it)
        names_in(it.value(), path.empty() ? it.key() : path + "." + it.key(), kinds, out);
}

// Statistics of one application are described as gpu.app.{app0}.ipc: the run's names.
std::string with_app_names(std::string name, const std::vector<std::string>& apps) {
    for (size_t i = 0; i < apps.size(); ++i) {
        const std::string pattern = "{app" + std::to_string(i) + "}";
        for (size_t at; (at = name.find(pattern)) != std::string::npos;) name.replace(at, pattern.size(), apps[i]);
    }
    return name;
}

struct Point {
    std::string config, workload;
    unsigned apps;
};
void PrintTo(const Point& p, std::ostream* os) { *os << p.config << " " << p.workload; }

std::vector<Point> points() {
    std::vector<Point> out;
    for (const auto& e : fs::directory_iterator(fs::path(ZNG_SOURCE_DIR) / "configs"))
        if (e.path().extension() == ".yaml") out.push_back({e.path().stem().string(), "bfs1", 1});
    std::sort(out.begin(), out.end(), [](const Point& a, const Point& b) { return a.config < b.config; });
    out.push_back({"zng", "betw-back", 2});  // co-running: statistics per application and per app id
    return out;
}

class StatsDescribe : public ::testing::TestWithParam<Point> {};

TEST_P(StatsDescribe, EveryStatisticOfARunIsDescribedWithUnitAndDescription) {
    const Point& p = GetParam();
    const std::string config = std::string(ZNG_SOURCE_DIR) + "/configs/" + p.config + ".yaml";
    int code = 0;
    const std::string described =
        run_zngsim("stats describe --json --config " + config + " --apps " + std::to_string(p.apps), code);
    ASSERT_EQ(code, 0) << described;
    const json describe = json::parse(described);
    const fs::path out = fs::temp_directory_path() / ("zngsim-stats-describe-" + p.config + "-" + p.workload);
    fs::remove_all(out);
    const std::string log = run_zngsim("run --config " + config + " --workload " + p.workload +
                                           " --preset small -q --out " + out.string(), code);
    ASSERT_EQ(code, 0) << log;
    const json stats = load(out / "stats.json");
    const json meta = load(out / "stats.meta.json")["stats"];
    const std::vector<std::string> apps = stats["workloads"].get<std::vector<std::string>>();
    ASSERT_EQ(apps.size(), p.apps);

    std::map<std::string, std::string> kinds;  // run's names -> kind
    for (auto it = describe.begin(); it != describe.end(); ++it) {
        const std::string name = with_app_names(it.key(), apps);
        EXPECT_FALSE(it.value()["unit"].get<std::string>().empty()) << it.key() << " has no unit";
        EXPECT_FALSE(it.value()["description"].get<std::string>().empty()) << it.key() << " has no description";
        kinds[name] = it.value()["kind"].get<std::string>();
        // The run's stats.meta.json says what stats describe says.
        ASSERT_TRUE(meta.contains(name)) << name << " described but not in stats.meta.json";
        EXPECT_EQ(meta[name], it.value()) << name;
    }
    EXPECT_EQ(meta.size(), describe.size()) << "stats.meta.json lists statistics stats describe does not";

    std::set<std::string> written;
    names_in(stats["stats"], "", kinds, written);
    for (const auto& name : written) EXPECT_TRUE(kinds.count(name)) << name << " is in stats.json but not described";
    for (const auto& [name, kind] : kinds) EXPECT_TRUE(written.count(name)) << name << " described but not written";
}

INSTANTIATE_TEST_SUITE_P(Platforms, StatsDescribe, ::testing::ValuesIn(points()),
                         [](const ::testing::TestParamInfo<Point>& i) {
                             std::string n = i.param.config + "_" + i.param.workload;
                             for (char& c : n)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

TEST(StatsDescribeCli, TableNamesUnitAndDescription) {
    int code = 0;
    const std::string out =
        run_zngsim("stats describe --config " + std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml", code);
    ASSERT_EQ(code, 0) << out;
    EXPECT_EQ(out.rfind("name", 0), 0u) << out.substr(0, 200);  // a header line first
    // gpu.ipc is registered by the GPU as a formula in warp instructions per GPU cycle.
    bool found = false;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("gpu.ipc ", 0) == 0) {
            found = true;
            EXPECT_NE(line.find("formula"), std::string::npos) << line;
            EXPECT_NE(line.find("instr/cycle"), std::string::npos) << line;
        }
    EXPECT_TRUE(found) << "no gpu.ipc line";
    EXPECT_EQ((run_zngsim("stats frobnicate --config x.yaml", code), code), 2);
    EXPECT_EQ((run_zngsim("stats describe", code), code), 2);  // --config is required
}

// Bars a table cell holds (a choice list "invalidate | update", a description naming
// alternatives) are escaped, so every row of the markdown references has its columns:
// the parameter table five, the statistics table four.
size_t unescaped_bars(const std::string& row) {
    size_t n = 0;
    for (size_t i = 0; i < row.size(); ++i) n += row[i] == '|' && (i == 0 || row[i - 1] != '\\');
    return n;
}

TEST(MarkdownReferences, EveryTableRowKeepsItsColumns) {
    int code = 0;
    const std::string params = run_zngsim("config describe --format markdown", code);
    ASSERT_EQ(code, 0) << params.substr(0, 300);
    const std::string stats = run_zngsim(
        "stats describe --format markdown --config " + std::string(ZNG_SOURCE_DIR) + "/configs/hybridgpu.yaml", code);
    ASSERT_EQ(code, 0) << stats.substr(0, 300);
    size_t escaped_rows = 0;
    for (const auto& [text, bars] : {std::pair{params, size_t{6}}, std::pair{stats, size_t{5}}}) {
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("|", 0) != 0) continue;
            EXPECT_EQ(unescaped_bars(line), bars) << line;
            escaped_rows += line.find("\\|") != std::string::npos;
        }
    }
    // The L2 policy's bypass_hit choice (invalidate | update) and hybridgpu's wear_leveling
    // description (least_erased | fifo) are such cells.
    EXPECT_GE(escaped_rows, 2u);
}

TEST(MarkdownReferences, IndexedInstancesShareOneRow) {
    // ideal has 16 SMs and 6 L2 banks: gpu.sm0 ... gpu.sm15 become one row per statistic,
    // written with the index range; "l2" keeps its digit (one instance only), and the
    // JSON listing still names every instance.
    int code = 0;
    const std::string config = std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml";
    const std::string md = run_zngsim("stats describe --format markdown --config " + config, code);
    ASSERT_EQ(code, 0) << md.substr(0, 300);
    EXPECT_NE(md.find("| `gpu.sm{0..15}.l1d.hits` | counter | accesses |"), std::string::npos);
    EXPECT_NE(md.find("| `gpu.l2.bank{0..5}.hits` |"), std::string::npos);
    EXPECT_EQ(md.find("gpu.sm3.l1d.hits"), std::string::npos);
    EXPECT_EQ(md.find("l{2..2}"), std::string::npos);
    const std::string json = run_zngsim("stats describe --json --config " + config, code);
    EXPECT_NE(json.find("\"gpu.sm3.l1d.hits\""), std::string::npos);
}

}  // namespace
