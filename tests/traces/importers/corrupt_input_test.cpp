// Corrupted copies of real traces (cut at many points, bytes overwritten) must either
// import or fail with a TraceError: never crash, hang or throw anything else.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "importer_test_support.hpp"
#include "traces/importers/importers.hpp"

namespace zng::importers {
namespace {

using namespace testing;
namespace fs = std::filesystem;

std::string read_bytes(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// 0 = imported, 1 = TraceError; anything else fails the test.
int try_import(ForeignFormat f, const std::string& dir) {
    try {
        auto src = open_foreign_trace(f, dir);
        decode_all(*src);
        return 0;
    } catch (const trace::TraceError&) {
        return 1;
    }
}

constexpr size_t kRecordBytes = 64;  // MacSim nvbit record

TEST(CorruptInput, AccelSimTextCutAndOverwritten) {
    const std::string real = std::string(ZNG_SHARED_DIR) + "/testdata/accelsim/vectoradd-100-32";
    if (!fs::exists(real)) GTEST_SKIP() << "needs ../shared/testdata/accelsim/vectoradd-100-32";
    const std::string text = read_bytes(real + "/kernel-1.traceg");
    TempDir d;
    write_text(d.file("kernelslist.g"), "kernel-1.traceg\n");
    int errors = 0, runs = 0;
    for (size_t cut = 0; cut < text.size(); cut += 97) {
        write_text(d.file("kernel-1.traceg"), text.substr(0, cut));
        errors += try_import(ForeignFormat::AccelSim, d.path().string());
        ++runs;
    }
    std::mt19937 rng(12345);
    const char junk[] = {' ', '\n', '0', 'f', 'x', '-', '#', '=', ',', 'Z', '\0', '9'};
    for (int i = 0; i < 150; ++i) {
        std::string t = text;
        for (int k = 0; k < 3; ++k) t[rng() % t.size()] = junk[rng() % sizeof(junk)];
        write_text(d.file("kernel-1.traceg"), t);
        errors += try_import(ForeignFormat::AccelSim, d.path().string());
        ++runs;
    }
    // Most corruptions are caught (a few land in ignored places, such as header values
    // the importer does not use, or keep the line valid).
    EXPECT_GT(errors, runs / 2);
}

TEST(CorruptInput, MacSimRecordsOverwritten) {
    const std::string real = std::string(ZNG_SHARED_DIR) + "/testdata/macsim-nvbit/vectormultadd/4096/Kernel1/trace_65540.raw";
    if (!fs::exists(real)) GTEST_SKIP() << "needs ../shared/testdata/macsim-nvbit/vectormultadd/4096";
    // One real warp stream (14 records) as the only warp of a one-kernel trace.
    const std::vector<uint8_t> records = read_gzip(real);
    ASSERT_EQ(records.size(), 14u * kRecordBytes);
    TempDir d;
    write_text(d.file("kernel_config.txt"), "nvbit 14 -1 ./K/trace.txt\n");
    write_text(d.file("K/trace.txt"), "nvbit 14 16 1\n0 0\n");
    write_gzip(d.file("K/trace_0.raw"), records);
    ASSERT_EQ(try_import(ForeignFormat::MacSim, d.path().string()), 0);

    std::mt19937 rng(99);
    int errors = 0, runs = 0;
    for (int i = 0; i < 200; ++i, ++runs) {
        std::vector<uint8_t> bytes = records;
        for (int k = 0; k < 4; ++k) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
        if (i % 5 == 0) bytes.resize(rng() % bytes.size());  // cut anywhere, records included
        write_gzip(d.file("K/trace_0.raw"), bytes);
        errors += try_import(ForeignFormat::MacSim, d.path().string());
    }
    // Cuts inside a record and overwritten access sizes are caught; most other bytes
    // (registers, masks, addresses) stay valid values.
    EXPECT_GT(errors, 0);
    EXPECT_LT(errors, runs);
}

}  // namespace
}  // namespace zng::importers
