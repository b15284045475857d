#include "storage/control/bam_plane.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const Param<Time> kSqeWrite{"sqe_write_latency", "500ns",
                            "a GPU thread claiming a submission-queue slot (atomic on the queue tail) and writing "
                            "its 64 B entry into the queue in GPU memory (assumption: one global atomic and one "
                            "store at the A100's ~600-cycle memory latency)"};
}  // namespace

const ComponentSchema& BamSettings::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c;
        c.name = "bam";
        c.description = "BaM: GPU threads write NVMe submission entries into queues in GPU memory, ring doorbells "
                        "over PCIe and poll completions; data peer-to-peer into GPU memory.";
        c.params = ControlPlane::common_params();
        c.params.push_back(kSqeWrite);
        return c;
    }();
    return s;
}

BamSettings BamSettings::read(const Params& p) {
    BamSettings s;
    s.max_in_flight = ControlPlane::read_max_in_flight(p);
    s.sqe_write_latency = p[kSqeWrite];
    return s;
}

BamPlane::BamPlane(const StoragePath& path, const BamSettings& s)
    : ControlPlane(path, s.max_in_flight), s_(s), written_(path.sim, [this](Pending& p) { ring(p); }, "bam-sqe") {}

void BamPlane::submit(const StorageIoBatch& batch, StorageIoClient& client) {
    taken(batch.count);
    const Tick now = p_.sim.now();
    for (uint32_t i = 0; i < batch.count; ++i) {
        Pending p{command(batch.ios[i], IoMemory::Gpu), batch.ios[i], &client};
        // Threads of a warp share its queue pair (BaM assigns queues to warps).
        p.cmd.queue = batch.warp;
        written_.push(std::move(p), now + s_.sqe_write_latency);
    }
}

void BamPlane::ring(Pending& p) {
    const Tick taken_at = p_.sim.now() - s_.sqe_write_latency;
    p.cmd.done = [this, io = p.io, client = p.client, taken_at](IoRequest&) { finish(*client, io, taken_at); };
    issue(std::move(p.cmd));
}

}  // namespace zng::storage
