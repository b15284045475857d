// The SM's storage I/O bookkeeping: io_submit hands each active lane's request to the
// service, io_wait blocks its warp until every request its CTA submitted to the group
// before the wait has completed (in whatever order they complete), a CTA's wait
// ignores other CTAs' requests, and a refused batch blocks its warp until room frees.
#include <gtest/gtest.h>

#include <vector>

#include "gpu_model/sm/warp_storage_io.hpp"

namespace zng::gpu {
namespace {

struct FakeService final : StorageIoService {
    uint32_t room = 1000;
    std::vector<StorageIo> taken;
    StorageIoClient* waiter = nullptr;
    bool can_submit(uint32_t n, StorageIoClient& w) override {
        if (n <= room) return true;
        waiter = &w;
        return false;
    }
    void submit(const StorageIoBatch& b, StorageIoClient&) override {
        room -= b.count;
        for (uint32_t i = 0; i < b.count; ++i) taken.push_back(b.ios[i]);
    }
    uint64_t in_flight() const override { return taken.size(); }
    Tick poll_interval() const override { return poll; }
    Tick poll = 0;
};

trace::WarpRecord submit_record(uint32_t mask, uint32_t tag) {
    trace::WarpRecord r;
    r.kind = trace::RecordKind::IoSubmit;
    r.active_mask = mask;
    r.strided = true;
    r.base = 0x10000;
    r.stride = 4096;
    r.io_bytes = 4096;
    r.io_tag = tag;
    r.io_dest = 0x7f0000000000ull;
    r.io_dest_stride = 4096;
    return r;
}

struct Fixture {
    explicit Fixture(Tick poll = 0) : svc(with_poll(poll)) {
        io.cta_launched(0);
        io.cta_launched(1);
    }
    static FakeService with_poll(Tick poll) {
        FakeService s;
        s.poll = poll;
        return s;
    }
    Simulator sim;
    FakeService svc;
    std::vector<uint32_t> resumed;
    WarpStorageIo io{sim, svc, 0, 8, 2, [this](uint32_t s) { resumed.push_back(s); }};
};

TEST(WarpStorageIo, SubmitHandsOverEveryActiveLane) {
    Fixture f;
    // Lanes 0 and 2 active: offsets 0x10000 + lane x 4096, buffers dest + lane x 4096.
    EXPECT_TRUE(f.io.submit(0, 0, 0, 0, submit_record(0b101, 7)));
    ASSERT_EQ(f.svc.taken.size(), 2u);
    EXPECT_EQ(f.svc.taken[0].offset, 0x10000u);
    EXPECT_EQ(f.svc.taken[1].offset, 0x10000u + 2 * 4096);
    EXPECT_EQ(f.svc.taken[1].dest, 0x7f0000000000ull + 2 * 4096);
    EXPECT_EQ(f.svc.taken[1].bytes, 4096u);
}

TEST(WarpStorageIo, WaitBlocksUntilItsGroupCompletesInAnyOrder) {
    Fixture f;
    f.io.submit(0, 0, 0, 0, submit_record(0b11, 1));  // requests 0 and 1 of group 1
    EXPECT_EQ(WarpStorageIo::Wait::Blocked, f.io.wait(0, 0, 1));
    f.io.io_done(f.svc.taken[1].token);  // the later one first: request 0 still out
    EXPECT_TRUE(f.resumed.empty());
    f.io.io_done(f.svc.taken[0].token);
    EXPECT_EQ(f.resumed, std::vector<uint32_t>{0});
    // Nothing outstanding: a new wait does not block.
    EXPECT_EQ(WarpStorageIo::Wait::Go, f.io.wait(0, 0, 1));
}

TEST(WarpStorageIo, UnderAPollingServiceAWaitPollsUntilItsGroupCompletes) {
    // Poll interval 1 us. The wait at 0 finds request 0 out: Poll (first poll). The
    // completion wakes nobody; the next poll finds it and the warp goes on: 3 polls,
    // 1 polled wait, polling time 0 (the simulator's clock stays at 0 here).
    Fixture f(1 * kMicrosecond);
    EXPECT_EQ(f.io.poll_interval(), 1 * kMicrosecond);
    f.io.submit(0, 0, 0, 0, submit_record(0b1, 1));
    EXPECT_EQ(WarpStorageIo::Wait::Poll, f.io.wait(0, 0, 1));
    EXPECT_EQ(WarpStorageIo::Wait::Poll, f.io.wait(0, 0, 1));  // a poll before the completion
    f.io.io_done(f.svc.taken[0].token);
    EXPECT_TRUE(f.resumed.empty());
    EXPECT_EQ(WarpStorageIo::Wait::Go, f.io.wait(0, 0, 1));
    EXPECT_EQ(f.io.polls(), 3u);
    EXPECT_EQ(f.io.waits_polled(), 1u);
    EXPECT_EQ(f.io.waits_blocked(), 0u);
    // A wait with nothing outstanding still reads the completion entry once.
    EXPECT_EQ(WarpStorageIo::Wait::Go, f.io.wait(0, 0, 1));
    EXPECT_EQ(f.io.polls(), 4u);
}

TEST(WarpStorageIo, WaitIgnoresLaterSubmissionsOtherTagsAndOtherCtas) {
    Fixture f;
    f.io.submit(0, 0, 0, 0, submit_record(0b1, 1));  // CTA 0 group 1: token 0
    f.io.submit(1, 1, 0, 1, submit_record(0b1, 1));  // CTA 1 group 1: token 1
    f.io.submit(2, 0, 0, 2, submit_record(0b1, 2));  // CTA 0 group 2: token 2
    EXPECT_EQ(WarpStorageIo::Wait::Blocked, f.io.wait(0, 0, 1));
    f.io.submit(3, 0, 0, 3, submit_record(0b1, 1));  // CTA 0 group 1 after the wait: token 3
    f.io.io_done(f.svc.taken[1].token);              // CTA 1's
    f.io.io_done(f.svc.taken[2].token);              // another group's
    EXPECT_TRUE(f.resumed.empty());
    f.io.io_done(f.svc.taken[0].token);              // the one the wait needs; token 3 still out
    EXPECT_EQ(f.resumed, std::vector<uint32_t>{0});
}

TEST(WarpStorageIo, RefusedBatchBlocksItsWarpUntilRoom) {
    Fixture f;
    f.svc.room = 1;
    EXPECT_FALSE(f.io.submit(4, 0, 0, 4, submit_record(0b11, 1)));  // two requests, room for one
    EXPECT_TRUE(f.svc.taken.empty());
    ASSERT_EQ(f.svc.waiter, &f.io);
    f.svc.room = 2;
    f.io.io_room();
    EXPECT_EQ(f.svc.taken.size(), 2u);
    EXPECT_EQ(f.resumed, std::vector<uint32_t>{4});
}

}  // namespace
}  // namespace zng::gpu
