#include "storage/control/control_plane.hpp"

#include <algorithm>
#include <string>

#include "sim/core/errors.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const auto kMaxInFlight =
    Param<UInt32>("max_in_flight", "65536",
                  "GPU-issued requests the plane holds from submission to completion; an io_submit beyond it "
                  "blocks its warp (assumption: the size of the plane's request buffer)")
        .range(32, 1u << 30);
}  // namespace

ControlPlaneSlot& control_plane_slot() {
    static ControlPlaneSlot slot("control_plane");
    return slot;
}

std::vector<ParamSpec> ControlPlane::common_params() { return {kMaxInFlight}; }

ComponentSchema ControlPlane::schema_of(std::string name, std::string description,
                                        std::initializer_list<ParamSpec> own) {
    ComponentSchema c;
    c.name = std::move(name);
    c.description = std::move(description);
    c.params = common_params();
    c.params.insert(c.params.end(), own.begin(), own.end());
    return c;
}
uint32_t ControlPlane::read_max_in_flight(const Params& p) { return p[kMaxInFlight]; }

ControlPlane::ControlPlane(const StoragePath& path, uint32_t max_in_flight)
    : p_(path), max_in_flight_(max_in_flight) {
    const uint32_t queues = p_.array.ssd(0).settings().queue_pairs;
    blocked_.resize(size_t{p_.array.size()} * queues);
    p_.array.set_on_room([this] { retry_blocked(); });
}

bool ControlPlane::can_submit(uint32_t requests, StorageIoClient& waiter) {
    if (in_flight_ == 0 || in_flight_ + requests <= max_in_flight_) return true;
    if (std::find(waiters_.begin(), waiters_.end(), &waiter) == waiters_.end()) waiters_.push_back(&waiter);
    return false;
}

IoRequest ControlPlane::command(const StorageIo& io, IoMemory memory) const {
    IoRequest r;
    r.op = io.write ? IoOp::Write : IoOp::Read;
    r.bytes = io.bytes;
    r.memory = memory;
    r.dest = io.dest;
    r.tag = io.token;
    const uint64_t lba = p_.array.lba_bytes();
    if (io.offset % lba != 0 || io.bytes % lba != 0 || io.bytes == 0)
        throw SimError("storage I/O of " + std::to_string(io.bytes) + " B at offset " + std::to_string(io.offset) +
                       " is not a whole number of " + std::to_string(lba) + " B logical blocks");
    if (p_.array.settings().placement == Placement::Raid0) {
        r.lba = io.offset / lba;
    } else {
        // Direct placement: the SSDs one after another.
        const uint64_t cap = p_.array.ssd(0).capacity_bytes();
        r.ssd = static_cast<uint32_t>(io.offset / cap);
        if (r.ssd >= p_.array.size())
            throw SimError("storage I/O at offset " + std::to_string(io.offset) + " is beyond the array's " +
                           std::to_string(cap * p_.array.size()) + " B");
        r.lba = io.offset % cap / lba;
    }
    return r;
}

uint32_t ControlPlane::ssd_of(const IoRequest& r) const {
    uint32_t ssd = r.ssd;
    bool first = true;
    p_.array.split(r.ssd, r.lba * p_.array.lba_bytes(), r.bytes, [&](const SsdArray::Piece& piece) {
        if (first) ssd = piece.ssd;
        first = false;
    });
    return ssd;
}

void ControlPlane::issue(IoRequest r) {
    const uint32_t queues = p_.array.ssd(0).settings().queue_pairs;
    if (r.queue >= queues) r.queue %= queues;
    const uint32_t fifo = ssd_of(r) * queues + r.queue;
    if (blocked_[fifo].empty() && p_.array.can_submit(r)) {
        p_.array.submit(std::move(r));
        return;
    }
    if (blocked_[fifo].empty()) blocked_list_.push_back(fifo);
    blocked_[fifo].push_back(std::move(r));
}

void ControlPlane::read_into_host(uint64_t offset, uint32_t bytes, uint32_t thread, std::function<void()> done) {
    StorageIo io;
    io.offset = offset;
    io.bytes = bytes;
    IoRequest r = command(io, IoMemory::Host);
    r.queue = thread;  // issue() folds it onto the SSD's queue pairs
    r.done = [done = std::move(done)](IoRequest&) { done(); };
    issue(std::move(r));
}

void ControlPlane::retry_blocked() {
    for (size_t i = 0; i < blocked_list_.size();) {
        std::deque<IoRequest>& q = blocked_[blocked_list_[i]];
        while (!q.empty() && p_.array.can_submit(q.front())) {
            IoRequest r = std::move(q.front());
            q.pop_front();
            p_.array.submit(std::move(r));
        }
        if (q.empty()) {
            blocked_list_[i] = blocked_list_.back();
            blocked_list_.pop_back();
        } else {
            ++i;
        }
    }
}

void ControlPlane::finish(StorageIoClient& client, const StorageIo& io, Tick taken_at) {
    --in_flight_;
    ++requests_;
    (io.write ? bytes_written_ : bytes_read_) += io.bytes;
    latency_sum_ += p_.sim.now() - taken_at;
    client.io_done(io.token);
    if (waiters_.empty()) return;
    scratch_.swap(waiters_);
    waiters_.clear();
    for (StorageIoClient* w : scratch_) w->io_room();
    scratch_.clear();
}

void ControlPlane::register_stats(StatGroup g) const {
    g.formula("requests", "GPU-issued requests completed", "requests", [this] { return double(requests_); });
    g.formula("bytes_read", "bytes GPU-issued reads brought into GPU memory", "B",
              [this] { return double(bytes_read_); });
    g.formula("bytes_written", "bytes GPU-issued writes took from GPU memory", "B",
              [this] { return double(bytes_written_); });
    g.formula("mean_latency", "mean time from a request's submission to the GPU seeing it complete", "ns", [this] {
        return requests_ ? ticks_to_seconds(latency_sum_) * 1e9 / double(requests_) : 0.0;
    });
}

}  // namespace zng::storage
