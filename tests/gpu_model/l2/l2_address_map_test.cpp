// L2AddressMap: consecutive interleave-byte chunks rotate over the banks; a bank's lines
// are numbered chunk by chunk. The power-of-two interleave takes shifts and masks, any
// other interleave divisions; both must give the same bank and line.
#include <gtest/gtest.h>

#include "gpu_model/l2/l2_config.hpp"

namespace zng::gpu::testing {
namespace {

TEST(L2AddressMap, PowerOfTwoInterleave) {
    // 6 banks, 256 B chunks, 128 B lines: 2 lines per chunk.
    const L2AddressMap m(6, 256, 128);
    // 4660 = 18 x 256 + 52: chunk 18 -> bank 18 % 6 = 0, the bank's chunk 18 / 6 = 3,
    // line 52 / 128 = 0 of it: local line 3 x 2 + 0 = 6.
    EXPECT_EQ(m.bank(4660), 0u);
    EXPECT_EQ(m.local_line(4660), 6u);
    // 5000 = 19 x 256 + 136: bank 19 % 6 = 1, local line (19 / 6) x 2 + 136 / 128 = 7.
    EXPECT_EQ(m.bank(5000), 1u);
    EXPECT_EQ(m.local_line(5000), 7u);
}

TEST(L2AddressMap, InterleaveThatIsNotAPowerOfTwo) {
    // 6 banks, 384 B chunks (3 lines of 128 B).
    const L2AddressMap m(6, 384, 128);
    // 5000 = 13 x 384 + 8: bank 13 % 6 = 1, local line (13 / 6) x 3 + 8 / 128 = 6.
    EXPECT_EQ(m.bank(5000), 1u);
    EXPECT_EQ(m.local_line(5000), 6u);
    // 4991 = 12 x 384 + 383: bank 0, local line (12 / 6) x 3 + 383 / 128 = 6 + 2 = 8.
    EXPECT_EQ(m.bank(4991), 0u);
    EXPECT_EQ(m.local_line(4991), 8u);
}

}  // namespace
}  // namespace zng::gpu::testing
