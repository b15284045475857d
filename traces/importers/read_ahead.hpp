// Opens and decompresses, on a thread of its own, the files a reader will open next, in
// the order it will open them. A MacSim trace keeps each warp in its own gzip'd file
// (2,048 per kernel for vectormultadd 65536), and opening and inflating them one at a
// time took about half of such a trace's whole run; ahead of the reader they overlap
// with the simulation on a second core. When the reader asks for a file nobody has
// started, it reads that file itself instead of sleeping until the worker gets there,
// and while the worker still reads the file it asks for, it reads the next files nobody
// has started: both threads then read files, and neither is woken once per file (the
// 6,144 files of vectormultadd 65536 took 16,149 futex calls, now 711).
//
// Paths can be added while the reader reads (the next kernel's warp files while this
// kernel runs), so that the worker does not stop at a kernel's end: the files a kernel
// starts with are ready when it starts instead of being read while its first blocks
// wait. Only the paths not yet taken are held.
//
// Each stream yields exactly the bytes and errors that open_gzip_stream would: the file's
// first bytes come from memory, then whatever was not read ahead (a file larger than the
// per-file cap) from the same open stream; an error met while opening or reading is
// thrown when the reader reaches that point. Memory is bounded by the number of files
// ahead and the bytes they hold, not by the files' sizes.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "traces/importers/byte_stream.hpp"
#include "traces/importers/gzip_whole_file.hpp"

namespace zng::importers {

struct ReadAheadLimits {
    size_t files_ahead = 256;          // files opened before the reader asks for them
    size_t bytes_ahead = 32u << 20;    // decompressed bytes held for them
    size_t bytes_per_file = 4u << 20;  // read into memory per file; the rest streams
};

class ReadAhead {
public:
    // Starts reading `paths` (gzip'd or plain, as open_gzip_stream takes them) in order.
    explicit ReadAhead(std::vector<std::string> paths = {}, ReadAheadLimits limits = {});
    ~ReadAhead();
    ReadAhead(const ReadAhead&) = delete;
    ReadAhead& operator=(const ReadAhead&) = delete;

    // Appends `paths`, to be read after those given before.
    void add(std::vector<std::string> paths);
    // The stream of the next path in order (throws what opening it threw); at most as
    // many calls as paths given.
    std::unique_ptr<ByteStream> next();

private:
    struct File {
        std::string path;
        std::vector<uint8_t> head;            // decompressed bytes read ahead
        std::unique_ptr<ByteStream> rest;     // still open when the file passed the cap
        std::exception_ptr error;             // thrown after `head` (or at open if no stream)
        bool opened = false;                  // the open itself succeeded
    };

    // What one thread reads files with.
    struct Reader {
        GzipWholeFile whole;
        std::vector<uint8_t> scratch = std::vector<uint8_t>(64u << 10);
    };
    void work();
    // Under mutex_: the worker may claim another file / may resume after waiting for room.
    bool has_room() const;
    // Under mutex_: takes the next path nobody has started (its index, its place in the
    // window reserved), and files what was read for index `i` (either thread reads).
    size_t claim(std::string& path);
    void store(size_t i, File f);
    bool at_low_water() const;
    File read_one(const std::string& path, Reader& r) const;
    static std::unique_ptr<ByteStream> stream_of(File f);

    ReadAheadLimits limits_;
    std::mutex mutex_;
    std::condition_variable ready_;   // the worker finished the file the reader waits for
    std::condition_variable room_;    // the reader took one (or the reader is leaving)
    // Under mutex_. Paths [taken_, given_): the ones not taken yet, in order.
    std::deque<std::string> paths_;
    // Paths [taken_, claimed_) in order: read, or being read by the worker.
    std::deque<File> window_;
    std::deque<bool> done_;           // per window_ entry: its read has finished
    size_t bytes_held_ = 0;           // of finished entries
    size_t taken_ = 0, claimed_ = 0, given_ = 0;
    bool reader_waits_ = false;
    bool worker_waits_ = false;       // for the window to drain to its low-water mark
    bool stop_ = false;
    Reader own_;                      // the reader thread's
    std::thread worker_;
};

}  // namespace zng::importers
