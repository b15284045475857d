#include <gtest/gtest.h>

#include <vector>

#include "storage/gofs/file_namespace.hpp"
#include "storage/gofs/node_tree.hpp"

namespace zng::storage::gofs {
namespace {

TEST(GofsNodeTree, DepthFollowsF2fsPointerCounts) {
    // Blocks 0..922 are pointed to by the inode itself.
    EXPECT_EQ(node_path(0).depth, 1u);
    EXPECT_EQ(node_path(922).depth, 1u);
    // 923 .. 923 + 2*1018 - 1 = 2958: the inode's two direct nodes.
    EXPECT_EQ(node_path(923).depth, 2u);
    EXPECT_EQ(node_path(923).nodes[1].index, 0u);
    EXPECT_EQ(node_path(923 + 1018).nodes[1].index, 1u);
    EXPECT_EQ(node_path(2958).depth, 2u);
    // 2959: first block under indirect node 0, in direct node 2.
    EXPECT_EQ(node_path(2959).depth, 3u);
    EXPECT_EQ(node_path(2959).nodes[1].kind, NodeKind::Indirect);
    EXPECT_EQ(node_path(2959).nodes[2].index, 2u);
    // 2959 + 2*1018*1018 = 2075607: first block under the double-indirect node.
    const NodePath d = node_path(2959 + 2ull * 1018 * 1018);
    EXPECT_EQ(d.depth, 4u);
    EXPECT_EQ(d.nodes[1].kind, NodeKind::DoubleIndirect);
    EXPECT_EQ(d.nodes[2].index, 2u);                 // indirect nodes 0,1 hang off the inode
    EXPECT_EQ(d.nodes[3].index, 2u + 2u * 1018u);    // after the 2 + 2036 direct nodes before it
}

TEST(GofsMetadata, ColdOpenReadsDentryAndInodeOfEachPathComponent) {
    // 2 directories x 500 files of 16 KiB.
    FileNamespace ns({.directories = 2, .files = 1000, .file_bytes = 16384}, 4096, 1024);
    std::vector<uint64_t> reads;
    // /d0/f0 cold: root's dentry block, d0's inode, d0's dentry block, f0's inode = 4.
    EXPECT_EQ(ns.open(0, reads), 4u);
    EXPECT_EQ(reads.size(), 4u);
    // /d0/f1: d0's path and dentry block 0 (entries 0..213) are cached; f1's inode is not.
    EXPECT_EQ(ns.open(1, reads), 1u);
    // /d0/f214 sits in d0's dentry block 1 (214 entries per block): dentry + inode.
    EXPECT_EQ(ns.open(214, reads), 2u);
    // /d1/f500 (file 500 is d1's first): d1's name is in root dentry block 0, cached;
    // d1's inode, d1's dentry block 0, f500's inode = 3.
    EXPECT_EQ(ns.open(500, reads), 3u);
    // A second open of /d0/f0 is all cached.
    EXPECT_EQ(ns.open(0, reads), 0u);
    // Every read lands inside the node area.
    for (uint64_t r : reads) EXPECT_LT(r, 4096u);
}

TEST(GofsMetadata, MappingADeepBlockReadsItsNodes) {
    // One 16 GiB file: 4,194,304 blocks, so its tail needs the double-indirect node.
    FileNamespace ns({.directories = 1, .files = 1, .file_bytes = 16ull << 30}, 1 << 20, 1 << 16);
    std::vector<uint64_t> reads;
    ASSERT_EQ(ns.open(0, reads), 4u);
    // Block 5 is in the inode, cached by the open: no read.
    EXPECT_EQ(ns.map_block(0, 5, reads), 0u);
    // Block 1000: direct node 0 (inode cached) = 1 read; block 1001 then hits.
    EXPECT_EQ(ns.map_block(0, 1000, reads), 1u);
    EXPECT_EQ(ns.map_block(0, 1001, reads), 0u);
    // Block 3,000,000: double indirect, indirect, direct = 3 reads.
    EXPECT_EQ(ns.map_block(0, 3000000, reads), 3u);
}

TEST(GofsMetadata, ASmallCacheEvictsAndReadsAgain) {
    // Cache of 2 blocks (the root inode takes one): one open of /d0/f0 (4 blocks) leaves
    // only its last two, f0's inode and d0's dentry block; the root inode is evicted too.
    FileNamespace ns({.directories = 1, .files = 2, .file_bytes = 4096}, 64, 2);
    std::vector<uint64_t> reads;
    EXPECT_EQ(ns.open(0, reads), 4u);
    // Again: root dentry block and d0's inode were evicted (2 reads), which in turn evict
    // d0's dentry block and f0's inode (2 more) = 4.
    EXPECT_EQ(ns.open(0, reads), 4u);
    EXPECT_EQ(ns.cache().size(), 2u);
}

}  // namespace
}  // namespace zng::storage::gofs
