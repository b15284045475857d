#include "traces/workloads/device_allocator.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace zng::workloads {
namespace {

TEST(DeviceAllocator, PlacesArraysInOrderAt256ByteBoundaries) {
    DeviceAllocator a;
    // Hand-computed: 0x7f0000000000; 1000 B -> next at +0x400 (1024); 256 B -> +0x500;
    // 1 B -> +0x600; 0 B still takes a slot -> +0x700.
    EXPECT_EQ(a.alloc("x", 1000), 0x7f0000000000ull);
    EXPECT_EQ(a.alloc("y", 256), 0x7f0000000400ull);
    EXPECT_EQ(a.alloc("z", 1), 0x7f0000000500ull);
    EXPECT_EQ(a.alloc("empty", 0), 0x7f0000000600ull);
    EXPECT_EQ(a.alloc("w", 8), 0x7f0000000700ull);
    ASSERT_EQ(a.arrays().size(), 5u);
    EXPECT_EQ(a.arrays()[0].name, "x");
    EXPECT_EQ(a.arrays()[0].size, 1000u);
    EXPECT_EQ(a.arrays()[4].base, 0x7f0000000700ull);
    EXPECT_EQ(a.footprint(), 0x800u);
}

TEST(DeviceAllocator, RejectsBadRequests) {
    DeviceAllocator a;
    a.alloc("x", 16);
    EXPECT_THROW(a.alloc("x", 16), std::invalid_argument);
    EXPECT_THROW(a.alloc("", 16), std::invalid_argument);
    EXPECT_THROW(a.alloc("huge", ~0ull - 100), std::length_error);
    a.freeze();
    EXPECT_THROW(a.alloc("late", 16), std::logic_error);
}

}  // namespace
}  // namespace zng::workloads
