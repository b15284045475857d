// Validation pass over one warp's encoded records, shared by the writer (CTAs copied
// from another source) and the reader (every CTA read from a file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

namespace zng::trace {

struct WarpScan {
    uint64_t records = 0;
    uint64_t instructions = 0;    // sum of WarpRecord::instructions()
    bool ends_with_exit = false;
    uint64_t last_pc = 0;         // pc of the last record (0 when empty)
    uint64_t io_records = 0;      // IoSubmit, IoWait and Phase records (format version 3)
};

// Decodes every record in [data, data + size). Throws TraceError naming the record
// index and its byte offset within the warp when a record is malformed or follows an
// Exit (a warp issues nothing after it exits).
WarpScan scan_warp(const uint8_t* data, size_t size);

// Rethrows a decoding error met while walking a source's records, prefixed with where
// it happened: "<input>: kernel K, CTA id C, warp W, record R: <what>".
[[noreturn]] void throw_record_error(const std::string& input, uint64_t kernel, uint64_t cta_id, size_t warp,
                                     uint64_t record, const std::exception& e);

}  // namespace zng::trace
