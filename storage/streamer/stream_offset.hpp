// How GPU-issued I/O names a stream of a caching tier (storage/streamer): the storage
// offset of an io_submit record is (stream << 40) | byte offset in the stream, as GoFS
// names files (storage/gofs/file_offset.hpp), so a stream holds up to 1 TiB. A stream is
// written from offset 0 on (create_stream, then write_stream per piece) and read from
// offset 0 on (open_stream, then read_stream per sblock), one sblock per request.
//
// The trace has no call of its own for close_stream(): a write of one logical block at
// kStreamCloseOffset, the stream's last 4 KiB of address space, closes the stream being
// written (its completion is close_stream() returning). Writing offset 0 of a stream
// that exists destroys it first (destroy_stream(), then create_stream()).
#pragma once
#include <cstdint>

namespace zng::storage::streamer {

inline constexpr uint32_t kStreamShift = 40;
inline constexpr uint64_t kStreamOffsetMask = (uint64_t{1} << kStreamShift) - 1;
inline constexpr uint64_t kStreamCloseOffset = kStreamOffsetMask + 1 - 4096;

inline constexpr uint64_t stream_io_offset(uint64_t stream, uint64_t offset) { return stream << kStreamShift | offset; }
inline constexpr uint64_t stream_of(uint64_t io_offset) { return io_offset >> kStreamShift; }
inline constexpr uint64_t offset_in_stream(uint64_t io_offset) { return io_offset & kStreamOffsetMask; }

}  // namespace zng::storage::streamer
