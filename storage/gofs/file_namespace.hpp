// The files GoFS serves and what reaching them costs in metadata reads. The namespace
// is generated from a listing: `files` files of `file_bytes` bytes spread evenly over
// `directories` directories under the root (/d<k>/f<j>), with inode numbers after
// F2FS's root (ino 3).
//
// Opening a file resolves its path one name at a time: the name's dentry block in the
// parent directory, then the child's inode block (seed 001: "A lookup operation uses
// the pathname as the key to traverse down the file system hierarchy"). Mapping a file
// block walks the node tree (node_tree.hpp) from the inode. Every block on the way that
// the metadata cache lacks is one 4 KB read from the node area, in dependency order
// (each needs the previous one's pointer). The root inode is cached at mount (seed 001:
// the daemon "reads the file system superblock ... then builds the runtime structure").
#pragma once
#include <cstdint>
#include <vector>

#include "storage/gofs/metadata_cache.hpp"
#include "storage/gofs/node_tree.hpp"

namespace zng::storage::gofs {

struct Listing {
    uint32_t directories = 1;
    uint64_t files = 1;
    uint64_t file_bytes = 1ull << 30;
};

class FileNamespace {
public:
    // F2FS: "#define NR_DENTRY_IN_BLOCK 214" (include/linux/f2fs_fs.h).
    static constexpr uint64_t kDentriesPerBlock = 214;
    static constexpr uint64_t kRootIno = 3;  // F2FS_ROOT_INO

    // Metadata blocks live at hashed places in a node area of `node_area_blocks` 4 KB
    // blocks; `cache_blocks` bounds the metadata cache.
    FileNamespace(const Listing& listing, uint64_t node_area_blocks, uint64_t cache_blocks);

    const Listing& listing() const { return listing_; }
    uint64_t files() const { return listing_.files; }
    uint64_t file_bytes() const { return listing_.file_bytes; }
    uint64_t file_blocks() const { return (listing_.file_bytes + kBlockBytes - 1) / kBlockBytes; }
    uint32_t directory_of(uint64_t file) const { return static_cast<uint32_t>(file / files_per_dir_); }
    uint64_t ino_of_directory(uint32_t dir) const { return kRootIno + 1 + dir; }
    uint64_t ino_of_file(uint64_t file) const { return kRootIno + 1 + listing_.directories + file; }

    // Appends to `reads` the node-area block numbers an open of `file` must read
    // (dentry and inode blocks along its path that are not cached) and caches them;
    // returns how many.
    uint32_t open(uint64_t file, std::vector<uint64_t>& reads);
    // Likewise for the node blocks holding the pointer of the file's data block `block`.
    uint32_t map_block(uint64_t file, uint64_t block, std::vector<uint64_t>& reads);

    // The pieces of an open, for batched calls on files [first, first + count) of one
    // directory (a bnode; seed 001 §3.3): the directory's own path (root dentry block,
    // directory inode), then its dentry blocks holding those names, then the files'
    // inode blocks. Each appends the uncached blocks and caches them; returns how many.
    uint32_t open_directory(uint32_t dir, std::vector<uint64_t>& reads);
    uint32_t batch_dentries(uint64_t first, uint64_t count, std::vector<uint64_t>& reads);
    uint32_t batch_inodes(uint64_t first, uint64_t count, std::vector<uint64_t>& reads);
    // The node of level `level` (0: the inode) on the path to data block `block`, if
    // the path is that deep: appended when uncached.
    uint32_t map_level(uint64_t file, uint64_t block, uint32_t level, std::vector<uint64_t>& reads);
    // Creating files [first, first + count) of one directory in one batch: appends the
    // blocks written (the directory's dentry blocks holding the new names, each new
    // inode block, and the directory's inode once: "the parent inode for all files
    // under a directory only needs to be updated once") and caches them.
    uint32_t batch_create(uint64_t first, uint64_t count, std::vector<uint64_t>& writes);

    const MetadataCache& cache() const { return cache_; }

private:
    uint32_t touch(uint64_t key, std::vector<uint64_t>& reads);
    uint64_t place(uint64_t key) const;
    uint64_t index_in_directory(uint64_t file) const { return file - uint64_t(directory_of(file)) * files_per_dir_; }
    uint64_t node_key(uint64_t ino, NodeRef n) const;
    uint64_t dentry_key(uint64_t dir_ino, uint64_t block) const;

    Listing listing_;
    uint64_t files_per_dir_;
    uint64_t node_area_blocks_;
    MetadataCache cache_;
};

}  // namespace zng::storage::gofs
