// zngsim stats describe: every statistic a platform registers, from the registry that
// owns it (name, kind, unit, description), by building the platform without running it.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <iostream>
#include <map>
#include <set>
#include <vector>

#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"

namespace zng::cli {

namespace {

// One row of the markdown reference: statistics that differ only in the index of some of
// their components (gpu.sm0.l1d.hits ... gpu.sm107.l1d.hits) and share kind, unit and
// description are listed once as gpu.sm{0..107}.l1d.hits, so a 108-SM platform's
// reference is as long as a 16-SM one's.
struct StatRow {
    std::string name;
    const nlohmann::ordered_json* meta;
};

// A name's components split into the text before a trailing index and the index
// ("sm12" -> "sm", 12; "l2" -> "l", 2; "hits" -> "hits", none).
struct Component {
    std::string stem;
    int64_t index = -1;
};

std::vector<Component> components(const std::string& name) {
    std::vector<Component> out;
    size_t start = 0;
    while (start <= name.size()) {
        size_t dot = name.find('.', start);
        if (dot == std::string::npos) dot = name.size();
        const std::string part = name.substr(start, dot - start);
        size_t digits = part.size();
        while (digits > 0 && std::isdigit(static_cast<unsigned char>(part[digits - 1]))) --digits;
        Component c{part, -1};
        // A component that is all digits, or whose index has a leading zero, stays text.
        if (digits > 0 && digits < part.size() && part.size() - digits <= 9 &&
            (part[digits] != '0' || part.size() - digits == 1)) {
            c.stem = part.substr(0, digits);
            c.index = std::stoll(part.substr(digits));
        }
        out.push_back(std::move(c));
        start = dot + 1;
    }
    return out;
}

std::vector<StatRow> collapse_indexed(const nlohmann::ordered_json& stats) {
    struct Group {
        std::vector<Component> first;
        std::vector<std::vector<int64_t>> indices;   // per member, per component
        const nlohmann::ordered_json* meta;
    };
    std::vector<Group> groups;
    std::map<std::string, size_t> by_key;
    for (const auto& [name, meta] : stats.items()) {
        std::vector<Component> cs = components(name);
        std::string key;
        for (const auto& c : cs) key += c.stem + (c.index >= 0 ? "#." : ".");
        key += "|" + meta.dump();
        auto [it, fresh] = by_key.emplace(key, groups.size());
        if (fresh) groups.push_back({cs, {}, &meta});
        std::vector<int64_t> idx;
        for (const auto& c : cs) idx.push_back(c.index);
        groups[it->second].indices.push_back(std::move(idx));
    }
    // Writes the group's name with component i as `index` (>= 0), or as lo..hi (-1).
    auto spell = [](const Group& g, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi,
                    const std::vector<int64_t>* member) {
        std::string name;
        for (size_t i = 0; i < g.first.size(); ++i) {
            if (i) name += '.';
            const Component& c = g.first[i];
            if (c.index < 0)
                name += c.stem;
            else if (member || lo[i] == hi[i])
                name += fmt::format("{}{}", c.stem, member ? (*member)[i] : lo[i]);
            else
                name += fmt::format("{}{{{}..{}}}", c.stem, lo[i], hi[i]);
        }
        return name;
    };
    std::vector<StatRow> rows;
    for (const Group& g : groups) {
        std::vector<int64_t> lo = g.indices.front(), hi = g.indices.front();
        for (const auto& m : g.indices)
            for (size_t i = 0; i < m.size(); ++i) lo[i] = std::min(lo[i], m[i]), hi[i] = std::max(hi[i], m[i]);
        // Ranges stand for every combination of their indices: only a group that holds
        // exactly those (distinct) members is written as one row.
        uint64_t combinations = 1;
        for (size_t i = 0; i < lo.size(); ++i)
            if (lo[i] >= 0) combinations *= static_cast<uint64_t>(hi[i] - lo[i] + 1);
        std::set<std::vector<int64_t>> distinct(g.indices.begin(), g.indices.end());
        if (distinct.size() == g.indices.size() && combinations == g.indices.size()) {
            rows.push_back({spell(g, lo, hi, nullptr), g.meta});
        } else {
            for (const auto& m : g.indices) rows.push_back({spell(g, lo, hi, &m), g.meta});
        }
    }
    return rows;
}

}  // namespace

int cmd_stats(int argc, char** argv) {
    const char* usage =
        "usage: zngsim stats describe --config FILE [--set key=value]... [--apps N] [--json | --format markdown]\n"
        "  statistics of one application are named after it; here the applications are {app0}, {app1}, ...";
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
        std::cout << usage << "\n";
        return argc < 2 ? kExitUsage : kExitOk;
    }
    const std::string sub = argv[1];
    po::options_description desc("zngsim stats options");
    desc.add_options()("help,h", "this help")("config,c", po::value<std::string>()->required(),
                                               "platform file (configs/<platform>.yaml)")(
        "set,s", po::value<std::vector<std::string>>(), "override a config key: --set gpu.l2.banks=4 (repeatable)")(
        "apps", po::value<uint32_t>()->default_value(1), "co-running applications to build the platform for")(
        "json", "print a JSON object (name -> kind, unit, description) instead of a table")(
        "format", po::value<std::string>()->default_value("text"), "text (a table) or markdown");
    po::variables_map vm;
    if (!parse(argc - 1, argv + 1, desc, vm, usage)) return kExitOk;
    if (sub != "describe") throw UsageError("unknown stats command '" + sub + "'");
    const uint32_t apps = vm["apps"].as<uint32_t>();
    if (apps == 0) throw UsageError("--apps must be at least 1");
    register_all_components();
    const std::vector<std::string> sets =
        vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
    const nlohmann::ordered_json stats =
        describe_platform_stats(load_platform_config(vm["config"].as<std::string>(), sets), apps);
    if (vm.count("json")) {
        std::cout << stats.dump(1) << "\n";
        return kExitOk;
    }
    const std::string format = vm["format"].as<std::string>();
    if (format == "markdown") {
        std::cout << "| name | kind | unit | description |\n|---|---|---|---|\n";
        for (const StatRow& row : collapse_indexed(stats)) {
            const auto& meta = *row.meta;
            std::cout << fmt::format("| `{}` | {} | {} | {} |\n", row.name, meta["kind"].get<std::string>(),
                                     meta["unit"].get<std::string>(),
                                     markdown_cell(meta["description"].get<std::string>()));
        }
        return kExitOk;
    }
    if (format != "text") throw UsageError("--format '" + format + "': expected text or markdown");
    size_t width = 4;
    for (const auto& [name, meta] : stats.items()) width = std::max(width, name.size());
    std::cout << fmt::format("{:<{}}  {:<9}  {:<12}  {}\n", "name", width, "kind", "unit", "description");
    for (const auto& [name, meta] : stats.items())
        std::cout << fmt::format("{:<{}}  {:<9}  {:<12}  {}\n", name, width, meta["kind"].get<std::string>(),
                                 meta["unit"].get<std::string>(), meta["description"].get<std::string>());
    return kExitOk;
}

}  // namespace zng::cli
