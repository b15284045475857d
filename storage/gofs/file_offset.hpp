// How GPU-issued file I/O names a file: the storage offset of an io_submit record
// served by GoFS is (file number << 40) | byte offset in the file, so a file holds up
// to 1 TiB and file 0's offsets are plain byte offsets (a single-file benchmark such as
// io_bench needs no change). File numbers count the listing's files in order; plain
// requests name files below 2^23 (bit 63 marks a batched call, below).
#pragma once
#include <cstdint>
#include <string>

namespace zng::storage::gofs {

inline constexpr uint32_t kFileShift = 40;
inline constexpr uint64_t kFileOffsetMask = (uint64_t{1} << kFileShift) - 1;

inline constexpr uint64_t file_io_offset(uint64_t file, uint64_t offset) { return file << kFileShift | offset; }
inline constexpr uint64_t file_of(uint64_t io_offset) { return io_offset >> kFileShift; }
inline constexpr uint64_t offset_in_file(uint64_t io_offset) { return io_offset & kFileOffsetMask; }

// Appended to the error of a request outside the files: the trace and the config
// disagree, and either can change (io_bench's default span, 64 GiB, is larger than the
// default namespace, one 8 GiB file). `keys`: the settings that size the files.
inline std::string namespace_hint(const char* keys) {
    return std::string(" (") + keys + " size the files; the workload's offsets must fall inside them: io_bench's "
           "span_mib, for one)";
}

}  // namespace zng::storage::gofs

namespace zng::storage::gofs {

// A batched call (seed 001 Fig. 9: batch_open, batch_read/batch_write, and the batched
// creation of a directory's new files) on files [first, first + count) of one directory
// is one request whose storage offset has bit 63 set, the first file in bits 40..62,
// the count in bits 2..39 and the call in bits 0..1. Its bytes: batch_read/batch_write
// move the first bytes / count bytes of every file (the whole file when that is its
// size: "Batch read fetches the entire file"), one file after another from `dest`;
// batch_open and create move no data (bytes are ignored).
//
// HostTransform is a batch_read/batch_write of a program that runs on the host (seed
// 001's Host-Only: "CPU preprocesses the dataset"): the data stays in host memory. A
// read's files are each transformed on a host core as soon as that file has arrived, and
// the call completes when the last transform has; a write writes the transforms' outputs
// from host memory. Only a plane with host threads serves it (Basic).
enum class BatchCall : uint8_t { Open = 0, Data = 1, Create = 2, HostTransform = 3 };
inline constexpr uint64_t kBatchBit = uint64_t{1} << 63;
inline constexpr uint64_t kMaxBatchFirst = (uint64_t{1} << 23) - 1;
inline constexpr uint64_t kMaxBatchCount = (uint64_t{1} << 38) - 1;

inline constexpr uint64_t batch_io_offset(BatchCall call, uint64_t first, uint64_t count) {
    return kBatchBit | first << kFileShift | count << 2 | uint64_t(call);
}
inline constexpr bool is_batch(uint64_t io_offset) { return (io_offset & kBatchBit) != 0; }
inline constexpr uint64_t batch_first(uint64_t io_offset) { return (io_offset & ~kBatchBit) >> kFileShift; }
inline constexpr uint64_t batch_count(uint64_t io_offset) { return (io_offset & kFileOffsetMask) >> 2; }
inline constexpr BatchCall batch_call(uint64_t io_offset) { return static_cast<BatchCall>(io_offset & 3); }

}  // namespace zng::storage::gofs
