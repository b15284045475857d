// A resource that carries one transfer at a time at a fixed bandwidth, plus a fixed
// latency that does not occupy it (flight time, pipeline depth): a DRAM data bus, one
// direction of a PCIe link, a port of the fixed-latency memory. Reservations are granted in call order, so a caller gets its
// completion tick at once and schedules on it: no events inside, nothing allocated.
#pragma once
#include <cstdint>

#include "sim/core/errors.hpp"
#include "sim/core/tick.hpp"

namespace zng {

class SerialLink {
public:
    SerialLink() = default;
    SerialLink(double bytes_per_second, Tick latency) { configure(bytes_per_second, latency); }
    void configure(double bytes_per_second, Tick latency) {
        if (!(bytes_per_second >= 1.0)) throw SimError("SerialLink: bandwidth must be at least 1 B/s");
        bytes_per_s_ = static_cast<uint64_t>(bytes_per_second + 0.5);
        latency_ = latency;
    }

    // Time the link is occupied by `bytes` (rounded up to a whole picosecond).
    Tick occupancy(uint64_t bytes) const {
        unsigned __int128 num = static_cast<unsigned __int128>(bytes) * kSecond;
        return static_cast<Tick>((num + bytes_per_s_ - 1) / bytes_per_s_);
    }
    // Reserves the link for `bytes`, starting no earlier than `earliest`; returns the
    // tick at which the last byte has arrived at the far end.
    Tick transfer(Tick earliest, uint64_t bytes) {
        Tick start = earliest > free_at_ ? earliest : free_at_;
        Tick busy = occupancy(bytes);
        free_at_ = start + busy;
        busy_time_ += busy;
        bytes_ += bytes;
        ++transfers_;
        return free_at_ + latency_;
    }
    Tick free_at() const { return free_at_; }
    Tick latency() const { return latency_; }
    double bytes_per_second() const { return static_cast<double>(bytes_per_s_); }
    uint64_t bytes() const { return bytes_; }
    uint64_t transfers() const { return transfers_; }
    Tick busy_time() const { return busy_time_; }

private:
    uint64_t bytes_per_s_ = 1;
    Tick latency_ = 0;
    Tick free_at_ = 0;
    Tick busy_time_ = 0;
    uint64_t bytes_ = 0, transfers_ = 0;
};

}  // namespace zng
