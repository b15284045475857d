// Records the largest single operator-new request of the test binary, so tests can
// prove that lengths read from a file are checked before memory is reserved.
#pragma once

#include <cstddef>

namespace zng::trace::testing {

void reset_largest_allocation();
size_t largest_allocation();

}  // namespace zng::trace::testing
