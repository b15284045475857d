// Host CPU cores: each command costs the I/O stack's CPU time on one issuing core.
#include <gtest/gtest.h>

#include "storage/host/host_cpu.hpp"

namespace zng::storage::test {
namespace {

HostCpuSettings cpu(uint32_t cores, uint32_t pollers, IoStack stack) {
    HostCpuSettings s;
    s.cores = cores;
    s.polling_threads = pollers;
    s.stack = stack;
    s.posix_cost = 6 * kMicrosecond;
    s.spdk_cost = 476 * kNanosecond;
    s.poll_interval = 100 * kNanosecond;
    return s;
}

TEST(HostCpu, PollingThreadsAreNotIssuers) {
    HostCpu c(cpu(4, 1, IoStack::Spdk));
    EXPECT_EQ(c.issuing_cores(), 3u);
    EXPECT_EQ(c.command_cost(), 476 * kNanosecond);
}

TEST(HostCpu, OneThreadSerialisesItsCommandsAndThePoolSpreadsThem) {
    HostCpu c(cpu(3, 1, IoStack::Posix));  // 2 issuing cores, 6 us per command
    // Thread 0 issues three commands at t = 0: 6, 12, 18 us.
    EXPECT_EQ(c.run_on(0, 0), 6 * kMicrosecond);
    EXPECT_EQ(c.run_on(0, 0), 12 * kMicrosecond);
    EXPECT_EQ(c.run_on(0, 0, 1), 18 * kMicrosecond);
    // The pool picks the free core 1 (done at 6 us), then core 1 again (free at 6 us
    // while core 0 is free at 18 us): 12 us.
    EXPECT_EQ(c.run(0), 6 * kMicrosecond);
    EXPECT_EQ(c.run(0), 12 * kMicrosecond);
    EXPECT_EQ(c.busy_time(), 5 * 6 * kMicrosecond);
    EXPECT_EQ(c.commands(), 5u);
}

TEST(HostCpu, EachCoreKnowsWhenItsCommandsEndAndTheirSummedWork) {
    HostCpu c(cpu(4, 0, IoStack::Posix));  // 4 issuing cores, 6 us per command
    c.run_on(0, 0);
    c.run_on(0, 20 * kMicrosecond);         // core 0 idle from 6 to 20 us
    c.run_on(2, 0, 3);
    EXPECT_EQ(c.free_at(0), 26 * kMicrosecond);
    EXPECT_EQ(c.busy_on(0), 12 * kMicrosecond);
    EXPECT_EQ(c.free_at(1), 0u);
    EXPECT_EQ(c.busy_on(1), 0u);
    EXPECT_EQ(c.free_at(2), 18 * kMicrosecond);
    EXPECT_EQ(c.busy_on(2), 18 * kMicrosecond);
    EXPECT_EQ(c.busy_time(), 30 * kMicrosecond);
}

TEST(HostCpu, DefaultSpdkThreadDrivesTwoP5510sFullyAndFourAtThreeQuarters) {
    // Seed 000 IV-H with P5510s at 700K IOPS (the calibrated device's default): one
    // thread at the default SPDK cost, 476 ns per command, issues 1e12 / 476,000 ps =
    // 2.10M commands/s: above 2 x 700K (no loss), and 2.10M / 2.8M = 75% of 4 x 700K.
    const HostCpuSettings s = HostCpuSettings::read(Params(nullptr, HostCpuSettings::schema(), "host_cpu"));
    ASSERT_EQ(s.stack, IoStack::Spdk);
    HostCpu c(s);
    const double per_second = static_cast<double>(kSecond) / static_cast<double>(c.command_cost());
    EXPECT_GT(per_second, 2 * 700e3);
    EXPECT_NEAR(per_second / (4 * 700e3), 0.75, 0.001);
    EXPECT_EQ(c.issuing_cores(), 51u);  // 52 cores, one polling thread
}

TEST(HostCpu, ACallerMayChargeAnotherStacksCost) {
    // Configured SPDK (476 ns); a caching tier charging the kernel's synchronous stack
    // pays posix's 6 us per command on the same cores: 2 commands on core 0 from 1 us
    // end at 13 us, then one SPDK command there at 13.476 us.
    HostCpu c(cpu(2, 1, IoStack::Spdk));
    EXPECT_EQ(c.command_cost(IoStack::Posix), 6 * kMicrosecond);
    EXPECT_EQ(c.run_on(0, 1 * kMicrosecond, 2, IoStack::Posix), 13 * kMicrosecond);
    EXPECT_EQ(c.run_on(0, 0, 1), 13'476 * kNanosecond);
    EXPECT_EQ(c.busy_time(), 12'476 * kNanosecond);
}

TEST(HostCpu, APollingThreadSeesACompletionAtItsNextPass) {
    HostCpu c(cpu(2, 1, IoStack::Spdk));
    EXPECT_EQ(c.polled(0), 0u);
    EXPECT_EQ(c.polled(250 * kNanosecond), 300 * kNanosecond);  // passes every 100 ns
    EXPECT_EQ(c.polled(300 * kNanosecond), 300 * kNanosecond);
}

}  // namespace
}  // namespace zng::storage::test
