// How GPU-issued I/O closes a dataset under Cache VOL: files are named as GoFS names
// them (storage offset = file << 40 | offset in the file, storage/gofs/file_offset.hpp),
// and a request to the last 4 KiB of a file's 1 TiB space is that file's close, not
// data: it completes when the file's staged writes have reached the parallel file
// system (seed 004 III-A: "insert compute work between the dataset write call and the
// dataset close call to overlap with the background data migration"; the close is
// where the application waits for what is left).
#pragma once
#include <cstdint>

#include "storage/gofs/file_offset.hpp"

namespace zng::storage::cache_vol {

inline constexpr uint64_t kCloseBytes = 4096;
inline constexpr uint64_t kCloseOffset = gofs::kFileOffsetMask + 1 - kCloseBytes;

inline constexpr uint64_t close_io_offset(uint64_t file) { return gofs::file_io_offset(file, kCloseOffset); }
inline constexpr bool is_close(uint64_t io_offset) { return gofs::offset_in_file(io_offset) >= kCloseOffset; }

}  // namespace zng::storage::cache_vol
