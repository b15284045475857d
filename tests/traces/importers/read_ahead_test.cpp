// ReadAhead: every stream gives the bytes and the errors that opening the file directly
// would, whatever the limits on what is held ahead.
#include "traces/importers/read_ahead.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "importer_test_support.hpp"

namespace zng::importers {
namespace {

using namespace testing;

// The whole stream through read_fully in `chunk`-byte reads, or the message it threw.
std::string drain(ByteStream& in, size_t chunk, std::vector<uint8_t>& out) {
    out.clear();
    try {
        std::vector<uint8_t> buf(chunk);
        while (const size_t n = read_fully(in, buf.data(), chunk)) {
            out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
            if (n < chunk) break;
        }
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

std::string open_error(const std::string& path) {
    try {
        open_gzip_stream(path);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

TEST(ReadAhead, StreamsMatchTheFilesUnderEveryLimit) {
    TempDir dir;
    // A small and an empty file, one of 10,000 bytes (past a 1,000-byte per-file cap:
    // 1,000 from memory, 9,000 from the open stream) and one of exactly the cap.
    std::vector<std::string> paths = {dir.file("a.raw"), dir.file("empty.raw"), dir.file("big.raw"),
                                      dir.file("at_cap.raw")};
    write_gzip(paths[0], pattern_bytes(300, 1));
    write_gzip(paths[1], {});
    write_gzip(paths[2], pattern_bytes(10'000, 2));
    write_gzip(paths[3], pattern_bytes(1'000, 3));
    for (const ReadAheadLimits limits : {ReadAheadLimits{}, ReadAheadLimits{1, 1, 1'000}, ReadAheadLimits{2, 10, 7}}) {
        ReadAhead ahead(paths, limits);
        for (const std::string& p : paths) {
            const auto got = ahead.next();
            const auto direct = open_gzip_stream(p);
            EXPECT_EQ(got->path(), p);
            std::vector<uint8_t> a, b;
            // Reads of 333 bytes cross the 1,000- and 7-byte caps mid-read.
            EXPECT_EQ(drain(*got, 333, a), "");
            EXPECT_EQ(drain(*direct, 333, b), "");
            EXPECT_EQ(a, b) << p;
        }
    }
}

// A reader that outruns the worker reads the next unstarted files itself while it
// waits for the one it wants: whichever thread read a file, the streams come in the
// order given with the files' bytes (many small files, so the two threads interleave).
TEST(ReadAhead, ManyFilesComeInOrderWhicheverThreadReadThem) {
    TempDir dir;
    std::vector<std::string> paths;
    for (int i = 0; i < 600; ++i) {
        paths.push_back(dir.file("w" + std::to_string(i) + ".raw"));
        write_gzip(paths.back(), pattern_bytes(static_cast<size_t>(1 + (i * 37) % 900), static_cast<uint8_t>(i)));
    }
    for (const ReadAheadLimits limits : {ReadAheadLimits{}, ReadAheadLimits{8, 1u << 20, 512}, ReadAheadLimits{2, 4'000, 300}}) {
        ReadAhead ahead(paths, limits);
        for (size_t i = 0; i < paths.size(); ++i) {
            const auto got = ahead.next();
            ASSERT_EQ(got->path(), paths[i]);
            std::vector<uint8_t> a;
            ASSERT_EQ(drain(*got, 4'096, a), "");
            ASSERT_EQ(a, pattern_bytes(static_cast<size_t>(1 + (i * 37) % 900), static_cast<uint8_t>(i))) << paths[i];
        }
    }
}

TEST(ReadAhead, AMissingFileFailsWhenItsTurnComesWithTheDirectMessage) {
    TempDir dir;
    const std::vector<std::string> paths = {dir.file("a.raw"), dir.file("missing.raw"), dir.file("c.raw")};
    write_gzip(paths[0], pattern_bytes(50, 3));
    write_gzip(paths[2], pattern_bytes(60, 4));
    ReadAhead ahead(paths);
    std::vector<uint8_t> out;
    EXPECT_EQ(drain(*ahead.next(), 64, out), "");
    EXPECT_EQ(out.size(), 50u);
    try {
        ahead.next();
        FAIL() << "a missing file opened";
    } catch (const std::exception& e) {
        EXPECT_EQ(std::string(e.what()), open_error(paths[1]));
        EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
    }
    EXPECT_EQ(drain(*ahead.next(), 64, out), "");  // the files after it still read
    EXPECT_EQ(out, pattern_bytes(60, 4));
}

TEST(ReadAhead, ACutOffGzipFileThrowsTheDirectErrorAfterItsBytes) {
    TempDir dir;
    const std::string whole = dir.file("whole.raw"), cut = dir.file("cut.raw");
    write_gzip(whole, pattern_bytes(200'000, 5));
    {
        std::ifstream in(whole, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    }
    for (const ReadAheadLimits limits : {ReadAheadLimits{}, ReadAheadLimits{1, 1, 4'096}}) {
        ReadAhead ahead({cut}, limits);
        std::vector<uint8_t> a, b;
        const std::string got = drain(*ahead.next(), 8'192, a);
        const std::string direct = drain(*open_gzip_stream(cut), 8'192, b);
        EXPECT_NE(direct, "");
        EXPECT_EQ(got, direct);
        // No more bytes before the error than the direct reader gave, all of them the file's.
        ASSERT_LE(a.size(), b.size());
        const std::vector<uint8_t> all = pattern_bytes(200'000, 5);
        EXPECT_TRUE(std::equal(a.begin(), a.end(), all.begin()));
    }
}

TEST(ReadAhead, LeavingBeforeTheLastFileStopsTheWorker) {
    TempDir dir;
    std::vector<std::string> paths;
    for (int i = 0; i < 40; ++i) {
        paths.push_back(dir.file("w" + std::to_string(i) + ".raw"));
        write_gzip(paths.back(), pattern_bytes(100, static_cast<uint8_t>(i)));
    }
    ReadAhead ahead(paths, ReadAheadLimits{4, 1'000, 100});
    std::vector<uint8_t> out;
    EXPECT_EQ(drain(*ahead.next(), 128, out), "");
    EXPECT_EQ(out, pattern_bytes(100, 0));
    // Destroyed with 39 files untaken and the worker waiting for room: it must not hang.
}


TEST(ReadAhead, PathsAddedLaterFollowInOrderAndWakeAWorkerThatRanOut) {
    TempDir dir;
    std::vector<std::string> first, second;
    for (int i = 0; i < 6; ++i) {
        std::vector<std::string>& to = i < 3 ? first : second;
        to.push_back(dir.file("p" + std::to_string(i) + ".raw"));
        write_gzip(to.back(), pattern_bytes(40 + i, static_cast<uint8_t>(i)));
    }
    // Limits of 2 files ahead and of no files at all: the worker runs out of paths or
    // of room before the second batch arrives, and resumes with it.
    for (const ReadAheadLimits limits : {ReadAheadLimits{}, ReadAheadLimits{2, 1'000, 100}}) {
        ReadAhead ahead(first, limits);
        std::vector<uint8_t> out;
        for (int i = 0; i < 3; ++i) {
            EXPECT_EQ(drain(*ahead.next(), 64, out), "");
            EXPECT_EQ(out, pattern_bytes(40 + i, static_cast<uint8_t>(i)));
        }
        EXPECT_THROW(ahead.next(), std::logic_error);  // nothing given yet
        ahead.add(second);
        ahead.add({});
        for (int i = 3; i < 6; ++i) {
            const auto got = ahead.next();
            EXPECT_EQ(got->path(), second[static_cast<size_t>(i - 3)]);
            EXPECT_EQ(drain(*got, 64, out), "");
            EXPECT_EQ(out, pattern_bytes(40 + i, static_cast<uint8_t>(i)));
        }
    }
    // Added before the first ones are taken: one sequence.
    ReadAhead ahead(first);
    ahead.add(second);
    std::vector<uint8_t> out;
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(drain(*ahead.next(), 64, out), "");
        EXPECT_EQ(out, pattern_bytes(40 + i, static_cast<uint8_t>(i)));
    }
}

}  // namespace
}  // namespace zng::importers
