// Helpers shared by the trace tests: a seeded generator of valid records of every
// shape, per-test temporary file names, whole-file reads and writes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "traces/trace.hpp"

namespace zng::trace::testing {

inline std::vector<uint8_t> file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void put_file(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Path of a scratch file unique to the running test.
inline std::string temp_path(const std::string& suffix) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return std::string(ZNG_TEST_TMP_DIR) + "/" + info->test_suite_name() + "." + info->name() + "." + suffix;
}

// Produces valid records covering every kind, space, size, full and partial masks,
// strided (positive, negative, zero, huge strides) and scattered addresses, and
// extreme values (pc and addresses near 2^64, compute up to 2^32 - 1).
class RecordGenerator {
public:
    // With `io_kinds`, IoSubmit, IoWait and Phase records are produced too.
    explicit RecordGenerator(uint64_t seed, bool io_kinds = false) : rng_(seed), io_kinds_(io_kinds) {}

    WarpRecord next() {
        WarpRecord r;
        r.kind = static_cast<RecordKind>(pick(io_kinds_ ? kRecordKinds : 6));
        r.pc = wide();
        r.active_mask = pick(3) == 0 ? kFullWarpMask : static_cast<uint32_t>(rng_());
        if (pick(8) == 0) r.active_mask = pick(2) ? 0u : 1u << pick(32);
        r.compute = pick(3) == 0 ? 0 : static_cast<uint32_t>(pick(4) == 0 ? rng_() : pick(100));
        if (r.kind == RecordKind::Compute && r.compute == 0) r.compute = 1 + static_cast<uint32_t>(pick(50));
        if (r.kind == RecordKind::IoWait) r.io_tag = static_cast<uint32_t>(pick(2) ? pick(8) : rng_());
        if (r.kind == RecordKind::Phase) r.duration_ps = 1 + (pick(2) ? pick(1'000'000) : pick(kMaxPhasePs));
        if (r.kind == RecordKind::IoSubmit) {
            static constexpr uint32_t kBytes[] = {512, 4096, 131072, kMaxIoBytes};
            r.io_write = pick(2) == 0;
            r.io_bytes = pick(4) == 0 ? 1 + static_cast<uint32_t>(pick(kMaxIoBytes)) : kBytes[pick(4)];
            r.io_tag = static_cast<uint32_t>(pick(2) ? pick(8) : rng_());
            r.io_dest = wide();
            r.io_dest_stride = pick(4) == 0 ? static_cast<int64_t>(rng_()) : static_cast<int64_t>(r.io_bytes);
        }
        if (!r.has_lane_addresses()) return r;
        if (r.is_memory()) {
            r.space = static_cast<MemSpace>(pick(4));
            static constexpr uint8_t kSizes[] = {1, 2, 4, 8, 16};
            r.access_size = kSizes[pick(5)];
        }
        r.strided = pick(2) == 0;
        if (r.strided) {
            r.base = wide();
            static constexpr int64_t kStrides[] = {0, 1, 4, 8, 128, -4, -4096};
            r.stride = pick(4) == 0 ? static_cast<int64_t>(rng_()) : kStrides[pick(7)];
        } else {
            uint64_t a = wide();
            for (int lane = 0; lane < kWarpSize; ++lane) {
                if (!(r.active_mask >> lane & 1u)) continue;
                a = pick(5) == 0 ? wide() : a + static_cast<uint64_t>(static_cast<int64_t>(pick(4096)) - 2048);
                r.addr[lane] = a;
            }
        }
        return r;
    }

    uint64_t pick(uint64_t n) { return rng_() % n; }

private:
    // Mixes small values (1-byte varints) with full 64-bit ones.
    uint64_t wide() {
        switch (pick(4)) {
            case 0: return pick(128);
            case 1: return 0x7f0000000000ull + pick(1u << 30);
            case 2: return ~uint64_t(0) - pick(16);
            default: return rng_();
        }
    }
    std::mt19937_64 rng_;
    bool io_kinds_ = false;
};

}  // namespace zng::trace::testing
