// The config loader: the input is a platform file, loaded and validated as `zngsim config
// validate FILE` does (YAML parse, includes, the top-level schema, then every component
// built for one application). The file sits beside links to everything in configs/, so
// the includes of the shipped platforms (fragments/..., zng-base.yaml) resolve.
// run.memory_limit is set to 64 MiB from the command line, as a user may: what building
// charges to it must then keep what it allocates well under the fuzzer's 512 MiB limit,
// beside the ~300 MiB a long fuzzing process holds under ASan (every shipped platform
// fits 64 MiB). What is not charged (small per-component objects) adds up to about 0.7x
// what is, so the limit leaves room for that too. A bad
// config must be a ConfigError; anything else thrown, a crash, a sanitizer report, a hang
// or more memory than the fuzzer's limit is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"
#include "sim/core/errors.hpp"

namespace fs = std::filesystem;

namespace {

fs::path config_dir() {
    const fs::path dir = zng::fuzz::scratch_dir() / "configs";
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(ZNG_SOURCE_DIR "/configs"))
        fs::create_symlink(e.path(), dir / e.path().filename());
    return dir;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    zng::cli::register_all_components();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const zng::fuzz::CpuTimeLimit cpu_limit;
    using namespace zng;
    static const fs::path path = config_dir() / "fuzz-input.yaml";
    fuzz::write_file(path, std::string_view(reinterpret_cast<const char*>(data), size));
    try {
        ConfigNode root = cli::load_platform_config(path.string(), {"run.memory_limit=64MiB"});
        (void)root.to_yaml();
        cli::validate_platform(root, 1);
    } catch (const ConfigError& e) {
        fuzz::refused(e.what());
    } catch (const std::exception& e) {
        fuzz::unexpected_exception("fuzz_config", e.what());
    }
    return 0;
}
