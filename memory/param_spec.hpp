// Short builders for the schema entries the memory back ends declare.
#pragma once
#include <limits>
#include <string>
#include <vector>

#include "sim/config/params.hpp"

namespace zng::memory {

ParamSpec param(const std::string& key, ParamType type, const std::string& default_value,
                const std::string& description, double min = -std::numeric_limits<double>::infinity(),
                double max = std::numeric_limits<double>::infinity());
ParamSpec choice_param(const std::string& key, const std::string& default_value, const std::string& description,
                       std::vector<std::string> choices);
void append(std::vector<ParamSpec>& to, const std::vector<ParamSpec>& more);

}  // namespace zng::memory
