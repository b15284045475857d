#include "memory/param_spec.hpp"

namespace zng::memory {

ParamSpec param(const std::string& key, ParamType type, const std::string& default_value,
                const std::string& description, double min, double max) {
    ParamSpec s;
    s.key = key;
    s.type = type;
    s.default_value = default_value;
    s.description = description;
    s.min = min;
    s.max = max;
    return s;
}

ParamSpec choice_param(const std::string& key, const std::string& default_value, const std::string& description,
                       std::vector<std::string> choices) {
    ParamSpec s = param(key, ParamType::Choice, default_value, description);
    s.choices = std::move(choices);
    return s;
}

void append(std::vector<ParamSpec>& to, const std::vector<ParamSpec>& more) {
    to.insert(to.end(), more.begin(), more.end());
}

}  // namespace zng::memory
