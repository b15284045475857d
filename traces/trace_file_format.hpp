// Layout of a .ztr file, shared by the writer and the reader.
//
//   "ZNGTRACE" (8 bytes) | format version (u32 little-endian) | one zstd frame
//
// The zstd frame holds one uncompressed stream (varints are canonical LEB128,
// strings are a varint length then bytes):
//   'H' workload source array-count { name base size }*
//   { 'K' name grid.x grid.y grid.z block.x block.y block.z shared-mem regs
//     { 'C' cta-id warp-count record-count { byte-length encoded-records }* }*
//     'E' cta-count }*
//   'F' kernels ctas warps records instructions checksum(u64 little-endian)
// The checksum is 64-bit FNV-1a over every byte of the stream before it, a function
// anyone can recompute from its two constants (zstd's own frame checksum is also on,
// but its hash is not part of zstd's public API).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "traces/trace.hpp"

namespace zng::trace::ztr {

constexpr char kMagic[8] = {'Z', 'N', 'G', 'T', 'R', 'A', 'C', 'E'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kPrefixBytes = sizeof(kMagic) + sizeof(uint32_t);

constexpr uint8_t kHeaderTag = 'H';
constexpr uint8_t kKernelTag = 'K';
constexpr uint8_t kCtaTag = 'C';
constexpr uint8_t kKernelEndTag = 'E';
constexpr uint8_t kFooterTag = 'F';

// Sanity caps checked before anything is allocated from a length read off the file.
constexpr uint64_t kMaxNameBytes = 4096;
constexpr uint64_t kMaxArrays = 65536;
constexpr uint64_t kMaxCtaBytes = uint64_t(1) << 30;

constexpr int kDefaultCompressionLevel = 3;

struct Fnv1a64 {
    static constexpr uint64_t kOffsetBasis = 0xcbf29ce484222325ull;
    static constexpr uint64_t kPrime = 0x100000001b3ull;
    uint64_t value = kOffsetBasis;
    void update(const uint8_t* p, size_t n) {
        uint64_t h = value;
        for (size_t i = 0; i < n; ++i) {
            h ^= p[i];
            h *= kPrime;
        }
        value = h;
    }
};

// Empty when the kernel can be stored; otherwise what is wrong with it.
std::string kernel_info_problem(const KernelInfo& k);
// Empty when the header can be stored; otherwise what is wrong with it.
std::string header_problem(const TraceHeader& h);

}  // namespace zng::trace::ztr
