// A resource outside the simulated node that every node of the job uses: the parallel
// file system (PFS), or the inter-node network. One node is simulated; the others are
// what `nodes` and `contention` express. The PFS's bandwidth is the job's aggregate,
// split evenly over its nodes (they issue the same I/O at the same time), and divided
// again by the traffic of other jobs: seed 004 I: "While the global PFS is shared by all
// concurrently running jobs, NLS is often exclusively used by the job running on the
// compute nodes"; IV-A (Summit): "baseline HDF5 does not scale due to interconnect
// contention from other jobs".
#pragma once
#include <cstdint>

#include "storage/bandwidth_server.hpp"

namespace zng::storage::cache_vol {

struct SharedTierSettings {
    double bandwidth = 0;    // bytes/s the job's nodes together get when no other job runs
    Tick latency = 0;        // per transfer, not occupying the tier
    uint32_t nodes = 1;      // nodes sharing `bandwidth` (this one and its peers)
    double contention = 1;   // >= 1: other jobs leave 1 / contention of it

    // This node's share: bandwidth / nodes / contention.
    double node_share() const { return bandwidth / nodes / contention; }
};

inline BandwidthServer node_share_server(const SharedTierSettings& s) {
    return BandwidthServer(s.node_share(), s.latency);
}

}  // namespace zng::storage::cache_vol
