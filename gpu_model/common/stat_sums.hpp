// Totals over replicated components (all SMs' L1D hits, all L2 banks' misses): a
// Formula summing stats that are already registered, found by name once.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/stats/stats.hpp"

namespace zng::gpu {

// Registers `name` = sum of prefix_i + "." + stat over the given prefixes; returns a
// function computing the same sum (to build ratios on top).
std::function<double()> add_sum_formula(StatGroup g, const std::string& name, const std::string& desc,
                                        const std::vector<std::string>& prefixes, const std::string& stat);

// Registers `name` = num / (num + other...) with 0 when the denominator is 0.
void add_ratio_formula(StatGroup g, const std::string& name, const std::string& desc,
                       std::function<double()> num, std::vector<std::function<double()>> rest);

}  // namespace zng::gpu
