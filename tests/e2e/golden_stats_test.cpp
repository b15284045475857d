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

}  // namespace
