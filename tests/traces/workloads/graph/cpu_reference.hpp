// Plain sequential CPU versions of the graph algorithms, written independently of
// the lockstep kernels, to check what the generators compute.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "traces/workloads/graph/csr_graph.hpp"

namespace zng::workloads::graph::reference {

constexpr uint32_t kUnreached = 0xffffff00u;

inline std::vector<uint32_t> bfs_levels(const CsrGraph& g, uint64_t root) {
    std::vector<uint32_t> level(g.vertex_count(), kUnreached);
    std::deque<uint64_t> queue{root};
    level[root] = 0;
    while (!queue.empty()) {
        const uint64_t u = queue.front();
        queue.pop_front();
        for (uint64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i)
            if (level[g.edges[i]] == kUnreached) {
                level[g.edges[i]] = level[u] + 1;
                queue.push_back(g.edges[i]);
            }
    }
    return level;
}

// Brandes' dependency accumulation for a single source: delta[v] = sum over
// successors w of sigma[v] / sigma[w] * (1 + delta[w]), in double precision.
inline std::vector<double> brandes_dependency(const CsrGraph& g, uint64_t s) {
    const uint64_t n = g.vertex_count();
    std::vector<int64_t> dist(n, -1);
    std::vector<double> sigma(n, 0.0), delta(n, 0.0);
    std::vector<uint64_t> order;
    std::deque<uint64_t> queue{s};
    dist[s] = 0;
    sigma[s] = 1.0;
    while (!queue.empty()) {
        const uint64_t v = queue.front();
        queue.pop_front();
        order.push_back(v);
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
            const uint64_t w = g.edges[i];
            if (dist[w] < 0) {
                dist[w] = dist[v] + 1;
                queue.push_back(w);
            }
            if (dist[w] == dist[v] + 1) sigma[w] += sigma[v];
        }
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const uint64_t v = *it;
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
            const uint64_t w = g.edges[i];
            if (dist[w] == dist[v] + 1) delta[v] += sigma[v] / sigma[w] * (1.0 + delta[w]);
        }
    }
    return delta;
}

// Pull-style power iteration in double with dangling mass spread uniformly.
inline std::vector<double> pagerank(const CsrGraph& g, double d, int iterations) {
    const uint64_t n = g.vertex_count();
    std::vector<double> rank(n, 1.0 / static_cast<double>(n)), next(n);
    for (int it = 0; it < iterations; ++it) {
        double dangling = 0.0;
        for (uint64_t v = 0; v < n; ++v)
            if (g.degree(v) == 0) dangling += rank[v];
        for (uint64_t v = 0; v < n; ++v) next[v] = (1.0 - d) / static_cast<double>(n) + d * dangling / static_cast<double>(n);
        for (uint64_t v = 0; v < n; ++v)
            for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i)
                next[g.edges[i]] += d * rank[v] / static_cast<double>(g.degree(v));
        rank.swap(next);
    }
    return rank;
}

}  // namespace zng::workloads::graph::reference
