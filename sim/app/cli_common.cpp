#include "sim/app/cli_common.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>

namespace zng::cli {

bool parse(int argc, char** argv, const po::options_description& desc, po::variables_map& vm,
           const std::string& usage, const po::positional_options_description* pos) {
    try {
        po::command_line_parser parser(argc, argv);
        parser.options(desc);
        // Without a positional description every bare word is an error, not silently ignored.
        const po::positional_options_description none;
        parser.positional(pos ? *pos : none);
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

void require_input(const std::string& path, const std::string& option) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw UsageError(option + " " + path + ": no such file or directory");
}

void require_output_file(const std::string& path, const std::string& option) {
    namespace fs = std::filesystem;
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty()) dir = ".";
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw UsageError(option + " " + path + ": is a directory, not a file");
    if (!fs::is_directory(dir, ec)) throw UsageError(option + " " + path + ": directory " + dir.string() + " does not exist");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw UsageError(option + " " + path + ": directory " + dir.string() + " is not writable");
}

std::string markdown_cell(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t c = s.find(',', start);
        out.push_back(s.substr(start, c == std::string::npos ? std::string::npos : c - start));
        if (c == std::string::npos) break;
        start = c + 1;
    }
    return out;
}

}  // namespace zng::cli
