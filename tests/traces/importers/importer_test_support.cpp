#include "importer_test_support.hpp"

#include <lzma.h>
#include <zlib.h>

#include <atomic>
#include <fstream>
#include <random>
#include <stdexcept>

namespace zng::importers::testing {

namespace fs = std::filesystem;

TempDir::TempDir() {
    static std::atomic<int> counter{0};
    std::random_device rd;
    path_ = fs::temp_directory_path() /
            ("zng-importers-" + std::to_string(rd()) + "-" + std::to_string(counter.fetch_add(1)));
    fs::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

void write_text(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path);
}

void write_gzip(const std::string& path, const std::vector<uint8_t>& bytes) {
    fs::create_directories(fs::path(path).parent_path());
    gzFile f = gzopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + path);
    if (!bytes.empty() && gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())) != int(bytes.size()))
        throw std::runtime_error("gzwrite failed for " + path);
    gzclose(f);
}

std::vector<uint8_t> pattern_bytes(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7 + i / 251);
    return v;
}

std::vector<uint8_t> read_gzip(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot read " + path);
    std::vector<uint8_t> out;
    uint8_t buf[4096];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) out.insert(out.end(), buf, buf + n);
    gzclose(f);
    if (n < 0) throw std::runtime_error("gzread failed for " + path);
    return out;
}

void write_xz(const std::string& path, const std::string& text) {
    std::vector<uint8_t> out(lzma_stream_buffer_bound(text.size()));
    size_t pos = 0;
    if (lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(text.data()),
                                text.size(), out.data(), &pos, out.size()) != LZMA_OK)
        throw std::runtime_error("xz encoding failed");
    out.resize(pos);
    write_text(path, std::string(out.begin(), out.end()));
}

std::vector<DecodedKernel> decode_all(trace::TraceSource& src) {
    std::vector<DecodedKernel> out;
    trace::KernelInfo k;
    trace::CtaTrace cta;
    while (src.next_kernel(k)) {
        DecodedKernel dk;
        dk.info = k;
        while (src.next_cta(cta)) {
            DecodedCta dc;
            dc.id = cta.cta_id;
            for (const auto& w : cta.warps) {
                std::vector<trace::WarpRecord> recs;
                trace::WarpCursor c(w);
                while (!c.done()) {
                    trace::WarpRecord r;
                    c.next(r);
                    recs.push_back(r);
                }
                dc.warps.push_back(std::move(recs));
            }
            dk.ctas.push_back(std::move(dc));
        }
        out.push_back(std::move(dk));
    }
    return out;
}

Totals totals_of(const std::vector<DecodedKernel>& kernels) {
    Totals t;
    for (const auto& k : kernels) {
        ++t.kernels;
        for (const auto& c : k.ctas) {
            ++t.ctas;
            for (const auto& w : c.warps) {
                if (!w.empty()) ++t.warps;
                for (const auto& r : w) {
                    ++t.records;
                    t.instructions += r.instructions();
                    switch (r.kind) {
                        case trace::RecordKind::Load: ++t.loads; break;
                        case trace::RecordKind::Store: ++t.stores; break;
                        case trace::RecordKind::Atomic: ++t.atomics; break;
                        case trace::RecordKind::Barrier: ++t.barriers; break;
                        case trace::RecordKind::Exit: ++t.exits; break;
                        case trace::RecordKind::Compute: ++t.compute_records; break;
                        case trace::RecordKind::IoSubmit:
                        case trace::RecordKind::IoWait:
                        case trace::RecordKind::Phase:
                            throw std::logic_error("importers make no I/O or phase records");
                    }
                }
            }
        }
    }
    return t;
}

}  // namespace zng::importers::testing
