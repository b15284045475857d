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
// The checksum is XXH64 (seed 0) of every byte of the stream before it, computed by
// our own implementation of the published algorithm (zstd bundles one, but not as
// public API). zstd's frame checksum is enabled as well.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "traces/trace.hpp"

namespace zng::trace::ztr {

constexpr char kMagic[8] = {'Z', 'N', 'G', 'T', 'R', 'A', 'C', 'E'};
constexpr uint32_t kFormatVersion = kTraceFormatVersion;
// Version 1 checksummed with FNV-1a; it was never used outside development.
constexpr uint32_t kOldestReadableVersion = 2;
// IoSubmit, IoWait and Phase records exist from this version on.
constexpr uint32_t kFirstIoVersion = 3;
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
// zstd window: the writer pins level 3's usual 2 MiB so readers need little memory;
// the reader refuses frames asking for more than 16 MiB, so a corrupt frame header
// cannot make zstd reserve the 128 MiB its default limit allows.
constexpr int kWriterWindowLog = 21;
constexpr int kReaderMaxWindowLog = 24;

// Empty when the kernel can be stored; otherwise what is wrong with it.
std::string kernel_info_problem(const KernelInfo& k);
// Empty when the header can be stored; otherwise what is wrong with it.
std::string header_problem(const TraceHeader& h);

}  // namespace zng::trace::ztr
