// F2FS's node tree: where the pointer to a file's data block lives. The inode holds
// 923 data pointers and 5 node ids (2 direct, 2 indirect, 1 double indirect); a direct
// node block holds 1018 data pointers, an (double) indirect one 1018 node ids (Linux
// include/linux/f2fs_fs.h: DEF_ADDRS_PER_INODE 923, DEF_NIDS_PER_INODE 5,
// DEF_ADDRS_PER_BLOCK 1018, NIDS_PER_BLOCK 1018). Seed 001 keeps this on-disk format:
// "It uses the same on-disk format as F2FS". Every node is one 4 KB block, so reaching
// a data pointer whose nodes are not cached costs one 4 KB read per node on its path.
#pragma once
#include <array>
#include <cstdint>

namespace zng::storage::gofs {

inline constexpr uint64_t kAddrsPerInode = 923;
inline constexpr uint64_t kAddrsPerBlock = 1018;
inline constexpr uint64_t kNidsPerBlock = 1018;
inline constexpr uint32_t kBlockBytes = 4096;  // F2FS_BLKSIZE

// The kind of a node block; with the node's index among the file's nodes of that kind
// it names the node.
enum class NodeKind : uint8_t { Inode = 0, Direct = 1, Indirect = 2, DoubleIndirect = 3 };

struct NodeRef {
    NodeKind kind = NodeKind::Inode;
    uint32_t index = 0;  // among the file's nodes of this kind
};

// The nodes from the inode down to the one holding the pointer of data block `block`
// (root first); `depth` of them are used (1..4).
struct NodePath {
    std::array<NodeRef, 4> nodes{};
    uint32_t depth = 0;
};

inline NodePath node_path(uint64_t block) {
    NodePath p;
    p.nodes[p.depth++] = {NodeKind::Inode, 0};
    if (block < kAddrsPerInode) return p;
    block -= kAddrsPerInode;
    if (block < 2 * kAddrsPerBlock) {  // the inode's two direct nodes
        p.nodes[p.depth++] = {NodeKind::Direct, static_cast<uint32_t>(block / kAddrsPerBlock)};
        return p;
    }
    block -= 2 * kAddrsPerBlock;
    constexpr uint64_t kPerIndirect = kNidsPerBlock * kAddrsPerBlock;
    if (block < 2 * kPerIndirect) {  // the inode's two indirect nodes
        p.nodes[p.depth++] = {NodeKind::Indirect, static_cast<uint32_t>(block / kPerIndirect)};
        p.nodes[p.depth++] = {NodeKind::Direct, static_cast<uint32_t>(2 + block / kAddrsPerBlock)};
        return p;
    }
    block -= 2 * kPerIndirect;
    p.nodes[p.depth++] = {NodeKind::DoubleIndirect, 0};
    p.nodes[p.depth++] = {NodeKind::Indirect, static_cast<uint32_t>(2 + block / kPerIndirect)};
    p.nodes[p.depth++] = {NodeKind::Direct,
                          static_cast<uint32_t>(2 + 2 * kNidsPerBlock + block / kAddrsPerBlock)};
    return p;
}

}  // namespace zng::storage::gofs
