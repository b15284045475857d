#include "traces/importers/accelsim_kernel_list.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "traces/importers/line_reader.hpp"
#include "traces/importers/path_names.hpp"
#include "traces/importers/text_fields.hpp"

namespace zng::importers {

namespace fs = std::filesystem;
using trace::TraceError;

namespace {

// "MemcpyHtoD,0x00007f2b2d500000,400"
trace::ArrayInfo parse_memcpy(std::string_view line, const std::string& where, size_t index) {
    const size_t c1 = line.find(',');
    const size_t c2 = c1 == std::string_view::npos ? c1 : line.find(',', c1 + 1);
    if (c2 == std::string_view::npos || line.find(',', c2 + 1) != std::string_view::npos)
        throw TraceError(fmt::format("{}: expected 'MemcpyHtoD,<address>,<bytes>'", where));
    trace::ArrayInfo a;
    a.name = fmt::format("htod{}", index);
    if (!parse_uint(trim(line.substr(c1 + 1, c2 - c1 - 1)), a.base, 16))
        throw TraceError(fmt::format("{}: bad copy address '{}'", where, line.substr(c1 + 1, c2 - c1 - 1)));
    if (!parse_uint(trim(line.substr(c2 + 1)), a.size))
        throw TraceError(fmt::format("{}: bad copy size '{}'", where, line.substr(c2 + 1)));
    return a;
}

}  // namespace

AccelSimKernelList read_accelsim_kernel_list(const std::string& path) {
    AccelSimKernelList list;
    std::error_code ec;
    fs::path list_path = path;
    if (fs::is_directory(list_path, ec)) list_path /= "kernelslist.g";
    if (!fs::exists(list_path, ec)) throw TraceError(fmt::format("{}: no such file", list_path.string()));
    const fs::path dir = list_path.has_parent_path() ? list_path.parent_path() : fs::path(".");
    list.workload = directory_name(dir);

    const std::string name = list_path.filename().string();
    if (name.ends_with(".traceg") || name.ends_with(".traceg.xz")) {
        list.kernel_files.push_back(list_path.string());
        return list;
    }

    LineReader reader(open_plain_stream(list_path.string()));
    std::string_view raw;
    while (reader.next(raw)) {
        const std::string_view line = trim(raw);
        const std::string where = fmt::format("{}:{}", list_path.string(), reader.line_number());
        if (line.empty()) continue;
        if (line.starts_with("Memcpy")) {
            ++list.memcpy_lines;
            if (line.starts_with("MemcpyHtoD"))
                list.copies.push_back(parse_memcpy(line, where, list.copies.size()));
        } else if (line.starts_with("kernel")) {
            list.kernel_files.push_back((dir / std::string(line)).string());
        } else {
            throw TraceError(fmt::format("{}: unrecognised command '{}'", where, line));
        }
    }
    return list;
}

}  // namespace zng::importers
