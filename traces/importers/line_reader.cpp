#include "traces/importers/line_reader.hpp"

#include <fmt/format.h>

#include <cstring>

#include "traces/trace.hpp"

namespace zng::importers {

LineReader::LineReader(std::unique_ptr<ByteStream> in, size_t max_line)
    : in_(std::move(in)), buf_(max_line + (1 << 16)), max_line_(max_line) {}

bool LineReader::refill() {
    if (eof_) return false;
    if (begin_ > 0) {  // keep the partial line at the front of the buffer
        std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    if (end_ == buf_.size()) return false;
    const size_t n = in_->read(buf_.data() + end_, buf_.size() - end_);
    if (n == 0) {
        eof_ = true;
        return false;
    }
    end_ += n;
    return true;
}

bool LineReader::next(std::string_view& line) {
    size_t scanned = begin_;
    for (;;) {
        const void* nl = std::memchr(buf_.data() + scanned, '\n', end_ - scanned);
        if (nl) {
            const size_t pos = static_cast<const char*>(nl) - buf_.data();
            size_t len = pos - begin_;
            if (len > max_line_)
                throw trace::TraceError(fmt::format("{}:{}: line longer than {} bytes", path(), line_no_ + 1, max_line_));
            if (len > 0 && buf_[begin_ + len - 1] == '\r') --len;
            line = std::string_view(buf_.data() + begin_, len);
            begin_ = pos + 1;
            ++line_no_;
            return true;
        }
        if (end_ - begin_ > max_line_)
            throw trace::TraceError(fmt::format("{}:{}: line longer than {} bytes", path(), line_no_ + 1, max_line_));
        const size_t kept = end_ - begin_;
        if (!refill()) {
            if (end_ == begin_) return false;
            // Last line without a final newline.
            size_t len = end_ - begin_;
            if (buf_[begin_ + len - 1] == '\r') --len;
            line = std::string_view(buf_.data() + begin_, len);
            begin_ = end_;
            ++line_no_;
            return true;
        }
        scanned = begin_ + kept;
    }
}

}  // namespace zng::importers
