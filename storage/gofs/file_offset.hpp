// How GPU-issued file I/O names a file: the storage offset of an io_submit record
// served by GoFS is (file number << 40) | byte offset in the file, so a file holds up
// to 1 TiB and file 0's offsets are plain byte offsets (a single-file benchmark such as
// io_bench needs no change). File numbers count the listing's files in order.
#pragma once
#include <cstdint>

namespace zng::storage::gofs {

inline constexpr uint32_t kFileShift = 40;
inline constexpr uint64_t kFileOffsetMask = (uint64_t{1} << kFileShift) - 1;

inline constexpr uint64_t file_io_offset(uint64_t file, uint64_t offset) { return file << kFileShift | offset; }
inline constexpr uint64_t file_of(uint64_t io_offset) { return io_offset >> kFileShift; }
inline constexpr uint64_t offset_in_file(uint64_t io_offset) { return io_offset & kFileOffsetMask; }

}  // namespace zng::storage::gofs
