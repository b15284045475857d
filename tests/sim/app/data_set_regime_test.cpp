// run.data_set_ratio: capacities sized against the applications' footprint.
#include "sim/app/data_set_regime.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/core/errors.hpp"
#include "support/trace_helpers.hpp"

namespace zng::cli {
namespace {

using gpu::testing::CtaRecords;
using gpu::testing::load;
using gpu::testing::make_trace;
using gpu::testing::store;

// `records` warp instructions, each touching 32 distinct 128 B lines (lane stride 128 B)
// at a fresh base: a footprint of records x 32 lines.
DataSetInput app_touching(const std::string& name, uint32_t records, uint64_t base) {
    return {name, [records, base] {
                CtaRecords cta(1);
                for (uint32_t i = 0; i < records; ++i)
                    cta[0].push_back(i % 2 ? store(0x10 + i, base + i * 4096ull, 128) : load(0x10 + i, base + i * 4096ull, 128));
                return std::unique_ptr<trace::TraceSource>(make_trace({cta}, 1));
            },
            ""};
}

DataSetInput never_opened() {
    return {"x", []() -> std::unique_ptr<trace::TraceSource> { throw std::logic_error("trace opened"); }, ""};
}

const char* kPlatform =
    "translation:\n"
    "  gpu_memory: 1GiB\n"
    "memory:\n"
    "  buffer_size: 512MiB\n"
    "run:\n"
    "  data_set_capacities: {translation.gpu_memory: 1, memory.buffer_size: 0.5}\n";

TEST(DataSetRegime, FootprintIsDistinctLinesOverAllApplications) {
    // 10 x 32 lines + 3 x 32 lines = 416 lines x 128 B = 53,248 B.
    EXPECT_EQ(data_set_bytes({app_touching("a", 10, 1 << 20), app_touching("b", 3, 1 << 24)}), 53248u);
}

TEST(DataSetRegime, CapacitiesFollowRatioTimesShareRoundedUpToPages) {
    ConfigNode root = parse_config_text(kPlatform, "platform.yaml");
    apply_override(root, "run.data_set_ratio=0.25");
    // Data set 10 x 32 x 128 = 40,960 B. gpu_memory: 0.25 x 1 x 40,960 = 10,240 B -> 3 pages
    // = 12,288 B; buffer: 0.25 x 0.5 x 40,960 = 5,120 B -> 2 pages = 8,192 B.
    apply_data_set_regime(root, {app_touching("a", 10, 1 << 20)});
    EXPECT_EQ(root.find_path("translation.gpu_memory")->scalar(), "12288B");
    EXPECT_EQ(root.find_path("memory.buffer_size")->scalar(), "8192B");
}

TEST(DataSetRegime, ZeroRatioKeepsCapacitiesAndReadsNoTrace) {
    ConfigNode root = parse_config_text(kPlatform, "platform.yaml");
    apply_data_set_regime(root, {never_opened()});
    EXPECT_EQ(root.find_path("translation.gpu_memory")->scalar(), "1GiB");
    EXPECT_EQ(root.find_path("memory.buffer_size")->scalar(), "512MiB");
}

TEST(DataSetRegime, PlatformsHoldingEveryDataSetListNoCapacity) {
    // Ideal "employs extra large GPU DRAM to accommodate all the data sets": the ratio
    // changes nothing there and no trace is read.
    ConfigNode root = parse_config_text("memory: {capacity: 8GiB}\nrun: {data_set_ratio: 0.5}\n", "ideal.yaml");
    apply_data_set_regime(root, {never_opened()});
    EXPECT_EQ(root.find_path("memory.capacity")->scalar(), "8GiB");
}

TEST(DataSetRegime, BadEntriesNameTheFileAndKey) {
    ConfigNode unknown = parse_config_text(
        "translation: {gpu_memory: 1GiB}\nrun:\n  data_set_ratio: 0.5\n  data_set_capacities: {memory.dram.capacity: 1}\n",
        "p.yaml");
    try {
        apply_data_set_regime(unknown, {app_touching("a", 1, 0)});
        FAIL() << "an unset capacity key was accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("p.yaml:4"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("memory.dram.capacity"), std::string::npos) << e.what();
    }
    ConfigNode bad_share = parse_config_text(
        "translation: {gpu_memory: 1GiB}\nrun:\n  data_set_ratio: 0.5\n  data_set_capacities: {translation.gpu_memory: "
        "lots}\n",
        "p.yaml");
    EXPECT_THROW(apply_data_set_regime(bad_share, {app_touching("a", 1, 0)}), ConfigError);
    ConfigNode not_a_map = parse_config_text("run:\n  data_set_ratio: 0.5\n  data_set_capacities: 3\n", "p.yaml");
    EXPECT_THROW(apply_data_set_regime(not_a_map, {app_touching("a", 1, 0)}), ConfigError);
    ConfigNode negative = parse_config_text(kPlatform, "p.yaml");
    apply_override(negative, "run.data_set_ratio=-1");
    EXPECT_THROW(apply_data_set_regime(negative, {never_opened()}), ConfigError);
}

// A stand-in trace file: only its size and modification time matter to the footprint
// memory, the trace itself comes from the input's `open`.
struct TraceFileStandIn {
    std::string path = (std::filesystem::temp_directory_path() /
                        ("zng-footprint-" + std::to_string(::getpid()) + ".ztr"))
                           .string();
    TraceFileStandIn() { write("first contents"); }
    ~TraceFileStandIn() {
        std::filesystem::remove(path);
        std::filesystem::remove(footprint_file(path));
    }
    void write(const std::string& text) const { std::ofstream(path, std::ios::trunc) << text; }
};

DataSetInput with_file(DataSetInput in, const std::string& file) {
    in.trace_file = file;
    return in;
}

TEST(DataSetRegime, FootprintOfAnUnchangedTraceFileIsReadBackWithoutReadingTheTrace) {
    const TraceFileStandIn f;
    // 10 x 32 lines x 128 B = 40,960 B, computed from the trace and remembered.
    EXPECT_EQ(data_set_bytes({with_file(app_touching("a", 10, 1 << 20), f.path)}), 40960u);
    EXPECT_TRUE(std::filesystem::exists(footprint_file(f.path)));
    // The same file again: the remembered 40,960 B, and the trace is not opened.
    EXPECT_EQ(data_set_bytes({with_file(never_opened(), f.path)}), 40960u);
}

TEST(DataSetRegime, FootprintOfAChangedTraceFileIsComputedAgain) {
    const TraceFileStandIn f;
    EXPECT_EQ(data_set_bytes({with_file(app_touching("a", 10, 1 << 20), f.path)}), 40960u);
    f.write("other contents, of another size");
    // The remembered 40,960 B no longer applies: 3 x 32 x 128 = 12,288 B from the trace.
    EXPECT_EQ(data_set_bytes({with_file(app_touching("a", 3, 1 << 20), f.path)}), 12288u);
    EXPECT_THROW(data_set_bytes({with_file(never_opened(), "/nonexistent/zng-trace.ztr")}), std::logic_error);
}

}  // namespace
}  // namespace zng::cli
