// The .ztr checksum (libxxhash behind Xxh64) against an independent XXH64: zstd stores
// the low 32 bits of XXH64(content, seed 0) at the end of every frame written with a
// content checksum, so each input's digest can be checked against what libzstd computed.
#include <gtest/gtest.h>
#include <zstd.h>

#include <random>
#include <vector>

#include "traces/xxhash64.hpp"

namespace zng::trace {
namespace {

uint32_t zstd_frame_checksum(const std::vector<uint8_t>& data) {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    std::vector<uint8_t> out(ZSTD_compressBound(data.size()));
    const size_t n = ZSTD_compress2(cctx, out.data(), out.size(), data.data(), data.size());
    ZSTD_freeCCtx(cctx);
    EXPECT_FALSE(ZSTD_isError(n));
    EXPECT_GE(n, 4u);
    return uint32_t(out[n - 4]) | uint32_t(out[n - 3]) << 8 | uint32_t(out[n - 2]) << 16 | uint32_t(out[n - 1]) << 24;
}

uint64_t digest_of(const std::vector<uint8_t>& data) {
    Xxh64 h;
    h.update(data.data(), data.size());
    return h.digest();
}

TEST(Xxh64, EmptyInputMatchesTheSpecificationVector) {
    // XXH64 of no bytes with seed 0, as listed by the xxHash specification's examples.
    EXPECT_EQ(digest_of({}), 0xEF46DB3751D8E999ull);
}

TEST(Xxh64, AgreesWithZstdFrameChecksumsForEveryTailLength) {
    // Lengths 0..100 cover every combination of 32-byte stripes, 8-, 4- and 1-byte tails.
    std::mt19937_64 rng(3);
    for (size_t len = 0; len <= 100; ++len) {
        std::vector<uint8_t> data(len);
        for (auto& b : data) b = static_cast<uint8_t>(rng());
        EXPECT_EQ(static_cast<uint32_t>(digest_of(data)), zstd_frame_checksum(data)) << "length " << len;
    }
    std::vector<uint8_t> big(1 << 20);
    for (auto& b : big) b = static_cast<uint8_t>(rng());
    EXPECT_EQ(static_cast<uint32_t>(digest_of(big)), zstd_frame_checksum(big));
}

TEST(Xxh64, PiecewiseFeedingGivesTheSameDigest) {
    std::mt19937_64 rng(4);
    std::vector<uint8_t> data(5000);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    const uint64_t whole = digest_of(data);
    for (int trial = 0; trial < 50; ++trial) {
        Xxh64 h;
        size_t pos = 0;
        while (pos < data.size()) {
            const size_t n = std::min<size_t>(rng() % 70, data.size() - pos);
            h.update(data.data() + pos, n);
            pos += n;
        }
        EXPECT_EQ(h.digest(), whole);
    }
    // digest() does not disturb the stream.
    Xxh64 h;
    h.update(data.data(), 100);
    (void)h.digest();
    h.update(data.data() + 100, data.size() - 100);
    EXPECT_EQ(h.digest(), whole);
}

}  // namespace
}  // namespace zng::trace
