#include "sim/core/ring_queue.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace zng {
namespace {

TEST(RingQueue, WrapsAndGrowsInOrder) {
    RingQueue<int> q(3);  // rounded up to 4 slots
    EXPECT_EQ(q.capacity(), 4u);
    for (int i = 1; i <= 3; ++i) q.push_back(i);
    q.pop_front();
    q.pop_front();  // head at slot 2: the next pushes wrap to slots 3, 0, 1
    q.push_back(4);
    q.push_back(5);
    q.push_back(6);
    ASSERT_EQ(q.size(), 4u);
    EXPECT_EQ(q[0], 3);
    EXPECT_EQ(q[3], 6);
    q.push_back(7);  // full and wrapped: doubles to 8, keeping the order
    ASSERT_EQ(q.size(), 5u);
    EXPECT_EQ(q.capacity(), 8u);
    for (size_t i = 0; i < 5; ++i) EXPECT_EQ(q[i], static_cast<int>(i) + 3);
    EXPECT_EQ(q.front(), 3);
}

TEST(RingQueue, StartsEmptyAndMovesOnlyTypes) {
    RingQueue<std::unique_ptr<int>> q;  // no slots until the first push
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.capacity(), 0u);
    for (int i = 0; i < 20; ++i) q.push_back(std::make_unique<int>(i));
    EXPECT_EQ(q.size(), 20u);
    EXPECT_EQ(*q.front(), 0);
    EXPECT_EQ(*q[19], 19);
    // 8 slots at the first push, doubled at the 9th and the 17th: 32.
    EXPECT_EQ(q.capacity(), 32u);
    // take_front moves the element out: 0, then 1 is at the front.
    std::unique_ptr<int> first = q.take_front();
    EXPECT_EQ(*first, 0);
    EXPECT_EQ(*q.front(), 1);
    EXPECT_EQ(q.size(), 19u);
}

TEST(RingQueue, EraseAtKeepsTheOthersInOrder) {
    RingQueue<int> q(4);
    for (int i = 10; i < 15; ++i) q.push_back(i);  // 10 11 12 13 14
    q.erase_at(2);                                 // 10 11 13 14
    ASSERT_EQ(q.size(), 4u);
    EXPECT_EQ(q[0], 10);
    EXPECT_EQ(q[1], 11);
    EXPECT_EQ(q[2], 13);
    EXPECT_EQ(q[3], 14);
    q.erase_at(0);  // 11 13 14
    EXPECT_EQ(q.front(), 11);
    q.clear();
    EXPECT_TRUE(q.empty());
}

}  // namespace
}  // namespace zng
