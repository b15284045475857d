#include "gpu_model/common/stat_sums.hpp"

#include <stdexcept>

namespace zng::gpu {

std::function<double()> add_sum_formula(StatGroup g, const std::string& name, const std::string& desc,
                                        const std::vector<std::string>& prefixes, const std::string& stat) {
    std::vector<const Stat*> parts;
    for (const auto& p : prefixes) {
        const Stat* s = g.registry().find(p + "." + stat);
        if (!s) throw std::logic_error("sum of unknown statistic '" + p + "." + stat + "'");
        parts.push_back(s);
    }
    auto f = [parts] {
        double v = 0;
        for (const Stat* s : parts) v += s->value();
        return v;
    };
    // A total is counted in what its parts count.
    g.formula(name, desc, parts.empty() ? std::string("count") : parts.front()->unit(), f);
    return f;
}

void add_ratio_formula(StatGroup g, const std::string& name, const std::string& desc,
                       std::function<double()> num, std::vector<std::function<double()>> rest) {
    g.formula(name, desc, "ratio", [num, rest] {
        double n = num();
        double d = n;
        for (const auto& f : rest) d += f();
        return d > 0 ? n / d : 0.0;
    });
}

}  // namespace zng::gpu
