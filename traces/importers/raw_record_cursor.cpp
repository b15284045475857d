#include "traces/importers/raw_record_cursor.hpp"

#include <fmt/format.h>

#include "traces/trace.hpp"

namespace zng::importers {

void RawRecordCursor::open(const std::string& path, size_t record_bytes) { open(open_gzip_stream(path), record_bytes); }

void RawRecordCursor::open(std::unique_ptr<ByteStream> in, size_t record_bytes) {
    in_ = std::move(in);
    record_bytes_ = record_bytes;
    buf_.resize(record_bytes * kRecordsPerRead);
    pos_ = end_ = 0;
    consumed_ = 0;
    eof_ = false;
}

const uint8_t* RawRecordCursor::peek() {
    if (pos_ == end_) {
        if (eof_) return nullptr;
        const size_t n = read_fully(*in_, buf_.data(), buf_.size());
        if (n < buf_.size()) eof_ = true;
        if (n % record_bytes_ != 0)
            throw trace::TraceError(fmt::format("{}: record {} is truncated ({} of {} bytes)", in_->path(),
                                                consumed_ + n / record_bytes_, n % record_bytes_, record_bytes_));
        pos_ = 0;
        end_ = n;
        if (n == 0) return nullptr;
    }
    return buf_.data() + pos_;
}

const uint8_t* RawRecordCursor::next() {
    const uint8_t* p = peek();
    if (p) {
        pos_ += record_bytes_;
        ++consumed_;
    }
    return p;
}

}  // namespace zng::importers
