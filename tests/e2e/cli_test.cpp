// The command line: exit codes and error messages that name file, line and key.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Result {
    int code;
    std::string output;
};

Result zngsim(const std::string& args) {
    std::string cmd = std::string(ZNG_BINARY) + " " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    std::array<char, 4096> buf{};
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

fs::path temp_file(const std::string& name, const std::string& text) {
    fs::path d = fs::temp_directory_path() / "zngsim-cli-test";
    fs::create_directories(d);
    std::ofstream(d / name) << text;
    return d / name;
}

TEST(Cli, VersionAndHelp) {
    Result v = zngsim("--version");
    EXPECT_EQ(v.code, 0);
    EXPECT_NE(v.output.find("zngsim "), std::string::npos);
    EXPECT_EQ(zngsim("run --help").code, 0);
    EXPECT_EQ(zngsim("config --help").code, 0);
    EXPECT_EQ(zngsim("trace --help").code, 0);
}

TEST(Cli, UsageErrorsExitTwo) {
    EXPECT_EQ(zngsim("").code, 2);
    EXPECT_EQ(zngsim("frobnicate").code, 2);
    EXPECT_EQ(zngsim("run --config").code, 2);
    Result r = zngsim("run --config x.yaml --workload bfs1 --trace y.ztr");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.output.find("exactly one of"), std::string::npos) << r.output;
    Result u = zngsim("run --config " + std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml --workload nosuch");
    EXPECT_EQ(u.code, 2);
    EXPECT_NE(u.output.find("unknown workload 'nosuch'"), std::string::npos) << u.output;
}

TEST(Cli, TypoedKeyNamesFileLineAndKey) {
    fs::path cfg = temp_file("typo.yaml", "include: " + std::string(ZNG_SOURCE_DIR) +
                                              "/configs/ideal.yaml\nrun:\n  max_sim_tme: 1ms\n");
    Result r = zngsim("config validate " + cfg.string());
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("typo.yaml:3"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("max_sim_tme"), std::string::npos) << r.output;
    Result s = zngsim("config validate " + std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml --set 'run.max_sim_time=3 parsecs'");
    EXPECT_EQ(s.code, 2) << s.output;
}

TEST(Cli, DescribeListsParametersWithDefaults) {
    Result r = zngsim("config describe");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.output.find("max_sim_time"), std::string::npos);
    EXPECT_NE(r.output.find("slot: memory"), std::string::npos);
    EXPECT_NE(r.output.find("slot: translation"), std::string::npos);
}

TEST(Cli, CorruptTraceExitsOneWithAClearMessage) {
    fs::path t = temp_file("bad.ztr", "ZNGTRACE but not really a trace");
    Result r = zngsim("trace info " + t.string());
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find("bad.ztr"), std::string::npos) << r.output;
}

TEST(Cli, RunWritesStatsAndRunInfo) {
    fs::path out = fs::temp_directory_path() / "zngsim-cli-run";
    fs::remove_all(out);
    Result r = zngsim("run --config " + std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml --workload deg --out " +
                      out.string());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_TRUE(fs::exists(out / "stats.json"));
    EXPECT_TRUE(fs::exists(out / "run.json"));
    EXPECT_NE(r.output.find("IPC"), std::string::npos) << r.output;
}

TEST(Cli, ProgramOptionsAreCheckedRecordedAndShown) {
    // Bad values and options of another workload are usage errors naming the option.
    Result nan = zngsim("trace gen --workload bfs6 --root x -o /dev/null");
    EXPECT_EQ(nan.code, 2);
    EXPECT_NE(nan.output.find("--root: 'x' is not an integer"), std::string::npos) << nan.output;
    Result range = zngsim("trace gen --workload gaus --size 1 -o /dev/null");
    EXPECT_EQ(range.code, 2);
    EXPECT_NE(range.output.find("--size: 1 is outside 2..32768"), std::string::npos) << range.output;
    Result other = zngsim("trace gen --workload gaus --root 3 -o /dev/null");
    EXPECT_EQ(other.code, 2);
    EXPECT_NE(other.output.find("'--root' is not an option"), std::string::npos) << other.output;

    // run.json records each workload's options with the key of its trace.
    const fs::path out = fs::temp_directory_path() / "zngsim-cli-program-options";
    fs::remove_all(out);
    Result r = zngsim("run --config " + std::string(ZNG_SOURCE_DIR) +
                      "/configs/ideal.yaml --workload gaus --size 5 --max-launches 100 -q --out " + out.string());
    ASSERT_EQ(r.code, 0) << r.output;
    const nlohmann::json run = nlohmann::json::parse(std::ifstream(out / "run.json"));
    ASSERT_EQ(run["workloads"].size(), 1u);
    EXPECT_EQ(run["workloads"][0]["name"], "gaus");
    EXPECT_EQ(run["workloads"][0]["options"]["size"], 5);
    EXPECT_EQ(run["workloads"][0]["options"]["max_launches"], 100);
    EXPECT_EQ(run["workloads"][0]["trace_key"].get<std::string>().size(), 16u);

    // The trace header carries them; trace info shows them.
    const fs::path trace = out / "gaus5.ztr";
    ASSERT_EQ(zngsim("trace gen --workload gaus --size 5 -o " + trace.string()).code, 0);
    Result info = zngsim("trace info " + trace.string());
    EXPECT_NE(info.output.find("zngsim-gen --size 5"), std::string::npos) << info.output;
    fs::remove_all(out);
}

TEST(Cli, BadOutputDirectoryFailsBeforeSimulating) {
    // A directory below a regular file cannot be made.
    fs::path file = temp_file("not_a_dir", "x");
    Result r = zngsim("run --config " + std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml --workload deg --out " +
                      (file / "out").string());
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("--out"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("IPC"), std::string::npos) << "simulated before checking --out: " << r.output;
}

TEST(Cli, EarlierRunsOutputsDoNotSurvive) {
    fs::path out = fs::temp_directory_path() / "zngsim-cli-stale";
    fs::remove_all(out);
    fs::create_directories(out);
    std::ofstream(out / "series.csv") << "time_ps,old\n1,2\n";
    Result r = zngsim("run --config " + std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml --workload deg -q --out " +
                      out.string());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_TRUE(fs::exists(out / "stats.json"));
    EXPECT_FALSE(fs::exists(out / "series.csv")) << "a series.csv of an earlier run sits beside the new stats";
}

TEST(Cli, MissingInputsAndNonConfigsAreUsageErrors) {
    const std::string ideal = std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml";
    Result t = zngsim("run --config " + ideal + " --trace /nonexistent/x.ztr");
    EXPECT_EQ(t.code, 2) << t.output;
    EXPECT_NE(t.output.find("/nonexistent/x.ztr"), std::string::npos) << t.output;
    Result d = zngsim("config validate " + std::string(ZNG_SOURCE_DIR) + "/configs");
    EXPECT_EQ(d.code, 2) << d.output;
    EXPECT_NE(d.output.find("is a directory"), std::string::npos) << d.output;
    Result e = zngsim("config validate " + temp_file("empty.yaml", "\n# only a comment\n").string());
    EXPECT_EQ(e.code, 2) << e.output;
    EXPECT_NE(e.output.find("empty"), std::string::npos) << e.output;
}

TEST(Cli, RunWithoutProgressStopsWithWhatIsStuck) {
    const std::string ideal = std::string(ZNG_SOURCE_DIR) + "/configs/ideal.yaml";
    // 1 ns (1.2 GPU cycles) passes without a retired instruction as soon as every warp
    // waits for its first load: the watchdog stops the run and names the oldest request.
    Result r = zngsim("run --config " + ideal + " --workload deg -q --out " +
                      (fs::temp_directory_path() / "zngsim-cli-wd").string() + " --set run.watchdog=1ns");
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find("no progress"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("oldest request: #1 read"), std::string::npos) << r.output;
    // A row cycle longer than the refresh interval can never complete an access: refused
    // at validation, naming both keys, instead of running forever.
    Result v = zngsim("config validate " + ideal + " --set memory.tRCD=5us");
    EXPECT_EQ(v.code, 2) << v.output;
    EXPECT_NE(v.output.find("memory.tREFI"), std::string::npos) << v.output;
    EXPECT_NE(v.output.find("memory.tRCD"), std::string::npos) << v.output;
}

}  // namespace
