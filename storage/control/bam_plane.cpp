#include "storage/control/bam_plane.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const Param<Time> kSqeWrite{"sqe_write_latency", "500ns",
                            "a GPU thread claiming a submission-queue slot (atomic on the queue tail) and writing "
                            "its 64 B entry into the queue in GPU memory (assumption: one global atomic and one "
                            "store at the A100's ~600-cycle memory latency)"};
// Seed 000 II-C: "BaM needs to launch a large number of GPU thread blocks to submit
// enough in-flight I/O requests and poll the completion."
const Param<Time> kPollInterval =
    Param<Time>("poll_interval", "425ns",
                "time between a waiting GPU thread's reads of its completion entry in GPU memory: each read is one "
                "poll instruction of its warp, which stays resident and polling until its requests are complete "
                "(assumption: one volatile load per loop iteration at the A100's ~600-cycle global memory latency, "
                "600 / 1.41 GHz = 425 ns)")
        .range(kNanosecond, kSecond);
}  // namespace

const ComponentSchema& BamSettings::schema() {
    static const ComponentSchema s = ControlPlane::schema_of(
        "bam",
        "BaM: GPU threads write NVMe submission entries into queues in GPU memory, ring doorbells "
        "over PCIe and poll completions; data peer-to-peer into GPU memory.",
        {kSqeWrite, kPollInterval});
    return s;
}

BamSettings BamSettings::read(const Params& p) {
    BamSettings s;
    s.max_in_flight = ControlPlane::read_max_in_flight(p);
    s.sqe_write_latency = p[kSqeWrite];
    s.poll_interval = p[kPollInterval];
    return s;
}

BamPlane::BamPlane(const StoragePath& path, const BamSettings& s)
    : ControlPlane(path, s.max_in_flight), s_(s), written_(path.sim, [this](uint32_t& p) { ring(p); }, "bam-sqe") {}

void BamPlane::submit(const StorageIoBatch& batch, StorageIoClient& client) {
    taken(batch.count);
    const Tick now = p_.sim.now();
    for (uint32_t i = 0; i < batch.count; ++i) {
        uint32_t slot;
        if (!free_slots_.empty()) {
            slot = free_slots_.back();
            free_slots_.pop_back();
        } else {
            slot = static_cast<uint32_t>(slots_.size());
            slots_.emplace_back();
        }
        // Threads of a warp share its queue pair (BaM assigns queues to warps).
        slots_[slot] = Pending{batch.ios[i], &client, now, batch.warp};
        written_.push(slot, now + s_.sqe_write_latency);
    }
}

void BamPlane::ring(uint32_t slot) {
    IoRequest cmd = command(slots_[slot].io, IoMemory::Gpu);
    cmd.queue = slots_[slot].queue;
    cmd.done = [this, slot](IoRequest&) { done(slot); };
    issue(std::move(cmd));
}

void BamPlane::done(uint32_t slot) {
    // Free the slot before telling the client, which may submit again.
    const Pending p = slots_[slot];
    free_slots_.push_back(slot);
    finish(*p.client, p.io, p.taken);
}

}  // namespace zng::storage
