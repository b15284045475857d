// The host CPU cores that drive SSDs: a pool of cores, each running one I/O-issuing
// thread, that spend the chosen I/O stack's cost on every command they submit and
// complete, and polling threads that own a core each. Seed 000 (II-A, Fig. 2-3): POSIX
// I/O, libaio and io_uring spend most of a command's time in the kernel (file system,
// io_map, block layer), so that none of them reaches one P5510's throughput from one
// core; SPDK "completely bypasses the operating system kernel" and polls. A core is a
// reservation-style server (no events): a command's work starts when its core is free.
#pragma once
#include <string>
#include <vector>

#include "sim/config/params.hpp"
#include "sim/core/tick.hpp"

namespace zng::storage {

enum class IoStack : uint8_t { Posix, Libaio, IoUringInterrupt, IoUringPoll, Spdk };

struct HostCpuSettings {
    uint32_t cores = 16;
    uint32_t polling_threads = 1;  // cores that only poll for completions (not counted as issuers)
    IoStack stack = IoStack::Spdk;
    Tick posix_cost = 0, libaio_cost = 0, io_uring_int_cost = 0, io_uring_poll_cost = 0, spdk_cost = 0;
    Tick poll_interval = 0;        // one pass of a polling loop over its queues

    Tick command_cost() const;     // per command, of the chosen stack
    bool polls() const { return stack == IoStack::Spdk || stack == IoStack::IoUringPoll; }

    static const ComponentSchema& schema();
    static HostCpuSettings read(const Params& p);
};

class HostCpu {
public:
    explicit HostCpu(const HostCpuSettings& s);

    // Cores that issue I/O (the pool less the polling threads).
    uint32_t issuing_cores() const { return static_cast<uint32_t>(free_at_.size()); }
    Tick command_cost() const { return cost_; }
    Tick poll_interval() const { return poll_interval_; }

    // Runs `commands` commands' work on thread `core` from `earliest` on; returns when
    // it is done. A thread that drives several SSDs serialises their commands.
    Tick run_on(uint32_t core, Tick earliest, uint32_t commands = 1);
    // The same on whichever issuing core is free first (lowest index on a tie).
    Tick run(Tick earliest, uint32_t commands = 1);
    // The same with another stack's per-command cost than the configured one (a tier
    // whose model fixes its stack: SSDStreamer's SPDK beside the kernel's baselines).
    Tick run_on(uint32_t core, Tick earliest, uint32_t commands, IoStack stack);
    Tick run(Tick earliest, uint32_t commands, IoStack stack);
    Tick command_cost(IoStack stack) const;
    // When `core` has done the commands given to it so far, and their summed work: what
    // a host program computing on the core between commands (storage/gofs/basic_plane)
    // needs to know of them.
    Tick free_at(uint32_t core) const { return free_at_.at(core); }
    Tick busy_on(uint32_t core) const { return busy_on_.at(core); }
    // A completion seen by a polling thread: the next pass of its loop after `at`
    // (passes at multiples of poll_interval, the loop started at time 0).
    Tick polled(Tick at) const;

    Tick busy_time() const { return busy_; }  // summed over issuing cores
    uint64_t commands() const { return commands_; }

private:
    std::vector<Tick> free_at_;
    HostCpuSettings s_;
    Tick cost_;
    Tick poll_interval_;
    std::vector<Tick> busy_on_;  // per issuing core
    Tick busy_ = 0;
    uint64_t commands_ = 0;
};

}  // namespace zng::storage
