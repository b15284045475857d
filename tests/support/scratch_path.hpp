// A file or folder name under the system's temporary directory that no other test uses.
// ctest runs each test as its own process, several at once, so a fixed name such as
// "/tmp/fragment.yaml" lets one test read what another is still writing.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

namespace zng::test {

// "<tmp>/<stem>-<pid>-<n><extension>": unique per process and per call.
inline std::filesystem::path scratch_path(const std::string& stem, const std::string& extension = "") {
    static std::atomic<unsigned> calls{0};
    return std::filesystem::temp_directory_path() /
           (stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(calls.fetch_add(1)) + extension);
}

}  // namespace zng::test
