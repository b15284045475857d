// Validation pass over one warp's encoded records, shared by the writer (CTAs copied
// from another source) and the reader (every CTA read from a file).
#pragma once

#include <cstddef>
#include <cstdint>

namespace zng::trace {

struct WarpScan {
    uint64_t records = 0;
    uint64_t instructions = 0;    // sum of WarpRecord::instructions()
    bool ends_with_exit = false;
    uint64_t last_pc = 0;         // pc of the last record (0 when empty)
};

// Decodes every record in [data, data + size). Throws TraceError naming the record
// index and its byte offset within the warp when a record is malformed or follows an
// Exit (a warp issues nothing after it exits).
WarpScan scan_warp(const uint8_t* data, size_t size);

}  // namespace zng::trace
