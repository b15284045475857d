// Short builders for the ParamSpecs of mmu_ftl's component schemas.
#pragma once
#include <limits>
#include <string>
#include <vector>

#include "sim/config/params.hpp"

namespace zng::ftl_schema {

inline ParamSpec param(std::string key, ParamType type, std::string def, std::string desc,
                       double min = -std::numeric_limits<double>::infinity(),
                       double max = std::numeric_limits<double>::infinity()) {
    ParamSpec p;
    p.key = std::move(key);
    p.type = type;
    p.default_value = std::move(def);
    p.description = std::move(desc);
    p.min = min;
    p.max = max;
    return p;
}

inline ParamSpec choice(std::string key, std::string def, std::vector<std::string> choices, std::string desc) {
    ParamSpec p = param(std::move(key), ParamType::Choice, std::move(def), std::move(desc));
    p.choices = std::move(choices);
    return p;
}

inline ParamSpec section(std::string key, std::string desc) {
    return param(std::move(key), ParamType::Section, "", std::move(desc));
}

}  // namespace zng::ftl_schema
