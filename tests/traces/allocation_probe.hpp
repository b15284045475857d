// Watches operator new/delete of the test binary, so tests can prove that lengths read
// from a file are checked before memory is reserved, and that streaming keeps the
// live heap bounded.
#pragma once

#include <cstddef>

namespace zng::trace::testing {

void reset_largest_allocation();
size_t largest_allocation();   // largest single request since the last reset

void reset_peak_live();        // the peak restarts from the current live bytes
size_t live_bytes();
size_t peak_live_bytes();

}  // namespace zng::trace::testing
