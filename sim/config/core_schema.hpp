// How the YAML 1.2 core schema types a plain (unquoted) scalar: the kinds and the
// patterns of its tag resolution (null, bool, int, float), matched by a scan rather
// than std::regex, whose matching and construction were a fifth of a small run's
// start-up and end (every config value is typed when run.json and stats.json are
// written).
#pragma once

#include <string_view>

namespace zng {

enum class PlainScalarKind { Null, True, False, Int, Float, String };

// null|Null|NULL|~, true|True|TRUE, false|False|FALSE, [-+]?[0-9]+,
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, else String. The core schema's
// .inf and .nan forms are left strings, as before.
PlainScalarKind classify_plain_scalar(std::string_view v);

}  // namespace zng
