#include "storage/gofs/basic_plane.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"
#include "storage/gofs/file_offset.hpp"

namespace zng::storage::gofs {
namespace {
using namespace param_kind;
// 4096 B / 1.1 GB/s = 3.72 us per 4 KiB write under the lock: derived from the seed's
// Basic write throughput (Fig. 10), so the report's Basic write row checks consistency.
const Param<Time> kHold{"write_lock_hold", "3720ns",
                        "time a write holds F2FS's inode lock, during which no other write to the file enters "
                        "(derived: seed 001's Basic writes 4 KiB at 1.1 GB/s = 3.72 us each)"};
}  // namespace

const ComponentSchema& BasicSettings::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c = CpuManagedSettings::schema("posix");
        c.name = "basic";
        c.description = "Seed 001's Basic: host threads run F2FS (pread/pwrite through the kernel, writes serialised "
                        "by the inode lock) into a host bounce buffer, then cudaMemcpy into GPU memory.";
        // Seed 001: "For all baselines, we use the number of CPU threads that maximizes the
        // throughput", on its "16-core Intel Xeon": 16 threads.
        for (ParamSpec& ps : c.params)
            if (ps.key == "threads") ps.default_value = "16";
        c.params.push_back(kHold);
        return c;
    }();
    return s;
}

BasicSettings BasicSettings::read(const Params& p) {
    BasicSettings s;
    s.host = CpuManagedSettings::read(p);
    s.write_lock_hold = p[kHold];
    return s;
}

BasicPlane::BasicPlane(const StoragePath& path, const BasicSettings& s)
    : ControlPlane(path, s.host.max_in_flight),
      s_(s),
      host_(path, s.host),
      locked_(path.sim, [this](Entry& e) { enter(e); }, "basic-inode-lock") {}

StorageIo BasicPlane::tagged(const StorageIo& io, StorageIoClient& client) {
    uint32_t slot;
    if (!free_slots_.empty()) {
        slot = free_slots_.back();
        free_slots_.pop_back();
        issuers_[slot] = {&client, io.token};
    } else {
        slot = static_cast<uint32_t>(issuers_.size());
        issuers_.emplace_back(&client, io.token);
    }
    StorageIo t = io;
    t.token = slot;
    return t;
}

void BasicPlane::submit(const StorageIoBatch& batch, StorageIoClient& client) {
    for (uint32_t i = 0; i < batch.count; ++i)
        if (file_of(batch.ios[i].offset) != 0)
            throw SimError("the basic plane serves file 0 only (storage offsets below 1 TiB)");
    const Tick now = p_.sim.now();
    if (batch.count > 0 && !batch.ios[0].write) {
        scratch_.clear();
        for (uint32_t i = 0; i < batch.count; ++i) scratch_.push_back(tagged(batch.ios[i], client));
        StorageIoBatch b = batch;
        b.ios = scratch_.data();
        host_.submit(b, *this);
        return;
    }
    // Writes go through the inode lock one at a time.
    for (uint32_t i = 0; i < batch.count; ++i) {
        const Tick enter_at = std::max(now, lock_free_);
        if (enter_at > now) ++lock_waits_;
        lock_free_ = enter_at + s_.write_lock_hold;
        locked_.push(Entry{batch, tagged(batch.ios[i], client)}, lock_free_);
    }
}

void BasicPlane::enter(Entry& e) {
    e.batch.ios = &e.io;
    e.batch.count = 1;
    host_.submit(e.batch, *this);
}

void BasicPlane::io_done(uint64_t token) {
    const auto [client, original] = issuers_[token];
    free_slots_.push_back(static_cast<uint32_t>(token));
    client->io_done(original);
}

void BasicPlane::register_stats(StatGroup g) const {
    host_.register_stats(g);
    g.formula("lock_waits", "writes that waited for the inode lock", "requests",
              [this] { return double(lock_waits_); });
}

}  // namespace zng::storage::gofs
