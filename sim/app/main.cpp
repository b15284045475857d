// zngsim: the command. Subcommands: run, config, trace, workloads.
#include <fmt/format.h>

#include <cstring>
#include <iostream>
#include <map>
#include <new>

#include "sim/app/cli_common.hpp"
#include "sim/app/version.hpp"
#include "sim/core/errors.hpp"
#include "traces/trace.hpp"

namespace {

const char* kUsage = R"(zngsim - a simulator of GPUs with Z-NAND flash memory (ZnG) and the platforms it is compared with

usage: zngsim <command> [options]      (zngsim <command> --help for each command's options)

commands:
  run        simulate a workload (built-in, a .ztr trace, or an Accel-Sim/MacSim trace) on a platform
  config     describe every parameter, validate or show a resolved config
  stats      describe every statistic a platform registers (name, kind, unit, description)
  trace      info, dump, gen (built-in workloads), import (Accel-Sim, MacSim)
  workloads  list the built-in workloads

exit codes: 0 ok, 1 simulation or trace error, 2 usage or configuration error)";

}  // namespace

int main(int argc, char** argv) {
    using namespace zng;
    using namespace zng::cli;
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        std::cout << kUsage << "\n";
        return argc < 2 ? kExitUsage : kExitOk;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "zngsim " << kVersion << "\n";
        return kExitOk;
    }
    const std::map<std::string, int (*)(int, char**)> commands = {
        {"run", cmd_run}, {"config", cmd_config}, {"stats", cmd_stats}, {"trace", cmd_trace}, {"workloads", cmd_workloads}};
    auto it = commands.find(argv[1]);
    if (it == commands.end()) {
        std::cerr << "zngsim: unknown command '" << argv[1] << "'\n\n" << kUsage << "\n";
        return kExitUsage;
    }
    try {
        return it->second(argc - 1, argv + 1);
    } catch (const UsageError& e) {
        std::cerr << "zngsim " << argv[1] << ": " << e.what() << " (see zngsim " << argv[1] << " --help)\n";
        return kExitUsage;
    } catch (const ConfigError& e) {
        std::cerr << "zngsim: configuration error: " << e.what() << "\n";
        return kExitUsage;
    } catch (const trace::TraceError& e) {
        std::cerr << "zngsim: trace error: " << e.what() << "\n";
        return kExitSimError;
    } catch (const SimError& e) {
        std::cerr << "zngsim: simulation error: " << e.what() << "\n";
        return kExitSimError;
    } catch (const std::bad_alloc&) {
        // Building a platform converts this into a configuration error naming the sizes;
        // here the simulation itself outgrew the host's memory.
        std::cerr << "zngsim: simulation error: out of memory while simulating\n";
        return kExitSimError;
    } catch (const std::invalid_argument& e) {
        std::cerr << "zngsim " << argv[1] << ": " << e.what() << "\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cerr << "zngsim: error: " << e.what() << "\n";
        return kExitSimError;
    }
}
