// Shared pieces of the zngsim subcommands: exit codes, option parsing helpers.
#pragma once
#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace zng::cli {

namespace po = boost::program_options;

// Exit codes of every subcommand.
constexpr int kExitOk = 0;
constexpr int kExitSimError = 1;    // the simulation failed (a model rule, a bad trace)
constexpr int kExitUsage = 2;       // bad command line or configuration

// A usage error: printed with the subcommand's help hint, exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses argv (after the subcommand words) into vm; --help prints `desc` and returns
// false. Unknown options and missing values become UsageErrors.
bool parse(int argc, char** argv, const po::options_description& desc, po::variables_map& vm,
           const std::string& usage, const po::positional_options_description* pos = nullptr);

// Inputs and outputs named on the command line are checked before any work, so a typo
// is a usage error (exit 2) found at once, not a trace or simulation error after minutes.
// `option` names the flag in the message ("--trace", "FILE").
void require_input(const std::string& path, const std::string& option);
// The file can be created: its directory exists and is writable.
void require_output_file(const std::string& path, const std::string& option);

// The parts of a comma-separated list, as written (empty parts kept).
std::vector<std::string> split_commas(const std::string& s);

// Text for one cell of a markdown table: a bar (a choice list "a | b", a description
// naming alternatives) would end the cell, so it is escaped.
std::string markdown_cell(const std::string& text);

// Registers every component implementation of every library (explicit, since static
// libraries drop self-registering objects).
void register_all_components();

int cmd_run(int argc, char** argv);
int cmd_config(int argc, char** argv);
int cmd_stats(int argc, char** argv);
int cmd_trace(int argc, char** argv);
int cmd_workloads(int argc, char** argv);

}  // namespace zng::cli
