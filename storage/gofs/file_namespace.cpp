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

uint64_t FileNamespace::place(uint64_t key) const {
    // Where the block sits in the node area (assumption: F2FS's NAT scatters node
    // blocks over the node logs; a multiplicative hash stands for that placement).
    return (key * 0x9E3779B97F4A7C15ull >> 17) % node_area_blocks_;
}

uint32_t FileNamespace::touch(uint64_t key, std::vector<uint64_t>& reads) {
    if (cache_.touch(key)) return 0;
    reads.push_back(place(key));
    return 1;
}

uint32_t FileNamespace::open_directory(uint32_t dir, std::vector<uint64_t>& reads) {
    // The directory's name in the root (assumption: one dentry block per lookup, the
    // one holding the name, entries filled in order).
    return touch(dentry_key(kRootIno, dir / kDentriesPerBlock), reads) +
           touch(node_key(ino_of_directory(dir), {NodeKind::Inode, 0}), reads);
}

uint32_t FileNamespace::open(uint64_t file, std::vector<uint64_t>& reads) {
    if (file >= listing_.files) throw SimError("GoFS file " + std::to_string(file) + " is not in the listing");
    const uint32_t dir = directory_of(file);
    uint32_t n = open_directory(dir, reads);
    n += touch(dentry_key(ino_of_directory(dir), index_in_directory(file) / kDentriesPerBlock), reads);
    n += touch(node_key(ino_of_file(file), {NodeKind::Inode, 0}), reads);
    return n;
}

uint32_t FileNamespace::batch_dentries(uint64_t first, uint64_t count, std::vector<uint64_t>& reads) {
    const uint64_t dir_ino = ino_of_directory(directory_of(first));
    const uint64_t lo = index_in_directory(first) / kDentriesPerBlock;
    const uint64_t hi = index_in_directory(first + count - 1) / kDentriesPerBlock;
    uint32_t n = 0;
    for (uint64_t b = lo; b <= hi; ++b) n += touch(dentry_key(dir_ino, b), reads);
    return n;
}

uint32_t FileNamespace::batch_inodes(uint64_t first, uint64_t count, std::vector<uint64_t>& reads) {
    uint32_t n = 0;
    for (uint64_t f = first; f < first + count; ++f) n += touch(node_key(ino_of_file(f), {NodeKind::Inode, 0}), reads);
    return n;
}

uint32_t FileNamespace::map_level(uint64_t file, uint64_t block, uint32_t level, std::vector<uint64_t>& reads) {
    const NodePath p = node_path(block);
    return level < p.depth ? touch(node_key(ino_of_file(file), p.nodes[level]), reads) : 0;
}

uint32_t FileNamespace::batch_create(uint64_t first, uint64_t count, std::vector<uint64_t>& writes) {
    const uint32_t dir = directory_of(first);
    const uint64_t dir_ino = ino_of_directory(dir);
    const size_t before = writes.size();
    auto write = [&](uint64_t key) {
        cache_.touch(key);
        writes.push_back(place(key));
    };
    const uint64_t lo = index_in_directory(first) / kDentriesPerBlock;
    const uint64_t hi = index_in_directory(first + count - 1) / kDentriesPerBlock;
    for (uint64_t b = lo; b <= hi; ++b) write(dentry_key(dir_ino, b));
    for (uint64_t f = first; f < first + count; ++f) write(node_key(ino_of_file(f), {NodeKind::Inode, 0}));
    write(node_key(dir_ino, {NodeKind::Inode, 0}));
    return static_cast<uint32_t>(writes.size() - before);
}

uint32_t FileNamespace::map_block(uint64_t file, uint64_t block, std::vector<uint64_t>& reads) {
    const NodePath p = node_path(block);
    const uint64_t ino = ino_of_file(file);
    uint32_t n = 0;
    for (uint32_t i = 0; i < p.depth; ++i) n += touch(node_key(ino, p.nodes[i]), reads);
    return n;
}

}  // namespace zng::storage::gofs
