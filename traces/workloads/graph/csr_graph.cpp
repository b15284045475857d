#include "traces/workloads/graph/csr_graph.hpp"

#include <algorithm>
#include <stdexcept>

namespace zng::workloads::graph {

uint64_t CsrGraph::max_degree() const {
    uint64_t best = 0;
    for (uint64_t v = 0; v < vertex_count(); ++v) best = std::max(best, degree(v));
    return best;
}

void CsrGraph::validate(const std::string& what) const {
    if (offsets.empty()) throw std::runtime_error(what + ": no vertex offsets (need V+1 entries)");
    if (offsets.front() != 0)
        throw std::runtime_error(what + ": offset 0 is " + std::to_string(offsets.front()) +
                                 ", must be 0");
    for (size_t i = 1; i < offsets.size(); ++i)
        if (offsets[i] < offsets[i - 1])
            throw std::runtime_error(what + ": offset " + std::to_string(i) + " (" +
                                     std::to_string(offsets[i]) + ") is below offset " +
                                     std::to_string(i - 1) + " (" + std::to_string(offsets[i - 1]) +
                                     ")");
    if (offsets.back() != edges.size())
        throw std::runtime_error(what + ": last offset is " + std::to_string(offsets.back()) +
                                 " but there are " + std::to_string(edges.size()) + " edges");
    const uint64_t v = vertex_count();
    for (size_t i = 0; i < edges.size(); ++i)
        if (edges[i] >= v)
            throw std::runtime_error(what + ": edge " + std::to_string(i) + " points to vertex " +
                                     std::to_string(edges[i]) + " but there are only " +
                                     std::to_string(v) + " vertices");
}

bool CsrGraph::is_symmetric() const {
    // Neighbour lists need not be sorted here, so look each reverse edge up linearly
    // only after sorting a copy of every list once.
    std::vector<uint64_t> sorted = edges;
    for (uint64_t u = 0; u < vertex_count(); ++u)
        std::sort(sorted.begin() + static_cast<int64_t>(offsets[u]),
                  sorted.begin() + static_cast<int64_t>(offsets[u + 1]));
    for (uint64_t u = 0; u < vertex_count(); ++u)
        for (uint64_t i = offsets[u]; i < offsets[u + 1]; ++i) {
            const uint64_t w = sorted[i];
            auto b = sorted.begin() + static_cast<int64_t>(offsets[w]);
            auto e = sorted.begin() + static_cast<int64_t>(offsets[w + 1]);
            if (!std::binary_search(b, e, u)) return false;
        }
    return true;
}

CsrGraph build_csr(uint64_t vertex_count, std::vector<Edge>& edges, const CsrBuildOptions& opt) {
    for (const Edge& e : edges)
        if (e.src >= vertex_count || e.dst >= vertex_count)
            throw std::invalid_argument("build_csr: edge " + std::to_string(e.src) + "->" +
                                        std::to_string(e.dst) + " outside " +
                                        std::to_string(vertex_count) + " vertices");
    if (opt.drop_self_loops)
        edges.erase(std::remove_if(edges.begin(), edges.end(),
                                   [](const Edge& e) { return e.src == e.dst; }),
                    edges.end());
    if (opt.symmetrize) {
        const size_t n = edges.size();
        edges.reserve(2 * n);
        for (size_t i = 0; i < n; ++i)
            if (edges[i].src != edges[i].dst) edges.push_back(Edge{edges[i].dst, edges[i].src});
    }

    // Counting sort by source, then sort (and optionally dedup) each neighbour list.
    CsrGraph g;
    g.offsets.assign(vertex_count + 1, 0);
    for (const Edge& e : edges) ++g.offsets[e.src + 1];
    for (uint64_t v = 0; v < vertex_count; ++v) g.offsets[v + 1] += g.offsets[v];
    g.edges.resize(edges.size());
    {
        std::vector<uint64_t> fill(g.offsets.begin(), g.offsets.end() - 1);
        for (const Edge& e : edges) g.edges[fill[e.src]++] = e.dst;
    }
    edges.clear();
    edges.shrink_to_fit();

    uint64_t out = 0;
    uint64_t row_begin = 0;
    for (uint64_t v = 0; v < vertex_count; ++v) {
        const uint64_t row_end = g.offsets[v + 1];
        auto b = g.edges.begin() + static_cast<int64_t>(row_begin);
        auto e = g.edges.begin() + static_cast<int64_t>(row_end);
        std::sort(b, e);
        if (opt.dedup) e = std::unique(b, e);
        const uint64_t kept = static_cast<uint64_t>(e - b);
        if (out != row_begin) std::copy(b, e, g.edges.begin() + static_cast<int64_t>(out));
        g.offsets[v] = out;
        out += kept;
        row_begin = row_end;
    }
    g.offsets[vertex_count] = out;
    g.edges.resize(out);
    g.edges.shrink_to_fit();
    return g;
}

}  // namespace zng::workloads::graph
