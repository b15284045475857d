#include "traces/workloads/graph/graph_readers.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace zng::workloads::graph {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail_at(const std::string& path, uint64_t line, const std::string& msg) {
    throw GraphInputError(path + ":" + std::to_string(line) + ": " + msg);
}

std::ifstream open_or_fail(const std::string& path, std::ios::openmode mode = std::ios::in) {
    std::ifstream in(path, mode);
    if (!in) throw GraphInputError(path + ": cannot open for reading");
    return in;
}

bool is_separator(char c) {
    return c == ' ' || c == '\t' || c == ',' || c == ';' || c == '|' || c == '\r';
}

// Splits `line` at separators into at most `max` fields; returns how many were found
// (counting fields beyond `max` too, so callers can tell "too few" from "enough").
size_t split_fields(std::string_view line, std::string_view* fields, size_t max) {
    size_t n = 0, i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_separator(line[i])) ++i;
        if (i >= line.size()) break;
        size_t j = i;
        while (j < line.size() && !is_separator(line[j])) ++j;
        if (n < max) fields[n] = line.substr(i, j - i);
        ++n;
        i = j;
    }
    return n;
}

bool parse_u64(std::string_view s, uint64_t& out) {
    if (s.empty()) return false;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size();
}

std::string_view trim_left(std::string_view s) {
    size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    return s.substr(i);
}

std::string lower(std::string_view s) {
    std::string r(s);
    for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return r;
}

uint64_t file_size_or_fail(const std::string& path) {
    std::error_code ec;
    const uint64_t size = fs::file_size(path, ec);
    if (ec) throw GraphInputError(path + ": cannot read size (" + ec.message() + ")");
    return size;
}

}  // namespace

CsrGraph read_edge_list(const std::string& path, const CsrBuildOptions& opt,
                        std::vector<uint64_t>* original_ids) {
    std::ifstream in = open_or_fail(path);
    std::vector<Edge> edges;
    std::string line;
    uint64_t lineno = 0;
    bool seen_content = false;
    std::string_view fields[2];
    while (std::getline(in, line)) {
        ++lineno;
        const std::string_view body = trim_left(line);
        if (body.empty() || body[0] == '#' || body[0] == '%') continue;
        const size_t n = split_fields(body, fields, 2);
        if (n == 0) continue;
        const bool first = !seen_content;
        seen_content = true;
        uint64_t u = 0, v = 0;
        const bool ok = n >= 2 && parse_u64(fields[0], u) && parse_u64(fields[1], v);
        if (!ok) {
            if (first) continue;   // a column header such as "Person.id|Person.id"
            fail_at(path, lineno,
                    n < 2 ? "expected two vertex ids, found one field"
                          : "vertex ids must be unsigned integers, got '" + std::string(fields[0]) +
                                "' and '" + std::string(fields[1]) + "'");
        }
        edges.push_back(Edge{u, v});
    }
    if (in.bad()) throw GraphInputError(path + ": read error after line " + std::to_string(lineno));

    // Relabel by ascending original id.
    std::vector<uint64_t> ids;
    ids.reserve(2 * edges.size());
    for (const Edge& e : edges) {
        ids.push_back(e.src);
        ids.push_back(e.dst);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    ids.shrink_to_fit();
    auto label = [&](uint64_t id) {
        return static_cast<uint64_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
    };
    for (Edge& e : edges) e = Edge{label(e.src), label(e.dst)};
    const uint64_t n = ids.size();
    if (original_ids) *original_ids = std::move(ids);
    return build_csr(n, edges, opt);
}

CsrGraph read_matrix_market(const std::string& path, const CsrBuildOptions& opt) {
    std::ifstream in = open_or_fail(path);
    std::string line;
    uint64_t lineno = 1;
    if (!std::getline(in, line)) fail_at(path, 1, "empty file, expected a %%MatrixMarket banner");
    std::string_view banner[5];
    if (split_fields(line, banner, 5) < 5 || lower(banner[0]) != "%%matrixmarket")
        fail_at(path, 1, "expected '%%MatrixMarket matrix coordinate <field> <symmetry>'");
    if (lower(banner[1]) != "matrix") fail_at(path, 1, "object '" + std::string(banner[1]) +
                                                           "' is not supported (only 'matrix')");
    if (lower(banner[2]) != "coordinate")
        fail_at(path, 1, "format '" + std::string(banner[2]) +
                             "' is not supported (only sparse 'coordinate')");
    const std::string field = lower(banner[3]);
    if (field != "real" && field != "integer" && field != "pattern" && field != "complex")
        fail_at(path, 1, "unknown field '" + std::string(banner[3]) + "'");
    const std::string symmetry = lower(banner[4]);
    if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric" &&
        symmetry != "hermitian")
        fail_at(path, 1, "unknown symmetry '" + std::string(banner[4]) + "'");
    const bool mirror = symmetry != "general";

    // Size line: first line that is not a comment.
    uint64_t rows = 0, cols = 0, nnz = 0;
    bool have_size = false;
    std::string_view f[3];
    while (std::getline(in, line)) {
        ++lineno;
        const std::string_view body = trim_left(line);
        if (body.empty() || body[0] == '%') continue;
        if (split_fields(body, f, 3) != 3 || !parse_u64(f[0], rows) || !parse_u64(f[1], cols) ||
            !parse_u64(f[2], nnz))
            fail_at(path, lineno, "expected the size line 'rows cols entries'");
        have_size = true;
        break;
    }
    if (!have_size) fail_at(path, lineno, "missing the size line 'rows cols entries'");
    if (rows != cols)
        fail_at(path, lineno, "matrix is " + std::to_string(rows) + "x" + std::to_string(cols) +
                                  ", an adjacency matrix must be square");
    // Reserve no more than the file could hold (a line is at least 4 bytes), so a bogus
    // entry count cannot trigger a huge allocation.
    std::vector<Edge> edges;
    edges.reserve(std::min<uint64_t>(nnz, file_size_or_fail(path) / 4 + 1) * (mirror ? 2 : 1));
    const size_t want = field == "pattern" ? 2 : field == "complex" ? 4 : 3;
    uint64_t seen = 0;
    std::string_view e[4];
    while (std::getline(in, line)) {
        ++lineno;
        const std::string_view body = trim_left(line);
        if (body.empty() || body[0] == '%') continue;
        if (seen == nnz) fail_at(path, lineno, "more entries than the " + std::to_string(nnz) +
                                                   " declared in the size line");
        const size_t n = split_fields(body, e, 4);
        uint64_t i = 0, j = 0;
        if (n < want || !parse_u64(e[0], i) || !parse_u64(e[1], j))
            fail_at(path, lineno, "expected an entry 'row col" +
                                      std::string(want > 2 ? " value" : "") + "'");
        if (i < 1 || i > rows || j < 1 || j > cols)
            fail_at(path, lineno, "entry (" + std::to_string(i) + ", " + std::to_string(j) +
                                      ") outside the " + std::to_string(rows) + "x" +
                                      std::to_string(cols) + " matrix (indices are 1-based)");
        edges.push_back(Edge{i - 1, j - 1});
        if (mirror && i != j) edges.push_back(Edge{j - 1, i - 1});
        ++seen;
    }
    if (in.bad()) throw GraphInputError(path + ": read error after line " + std::to_string(lineno));
    if (seen != nnz)
        fail_at(path, lineno, "file ends after " + std::to_string(seen) + " of " +
                                  std::to_string(nnz) + " declared entries");
    return build_csr(rows, edges, opt);
}

namespace {

std::vector<uint64_t> read_u64_array(const std::string& path) {
    const uint64_t size = file_size_or_fail(path);
    if (size % 8 != 0)
        throw GraphInputError(path + ": size " + std::to_string(size) +
                              " bytes is not a whole number of uint64 entries");
    std::ifstream in = open_or_fail(path, std::ios::in | std::ios::binary);
    std::vector<uint64_t> v(size / 8);
    // The format is little-endian; this project only targets little-endian hosts.
    static_assert(std::endian::native == std::endian::little);
    if (!in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(size)))
        throw GraphInputError(path + ": short read");
    return v;
}

}  // namespace

namespace {
bool is_graphbig_csr(const fs::path& p) { return fs::is_directory(p) || lower(p.extension().string()) == ".csr"; }

std::pair<std::string, std::string> graphbig_files(const std::string& path) {
    fs::path dir(path);
    if (!fs::is_directory(dir)) dir = dir.parent_path();
    if (dir.empty()) dir = ".";
    return {(dir / "vertex.CSR").string(), (dir / "edge.CSR").string()};
}
}  // namespace

std::vector<std::string> graph_input_files(const std::string& path) {
    if (!is_graphbig_csr(path)) return {path};
    auto [v, e] = graphbig_files(path);
    return {v, e};
}

CsrGraph read_graphbig_csr(const std::string& path) {
    const auto [vfile, efile] = graphbig_files(path);
    CsrGraph g;
    g.offsets = read_u64_array(vfile);
    g.edges = read_u64_array(efile);
    if (g.offsets.empty()) throw GraphInputError(vfile + ": empty, expected V+1 offsets");
    // Report problems against the file that holds the bad entry.
    if (g.offsets.front() != 0)
        throw GraphInputError(vfile + ": entry 0 is " + std::to_string(g.offsets.front()) +
                              ", the first offset must be 0");
    for (size_t i = 1; i < g.offsets.size(); ++i)
        if (g.offsets[i] < g.offsets[i - 1] || g.offsets[i] > g.edges.size())
            throw GraphInputError(vfile + ": entry " + std::to_string(i) + " (" +
                                  std::to_string(g.offsets[i]) + ") is below the previous offset" +
                                  " or past the " + std::to_string(g.edges.size()) + " edges of " +
                                  efile);
    if (g.offsets.back() != g.edges.size())
        throw GraphInputError(vfile + ": last entry " + std::to_string(g.offsets.back()) +
                              " must equal the edge count " + std::to_string(g.edges.size()) +
                              " of " + efile);
    const uint64_t v = g.vertex_count();
    for (size_t i = 0; i < g.edges.size(); ++i)
        if (g.edges[i] >= v)
            throw GraphInputError(efile + ": entry " + std::to_string(i) + " points to vertex " +
                                  std::to_string(g.edges[i]) + ", but " + vfile + " has only " +
                                  std::to_string(v) + " vertices");
    return g;
}

CsrGraph load_graph(const std::string& path, const CsrBuildOptions& opt) {
    const fs::path p(path);
    if (!fs::exists(p)) throw GraphInputError(path + ": no such file or directory");
    const std::string ext = lower(p.extension().string());
    if (is_graphbig_csr(p)) return read_graphbig_csr(path);
    if (ext == ".mtx") return read_matrix_market(path, opt);
    return read_edge_list(path, opt);
}

}  // namespace zng::workloads::graph
