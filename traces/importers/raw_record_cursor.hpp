// Walks the fixed-size binary records of one gzip'd warp stream (MacSim trace_<id>.raw)
// through a reusable buffer, with one record of look-ahead.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/importers/byte_stream.hpp"

namespace zng::importers {

class RawRecordCursor {
public:
    // Opens `path`; the buffer of the previous file is reused.
    void open(const std::string& path, size_t record_bytes);
    // Walks `in`, already open (for example read ahead), instead.
    void open(std::unique_ptr<ByteStream> in, size_t record_bytes);
    // The next record's bytes without consuming it, or nullptr at the end of the stream.
    // Throws TraceError naming the file and record index when the last record is cut short.
    const uint8_t* peek();
    // The next record's bytes, consumed; nullptr at the end.
    const uint8_t* next();
    // 0-based index of the record last returned by next().
    uint64_t index() const { return consumed_ - 1; }
    const std::string& path() const { return in_->path(); }

private:
    static constexpr size_t kRecordsPerRead = 1024;

    std::unique_ptr<ByteStream> in_;
    std::vector<uint8_t> buf_;
    size_t record_bytes_ = 0;
    size_t pos_ = 0, end_ = 0;
    uint64_t consumed_ = 0;
    bool eof_ = false;
};

}  // namespace zng::importers
