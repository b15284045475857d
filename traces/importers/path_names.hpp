// Names the importers take from paths (a trace directory names its workload, a kernel
// directory its kernel).
#pragma once

#include <filesystem>
#include <string>

namespace zng::importers {

// Last component of `dir` after normalising it, so "a/b/", "a/b/." and "." resolve to
// the directory's real name.
inline std::string directory_name(const std::filesystem::path& dir) {
    std::filesystem::path p = std::filesystem::absolute(dir).lexically_normal();
    if (!p.has_filename()) p = p.parent_path();
    return p.filename().string();
}

}  // namespace zng::importers
