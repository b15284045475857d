// GzipWholeFile: a small well-formed gzip file decompresses to the bytes zlib's own
// reader gives; every other file is declined with the output untouched, so that the
// caller's fallback (open_gzip_stream) decides its bytes and errors.
#include "traces/importers/gzip_whole_file.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "importer_test_support.hpp"
#include "traces/importers/byte_stream.hpp"

namespace zng::importers {
namespace {

using namespace testing;

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::vector<uint8_t> direct(const std::string& path) {
    auto in = open_gzip_stream(path);
    std::vector<uint8_t> out(1 << 20);
    out.resize(read_fully(*in, out.data(), out.size()));
    return out;
}

// One gzip member built around zlib's raw deflate output, so the header's optional
// fields (RFC 1952: FHCRC 2, FEXTRA 4, FNAME 8, FCOMMENT 16) and the block kinds (level
// 0 stored, Z_FIXED fixed Huffman, else dynamic) can be chosen.
std::string gzip_member(const std::vector<uint8_t>& data, int level, int strategy, uint8_t flags) {
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy), Z_OK);
    std::string body(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
    z.next_in = const_cast<Bytef*>(data.data());
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(body.data());
    z.avail_out = static_cast<uInt>(body.size());
    EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    body.resize(z.total_out);
    deflateEnd(&z);
    std::string m = {'\x1f', '\x8b', '\x08', static_cast<char>(flags), 0, 0, 0, 0, 0, '\x03'};
    if (flags & 4) m += std::string("\x05\x00", 2) + "extra";
    if (flags & 8) m += std::string("warp.raw") + '\0';
    if (flags & 16) m += std::string("a comment") + '\0';
    if (flags & 2) {  // the low half of the CRC-32 of the header before it
        const uLong h = crc32(0, reinterpret_cast<const Bytef*>(m.data()), static_cast<uInt>(m.size()));
        m += {static_cast<char>(h & 0xff), static_cast<char>((h >> 8) & 0xff)};
    }
    m += body;
    const uLong crc = crc32(0, data.data(), static_cast<uInt>(data.size()));
    for (int i = 0; i < 4; ++i) m += static_cast<char>((crc >> (8 * i)) & 0xff);
    for (int i = 0; i < 4; ++i) m += static_cast<char>((data.size() >> (8 * i)) & 0xff);
    return m;
}

// Text-like records, as a MacSim warp file holds: short repeating fields.
std::vector<uint8_t> record_bytes(size_t n, uint32_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>((i % 56 < 8) ? (seed + i / 56) : (i % 56) * 3);
    return v;
}

TEST(GzipWholeFile, AcceptsOnlyWhatZlibsReaderAcceptsAndGivesTheSameBytes) {
    // Members of every block kind and header field, alone and concatenated, then each
    // with one byte changed at random: whenever the whole-file path takes a file, zlib's
    // reader takes it too and gives the same bytes.
    TempDir dir;
    const std::string path = dir.file("w.raw");
    std::vector<std::string> files;
    const int levels[] = {0, 6, 9};
    const int strategies[] = {Z_DEFAULT_STRATEGY, Z_FIXED};
    uint32_t seed = 0;
    for (int level : levels)
        for (int strategy : strategies)
            for (uint8_t flags : {0, 4, 8, 16, 28}) {
                ++seed;
                files.push_back(gzip_member(record_bytes(896, seed), level, strategy, flags));
            }
    files.push_back(gzip_member({}, 6, Z_DEFAULT_STRATEGY, 0));  // an empty member
    files.push_back(files[1] + files[7] + gzip_member({}, 6, Z_DEFAULT_STRATEGY, 8));
    GzipWholeFile whole;
    std::mt19937_64 rng(17);
    uint64_t taken = 0, refused = 0;
    for (const std::string& good : files) {
        for (int variant = 0; variant < 60; ++variant) {
            std::string bytes = good;
            if (variant > 0) {  // variant 0 is the file as written
                const size_t at = rng() % bytes.size();
                bytes[at] = static_cast<char>(bytes[at] ^ static_cast<char>(1 + rng() % 255));
            }
            write_bytes(path, bytes);
            std::vector<uint8_t> out;
            const bool took = whole.read(path, 1 << 20, out);
            if (variant == 0) {
                ASSERT_TRUE(took);
            }
            std::vector<uint8_t> reference;
            bool zlib_took = true;
            try {
                reference = direct(path);
            } catch (const std::exception&) {
                zlib_took = false;
            }
            if (!took) {
                ++refused;
                continue;
            }
            ++taken;
            ASSERT_TRUE(zlib_took) << "file " << &good - files.data() << ", variant " << variant;
            ASSERT_EQ(out, reference) << "file " << &good - files.data() << ", variant " << variant;
        }
    }
    // Both outcomes were exercised.
    EXPECT_GT(taken, files.size());
    EXPECT_GT(refused, files.size());
}

TEST(GzipWholeFile, ASmallFileGivesTheBytesZlibsReaderGivesAfterWhatOutHeld) {
    TempDir dir;
    const std::string a = dir.file("a.raw"), b = dir.file("b.raw");
    write_gzip(a, pattern_bytes(896, 1));  // a MacSim warp file's size
    write_gzip(b, pattern_bytes(20'000, 2));
    GzipWholeFile whole;
    std::vector<uint8_t> out = {7, 8};
    ASSERT_TRUE(whole.read(a, 4096, out));
    ASSERT_EQ(out.size(), 2u + 896u);
    EXPECT_EQ(std::vector<uint8_t>(out.begin() + 2, out.end()), direct(a));
    // The same inflater again, on a file decompressing past its first output chunk.
    out.clear();
    ASSERT_TRUE(whole.read(b, 20'000, out));  // exactly the cap is allowed
    EXPECT_EQ(out, pattern_bytes(20'000, 2));
}

TEST(GzipWholeFile, ConcatenatedMembersGiveEveryMembersBytesAsZlibsReaderDoes) {
    TempDir dir;
    const std::string one = dir.file("one.raw"), two = dir.file("two.raw"), both = dir.file("both.raw");
    write_gzip(one, pattern_bytes(300, 3));
    write_gzip(two, pattern_bytes(500, 4));
    write_bytes(both, file_bytes(one) + file_bytes(two));
    GzipWholeFile whole;
    std::vector<uint8_t> out;
    ASSERT_TRUE(whole.read(both, 4096, out));
    EXPECT_EQ(out.size(), 800u);
    EXPECT_EQ(out, direct(both));
}

TEST(GzipWholeFile, AMemberLargerThanTheLastTrailerSaysIsInflatedAgainIntoMoreRoom) {
    // The first room is the last member's length (10 bytes here): the 5,000-byte first
    // member does not fit, and is inflated again into room grown for it.
    TempDir dir;
    const std::string big = dir.file("big.raw"), small = dir.file("small.raw"), both = dir.file("both.raw");
    write_gzip(big, pattern_bytes(5'000, 6));
    write_gzip(small, pattern_bytes(10, 7));
    write_bytes(both, file_bytes(big) + file_bytes(small));
    GzipWholeFile whole;
    std::vector<uint8_t> out;
    ASSERT_TRUE(whole.read(both, 5'010, out));
    EXPECT_EQ(out, direct(both));
    ASSERT_EQ(out.size(), 5'010u);
    // One byte less than both members hold: declined, though each member alone fits.
    out.clear();
    EXPECT_FALSE(whole.read(both, 5'009, out));
    EXPECT_TRUE(out.empty());
}

TEST(GzipWholeFile, LeavesAMemberWithAHeaderCrcToZlib) {
    // FHCRC (RFC 1952): a CRC-16 of the header follows it. zlib checks it, so the file is
    // left to zlib's reader, which reads it (and refuses it once the CRC is wrong).
    TempDir dir;
    const std::string hcrc = dir.file("hcrc.raw"), bad = dir.file("bad.raw");
    std::string bytes = gzip_member(pattern_bytes(700, 8), 6, Z_DEFAULT_STRATEGY, 2);
    write_bytes(hcrc, bytes);
    bytes[10] = bytes[11] = 0;  // the header CRC no longer matches
    write_bytes(bad, bytes);
    GzipWholeFile whole;
    std::vector<uint8_t> out;
    EXPECT_FALSE(whole.read(hcrc, 4096, out));
    EXPECT_TRUE(out.empty());
    EXPECT_EQ(direct(hcrc), pattern_bytes(700, 8));
    EXPECT_FALSE(whole.read(bad, 4096, out));
    EXPECT_THROW(direct(bad), std::exception);
}

TEST(GzipWholeFile, DeclinesEveryOtherFileAndLeavesOutAsItWas) {
    TempDir dir;
    const std::string good = dir.file("good.raw");
    write_gzip(good, pattern_bytes(1'000, 5));
    const std::string bytes = file_bytes(good);
    const std::string missing = dir.file("missing.raw"), plain = dir.file("plain.raw"), empty = dir.file("empty.raw"),
                      cut = dir.file("cut.raw"), trailing = dir.file("trailing.raw"), corrupt = dir.file("corrupt.raw"),
                      large = dir.file("large.raw");
    write_bytes(plain, "not gzip at all");
    write_bytes(empty, "");
    write_bytes(cut, bytes.substr(0, bytes.size() - 9));  // the trailer and a byte of data gone
    write_bytes(trailing, bytes + "xyz");
    std::string flipped = bytes;
    flipped[bytes.size() - 8] = static_cast<char>(flipped[bytes.size() - 8] ^ 0x55);  // CRC-32 no longer matches
    write_bytes(corrupt, flipped);
    std::string big(GzipWholeFile::kMaxCompressed, 'x');
    write_bytes(large, bytes + big);  // a valid first member, then more than the small-file bound
    GzipWholeFile whole;
    for (const std::string& p : {missing, plain, empty, cut, trailing, corrupt, large}) {
        std::vector<uint8_t> out = {1, 2, 3};
        EXPECT_FALSE(whole.read(p, 4096, out)) << p;
        EXPECT_EQ(out, (std::vector<uint8_t>{1, 2, 3})) << p;
    }
    // More bytes than the cap: declined too, and the inflater still reads good files after.
    std::vector<uint8_t> out;
    EXPECT_FALSE(whole.read(good, 999, out));
    EXPECT_TRUE(out.empty());
    ASSERT_TRUE(whole.read(good, 1'000, out));
    EXPECT_EQ(out, pattern_bytes(1'000, 5));
}

}  // namespace
}  // namespace zng::importers
