#include "traces/importers/read_ahead.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace zng::importers {

namespace {

// A file's bytes read ahead, then the rest of its open stream, then its error if any.
class ReadAheadStream final : public ByteStream {
public:
    ReadAheadStream(std::string path, std::vector<uint8_t> head, std::unique_ptr<ByteStream> rest,
                    std::exception_ptr error)
        : path_(std::move(path)), head_(std::move(head)), rest_(std::move(rest)), error_(std::move(error)) {}

    size_t read(void* dst, size_t size) override {
        auto* out = static_cast<uint8_t*>(dst);
        size_t total = std::min(size, head_.size() - pos_);
        if (total != 0) std::memcpy(out, head_.data() + pos_, total);
        pos_ += total;
        if (total == size) return total;
        // The head is used up: what the worker met next, in the order it met it.
        if (error_) {
            if (total != 0) return total;  // the bytes before the error first, as the stream gave them
            std::rethrow_exception(error_);
        }
        if (rest_) total += rest_->read(out + total, size - total);
        return total;
    }
    const std::string& path() const override { return path_; }

private:
    std::string path_;
    std::vector<uint8_t> head_;
    size_t pos_ = 0;
    std::unique_ptr<ByteStream> rest_;
    std::exception_ptr error_;
};

}  // namespace

ReadAhead::ReadAhead(std::vector<std::string> paths, ReadAheadLimits limits) : limits_(limits) {
    limits_.files_ahead = std::max<size_t>(limits_.files_ahead, 1);
    given_ = paths.size();
    paths_.assign(std::make_move_iterator(paths.begin()), std::make_move_iterator(paths.end()));
    worker_ = std::thread([this] { work(); });
}

void ReadAhead::add(std::vector<std::string> paths) {
    if (paths.empty()) return;
    bool wake;
    {
        std::lock_guard lock(mutex_);
        for (std::string& p : paths) paths_.push_back(std::move(p));
        wake = worker_waits_ && claimed_ == given_;  // it ran out of paths: these are new work
        given_ += paths.size();
    }
    if (wake) room_.notify_one();
}

ReadAhead::~ReadAhead() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    room_.notify_all();
    worker_.join();
}

ReadAhead::File ReadAhead::read_one(const std::string& path, Reader& r) const {
    File f;
    f.path = path;
    // A small well-formed file in one go; any other through zlib's reader, as opened directly.
    if (r.whole.read(path, limits_.bytes_per_file, f.head)) {
        f.opened = true;
        return f;
    }
    std::unique_ptr<ByteStream> in;
    try {
        in = open_gzip_stream(path);
        f.opened = true;
        // Through one reused buffer, so a small file costs its own bytes, not a buffer's.
        while (f.head.size() < limits_.bytes_per_file) {
            const size_t want = std::min(r.scratch.size(), limits_.bytes_per_file - f.head.size());
            const size_t n = in->read(r.scratch.data(), want);
            if (n == 0) return f;  // the whole file is in memory
            f.head.insert(f.head.end(), r.scratch.begin(), r.scratch.begin() + static_cast<std::ptrdiff_t>(n));
        }
        f.rest = std::move(in);
    } catch (...) {
        // A failed read delivers nothing (as GzipStream's); the bytes before it stay.
        f.error = std::current_exception();
    }
    return f;
}

size_t ReadAhead::claim(std::string& path) {
    const size_t i = claimed_++;
    path = paths_[i - taken_];
    window_.emplace_back();
    done_.push_back(false);
    return i;
}

void ReadAhead::store(size_t i, File f) {
    bytes_held_ += f.head.size();
    window_[i - taken_] = std::move(f);
    done_[i - taken_] = true;
}

bool ReadAhead::has_room() const {
    return claimed_ == taken_ || (claimed_ - taken_ < limits_.files_ahead && bytes_held_ < limits_.bytes_ahead);
}

bool ReadAhead::at_low_water() const {
    return claimed_ == taken_ ||
           (claimed_ - taken_ <= limits_.files_ahead / 2 && bytes_held_ <= limits_.bytes_ahead / 2);
}

void ReadAhead::work() {
    Reader r;
    for (;;) {
        size_t i;
        std::string path;
        {
            std::unique_lock lock(mutex_);
            if (!stop_ && (claimed_ == given_ || !has_room())) {
                // Out of paths, or full: wait for more paths, or until the reader has
                // taken half, not for each file it takes, so that the two threads do not
                // hand every file over with a wake-up.
                const bool full = claimed_ != given_;
                worker_waits_ = true;
                room_.wait(lock, [&] {
                    return stop_ || (claimed_ != given_ && (full ? at_low_water() : has_room()));
                });
                worker_waits_ = false;
            }
            if (stop_) return;
            i = claim(path);
        }
        File f = read_one(path, r);
        bool wake;
        {
            std::lock_guard lock(mutex_);
            store(i, std::move(f));
            wake = reader_waits_ && i == taken_;
        }
        if (wake) ready_.notify_one();
    }
}

std::unique_ptr<ByteStream> ReadAhead::stream_of(File f) {
    if (!f.opened) std::rethrow_exception(f.error);
    return std::make_unique<ReadAheadStream>(std::move(f.path), std::move(f.head), std::move(f.rest),
                                             std::move(f.error));
}

std::unique_ptr<ByteStream> ReadAhead::next() {
    File f;
    bool wake;
    {
        std::unique_lock lock(mutex_);
        if (taken_ == given_) throw std::logic_error("ReadAhead::next: every path was taken");
        if (claimed_ == taken_) {
            // Nobody has started it: read it here rather than wait for the worker.
            std::string path = std::move(paths_.front());
            paths_.pop_front();
            ++claimed_;
            ++taken_;
            lock.unlock();
            return stream_of(read_one(path, own_));
        }
        // The worker is still reading the file wanted: rather than sleep until it is done
        // (a wake-up per file when reading is what bounds the two threads), read the next
        // file nobody has started into its place in the window meanwhile.
        while (!done_.front() && claimed_ != given_ && has_room()) {
            std::string path;
            const size_t i = claim(path);
            lock.unlock();
            File g = read_one(path, own_);
            lock.lock();
            store(i, std::move(g));  // taken_ has not moved: only this thread moves it
        }
        reader_waits_ = true;
        ready_.wait(lock, [this] { return done_.front(); });
        reader_waits_ = false;
        f = std::move(window_.front());
        window_.pop_front();
        done_.pop_front();
        paths_.pop_front();
        bytes_held_ -= f.head.size();
        ++taken_;
        wake = worker_waits_ && at_low_water();
    }
    if (wake) room_.notify_one();
    return stream_of(std::move(f));
}

}  // namespace zng::importers
