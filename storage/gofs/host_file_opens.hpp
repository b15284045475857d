// Files opened through a host kernel file system, as seed 001's Basic (F2FS) and
// GeminiFS (ext4 on the host) open them: host threads, each opening its files one after
// another. An open is the system call (the host I/O stack's per-command cost on the
// thread) and, when the file's inode is not in the host's page cache, the wait for the
// 4 KiB metadata block that holds it: open() returns only after the kernel has read it.
//
// Inodes share blocks by file system: F2FS keeps every inode in a node block of its own
// (inodes_per_block 1); ext4 packs 256-byte inodes (mke2fs's default inode_size), 16
// to a 4 KiB block of its inode table, so files created one after another (consecutive
// inode numbers) share a block and its one read. A thread whose block is being read
// waits for that read (the kernel's page lock), and a block read stays cached: the
// host's page cache (64 GB in seed 001) is far larger than these blocks. The blocks lie
// in the second half of the array (a read's cost on the device does not depend on where
// it lands). Directory blocks are not read: one per hundreds of entries.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/control/control_plane.hpp"

namespace zng::storage::gofs {

class HostFileOpens {
public:
    static constexpr uint32_t kBlockBytes = 4096;
    // Reads the 4 KiB block at device `offset` into host memory for host thread
    // `thread`, then calls `done`.
    using BlockRead = std::function<void(uint64_t offset, uint32_t thread, std::function<void()> done)>;
    // File `tag`'s open returned on its thread, now.
    using Opened = std::function<void(uint64_t tag)>;

    HostFileOpens(const StoragePath& path, uint32_t threads, uint32_t inodes_per_block, BlockRead read,
                  Opened opened);

    // Thread `thread` opens `file` after the opens it already has, not before `at`.
    void open(uint32_t thread, uint64_t file, uint64_t tag, Tick at);

    uint32_t threads() const { return static_cast<uint32_t>(threads_.size()); }
    uint64_t opens() const { return opens_; }
    // Metadata blocks read from the SSDs.
    uint64_t block_reads() const { return block_reads_; }

private:
    struct Open {
        uint64_t file, tag;
        Tick at;
    };
    struct Thread {
        std::deque<Open> waiting;  // the first is being opened while busy
        bool busy = false;
    };
    void next(uint32_t thread);
    void called(uint32_t thread);
    void block_arrived(uint64_t block);
    void done(uint32_t thread);
    uint64_t block_offset(uint64_t block) const;

    const StoragePath p_;
    uint32_t inodes_per_block_;
    BlockRead read_;
    Opened opened_;
    std::vector<Thread> threads_;
    TimedQueue<uint32_t> called_;  // threads whose open system call ends
    std::unordered_set<uint64_t> cached_;                          // blocks in the page cache
    std::unordered_map<uint64_t, std::vector<uint32_t>> reading_;  // blocks being read: threads waiting
    uint64_t opens_ = 0, block_reads_ = 0;
};

}  // namespace zng::storage::gofs
