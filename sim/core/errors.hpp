// Error types that map to the command's exit codes: ConfigError -> 2 (usage/config),
// SimError -> 1 (a model rule was broken or the simulation could not go on).
#pragma once
#include <stdexcept>
#include <string>

namespace zng {

// Bad configuration or command line. The message names file, line and key.
struct ConfigError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A simulated hardware rule was violated (e.g. programming a non-free flash page),
// or the simulation reached an impossible state. The message gives the context.
struct SimError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace zng
