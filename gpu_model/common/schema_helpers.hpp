// Short constructors for the parameter specs of the GPU model's schemas.
#pragma once
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/params.hpp"

namespace zng::gpu {

inline ParamSpec uint_param(std::string key, std::string def, std::string desc, double min = 0,
                            double max = std::numeric_limits<double>::infinity()) {
    ParamSpec s;
    s.key = std::move(key);
    s.type = ParamType::UInt;
    s.default_value = std::move(def);
    s.description = std::move(desc);
    s.min = min;
    s.max = max;
    return s;
}

inline ParamSpec typed_param(std::string key, ParamType type, std::string def, std::string desc, double min = 0,
                             double max = std::numeric_limits<double>::infinity()) {
    ParamSpec s = uint_param(std::move(key), std::move(def), std::move(desc), min, max);
    s.type = type;
    return s;
}

inline ParamSpec choice_param(std::string key, std::string def, std::vector<std::string> choices, std::string desc) {
    ParamSpec s;
    s.key = std::move(key);
    s.type = ParamType::Choice;
    s.default_value = std::move(def);
    s.description = std::move(desc);
    s.choices = std::move(choices);
    return s;
}

inline ParamSpec section_param(std::string key, std::string desc) {
    ParamSpec s;
    s.key = std::move(key);
    s.type = ParamType::Section;
    s.description = std::move(desc);
    return s;
}

}  // namespace zng::gpu
