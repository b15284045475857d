// Splits a ByteStream into lines without allocating per line: each line is a view into
// an internal buffer, valid until the next call. Lines longer than the cap are an
// error (a text trace line holds at most 32 addresses, far below it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/importers/byte_stream.hpp"

namespace zng::importers {

class LineReader {
public:
    static constexpr size_t kDefaultMaxLine = 1 << 20;

    explicit LineReader(std::unique_ptr<ByteStream> in, size_t max_line = kDefaultMaxLine);

    // Next line without its '\n' (and without a trailing '\r'); false at end of data.
    bool next(std::string_view& line);
    // 1-based number of the line last returned by next().
    uint64_t line_number() const { return line_no_; }
    const std::string& path() const { return in_->path(); }

private:
    bool refill();

    std::unique_ptr<ByteStream> in_;
    std::vector<char> buf_;
    size_t begin_ = 0;   // first unread byte
    size_t end_ = 0;     // one past the last valid byte
    size_t max_line_;
    uint64_t line_no_ = 0;
    bool eof_ = false;
};

}  // namespace zng::importers
