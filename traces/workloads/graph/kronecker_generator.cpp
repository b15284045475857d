#include "traces/workloads/graph/kronecker_generator.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "traces/workloads/graph/random_stream.hpp"

namespace zng::workloads::graph {

CsrGraph generate_kronecker(const KroneckerParams& p) {
    if (p.scale < 1 || p.scale > 32)
        throw std::invalid_argument("kronecker: scale " + std::to_string(p.scale) +
                                    " outside 1..32");
    if (p.edge_factor < 1 || p.edge_factor > 1024)
        throw std::invalid_argument("kronecker: edge_factor " + std::to_string(p.edge_factor) +
                                    " outside 1..1024");
    const double d = 1.0 - p.a - p.b - p.c;
    if (p.a <= 0 || p.b < 0 || p.c < 0 || d < 0 || p.a + p.b >= 1.0)
        throw std::invalid_argument("kronecker: probabilities a/b/c must be >= 0, a > 0, "
                                    "a + b < 1 and a + b + c <= 1");

    const uint64_t n = 1ull << p.scale;
    const uint64_t m = static_cast<uint64_t>(p.edge_factor) * n;
    const double ab = p.a + p.b;
    const double a_norm = p.a / ab;            // P(column bit 0 | row bit 0)
    const double c_norm = p.c / (1.0 - ab);    // P(column bit 0 | row bit 1)

    RandomStream rng(p.seed);
    std::vector<Edge> edges(m);
    for (Edge& e : edges) {
        uint64_t row = 0, col = 0;
        for (int bit = 0; bit < p.scale; ++bit) {
            const bool row_bit = rng.next_double() > ab;
            const bool col_bit = rng.next_double() > (row_bit ? c_norm : a_norm);
            row |= static_cast<uint64_t>(row_bit) << bit;
            col |= static_cast<uint64_t>(col_bit) << bit;
        }
        e = Edge{row, col};
    }

    // Seeded Fisher-Yates permutation of the labels hides the generator's locality
    // (low ids would otherwise be the hubs).
    std::vector<uint64_t> perm(n);
    std::iota(perm.begin(), perm.end(), uint64_t{0});
    for (uint64_t i = n - 1; i > 0; --i) std::swap(perm[i], perm[rng.next_below(i + 1)]);
    for (Edge& e : edges) e = Edge{perm[e.src], perm[e.dst]};

    CsrBuildOptions opt;
    opt.symmetrize = true;
    opt.drop_self_loops = true;
    opt.dedup = true;
    return build_csr(n, edges, opt);
}

}  // namespace zng::workloads::graph
