#include "sim/app/cli_common.hpp"

#include <iostream>

namespace zng::cli {

bool parse(int argc, char** argv, const po::options_description& desc, po::variables_map& vm,
           const std::string& usage, const po::positional_options_description* pos) {
    try {
        po::command_line_parser parser(argc, argv);
        parser.options(desc);
        if (pos) parser.positional(*pos);
        po::store(parser.run(), vm);
        if (vm.count("help")) {
            std::cout << usage << "\n\n" << desc << "\n";
            return false;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    return true;
}

}  // namespace zng::cli
