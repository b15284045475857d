#include "storage/host/host_cpu.hpp"

#include <algorithm>

#include "sim/config/registry.hpp"
#include "sim/core/errors.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const auto kCores = Param<UInt32>("cores", "52",
                                  "host CPU cores (seed 000 Table III: 2 x Xeon Gold 5320, 2 x 52 threads)")
                        .range(1, 4096);
const auto kPollingThreads =
    Param<UInt32>("polling_threads", "1",
                  "cores that only poll for completions (seed 000 IV-H: \"A polling thread is used in each "
                  "implementation and is not counted\")")
        .range(0, 4096);
const auto kStack = Param<Choice>("stack", "spdk", "I/O stack the issuing threads use")
                        .choices({"posix", "libaio", "io_uring_int", "io_uring_poll", "spdk"});
// Seed 000 (II-A, Fig. 2): from one core, every kernel stack stays below one P5510's
// 700K random-read IOPS, i.e. each costs more than 1 / 700K = 1.43 us per command.
// Their order follows the kernel work each avoids (pread: a system call and the whole
// block path per command; libaio and io_uring batch submission; polling drops the
// interrupt). The values are assumptions within that bound.
const Param<Time> kPosixCost{"posix_cost", "6us",
                             "CPU time per command of POSIX pread/pwrite (assumption above seed 000's 1.43 us bound)"};
const Param<Time> kLibaioCost{"libaio_cost", "3us",
                              "CPU time per command of libaio (assumption above seed 000's 1.43 us bound)"};
const Param<Time> kIoUringIntCost{"io_uring_int_cost", "2500ns",
                                  "CPU time per command of io_uring in interrupt mode (assumption, as above)"};
const Param<Time> kIoUringPollCost{"io_uring_poll_cost", "1500ns",
                                   "CPU time per command of io_uring in polling mode (assumption, as above)"};
// Seed 000 IV-H: "The I/O throughput using one thread to control 4 SSDs is 75% of the
// throughput using one thread to control one SSD", with P5510s at 700K IOPS each
// (Intel D7-P5510 3.84 TB product specification): one thread issues 0.75 x 4 x 700K =
// 2.1M commands/s, 1 / 2.1M = 476 ns each (and 2 SSDs, 1.4M/s, fit: "similar").
const Param<Time> kSpdkCost{"spdk_cost", "476ns",
                            "CPU time per command of SPDK (seed 000 IV-H: one thread drives 4 P5510s at 75%)"};
const Param<Time> kPollInterval{"poll_interval", "100ns",
                                "one pass of a polling loop over its completion queues (assumption)"};
}  // namespace

Tick HostCpuSettings::command_cost() const {
    switch (stack) {
        case IoStack::Posix: return posix_cost;
        case IoStack::Libaio: return libaio_cost;
        case IoStack::IoUringInterrupt: return io_uring_int_cost;
        case IoStack::IoUringPoll: return io_uring_poll_cost;
        case IoStack::Spdk: return spdk_cost;
    }
    return spdk_cost;
}

const ComponentSchema& HostCpuSettings::schema() {
    static const CataloguedSchema s{{.slot = "storage",
                                     .name = "host_cpu",
                                     .description = "Host CPU cores that issue and complete NVMe commands through "
                                                    "an I/O stack, each command costing the stack's CPU time, "
                                                    "and polling threads.",
                                     .params = {kCores, kPollingThreads, kStack, kPosixCost, kLibaioCost,
                                                kIoUringIntCost, kIoUringPollCost, kSpdkCost, kPollInterval},
                                     .ports = {}}};
    return s.schema;
}

HostCpuSettings HostCpuSettings::read(const Params& p) {
    HostCpuSettings s;
    s.cores = p[kCores];
    s.polling_threads = p[kPollingThreads];
    if (s.polling_threads >= s.cores)
        p.fail(kPollingThreads.key(), "leaves no core to issue I/O (it must be below cores = " +
                                          std::to_string(s.cores) + ")");
    const std::string stack = p[kStack];
    s.stack = stack == "posix"          ? IoStack::Posix
              : stack == "libaio"       ? IoStack::Libaio
              : stack == "io_uring_int" ? IoStack::IoUringInterrupt
              : stack == "io_uring_poll" ? IoStack::IoUringPoll
                                         : IoStack::Spdk;
    s.posix_cost = p[kPosixCost];
    s.libaio_cost = p[kLibaioCost];
    s.io_uring_int_cost = p[kIoUringIntCost];
    s.io_uring_poll_cost = p[kIoUringPollCost];
    s.spdk_cost = p[kSpdkCost];
    s.poll_interval = p[kPollInterval];
    return s;
}

HostCpu::HostCpu(const HostCpuSettings& s) : s_(s), cost_(s.command_cost()), poll_interval_(s.poll_interval) {
    if (s.cores == 0 || s.polling_threads >= s.cores)
        throw SimError("host CPU: " + std::to_string(s.cores) + " cores leave none to issue I/O beside " +
                       std::to_string(s.polling_threads) + " polling threads");
    free_at_.assign(s.cores - s.polling_threads, 0);
    busy_on_.assign(free_at_.size(), 0);
}

Tick HostCpu::run_on(uint32_t core, Tick earliest, uint32_t commands) {
    return run_on(core, earliest, commands, s_.stack);
}

Tick HostCpu::command_cost(IoStack stack) const {
    HostCpuSettings s = s_;
    s.stack = stack;
    return s.command_cost();
}

Tick HostCpu::run(Tick earliest, uint32_t commands, IoStack stack) {
    const auto it = std::min_element(free_at_.begin(), free_at_.end());
    return run_on(static_cast<uint32_t>(it - free_at_.begin()), earliest, commands, stack);
}

Tick HostCpu::run_on(uint32_t core, Tick earliest, uint32_t commands, IoStack stack) {
    Tick& free = free_at_.at(core);
    const Tick work = command_cost(stack) * commands;
    free = std::max(free, earliest) + work;
    busy_ += work;
    busy_on_[core] += work;
    commands_ += commands;
    return free;
}

Tick HostCpu::run(Tick earliest, uint32_t commands) {
    const auto it = std::min_element(free_at_.begin(), free_at_.end());
    return run_on(static_cast<uint32_t>(it - free_at_.begin()), earliest, commands);
}

Tick HostCpu::polled(Tick at) const {
    if (poll_interval_ == 0) return at;
    return (at + poll_interval_ - 1) / poll_interval_ * poll_interval_;
}

}  // namespace zng::storage
