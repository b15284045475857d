// zngsim stats describe: every statistic a platform registers, from the registry that
// owns it (name, kind, unit, description), by building the platform without running it.
#include <fmt/format.h>

#include <iostream>

#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"

namespace zng::cli {

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
        for (const auto& [name, meta] : stats.items())
            std::cout << fmt::format("| `{}` | {} | {} | {} |\n", name, meta["kind"].get<std::string>(),
                                     meta["unit"].get<std::string>(),
                                     markdown_cell(meta["description"].get<std::string>()));
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
