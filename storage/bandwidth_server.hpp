// A resource that moves bytes at a fixed bandwidth, one transfer after another, plus a
// latency that does not occupy it: one direction of a PCIe link, a switch's port, host
// DRAM, the GPU memory's DMA port, an SSD's internal ceiling. Reservations are made in
// call order and return at once (no events), as SerialLink's, which does the
// arithmetic; a bandwidth of 0 means "not a limit" (only the latency is added).
//
// Data moves through a chain of servers cut-through, as PCIe forwards packets rather
// than whole transfers: a Flow is the span from its first byte's to its last byte's
// arrival, and pass() makes a server carry it: it may start once the first byte has
// arrived and it is free, and cannot finish before the last byte has arrived, so a
// chain costs the slowest server's serialisation plus every latency, not the sum of
// the serialisations. A flow that starts whole at t (data ready in a buffer) is
// Flow{t, t}, and its first pass is SerialLink::transfer(t, bytes) exactly.
#pragma once
#include <algorithm>
#include <cstdint>

#include "sim/mem/serial_link.hpp"

namespace zng::storage {

struct Flow {
    Tick first = 0;  // the first byte has arrived
    Tick last = 0;   // the last byte has arrived
    static Flow at(Tick t) { return {t, t}; }
};

class BandwidthServer {
public:
    BandwidthServer() = default;
    BandwidthServer(double bytes_per_second, Tick latency) { configure(bytes_per_second, latency); }
    void configure(double bytes_per_second, Tick latency) {
        limited_ = bytes_per_second > 0.0;
        latency_ = latency;
        if (limited_) link_.configure(bytes_per_second, latency);
    }

    // Carries `bytes` arriving as `in`; returns when they have left it (latency included).
    Flow pass(Flow in, uint64_t bytes) {
        bytes_ += bytes;
        if (!limited_) return {in.first + latency_, in.last + latency_};
        const Tick occ = link_.occupancy(bytes);
        // Start no earlier than the first byte, end no earlier than the last:
        // start = max(free, first, last - occ) gives end = max(free + occ, first + occ, last).
        const Tick earliest = std::max(in.first, in.last > occ ? in.last - occ : 0);
        const Tick done = link_.transfer(earliest, bytes);
        return {done - occ, done};
    }
    // A transfer of `bytes` that is whole at `earliest`; returns its last byte's arrival.
    Tick transfer(Tick earliest, uint64_t bytes) { return pass(Flow::at(earliest), bytes).last; }

    bool limited() const { return limited_; }
    double bytes_per_second() const { return limited_ ? link_.bytes_per_second() : 0.0; }
    Tick latency() const { return latency_; }
    Tick occupancy(uint64_t bytes) const { return limited_ ? link_.occupancy(bytes) : 0; }
    Tick free_at() const { return limited_ ? link_.free_at() : 0; }
    Tick busy_time() const { return limited_ ? link_.busy_time() : 0; }
    uint64_t bytes() const { return bytes_; }

private:
    SerialLink link_;
    bool limited_ = false;
    Tick latency_ = 0;
    uint64_t bytes_ = 0;
};

}  // namespace zng::storage
