// Readers for real graphs: SNAP / plain edge lists, MatrixMarket coordinate files and
// GraphBIG's binary CSR pair (vertex.CSR + edge.CSR).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "traces/workloads/graph/csr_graph.hpp"

namespace zng::workloads::graph {

// Malformed or unreadable input; what() starts with "file:line:" (or "file: entry N")
// so the user can find the offending record.
struct GraphInputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Edge list: one edge "u v" per line, separated by blanks, tabs, ',', ';' or '|'; extra
// columns (weights, timestamps) are ignored. Lines starting with '#' or '%' are
// comments, blank lines are skipped, and a non-numeric first line is a column header
// (e.g. LDBC's "Person.id|Person.id"). Vertex ids may be any unsigned 64-bit numbers:
// they are relabelled 0..n-1 in ascending order of the original id, so ids absent from
// every edge take no space. `original_ids`, when given, receives the original id of
// each new label.
CsrGraph read_edge_list(const std::string& path, const CsrBuildOptions& opt,
                        std::vector<uint64_t>* original_ids = nullptr);

// MatrixMarket "matrix coordinate" files (real, integer, pattern or complex; general,
// symmetric, skew-symmetric or hermitian). Entry (i, j) is the edge i-1 -> j-1;
// symmetric kinds add j-1 -> i-1 for off-diagonal entries. The matrix must be square.
CsrGraph read_matrix_market(const std::string& path, const CsrBuildOptions& opt);

// GraphBIG CSR: raw little-endian uint64 arrays, vertex.CSR = V+1 offsets and
// edge.CSR = destinations. `path` is the directory holding both files (or either file).
// The graph is returned as stored (GraphBIG's own tools write it), after validation.
CsrGraph read_graphbig_csr(const std::string& path);

// The files load_graph(path) reads: vertex.CSR and edge.CSR of a GraphBIG directory (the
// path being the directory or either file), else the path itself. What a cache of
// traces generated from the graph must key on.
std::vector<std::string> graph_input_files(const std::string& path);

// Picks the reader from the path: a directory or a *.CSR file -> GraphBIG CSR, *.mtx ->
// MatrixMarket, anything else -> edge list. `opt` applies to the text formats.
CsrGraph load_graph(const std::string& path, const CsrBuildOptions& opt);

}  // namespace zng::workloads::graph
