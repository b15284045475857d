#include "fuzz/fuzz_support.hpp"

#include <lzma.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
#include <zlib.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace zng::fuzz {

namespace fs = std::filesystem;

namespace {

struct ScratchDir {
    fs::path path;
    ScratchDir() {
        std::string templ = (fs::temp_directory_path() / "zngsim-fuzz-XXXXXX").string();
        if (!mkdtemp(templ.data())) throw std::runtime_error("cannot make a scratch directory under " + templ);
        path = templ;
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

bool valid_component(std::string_view c) {
    if (c.empty() || c == "." || c == ".." || c.size() > 64) return false;
    for (char ch : c)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '-')) return false;
    return true;
}

bool valid_relative_path(std::string_view p) {
    int components = 0;
    while (true) {
        const size_t slash = p.find('/');
        if (!valid_component(p.substr(0, slash)) || ++components > 3) return false;
        if (slash == std::string_view::npos) return true;
        p.remove_prefix(slash + 1);
    }
}

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

const fs::path& scratch_dir() {
    static ScratchDir dir;
    return dir.path;
}

void write_file(const fs::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

void write_gzip(const fs::path& path, std::string_view bytes) {
    gzFile f = gzopen(path.c_str(), "wb1");
    if (!f) throw std::runtime_error("cannot write " + path.string());
    const int n = bytes.empty() ? 0 : gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    if (gzclose(f) != Z_OK || n != static_cast<int>(bytes.size()))
        throw std::runtime_error("cannot gzip " + path.string());
}

void write_xz(const fs::path& path, std::string_view bytes) {
    std::vector<uint8_t> out(lzma_stream_buffer_bound(bytes.size()));
    size_t pos = 0;
    if (lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(bytes.data()),
                                bytes.size(), out.data(), &pos, out.size()) != LZMA_OK)
        throw std::runtime_error("cannot xz " + path.string());
    write_file(path, std::string_view(reinterpret_cast<const char*>(out.data()), pos));
}

bool unpack_archive(std::string_view input, const fs::path& dir) {
    static constexpr std::string_view kHeader = "=== ";
    static constexpr std::string_view kSeparator = "\n=== ";
    if (input.substr(0, kHeader.size()) != kHeader) return false;
    struct Entry {
        std::string_view name, content;
    };
    std::vector<Entry> entries;
    size_t pos = kHeader.size();
    while (true) {
        const size_t eol = input.find('\n', pos);
        if (eol == std::string_view::npos) return false;
        const std::string_view name = input.substr(pos, eol - pos);
        if (!valid_relative_path(name) || entries.size() == kMaxArchiveFiles) return false;
        const size_t next = input.find(kSeparator, eol + 1);
        entries.push_back({name, input.substr(eol + 1, next == std::string_view::npos ? next : next - eol - 1)});
        if (next == std::string_view::npos) break;
        pos = next + kSeparator.size();
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir);
    for (const Entry& e : entries) {
        const fs::path p = dir / std::string(e.name);
        fs::create_directories(p.parent_path(), ec);
        if (ec || fs::is_directory(p)) return false;  // a name used as a file and a directory
        if (ends_with(e.name, ".raw"))
            write_gzip(p, e.content);
        else if (ends_with(e.name, ".xz"))
            write_xz(p, e.content);
        else
            write_file(p, e.content);
    }
    return true;
}

void consume(trace::TraceSource& src) {
    (void)src.header();
    trace::KernelInfo k;
    trace::CtaTrace cta;
    trace::WarpRecord r;
    while (src.next_kernel(k)) {
        while (src.next_cta(cta)) {
            for (const auto& w : cta.warps) {
                trace::WarpCursor c(w);
                while (!c.done()) c.next(r);
            }
        }
    }
}

namespace {
void cpu_time_exceeded(int) {
    static const char msg[] = "fuzz target: the input used more than its CPU time per input\n";
    (void)!write(2, msg, sizeof(msg) - 1);
    std::abort();
}
}  // namespace

// ITIMER_VIRTUAL counts the process's user CPU time only: waiting for a CPU does not count.
CpuTimeLimit::CpuTimeLimit() {
    static const bool installed = [] {
        struct sigaction sa {};
        sa.sa_handler = cpu_time_exceeded;
        sigaction(SIGVTALRM, &sa, nullptr);
        return true;
    }();
    (void)installed;
    const itimerval t{{0, 0}, {kCpuSecondsPerInput, 0}};
    setitimer(ITIMER_VIRTUAL, &t, nullptr);
}

CpuTimeLimit::~CpuTimeLimit() {
    const itimerval off{{0, 0}, {0, 0}};
    setitimer(ITIMER_VIRTUAL, &off, nullptr);
}

void refused(const char* what) {
    static const bool verbose = std::getenv("ZNG_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "refused: %s\n", what);
}

void unexpected_exception(const char* target, const char* what) {
    std::fprintf(stderr, "%s: unexpected exception: %s\n", target, what);
    std::abort();
}

}  // namespace zng::fuzz
