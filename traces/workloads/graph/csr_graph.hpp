// A graph in compressed sparse row form with GraphBIG's GPU element sizes: 64-bit
// vertex offsets (V+1 of them) and 64-bit edge destinations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zng::workloads::graph {

struct Edge {
    uint64_t src = 0;
    uint64_t dst = 0;
};

struct CsrGraph {
    std::vector<uint64_t> offsets;   // V+1 entries; edges of v are [offsets[v], offsets[v+1])
    std::vector<uint64_t> edges;     // destination vertex of every edge

    uint64_t vertex_count() const { return offsets.empty() ? 0 : offsets.size() - 1; }
    uint64_t edge_count() const { return edges.size(); }
    uint64_t degree(uint64_t v) const { return offsets[v + 1] - offsets[v]; }
    uint64_t max_degree() const;

    // Structural check (offsets start at 0, never decrease, end at edge_count; every
    // destination names a vertex). Throws std::runtime_error prefixed with `what`.
    void validate(const std::string& what) const;
    // True when every edge u->v has a matching v->u.
    bool is_symmetric() const;
};

struct CsrBuildOptions {
    bool symmetrize = false;       // add v->u for every u->v
    bool drop_self_loops = false;
    bool dedup = true;             // keep one copy of parallel edges
};

// Builds a CSR of `vertex_count` vertices from an edge list (consumed: the vector is
// reused as scratch). Neighbour lists come out sorted by destination, so the result
// depends only on the set (or multiset, without dedup) of edges, not their order.
CsrGraph build_csr(uint64_t vertex_count, std::vector<Edge>& edges, const CsrBuildOptions& opt);

}  // namespace zng::workloads::graph
