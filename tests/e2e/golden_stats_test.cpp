// Statistics that must not change unless the model does: each point of
// tests/e2e/golden/points.txt runs (small preset) and its stats.json must equal the
// committed golden file value for value (the build's version string aside). A change
// meant to change results rewrites the files with scripts/update_golden_stats.sh, in a
// commit of its own that says why; a change meant to leave them alone (speed, layout)
// proves it here.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
const fs::path kGolden = fs::path(ZNG_SOURCE_DIR) / "tests" / "e2e" / "golden";

struct GoldenPoint {
    std::string config, workload;
};
void PrintTo(const GoldenPoint& p, std::ostream* os) { *os << p.config << " " << p.workload; }

std::vector<GoldenPoint> points() {
    std::vector<GoldenPoint> out;
    std::ifstream in(kGolden / "points.txt");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        GoldenPoint p;
        ls >> p.config >> p.workload;
        out.push_back(p);
    }
    return out;
}

nlohmann::json load(const fs::path& p) {
    std::ifstream in(p);
    nlohmann::json j = nlohmann::json::parse(in);
    j.erase("zngsim_version");
    return j;
}

// Dotted paths of the values that differ (at most `limit`), for a readable failure.
void diff(const nlohmann::json& a, const nlohmann::json& b, const std::string& path, std::vector<std::string>& out,
          size_t limit = 20) {
    if (out.size() >= limit) return;
    if (a.is_object() && b.is_object()) {
        for (auto it = a.begin(); it != a.end(); ++it)
            diff(it.value(), b.contains(it.key()) ? b[it.key()] : nlohmann::json(), path + "." + it.key(), out, limit);
        for (auto it = b.begin(); it != b.end(); ++it)
            if (!a.contains(it.key())) out.push_back(path + "." + it.key() + ": only in the new run");
        return;
    }
    if (a != b) out.push_back(path + ": golden " + a.dump() + ", now " + b.dump());
}

class GoldenStats : public ::testing::TestWithParam<GoldenPoint> {};

TEST_P(GoldenStats, StatisticsEqualTheGoldenFile) {
    const GoldenPoint& p = GetParam();
    const fs::path golden = kGolden / (p.config + "__" + p.workload + ".json");
    ASSERT_TRUE(fs::exists(golden)) << golden << " missing: scripts/update_golden_stats.sh writes it";
    const fs::path out = fs::temp_directory_path() / ("zngsim-golden-" + p.config + "-" + p.workload);
    fs::remove_all(out);
    const std::string cmd = std::string(ZNG_BINARY) + " run --config " + ZNG_SOURCE_DIR + "/configs/" + p.config +
                            ".yaml --workload " + p.workload + " -q --out " + out.string() + " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::vector<std::string> differences;
    diff(load(golden), load(out / "stats.json"), "", differences);
    EXPECT_TRUE(differences.empty()) << p.config << " " << p.workload << " differs from " << golden << ":\n  "
                                     << [&] {
                                            std::string s;
                                            for (const auto& d : differences) s += d + "\n  ";
                                            return s;
                                        }();
}

INSTANTIATE_TEST_SUITE_P(Points, GoldenStats, ::testing::ValuesIn(points()),
                         [](const ::testing::TestParamInfo<GoldenPoint>& i) {
                             std::string n = i.param.config + "_" + i.param.workload;
                             for (char& c : n)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

// Hetero's page faults on the node's storage components (a `storage:` section with
// control plane os_fault) set as Hetero's own SSD give its golden statistics: the same
// simulated time and every GPU, memory and translation statistic alike. Only where the
// SSD's own statistics go differs (storage.* instead of translation.ssd.*), and the
// resolved config.
TEST(GoldenStatsOfHetero, FaultsOnTheNodesStorageGiveTheGoldenStatistics) {
    for (const char* workload : {"bfs1", "back"}) {
        const fs::path golden = kGolden / (std::string("hetero__") + workload + ".json");
        const fs::path out = fs::temp_directory_path() / (std::string("zngsim-golden-hetero-node-") + workload);
        fs::remove_all(out);
        std::string cmd = std::string(ZNG_BINARY) + " run --config " + ZNG_SOURCE_DIR +
                          "/tests/e2e/hetero_own_ssd_as_node_storage.yaml --workload " + workload + " -q --out " +
                          out.string();
        for (const char* key : {"ssd", "pcie_lanes", "pcie_rate", "pcie_encoding", "pcie_latency"})
            cmd += std::string(" --set translation.") + key + "=~";
        ASSERT_EQ(std::system((cmd + " 2>&1").c_str()), 0) << cmd;
        nlohmann::json want = load(golden), got = load(out / "stats.json");
        ASSERT_TRUE(want["stats"]["translation"].contains("ssd"));
        EXPECT_FALSE(got["stats"]["translation"].contains("ssd"));  // the translator built no SSD
        EXPECT_EQ(got["stats"]["storage"]["ssd0"]["requests"], want["stats"]["translation"]["ssd"]["requests"]);
        // Either way each faulted page's copy is written through the GDDR5 channels.
        for (const auto* j : {&want, &got})
            EXPECT_EQ((*j)["stats"]["memory"]["dram"]["dma"]["bytes_written"].get<double>(),
                      4096.0 * (*j)["stats"]["translation"]["faults"].get<double>());
        for (auto* j : {&want, &got}) {
            j->erase("config");
            (*j)["stats"]["translation"].erase("ssd");
            (*j)["stats"].erase("storage");
            // The plane is every SM's storage I/O service too (an io_submit on it is an
            // error naming os_fault), which adds per-SM I/O counters, all zero here.
            for (auto& [name, sm] : (*j)["stats"]["gpu"].items())
                if (name.rfind("sm", 0) == 0 && sm.contains("storage_io")) {
                    for (auto& [stat, v] : sm["storage_io"].items())
                        EXPECT_EQ(v.is_object() ? v["value"] : v, 0) << name << ".storage_io." << stat;
                    sm.erase("storage_io");
                }
        }
        std::vector<std::string> differences;
        diff(want, got, "", differences);
        EXPECT_TRUE(differences.empty()) << workload << ":\n  " << [&] {
            std::string s;
            for (const auto& d : differences) s += d + "\n  ";
            return s;
        }();
        fs::remove_all(out);
    }
}

}  // namespace
