#include "sim/stats/stats.hpp"

#include <bit>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/memory_budget.hpp"

namespace zng {

namespace {
// JSON has no infinities or NaNs: report an absent mean as null.
nlohmann::ordered_json number(double v) {
    if (std::isfinite(v)) return v;
    return nullptr;
}
}  // namespace

nlohmann::ordered_json Counter::to_json() const { return v_; }

nlohmann::ordered_json Average::to_json() const {
    nlohmann::ordered_json j;
    j["mean"] = number(mean());
    j["count"] = n_;
    j["min"] = n_ ? number(min_) : nullptr;
    j["max"] = n_ ? number(max_) : nullptr;
    return j;
}

Histogram::Histogram(std::string name, std::string desc, std::string unit, uint64_t bucket_width, uint32_t buckets,
                     bool log2)
    : Stat(std::move(name), std::move(desc), std::move(unit)),
      width_(bucket_width ? bucket_width : 1),
      log2_(log2),
      counts_(buckets + 1, 0) {}

void Histogram::sample(uint64_t x, uint64_t weight) {
    size_t b = log2_ ? (x == 0 ? 0 : static_cast<size_t>(std::bit_width(x))) : static_cast<size_t>(x / width_);
    if (b >= counts_.size() - 1) b = counts_.size() - 1;
    counts_[b] += weight;
    n_ += weight;
    sum_ += static_cast<unsigned __int128>(x) * weight;
    if (x < min_) min_ = x;
    if (x > max_) max_ = x;
}

nlohmann::ordered_json Histogram::to_json() const {
    nlohmann::ordered_json j;
    j["count"] = n_;
    j["mean"] = number(mean());
    j["min"] = n_ ? nlohmann::ordered_json(min_) : nlohmann::ordered_json(nullptr);
    j["max"] = n_ ? nlohmann::ordered_json(max_) : nlohmann::ordered_json(nullptr);
    nlohmann::ordered_json buckets = nlohmann::ordered_json::array();
    for (size_t i = 0; i < counts_.size(); ++i) {
        if (!counts_[i]) continue;
        uint64_t lo, hi;
        if (log2_) {
            lo = i == 0 ? 0 : (1ull << (i - 1));
            hi = i == 0 ? 1 : (i >= 64 ? ~0ull : (1ull << i));
        } else {
            lo = i * width_;
            hi = (i + 1) * width_;
        }
        bool overflow = i == counts_.size() - 1;
        buckets.push_back({{"lo", lo}, {"hi", overflow ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(hi)},
                           {"count", counts_[i]}});
    }
    j["buckets"] = buckets;
    return j;
}

nlohmann::ordered_json Formula::to_json() const { return number(f_()); }

template <class T, class... A>
T& StatRegistry::add(const std::string& name, const std::string& desc, const std::string& unit, A&&... a) {
    if (by_name_.count(name)) throw std::logic_error("statistic '" + name + "' registered twice");
    // stats.meta.json and `zngsim stats describe` document every value a run writes.
    if (desc.empty() || unit.empty())
        throw std::logic_error("statistic '" + name + "' registered without a " + (desc.empty() ? "description" : "unit"));
    if (budget_) {
        // The statistic, its copies of name, description and unit, and its map node and
        // list slots (an estimate of the allocator's share).
        constexpr size_t kIndexBytes = 96;
        budget_->reserve(1, sizeof(T) + 2 * name.size() + desc.size() + unit.size() + kIndexBytes, "statistics");
    }
    auto p = std::make_unique<T>(name, desc, unit, std::forward<A>(a)...);
    T& ref = *p;
    owned_.push_back(std::move(p));
    order_.push_back(&ref);
    by_name_[name] = &ref;
    return ref;
}

Counter& StatRegistry::counter(const std::string& n, const std::string& d, const std::string& u) {
    return add<Counter>(n, d, u);
}
Average& StatRegistry::average(const std::string& n, const std::string& d, const std::string& u) {
    return add<Average>(n, d, u);
}
Histogram& StatRegistry::histogram(const std::string& n, const std::string& d, const std::string& u, uint64_t w,
                                   uint32_t b, bool log2) {
    if (budget_) budget_->reserve(b, sizeof(uint64_t), "statistics' histogram buckets");
    return add<Histogram>(n, d, u, w, b, log2);
}
Formula& StatRegistry::formula(const std::string& n, const std::string& d, const std::string& u,
                               std::function<double()> f) {
    return add<Formula>(n, d, u, std::move(f));
}

const Stat* StatRegistry::find(const std::string& name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
}

double StatRegistry::value(const std::string& name) const {
    const Stat* s = find(name);
    if (!s) throw std::out_of_range("no statistic named '" + name + "'");
    return s->value();
}

nlohmann::ordered_json StatRegistry::to_json() const {
    nlohmann::ordered_json root = nlohmann::ordered_json::object();
    // ordered_json finds a key by comparing it with each key of the object in turn. The
    // groups of the last name placed, outermost first, are kept: a component registers
    // its statistics together, so most names share their first groups with the one
    // before and these need no search. A group found here stays valid until its parent
    // object gets a new key, and a new key cuts the list at that parent.
    std::vector<std::pair<std::string_view, nlohmann::ordered_json*>> groups;
    for (const Stat* s : order_) {
        nlohmann::ordered_json* node = &root;
        const std::string& n = s->name();
        size_t start = 0, depth = 0;
        for (;; ++depth) {
            size_t dot = n.find('.', start);
            if (dot == std::string::npos) break;
            const std::string_view part(n.data() + start, dot - start);
            if (depth < groups.size() && groups[depth].first == part) {
                node = groups[depth].second;
            } else {
                groups.resize(depth);
                nlohmann::ordered_json& next = (*node)[std::string(part)];
                if (!next.is_object()) next = nlohmann::ordered_json::object();  // a value and a group share a name
                node = &next;
                groups.emplace_back(part, node);
            }
            start = dot + 1;
        }
        groups.resize(depth);  // the value's key is new in `node`, which moves its members
        (*node)[n.substr(start)] = s->to_json();
    }
    return root;
}

nlohmann::ordered_json StatRegistry::meta_json() const {
    nlohmann::ordered_json meta = nlohmann::ordered_json::object();
    // Names are unique (add refuses a second), so each entry is appended where
    // ordered_json's operator[] would first compare it with every key before it: that
    // made this quadratic, 131 M instructions for the 4,295 statistics of a GoFS platform.
    auto& entries = meta.get_ref<nlohmann::ordered_json::object_t&>();
    entries.reserve(order_.size());
    for (const Stat* s : order_)
        entries.emplace_back(s->name(), nlohmann::ordered_json{{"kind", s->kind()}, {"unit", s->unit()},
                                                               {"description", s->desc()}});
    return meta;
}

void StatRegistry::add_series_column(const std::string& name, std::function<double()> f) {
    series_names_.push_back(name);
    series_cols_.push_back(std::move(f));
}

void StatRegistry::sample_series(double time_us, std::vector<double>& row) const {
    row.clear();
    row.push_back(time_us);
    for (const auto& f : series_cols_) row.push_back(f());
}

}  // namespace zng
