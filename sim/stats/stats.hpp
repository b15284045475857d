// Statistics. Components register counters, averages, histograms and formulas under
// hierarchical names ("l2.bank3.hits"); the registry owns them, so a component keeps a
// reference and bumps it on the hot path with no lookup. A run writes them all to
// stats.json (nested by name), and optional time series go to CSV.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace zng {

class Stat {
public:
    Stat(std::string name, std::string desc, std::string unit)
        : name_(std::move(name)), desc_(std::move(desc)), unit_(std::move(unit)) {}
    virtual ~Stat() = default;
    const std::string& name() const { return name_; }
    const std::string& desc() const { return desc_; }
    const std::string& unit() const { return unit_; }
    virtual nlohmann::ordered_json to_json() const = 0;
    virtual double value() const = 0;  // the headline number (count, mean, formula value)
    virtual const char* kind() const = 0;  // "counter", "average", "histogram", "formula"

private:
    std::string name_, desc_, unit_;
};

class Counter final : public Stat {
public:
    using Stat::Stat;
    Counter& operator++() { ++v_; return *this; }
    Counter& operator+=(uint64_t n) { v_ += n; return *this; }
    uint64_t get() const { return v_; }
    nlohmann::ordered_json to_json() const override;
    double value() const override { return static_cast<double>(v_); }
    const char* kind() const override { return "counter"; }

private:
    uint64_t v_ = 0;
};

// Mean (and min/max) of samples.
class Average final : public Stat {
public:
    using Stat::Stat;
    void sample(double x, uint64_t weight = 1) {
        sum_ += x * static_cast<double>(weight);
        n_ += weight;
        if (x < min_) min_ = x;
        if (x > max_) max_ = x;
    }
    uint64_t count() const { return n_; }
    double sum() const { return sum_; }
    double mean() const { return n_ ? sum_ / static_cast<double>(n_) : 0.0; }
    nlohmann::ordered_json to_json() const override;
    double value() const override { return mean(); }
    const char* kind() const override { return "average"; }

private:
    double sum_ = 0;
    uint64_t n_ = 0;
    double min_ = std::numeric_limits<double>::infinity();
    double max_ = -std::numeric_limits<double>::infinity();
};

// Histogram with buckets [0,w), [w,2w), ... up to `buckets` buckets plus an overflow
// bucket; or, with log2 = true, [0,1), [1,2), [2,4), [4,8), ...
class Histogram final : public Stat {
public:
    Histogram(std::string name, std::string desc, std::string unit, uint64_t bucket_width, uint32_t buckets,
              bool log2);
    void sample(uint64_t x, uint64_t weight = 1);
    uint64_t count() const { return n_; }
    double mean() const { return n_ ? static_cast<double>(sum_) / static_cast<double>(n_) : 0.0; }
    const std::vector<uint64_t>& buckets() const { return counts_; }
    nlohmann::ordered_json to_json() const override;
    double value() const override { return mean(); }
    const char* kind() const override { return "histogram"; }

private:
    uint64_t width_;
    bool log2_;
    std::vector<uint64_t> counts_;
    uint64_t n_ = 0;
    unsigned __int128 sum_ = 0;
    uint64_t min_ = std::numeric_limits<uint64_t>::max(), max_ = 0;
};

// A value computed from other stats when dumped (rates, ratios, bandwidths).
class Formula final : public Stat {
public:
    Formula(std::string name, std::string desc, std::string unit, std::function<double()> f)
        : Stat(std::move(name), std::move(desc), std::move(unit)), f_(std::move(f)) {}
    nlohmann::ordered_json to_json() const override;
    double value() const override { return f_(); }
    const char* kind() const override { return "formula"; }

private:
    std::function<double()> f_;
};

class MemoryBudget;

class StatRegistry {
public:
    // Every statistic registered from now on is charged to `budget` (run.memory_limit):
    // a component's statistics are its largest fixed cost, and a config can multiply
    // components (262,144 flash packages) past the host.
    void set_memory_budget(MemoryBudget* budget) { budget_ = budget; }
    Counter& counter(const std::string& name, const std::string& desc, const std::string& unit);
    Average& average(const std::string& name, const std::string& desc, const std::string& unit);
    Histogram& histogram(const std::string& name, const std::string& desc, const std::string& unit,
                         uint64_t bucket_width, uint32_t buckets, bool log2 = false);
    Formula& formula(const std::string& name, const std::string& desc, const std::string& unit,
                     std::function<double()> f);

    const Stat* find(const std::string& name) const;
    double value(const std::string& name) const;  // throws if absent
    const std::vector<Stat*>& all() const { return order_; }

    // Nested JSON object: "a.b.c" -> {"a": {"b": {"c": ...}}}.
    nlohmann::ordered_json to_json() const;
    // What every statistic is, by full name in registration order: {"kind", "unit",
    // "description"} (stats.meta.json, `zngsim stats describe`).
    nlohmann::ordered_json meta_json() const;

    // Time series: columns sampled every `interval` by the simulator (see Simulator).
    void add_series_column(const std::string& name, std::function<double()> f);
    bool has_series() const { return !series_cols_.empty(); }
    const std::vector<std::string>& series_names() const { return series_names_; }
    void sample_series(double time_us, std::vector<double>& row) const;

private:
    template <class T, class... A>
    T& add(const std::string& name, const std::string& desc, const std::string& unit, A&&... a);
    std::deque<std::unique_ptr<Stat>> owned_;
    std::vector<Stat*> order_;
    std::map<std::string, Stat*> by_name_;
    std::vector<std::string> series_names_;
    std::vector<std::function<double()>> series_cols_;
    MemoryBudget* budget_ = nullptr;
};

// A name prefix for a component's stats: StatGroup("l2.bank3").counter("hits", ...).
class StatGroup {
public:
    StatGroup(StatRegistry& r, std::string prefix) : r_(r), prefix_(std::move(prefix)) {}
    Counter& counter(const std::string& n, const std::string& d, const std::string& u) {
        return r_.counter(full(n), d, u);
    }
    Average& average(const std::string& n, const std::string& d, const std::string& u) {
        return r_.average(full(n), d, u);
    }
    Histogram& histogram(const std::string& n, const std::string& d, const std::string& u, uint64_t w, uint32_t b,
                         bool log2 = false) {
        return r_.histogram(full(n), d, u, w, b, log2);
    }
    Formula& formula(const std::string& n, const std::string& d, const std::string& u, std::function<double()> f) {
        return r_.formula(full(n), d, u, std::move(f));
    }
    StatGroup sub(const std::string& n) const { return StatGroup(r_, full(n)); }
    StatRegistry& registry() const { return r_; }
    std::string full(const std::string& n) const { return prefix_.empty() ? n : prefix_ + "." + n; }

private:
    StatRegistry& r_;
    std::string prefix_;
};

}  // namespace zng
