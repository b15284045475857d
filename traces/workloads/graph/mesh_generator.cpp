#include "traces/workloads/graph/mesh_generator.hpp"

#include <stdexcept>
#include <string>

namespace zng::workloads::graph {

CsrGraph generate_mesh3d(uint32_t nx, uint32_t ny, uint32_t nz) {
    if (nx == 0 || ny == 0 || nz == 0)
        throw std::invalid_argument("mesh3d: every side must be at least 1");
    const uint64_t n = uint64_t{nx} * ny * nz;
    if (n > (1ull << 32))
        throw std::invalid_argument("mesh3d: " + std::to_string(n) + " vertices exceed 2^32");
    // Neighbours come out in increasing id order directly (dz, dy, dx ascending), so
    // the CSR is written in one pass without sorting.
    CsrGraph g;
    g.offsets.reserve(n + 1);
    g.edges.reserve(n * 26);
    g.offsets.push_back(0);
    for (uint32_t z = 0; z < nz; ++z)
        for (uint32_t y = 0; y < ny; ++y)
            for (uint32_t x = 0; x < nx; ++x) {
                for (int dz = -1; dz <= 1; ++dz)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx) {
                            if (dx == 0 && dy == 0 && dz == 0) continue;
                            const int64_t xx = int64_t{x} + dx, yy = int64_t{y} + dy, zz = int64_t{z} + dz;
                            if (xx < 0 || yy < 0 || zz < 0 || xx >= nx || yy >= ny || zz >= nz) continue;
                            g.edges.push_back(static_cast<uint64_t>((zz * ny + yy) * nx + xx));
                        }
                g.offsets.push_back(g.edges.size());
            }
    return g;
}

}  // namespace zng::workloads::graph
