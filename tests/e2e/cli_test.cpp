// The command line: exit codes and error messages that name file, line and key.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// AddressSanitizer reserves terabytes of address space for its shadow memory when a
// program starts, so a sanitized zngsim cannot start under `ulimit -v`: the checks that
// rely on an address-space limit are skipped in the ASan+UBSan suite of scripts/test.sh.
// GCC defines __SANITIZE_ADDRESS__; clang answers __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define ZNG_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZNG_TEST_UNDER_ASAN 1
#endif
#endif
#ifdef ZNG_TEST_UNDER_ASAN
constexpr bool kAddressSpaceLimitUsable = false;
#else
constexpr bool kAddressSpaceLimitUsable = true;
#endif

struct Result {
    int code;
    std::string output;
};

// `shell_prefix` runs before the command in the same shell (e.g. a ulimit).
Result zngsim(const std::string& args, const std::string& shell_prefix = "") {
    std::string cmd = shell_prefix + std::string(ZNG_BINARY) + " " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    std::array<char, 4096> buf{};
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// A scratch path private to this test process, so that suites run at once on one
// machine (two build trees, the sanitized suite beside the Release one) never share one.
// They are removed when the test program ends.
std::vector<fs::path>& scratch_paths() {
    static std::vector<fs::path> paths;
    return paths;
}

fs::path scratch_path(const std::string& name) {
    fs::path p = fs::temp_directory_path() / (name + "-" + std::to_string(getpid()));
    scratch_paths().push_back(p);
    return p;
}

class RemoveScratchPaths : public ::testing::Environment {
public:
    void TearDown() override {
        std::error_code ec;
        for (const fs::path& p : scratch_paths()) fs::remove_all(p, ec);
    }
};
[[maybe_unused]] const ::testing::Environment* const kRemoveScratchPaths =
    ::testing::AddGlobalTestEnvironment(new RemoveScratchPaths);

// A platform shipped in configs/.
std::string shipped_config(const std::string& platform) {
    return std::string(ZNG_SOURCE_DIR) + "/configs/" + platform + ".yaml";
}

// The start of `zngsim run` of built-in workload `workload` on a shipped platform; the
// caller appends --out and the rest.
std::string run_args(const std::string& platform, const std::string& workload) {
    return "run --config " + shipped_config(platform) + " --workload " + workload;
}

// A configuration error: exit code 2, and the message names `key` (file, line and key).
void expect_config_error(const Result& r, const std::string& key) {
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("key '" + key + "'"), std::string::npos) << "no key '" << key << "' in:\n" << r.output;
}

fs::path temp_file(const std::string& name, const std::string& text) {
    fs::path d = scratch_path("zngsim-cli-test");
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

TEST(Cli, VersionNamesTheCommitTheSourcesAreAt) {
    // The commit is read at every build, not when CMake last configured: stats.json
    // records it as the results' provenance.
    if (!fs::exists(fs::path(ZNG_SOURCE_DIR) / ".git")) GTEST_SKIP() << "sources outside a git checkout";
    FILE* p = popen(("git -C " + std::string(ZNG_SOURCE_DIR) + " rev-parse --short HEAD 2>/dev/null").c_str(), "r");
    std::array<char, 64> buf{};
    const size_t n = fread(buf.data(), 1, buf.size() - 1, p);
    if (pclose(p) != 0 || n == 0) GTEST_SKIP() << "git is not available";
    std::string head(buf.data(), n);
    head.erase(head.find_last_not_of("\n") + 1);
    EXPECT_NE(zngsim("--version").output.find("+" + head), std::string::npos) << "HEAD is " << head;
}

TEST(Cli, UsageErrorsExitTwo) {
    EXPECT_EQ(zngsim("").code, 2);
    EXPECT_EQ(zngsim("frobnicate").code, 2);
    EXPECT_EQ(zngsim("run --config").code, 2);
    Result r = zngsim("run --config x.yaml --workload bfs1 --trace y.ztr");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.output.find("exactly one of"), std::string::npos) << r.output;
    Result u = zngsim(run_args("ideal", "nosuch"));
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
    Result s = zngsim("config validate " + shipped_config("ideal") + " --set 'run.max_sim_time=3 parsecs'");
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
    fs::path out = scratch_path("zngsim-cli-run");
    fs::remove_all(out);
    Result r = zngsim(run_args("ideal", "deg") + " --out " +
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
    const fs::path out = scratch_path("zngsim-cli-program-options");
    fs::remove_all(out);
    Result r = zngsim(run_args("ideal", "gaus") + " --size 5 --max-launches 100 -q --out " + out.string());
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
    Result r = zngsim(run_args("ideal", "deg") + " --out " +
                      (file / "out").string());
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("--out"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("IPC"), std::string::npos) << "simulated before checking --out: " << r.output;
}

TEST(Cli, EarlierRunsOutputsDoNotSurvive) {
    fs::path out = scratch_path("zngsim-cli-stale");
    fs::remove_all(out);
    fs::create_directories(out);
    std::ofstream(out / "series.csv") << "time_ps,old\n1,2\n";
    Result r = zngsim(run_args("ideal", "deg") + " -q --out " +
                      out.string());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_TRUE(fs::exists(out / "stats.json"));
    EXPECT_FALSE(fs::exists(out / "series.csv")) << "a series.csv of an earlier run sits beside the new stats";
}

TEST(Cli, MissingInputsAndNonConfigsAreUsageErrors) {
    const std::string ideal = shipped_config("ideal");
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

// Four-page blocks and two registers per package: every merge flushes the owner's L2
// lines, whose write-backs fill more log blocks, so back (the only application) is held
// from one merge to the next, and merges queue behind the one helper thread.
std::string held_by_merges(const std::string& watchdog) {
    return run_args("zng-base", "back") + " -q --out " + scratch_path("zngsim-cli-gc-" + watchdog).string() +
           " --set flash.pages_per_block=4 --set flash.blocks_per_plane=64 --set translation.log_group_size=2"
           " --set translation.overprovisioning=0.5 --set flash.registers_per_plane=1"
           " --set flash.dies_per_package=1 --set flash.planes_per_die=2 --set run.watchdog=" + watchdog;
}

// A watchdog shorter than one merge stops the run while the merge holds back: the
// report names the merge, its phase and the merges queued behind it.
TEST(Cli, RunHeldByMergesSaysSo) {
    Result r = zngsim(held_by_merges("200us"));
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find("no progress"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("garbage-collection merges ended (translation.gc.merges), the merge of log group"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("queued behind it (one helper thread)"), std::string::npos) << r.output;
}

// The same run with a 50 ms watchdog: back retires nothing for longer than that while it
// waits for its queued merges, but merges keep ending, so the run is slow, not stuck,
// and goes to its end.
TEST(Cli, MergesThatEndAreProgress) {
    Result r = zngsim(held_by_merges("50ms"));
    EXPECT_EQ(r.code, 0) << r.output;
}

TEST(Cli, RunWithoutProgressStopsWithWhatIsStuck) {
    const std::string ideal = shipped_config("ideal");
    // 1 ns (1.2 GPU cycles) passes without a retired instruction as soon as every warp
    // waits for its first load: the watchdog stops the run and names the oldest request.
    Result r = zngsim(run_args("ideal", "deg") + " -q --out " +
                      scratch_path("zngsim-cli-wd").string() + " --set run.watchdog=1ns");
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

// README: 0 ok, 1 simulation or trace error, 2 usage or configuration error.
TEST(Cli, ExitCodesFollowTheReadme) {
    const std::string ideal = shipped_config("ideal");
    const std::string out = scratch_path("zngsim-cli-codes").string();
    // 1: the simulation stops on a model rule (here its time limit) ...
    Result limit = zngsim(run_args("ideal", "deg") + " -q --out " + out + " --set run.max_sim_time=1us");
    EXPECT_EQ(limit.code, 1) << limit.output;
    // ... or a trace cannot be read.
    Result corrupt = zngsim("trace info " + temp_file("corrupt.ztr", "ZNGTRACE truncated").string());
    EXPECT_EQ(corrupt.code, 1) << corrupt.output;
    // 2: inputs and outputs named on the command line that do not exist are usage errors.
    for (const std::string& args :
         {std::string("trace info /nonexistent/t.ztr"), std::string("trace dump /nonexistent/t.ztr"),
          std::string("trace gen --workload deg -o /nonexistent/dir/t.ztr"),
          "trace gen --workload deg --input /nonexistent/g.el -o " + out + ".ztr",
          std::string("trace import --from accelsim /nonexistent/kernelslist.g -o /tmp/zngsim-cli-t.ztr"),
          run_args("ideal", "deg") + " --input /nonexistent/g.el -q --out " + out}) {
        Result r = zngsim(args);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.output;
        EXPECT_NE(r.output.find("/nonexistent/"), std::string::npos) << r.output;
    }
    // A stray word is not silently ignored.
    EXPECT_EQ(zngsim("workloads extra").code, 2);
    // 2: a configuration the host cannot hold. 6 GiB of L2 is 6 GiB / 128 B = 50,331,648
    // lines of 32 B of tag state, 1.5 GiB, beyond a 1 GB address-space limit.
    if (!kAddressSpaceLimitUsable) GTEST_SKIP() << "ulimit -v cannot hold ASan's shadow memory";
    Result oom = zngsim("config validate " + ideal + " --set gpu.l2.size=6GiB --set run.memory_limit=0",
                        "ulimit -v 1000000; ");
    EXPECT_EQ(oom.code, 2) << oom.output;
    EXPECT_NE(oom.output.find("memory"), std::string::npos) << oom.output;
}

// Errors a component finds while it is built name the key, file and line, in
// `config validate` as in `run`.
TEST(Cli, ConstructionErrorsNameTheKey) {
    const std::string cfg = std::string(ZNG_SOURCE_DIR) + "/configs/";
    struct Case {
        std::string args, key;
    };
    for (const Case& c : {Case{"zng.yaml --set flash.page_size=2KiB", "key 'flash.page_size'"},
                          Case{"hybridgpu.yaml --set memory.buffer_size=64TiB", "key 'memory.buffer_size'"},
                          Case{"hybridgpu.yaml --set memory.gc_threshold=1024", "key 'memory.gc_threshold'"},
                          Case{"ideal.yaml --set gpu.l2.size=600GiB", "key 'gpu.l2.size'"}}) {
        Result r = zngsim("config validate " + cfg + c.args);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find("<command line: --set"), std::string::npos) << r.output;
        EXPECT_NE(r.output.find(c.key), std::string::npos) << r.output;
    }
}

// The up-front arrays are estimated before they are allocated. 6 GiB of L2 in 128 B
// lines is 50,331,648 lines, each a 24 B TagLine plus an 8 B key and an 8 B LRU stamp
// (8 ways: 16 words, two whole host lines a set) and a byte of policy marks:
// 41 B x 50,331,648 = 1.922 GiB, printed 1.92, past a 1 GiB limit and within 2 GiB.
TEST(Cli, MemoryEstimateRefusesPastTheLimit) {
    const std::string ideal = shipped_config("ideal") + " --set gpu.l2.size=6GiB";
    Result r = zngsim("config validate " + ideal + " --set run.memory_limit=1GiB");
    EXPECT_NE(r.output.find("L2 tag arrays need 1.92 GiB"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("run.memory_limit = 1.00 GiB"), std::string::npos) << r.output;
    expect_config_error(r, "gpu.l2.size");
    EXPECT_EQ(zngsim("config validate " + ideal + " --set run.memory_limit=2GiB").code, 0);
}

// MSHR tables and TLBs are preallocated too, and counted (found by fuzz/fuzz_config:
// they were outside the estimate, so a config within run.memory_limit allocated GiBs).
// An MSHR table of E entries merging M requests holds E x (24 B entry + 4 B free-list
// slot) + E x M x 8 B waiter slots + a hash map of bit_ceil(2E) 16 B slots.
TEST(Cli, MemoryEstimateCoversMshrTablesAndTlbs) {
    const std::string ideal = shipped_config("ideal");
    // L2: 4096 x 28 + 4096 x 4096 x 8 + 8192 x 16 = 134,463,488 B a bank; 6 banks
    // 806,780,928 B = 0.75 GiB, past 512 MiB.
    Result l2 = zngsim("config validate " + ideal +
                       " --set gpu.l2.mshr_entries=4096 --set gpu.l2.mshr_merge=4096 --set run.memory_limit=512MiB");
    EXPECT_NE(l2.output.find("MSHR tables of 6 L2 banks need 0.75 GiB"), std::string::npos) << l2.output;
    expect_config_error(l2, "gpu.l2.mshr_entries");
    // L1 TLB: 786,432 entries of 40 B (24 B TagLine + key + LRU stamp; 64 ways fill whole
    // host lines) = 31,457,280 B + an MSHR table of 16 x 28 + 16 x 64 x 8 + 32 x 16 = 9,152 B
    // an SM; 16 SMs 503,462,912 B = 0.47 GiB, past 256 MiB.
    Result tlb = zngsim("config validate " + ideal +
                        " --set gpu.l1_tlb.entries=786432 --set gpu.l1_tlb.ways=64 --set run.memory_limit=256MiB");
    EXPECT_NE(tlb.output.find("L1 TLBs of 16 SMs need 0.47 GiB"), std::string::npos) << tlb.output;
    expect_config_error(tlb, "gpu.l1_tlb.entries");
}

// Arrays that only a built component can size are charged against run.memory_limit
// before they are allocated (found by fuzz/fuzz_config: outside the estimate, a config
// within the limit built a 16 TiB GoFS log's tables or 16 M-entry eviction histories).
TEST(Cli, ComponentsChargeTheirArraysToTheMemoryLimit) {
    const std::string cfg = std::string(ZNG_SOURCE_DIR) + "/configs/";
    // A thrashing checker of 2^20 evictions: a ring of 8 MiB and an index of 2^21 slots
    // of 24 B, 48 MiB, a package. zng's GPU arrays and statistics take under 10 MiB, so
    // the first package brings the sum under 66 MiB and the second's ring under 74 MiB;
    // its index would pass 100 MiB.
    Result r = zngsim("config validate " + cfg + "zng.yaml --set flash.thrashing_checker.history=1048576"
                      " --set run.memory_limit=100MiB");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("thrashing checkers' eviction indexes need 48 MiB more of host memory (48 MiB of them "
                            "built so far), and with the 7"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("key 'run.memory_limit'"), std::string::npos) << r.output;
    // GoFS on 16 TiB less its 1 GiB node area: 8,388,096 segments of a 16 B entry and a
    // 4 B pool slot, and one file of one block (a 24 B vector and its 4 B): 167,761,948 B,
    // 160 MiB, past 128 MiB and within 1 GiB.
    const std::string gofs = "config validate " + cfg + "gofs.yaml --set storage.control_plane.capacity=16TiB"
                             " --set storage.control_plane.files=1 --set storage.control_plane.file_size=4KiB";
    Result big = zngsim(gofs + " --set run.memory_limit=128MiB");
    EXPECT_EQ(big.code, 2) << big.output;
    EXPECT_NE(big.output.find("GoFS segment table and file map need 160 MiB more"), std::string::npos) << big.output;
    EXPECT_EQ(zngsim(gofs + " --set run.memory_limit=1GiB").code, 0);
    // 262,144 flash packages of one plane (4,096 channels of 64): ZnG's block table has a
    // 20 B entry for each of their 1,024 blocks, 5 GiB.
    const std::string many = " --set flash.channels=4096 --set flash.packages_per_channel=64 --set "
                             "flash.dies_per_package=1 --set flash.planes_per_die=1 --set run.memory_limit=128MiB";
    Result table = zngsim("config validate " + cfg + "zng.yaml" + many);
    EXPECT_EQ(table.code, 2) << table.output;
    EXPECT_NE(table.output.find("ZnG FTL's physical block table need 5 GiB more"), std::string::npos) << table.output;
    // HybridGPU builds the packages themselves, each with its statistics: they are charged
    // as they are built, and the limit stops the build part way.
    Result packages = zngsim("config validate " + cfg + "hybridgpu.yaml" + many);
    expect_config_error(packages, "run.memory_limit");
    // Past 2^32 blocks F2FS's 32-bit block addresses, and the log's, cannot reach.
    Result past = zngsim("config validate " + cfg + "gofs.yaml --set storage.control_plane.capacity=17TiB");
    EXPECT_EQ(past.code, 2) << past.output;
    EXPECT_NE(past.output.find("past the 16 TiB of 2^32 4 KB blocks"), std::string::npos) << past.output;
}

// Flash blocks are state allocated as they are used: 16,777,216 blocks per plane (2^24,
// 268,435,456 data-block-sized blocks of 20 B, 5 GiB if allocated up front) run a
// small workload within a 2 GB address space.
TEST(Cli, FlashGeometryCostsWhatIsTouched) {
    if (!kAddressSpaceLimitUsable) GTEST_SKIP() << "ulimit -v cannot hold ASan's shadow memory";
    Result r = zngsim(run_args("zng", "deg") + " -q --out " +
                          scratch_path("zngsim-cli-geom").string() +
                          " --set flash.blocks_per_plane=16777216",
                      "ulimit -v 2000000; ");
    EXPECT_EQ(r.code, 0) << r.output;
}

// The series is written as sampled, one row per run.stats_interval of simulated time,
// and an interval below the 1 us floor is refused naming the key.
TEST(Cli, SeriesStreamedAtABoundedInterval) {
    const fs::path out = scratch_path("zngsim-cli-series");
    Result fine = zngsim(run_args("ideal", "deg") + " -q --out " + out.string() +
                         " --set run.stats_interval=1ps");
    expect_config_error(fine, "run.stats_interval");
    Result r = zngsim(run_args("ideal", "deg") + " -q --out " + out.string() +
                      " --set run.stats_interval=1us");
    ASSERT_EQ(r.code, 0) << r.output;
    std::ifstream stats(out / "stats.json");
    std::string text((std::istreambuf_iterator<char>(stats)), std::istreambuf_iterator<char>());
    const size_t at = text.find("\"sim_time_ps\":");
    ASSERT_NE(at, std::string::npos);
    const uint64_t sim_ps = std::stoull(text.substr(text.find_first_of("0123456789", at)));
    // A sample at every whole microsecond before the end: floor(sim_ps / 10^6) rows.
    std::ifstream csv(out / "series.csv");
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line, "time_us,gpu.app.deg.memory_requests");
    uint64_t rows = 0;
    std::string last;
    while (std::getline(csv, line)) {
        ++rows;
        last = line;
    }
    EXPECT_EQ(rows, sim_ps / 1'000'000) << sim_ps;
    EXPECT_EQ(last.substr(0, last.find(',')), std::to_string(rows));
    for (const auto& e : fs::directory_iterator(out))
        EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << "left behind: " << e.path();
}

// run.series adds the statistics its patterns name to series.csv, in registration order,
// each as its value so far: the last row's counters are at most their final values in
// stats.json, and a pattern that names nothing, or a series without an interval, is a
// configuration error naming the key.
TEST(Cli, SeriesTakesTheStatisticsItsPatternsName) {
    const fs::path out = scratch_path("zngsim-cli-series-pick");
    Result none = zngsim(run_args("ideal", "deg") + " -q --out " + out.string() +
                         " --set run.stats_interval=1us --set run.series=gpu.sm0.loads,no.such.stat");
    expect_config_error(none, "run.series");
    EXPECT_NE(none.output.find("'no.such.stat' names no statistic"), std::string::npos) << none.output;
    Result no_interval =
        zngsim(run_args("ideal", "deg") + " -q --out " + out.string() + " --set run.series=gpu.ipc");
    EXPECT_EQ(no_interval.code, 2) << no_interval.output;
    EXPECT_NE(no_interval.output.find("needs run.stats_interval"), std::string::npos) << no_interval.output;

    Result r = zngsim(run_args("ideal", "deg") + " -q --out " + out.string() +
                      " --set run.stats_interval=1us --set 'run.series=gpu.sm1?.loads, gpu.sm0.loads,gpu.sm1?.loads'");
    ASSERT_EQ(r.code, 0) << r.output;
    std::ifstream csv(out / "series.csv");
    std::string line, last;
    std::getline(csv, line);
    // sm10-sm15 match the first pattern (the GPU has 16 SMs), sm0 the second; the third
    // repeats the first and adds nothing.
    EXPECT_EQ(line, "time_us,gpu.app.deg.memory_requests,gpu.sm10.loads,gpu.sm11.loads,gpu.sm12.loads,"
                    "gpu.sm13.loads,gpu.sm14.loads,gpu.sm15.loads,gpu.sm0.loads");
    std::vector<double> previous(9, 0.0);
    while (std::getline(csv, line)) {
        std::vector<double> row;
        std::istringstream in(line);
        for (std::string v; std::getline(in, v, ',');) row.push_back(std::stod(v));
        ASSERT_EQ(row.size(), 9u) << line;
        for (size_t c = 2; c < row.size(); ++c) EXPECT_GE(row[c], previous[c]) << "a counter went down: " << line;
        previous = row;
        last = line;
    }
    ASSERT_FALSE(last.empty());
    std::ifstream stats(out / "stats.json");
    const auto j = nlohmann::json::parse(stats);
    const double final_sm0 = j["stats"]["gpu"]["sm0"]["loads"].get<double>();
    EXPECT_GT(final_sm0, 0.0);
    EXPECT_LE(previous[8], final_sm0);
    EXPECT_GT(previous[8], 0.0) << "sm0 loaded nothing before the last sample";
}

// run.stop_at ends a run at a simulated time with the window's statistics: exit 0, the
// time and the stop recorded, cycles of the window (20 us at 1.2 GHz: 24,000 cycle edges,
// so the cycle of the stop + 1 = 24,001, as a finishing application counts), IPC =
// instructions / cycles. A stop past the end changes nothing: the statistics equal a run
// without it. A flash platform stopped with reads and programs in flight also ends cleanly.
TEST(Cli, StopAtEndsTheRunWithTheWindowsStatistics) {
    const fs::path full = scratch_path("zngsim-cli-stop-full");
    const fs::path window = scratch_path("zngsim-cli-stop-window");
    const fs::path late = scratch_path("zngsim-cli-stop-late");
    auto stats = [](const fs::path& dir) {
        std::ifstream in(dir / "stats.json");
        return nlohmann::json::parse(in);
    };
    ASSERT_EQ(zngsim(run_args("ideal", "deg") + " -q --out " + full.string()).code, 0);
    Result r = zngsim(run_args("ideal", "deg") + " --out " + window.string() + " --set run.stop_at=20us");
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("stopped         at run.stop_at = 20us"), std::string::npos) << r.output;
    const auto whole = stats(full), part = stats(window);
    EXPECT_FALSE(whole.contains("stopped_at_ps"));
    EXPECT_EQ(part["sim_time_ps"].get<uint64_t>(), 20'000'000u);
    EXPECT_EQ(part["stopped_at_ps"].get<uint64_t>(), 20'000'000u);
    const auto& g = part["stats"]["gpu"];
    const double instructions = g["instructions"].get<double>();
    EXPECT_GT(instructions, 0.0);
    EXPECT_LT(instructions, whole["stats"]["gpu"]["instructions"].get<double>());
    EXPECT_EQ(g["cycles"].get<uint64_t>(), 24'001u);
    EXPECT_EQ(g["app"]["deg"]["cycles"].get<uint64_t>(), 24'001u);
    EXPECT_DOUBLE_EQ(g["ipc"].get<double>(), instructions / 24'001.0);
    EXPECT_DOUBLE_EQ(g["app"]["deg"]["ipc"].get<double>(), instructions / 24'001.0);

    ASSERT_EQ(zngsim(run_args("ideal", "deg") + " -q --out " + late.string() + " --set run.stop_at=1s")
                  .code,
              0);
    const auto after = stats(late);
    EXPECT_FALSE(after.contains("stopped_at_ps"));
    EXPECT_EQ(after["sim_time_ps"], whole["sim_time_ps"]);
    EXPECT_EQ(after["stats"], whole["stats"]);

    const fs::path flash = scratch_path("zngsim-cli-stop-flash");
    Result z = zngsim(run_args("zng", "gaus") + " -q --out " +
                      flash.string() + " --set run.stop_at=200us");
    ASSERT_EQ(z.code, 0) << z.output;
    const auto zs = stats(flash);
    EXPECT_EQ(zs["stopped_at_ps"].get<uint64_t>(), 200'000'000u);
    EXPECT_GT(zs["stats"]["memory"]["senses"].get<double>(), 0.0);
}

// `run --input` takes a GraphBIG CSR directory, as its help says (and `trace gen` does).
TEST(Cli, RunTakesAGraphBigDirectory) {
    const fs::path dir = scratch_path("zngsim-cli-csr");
    fs::create_directories(dir);
    auto write = [&](const char* name, std::vector<uint64_t> v) {
        std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 8));
    };
    write("vertex.CSR", {0, 1, 2, 3});  // a 3-vertex cycle
    write("edge.CSR", {1, 2, 0});
    Result r = zngsim(run_args("ideal", "deg") + " --input " +
                          dir.string() + " -q --out " + scratch_path("zngsim-cli-csr-out").string(),
                      "ZNGSIM_CACHE=" + scratch_path("zngsim-cli-cache").string() + " ");
    EXPECT_EQ(r.code, 0) << r.output;
}

// Long trace steps show a progress line on a terminal (forced here with
// ZNGSIM_PROGRESS=1, as stderr is a pipe) and nothing in a log.
TEST(Cli, TraceStepsShowProgressOnATerminalOnly) {
    const std::string ztr = scratch_path("zngsim-cli-progress.ztr").string();
    Result gen = zngsim("trace gen --workload deg -o " + ztr, "ZNGSIM_PROGRESS=1 ");
    ASSERT_EQ(gen.code, 0) << gen.output;
    EXPECT_NE(gen.output.find("\rtrace gen deg: "), std::string::npos) << gen.output;
    EXPECT_NE(gen.output.find(" MiB written"), std::string::npos) << gen.output;
    Result info = zngsim("trace info " + ztr, "ZNGSIM_PROGRESS=1 ");
    ASSERT_EQ(info.code, 0) << info.output;
    EXPECT_NE(info.output.find("\rtrace info: kernel "), std::string::npos) << info.output;
    for (const std::string& args : {"trace gen --workload deg -o " + ztr, "trace info " + ztr}) {
        Result quiet = zngsim(args);
        EXPECT_EQ(quiet.output.find('\r'), std::string::npos) << args << ": " << quiet.output;
    }
}

// `config validate --apps N` builds what a run of N co-running applications builds:
// ZnG's app_planes placement splits the 8 planes of a die evenly, so 2 applications
// pass and 3 are refused at the key; 17 applications cannot each have one of 16 SMs.
TEST(Cli, ValidateBuildsThePlatformForItsApplications) {
    const std::string cfg = std::string(ZNG_SOURCE_DIR) + "/configs/";
    EXPECT_EQ(zngsim("config validate " + cfg + "zng.yaml --apps 2").code, 0);
    Result three = zngsim("config validate " + cfg + "zng.yaml --apps 3");
    expect_config_error(three, "translation.placement");
    Result many = zngsim("config validate " + cfg + "ideal.yaml --apps 17");
    EXPECT_EQ(many.code, 2) << many.output;
    EXPECT_NE(many.output.find("17 applications cannot share 16 SMs"), std::string::npos) << many.output;
}

}  // namespace
