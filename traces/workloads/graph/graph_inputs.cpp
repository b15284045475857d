#include "traces/workloads/graph/graph_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "traces/workloads/graph/graph_readers.hpp"
#include "traces/workloads/graph/kronecker_generator.hpp"
#include "traces/workloads/graph/mesh_generator.hpp"

namespace zng::workloads::graph {

GraphPreset graph_preset(const std::string& preset) {
    // small: a few MB, generated and traced in well under a second per workload.
    // paper: Kronecker scale 19 (524,288 vertices, ~15.7 M directed edges, ~130 MB of
    // CSR) and an 80^3 mesh (512,000 vertices, ~13.5 M edges, ~110 MB): several
    // times the 24 MB L2, so the traces exercise the flash.
    if (preset == "small") return GraphPreset{13, 16, 24};
    if (preset == "paper") return GraphPreset{19, 16, 80};
    throw std::invalid_argument("graph preset '" + preset + "' is not one of: small, paper");
}

CsrGraph workload_graph(const WorkloadOptions& o, GraphKind kind) {
    if (!o.input.empty()) {
        CsrBuildOptions opt;
        opt.symmetrize = true;
        opt.drop_self_loops = true;
        opt.dedup = true;
        CsrGraph g = load_graph(o.input, opt);
        if (g.vertex_count() == 0) throw GraphInputError(o.input + ": the graph has no vertices");
        return g;
    }
    const GraphPreset p = graph_preset(o.preset);
    if (kind == GraphKind::Mesh) {
        uint32_t side = p.mesh_side;
        if (o.scale > 0) {
            if (o.scale > 32) throw std::invalid_argument("workload option 'scale': at most 32");
            side = static_cast<uint32_t>(std::lround(std::cbrt(std::ldexp(1.0, o.scale))));
        }
        return generate_mesh3d(side, side, side);
    }
    KroneckerParams k;
    k.scale = o.scale > 0 ? o.scale : p.kronecker_scale;
    k.edge_factor = o.edge_factor > 0 ? o.edge_factor : p.kronecker_edge_factor;
    k.seed = o.seed;
    return generate_kronecker(k);
}

Sweep bfs_sweep(const CsrGraph& g, uint64_t root) {
    std::vector<uint32_t> dist(g.vertex_count(), UINT32_MAX);
    std::vector<uint64_t> queue;
    queue.reserve(g.vertex_count());
    dist[root] = 0;
    queue.push_back(root);
    Sweep s{0, root};
    for (size_t head = 0; head < queue.size(); ++head) {
        const uint64_t u = queue[head];
        if (dist[u] > s.eccentricity || (dist[u] == s.eccentricity && u > s.farthest))
            s = Sweep{dist[u], u};
        for (uint64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i) {
            const uint64_t w = g.edges[i];
            if (dist[w] == UINT32_MAX) {
                dist[w] = dist[u] + 1;
                queue.push_back(w);
            }
        }
    }
    return s;
}

namespace {

// Vertices by decreasing degree, then decreasing id.
std::vector<uint64_t> by_degree(const CsrGraph& g) {
    if (g.edge_count() == 0) throw std::invalid_argument("graph has no edges: no traversal root");
    std::vector<uint64_t> order(g.vertex_count());
    std::iota(order.begin(), order.end(), uint64_t{0});
    std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
        return g.degree(a) != g.degree(b) ? g.degree(a) > g.degree(b) : a > b;
    });
    return order;
}

}  // namespace

uint64_t peripheral_root(const CsrGraph& g) {
    const uint64_t hub = by_degree(g).front();
    return bfs_sweep(g, bfs_sweep(g, hub).farthest).farthest;
}

uint64_t hub_root(const CsrGraph& g) { return by_degree(g).front(); }

uint64_t central_root(const CsrGraph& g, uint32_t depth) {
    const std::vector<uint64_t> order = by_degree(g);
    // Each try is a BFS over the whole graph: a few dozen keep large inputs cheap.
    const size_t tries = std::min<size_t>(order.size(), 32);
    uint64_t deeper = order.front();
    bool have_deeper = false;
    for (size_t i = 0; i < tries && g.degree(order[i]) > 0; ++i) {
        const uint32_t ecc = bfs_sweep(g, order[i]).eccentricity;
        if (ecc == depth) return order[i];
        if (ecc > depth && !have_deeper) {
            deeper = order[i];
            have_deeper = true;
        }
    }
    return deeper;
}

}  // namespace zng::workloads::graph
