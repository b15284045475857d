#include "storage/gofs/file_namespace.hpp"

#include "sim/core/errors.hpp"

namespace zng::storage::gofs {

FileNamespace::FileNamespace(const Listing& listing, uint64_t node_area_blocks, uint64_t cache_blocks)
    : listing_(listing),
      files_per_dir_((listing.files + listing.directories - 1) / listing.directories),
      node_area_blocks_(node_area_blocks),
      cache_(cache_blocks) {
    if (listing.directories == 0 || listing.files == 0 || listing.file_bytes == 0)
        throw SimError("a GoFS listing needs at least one directory and one non-empty file");
    if (node_area_blocks == 0) throw SimError("the GoFS node area is empty");
    cache_.insert(node_key(kRootIno, {NodeKind::Inode, 0}));
}

uint64_t FileNamespace::node_key(uint64_t ino, NodeRef n) const {
    return ino << 26 | uint64_t(n.kind) << 24 | n.index;
}

uint64_t FileNamespace::dentry_key(uint64_t dir_ino, uint64_t block) const {
    return 1ull << 63 | dir_ino << 24 | block;
}

uint32_t FileNamespace::touch(uint64_t key, std::vector<uint64_t>& reads) {
    if (cache_.touch(key)) return 0;
    // Where the block sits in the node area (assumption: F2FS's NAT scatters node
    // blocks over the node logs; a multiplicative hash stands for that placement).
    reads.push_back((key * 0x9E3779B97F4A7C15ull >> 17) % node_area_blocks_);
    return 1;
}

uint32_t FileNamespace::open(uint64_t file, std::vector<uint64_t>& reads) {
    if (file >= listing_.files) throw SimError("GoFS file " + std::to_string(file) + " is not in the listing");
    const uint32_t dir = directory_of(file);
    const uint64_t dir_ino = ino_of_directory(dir);
    uint32_t n = 0;
    // The directory's name in the root (assumption: one dentry block per lookup, the
    // one holding the name, entries filled in order).
    n += touch(dentry_key(kRootIno, dir / kDentriesPerBlock), reads);
    n += touch(node_key(dir_ino, {NodeKind::Inode, 0}), reads);
    const uint64_t j = file - uint64_t(dir) * files_per_dir_;
    n += touch(dentry_key(dir_ino, j / kDentriesPerBlock), reads);
    n += touch(node_key(ino_of_file(file), {NodeKind::Inode, 0}), reads);
    return n;
}

uint32_t FileNamespace::map_block(uint64_t file, uint64_t block, std::vector<uint64_t>& reads) {
    const NodePath p = node_path(block);
    const uint64_t ino = ino_of_file(file);
    uint32_t n = 0;
    for (uint32_t i = 0; i < p.depth; ++i) n += touch(node_key(ino, p.nodes[i]), reads);
    return n;
}

}  // namespace zng::storage::gofs
