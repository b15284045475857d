// Graph inputs: CSR building, the Kronecker and mesh generators, the file readers and
// the glibc rand() sequence used for colouring priorities.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "traces/workloads/graph/csr_graph.hpp"
#include "traces/workloads/graph/glibc_random.hpp"
#include "traces/workloads/graph/graph_inputs.hpp"
#include "traces/workloads/graph/graph_readers.hpp"
#include "traces/workloads/graph/kronecker_generator.hpp"
#include "traces/workloads/graph/mesh_generator.hpp"

namespace zng::workloads::graph {
namespace {

namespace fs = std::filesystem;

std::string temp_file(const std::string& name, const std::string& text) {
    const fs::path p = fs::temp_directory_path() / ("zng_graph_test_" + std::to_string(::getpid()) + "_" + name);
    std::ofstream(p) << text;
    return p.string();
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

TEST(CsrBuild, SortsDedupsAndSymmetrizes) {
    // Edges 2->0, 0->1, 0->1 (duplicate), 1->1 (loop): by hand, the symmetric simple
    // graph is 0:{1,2} 1:{0} 2:{0}.
    std::vector<Edge> e{{2, 0}, {0, 1}, {0, 1}, {1, 1}};
    CsrBuildOptions opt;
    opt.symmetrize = true;
    opt.drop_self_loops = true;
    const CsrGraph g = build_csr(3, e, opt);
    EXPECT_EQ(g.offsets, (std::vector<uint64_t>{0, 2, 3, 4}));
    EXPECT_EQ(g.edges, (std::vector<uint64_t>{1, 2, 0, 0}));
    EXPECT_TRUE(g.is_symmetric());
    std::vector<Edge> bad{{0, 3}};
    EXPECT_THROW(build_csr(3, bad, opt), std::invalid_argument);
}

TEST(Kronecker, DeterministicSymmetricSimple) {
    KroneckerParams p;
    p.scale = 10;
    p.edge_factor = 8;
    const CsrGraph a = generate_kronecker(p);
    const CsrGraph b = generate_kronecker(p);
    EXPECT_EQ(a.offsets, b.offsets);
    EXPECT_EQ(a.edges, b.edges);
    EXPECT_EQ(a.vertex_count(), 1024u);
    // At most two directed copies of each of the 8 * 1024 generated edges.
    EXPECT_LE(a.edge_count(), 2u * 8 * 1024);
    EXPECT_GT(a.edge_count(), 8u * 1024);   // most generated edges are distinct
    EXPECT_TRUE(a.is_symmetric());
    a.validate("kronecker");
    for (uint64_t v = 0; v < a.vertex_count(); ++v)
        for (uint64_t i = a.offsets[v]; i < a.offsets[v + 1]; ++i) {
            EXPECT_NE(a.edges[i], v);                                     // no self loop
            if (i > a.offsets[v]) {
                EXPECT_LT(a.edges[i - 1], a.edges[i]);   // sorted, no duplicate
            }
        }
    p.seed = 2;
    EXPECT_NE(generate_kronecker(p).edges, a.edges);
    // Skewed degrees, as R-MAT with a = 0.57 gives: the hub has far more than the mean.
    EXPECT_GT(a.max_degree(), 8 * a.edge_count() / a.vertex_count());
    p.scale = 0;
    EXPECT_THROW(generate_kronecker(p), std::invalid_argument);
}

TEST(Mesh, DegreesAndEdgeCountByHand) {
    const CsrGraph g = generate_mesh3d(4, 3, 2);
    g.validate("mesh");
    EXPECT_EQ(g.vertex_count(), 24u);
    // Edge count of a 27-point stencil: sum over axes pairs of neighbours, computed as
    // (3nx-2)(3ny-2)(3nz-2) - nx*ny*nz ordered pairs within distance 1 minus self:
    // per axis the number of (a, b) pairs with |a-b| <= 1 is 3n-2.
    EXPECT_EQ(g.edge_count(), uint64_t{10 * 7 * 4 - 24});
    EXPECT_EQ(g.degree(0), 7u);             // corner of a 2-thick grid: 2*2*2 - 1
    EXPECT_EQ(g.degree(1 + 4 * 1), 17u);    // (1,1,0): 3*3*2 - 1
    EXPECT_TRUE(g.is_symmetric());
    const Sweep s = bfs_sweep(g, 0);
    EXPECT_EQ(s.eccentricity, 3u);          // Chebyshev distance to x = 3
    EXPECT_EQ(s.farthest, 23u);             // the highest id among the farthest
}

TEST(EdgeListReader, HeaderCommentsSeparatorsAndRelabelling) {
    const std::string path = temp_file("edges.txt",
                                       "src|dst\n"
                                       "# comment\n"
                                       "100|7\n"
                                       "\n"
                                       "7,  42 extra-column\n"
                                       "% another comment\n"
                                       "42\t100\n");
    std::vector<uint64_t> ids;
    CsrBuildOptions opt;
    const CsrGraph g = read_edge_list(path, opt, &ids);
    // Ids 7, 42, 100 become 0, 1, 2: edges 2->0, 0->1, 1->2.
    EXPECT_EQ(ids, (std::vector<uint64_t>{7, 42, 100}));
    EXPECT_EQ(g.offsets, (std::vector<uint64_t>{0, 1, 2, 3}));
    EXPECT_EQ(g.edges, (std::vector<uint64_t>{1, 2, 0}));
    fs::remove(path);
}

TEST(EdgeListReader, ErrorsNameFileAndLine) {
    const std::string path = temp_file("bad_edges.txt", "1 2\n3 4\n5 x\n");
    const std::string msg = error_of([&] { read_edge_list(path, CsrBuildOptions{}); });
    EXPECT_NE(msg.find(path + ":3:"), std::string::npos) << msg;
    fs::remove(path);
    const std::string one = temp_file("one_field.txt", "1 2\n3\n");
    EXPECT_NE(error_of([&] { read_edge_list(one, CsrBuildOptions{}); }).find(one + ":2:"), std::string::npos);
    fs::remove(one);
    EXPECT_NE(error_of([] { read_edge_list("/nonexistent/graph.txt", CsrBuildOptions{}); })
                  .find("/nonexistent/graph.txt: cannot open"),
              std::string::npos);
}

TEST(MatrixMarketReader, SymmetricPattern) {
    const std::string path = temp_file("g.mtx",
                                       "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                       "% a triangle 1-2-3 plus a loop on 3\n"
                                       "3 3 4\n"
                                       "2 1\n3 1\n3 2\n3 3\n");
    CsrBuildOptions opt;
    opt.drop_self_loops = true;
    const CsrGraph g = read_matrix_market(path, opt);
    EXPECT_EQ(g.offsets, (std::vector<uint64_t>{0, 2, 4, 6}));
    EXPECT_EQ(g.edges, (std::vector<uint64_t>{1, 2, 0, 2, 0, 1}));
    fs::remove(path);
}

TEST(MatrixMarketReader, Errors) {
    struct Case {
        const char* text;
        const char* where;
    } cases[] = {
        {"%%MatrixMarket matrix array real general\n2 2\n", ":1:"},
        {"%%MatrixMarket matrix coordinate real general\n2 3 1\n1 1 1.0\n", ":2:"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n3 1 1.0\n", ":4:"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.0\n", ":3:"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2\n", ":3:"},
        {"not a banner\n", ":1:"},
    };
    for (const Case& c : cases) {
        const std::string path = temp_file("bad.mtx", c.text);
        const std::string msg = error_of([&] { read_matrix_market(path, CsrBuildOptions{}); });
        EXPECT_NE(msg.find(path + c.where), std::string::npos) << c.text << " -> " << msg;
        fs::remove(path);
    }
}

TEST(GraphBigCsrReader, MatchesEdgeCsvOfTheSmallDataset) {
    const fs::path dir = fs::path(ZNG_SHARED_DIR) / "testdata" / "graphbig-small";
    if (!fs::exists(dir / "vertex.CSR")) GTEST_SKIP() << "needs ../shared/testdata/graphbig-small";
    const CsrGraph g = read_graphbig_csr(dir.string());
    EXPECT_EQ(g.vertex_count(), 1000u);
    EXPECT_EQ(g.edge_count(), 29790u);
    // Independent check: vertex k of the CSR is the k-th row of vertex.csv, and every
    // row "a|b" of edge.csv is the edge index(a) -> index(b).
    std::map<uint64_t, uint64_t> index;
    std::ifstream vcsv(dir / "vertex.csv");
    std::string line;
    std::getline(vcsv, line);   // header
    while (std::getline(vcsv, line)) {
        const uint64_t id = std::stoull(line.substr(0, line.find('|')));
        index.emplace(id, index.size());
    }
    ASSERT_EQ(index.size(), 1000u);
    std::set<std::pair<uint64_t, uint64_t>> from_csv, from_csr;
    std::ifstream ecsv(dir / "edge.csv");
    std::getline(ecsv, line);
    uint64_t rows = 0;
    while (std::getline(ecsv, line)) {
        const size_t bar = line.find('|');
        from_csv.emplace(index.at(std::stoull(line.substr(0, bar))), index.at(std::stoull(line.substr(bar + 1))));
        ++rows;
    }
    EXPECT_EQ(rows, 29790u);
    for (uint64_t v = 0; v < g.vertex_count(); ++v)
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) from_csr.emplace(v, g.edges[i]);
    EXPECT_EQ(from_csr, from_csv);
    // The edge-list reader on edge.csv gives the same graph up to the relabelling.
    std::vector<uint64_t> ids;
    const CsrGraph e = read_edge_list((dir / "edge.csv").string(), CsrBuildOptions{}, &ids);
    EXPECT_EQ(e.edge_count(), 29790u);
    std::set<std::pair<uint64_t, uint64_t>> from_list;
    for (uint64_t v = 0; v < e.vertex_count(); ++v)
        for (uint64_t i = e.offsets[v]; i < e.offsets[v + 1]; ++i)
            from_list.emplace(index.at(ids[v]), index.at(ids[e.edges[i]]));
    EXPECT_EQ(from_list, from_csv);
}

TEST(GraphBigCsrReader, CorruptFilesNameFileAndEntry) {
    const fs::path dir = fs::temp_directory_path() / ("zng_graph_csr_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    auto write = [&](const char* name, std::vector<uint64_t> v, size_t extra = 0) {
        std::ofstream out(dir / name, std::ios::binary);
        out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 8 + extra));
    };
    write("vertex.CSR", {0, 2, 1, 3});
    write("edge.CSR", {1, 2, 0});
    EXPECT_NE(error_of([&] { read_graphbig_csr(dir.string()); }).find("vertex.CSR: entry 2"), std::string::npos);
    write("vertex.CSR", {0, 1, 2, 3});
    write("edge.CSR", {1, 9, 0});
    EXPECT_NE(error_of([&] { read_graphbig_csr(dir.string()); }).find("edge.CSR: entry 1"), std::string::npos);
    write("vertex.CSR", {0, 1, 2, 2});   // the last offset leaves edge 2 unowned
    write("edge.CSR", {1, 2, 0});
    EXPECT_NE(error_of([&] { read_graphbig_csr(dir.string()); }).find("must equal the edge count"), std::string::npos);
    {
        std::ofstream out(dir / "edge.CSR", std::ios::binary);
        out << "12345";   // not a multiple of 8 bytes
    }
    EXPECT_NE(error_of([&] { read_graphbig_csr(dir.string()); }).find("edge.CSR: size 5 bytes is not a whole number"),
              std::string::npos);
    write("vertex.CSR", {0, 1, 2, 3});
    write("edge.CSR", {1, 2, 0});
    const CsrGraph g = load_graph((dir / "vertex.CSR").string(), CsrBuildOptions{});
    EXPECT_EQ(g.edges, (std::vector<uint64_t>{1, 2, 0}));
    fs::remove_all(dir);
}

TEST(GlibcRandom, MatchesTheCLibraryRand) {
    // The host's rand() is glibc's on this platform: the independent reference.
    for (uint32_t seed : {0u, 1u, 123u, 4000000000u}) {
        GlibcRandom r(seed);
        std::srand(seed);
        for (int i = 0; i < 2000; ++i) ASSERT_EQ(r.next(), std::rand()) << "seed " << seed << " draw " << i;
    }
}

}  // namespace
}  // namespace zng::workloads::graph
