#include "storage/gofs/host_file_opens.hpp"

#include <algorithm>
#include <string>

#include "sim/core/errors.hpp"

namespace zng::storage::gofs {

HostFileOpens::HostFileOpens(const StoragePath& path, uint32_t threads, uint32_t inodes_per_block, BlockRead read,
                             Opened opened)
    : p_(path),
      inodes_per_block_(inodes_per_block),
      read_(std::move(read)),
      opened_(std::move(opened)),
      threads_(threads),
      called_(path.sim, [this](uint32_t& t) { called(t); }, "host-open") {
    if (threads == 0) throw SimError("host file opens need at least one host thread");
    if (inodes_per_block == 0) throw SimError("host file opens need at least one inode per metadata block");
}

uint64_t HostFileOpens::block_offset(uint64_t block) const {
    const uint64_t at = p_.array.capacity_bytes() / 2 / kBlockBytes * kBlockBytes + block * kBlockBytes;
    if (at + kBlockBytes > p_.array.capacity_bytes())
        throw SimError("host file system metadata block " + std::to_string(block) + " lies beyond the array");
    return at;
}

void HostFileOpens::open(uint32_t thread, uint64_t file, uint64_t tag, Tick at) {
    threads_.at(thread).waiting.push_back(Open{file, tag, at});
    next(thread);
}

void HostFileOpens::next(uint32_t thread) {
    Thread& t = threads_[thread];
    if (t.busy || t.waiting.empty()) return;
    t.busy = true;
    called_.push(thread, p_.host.run_on(thread, std::max(p_.sim.now(), t.waiting.front().at), 1));
}

void HostFileOpens::called(uint32_t thread) {
    const uint64_t block = threads_[thread].waiting.front().file / inodes_per_block_;
    if (cached_.count(block)) {
        done(thread);
        return;
    }
    auto [it, first] = reading_.try_emplace(block);
    it->second.push_back(thread);
    if (!first) return;  // another thread's read of the block is under way
    ++block_reads_;
    read_(block_offset(block), thread, [this, block] { block_arrived(block); });
}

void HostFileOpens::block_arrived(uint64_t block) {
    cached_.insert(block);
    const std::vector<uint32_t> waiting = std::move(reading_.at(block));
    reading_.erase(block);
    for (const uint32_t thread : waiting) done(thread);
}

void HostFileOpens::done(uint32_t thread) {
    Thread& t = threads_[thread];
    const Open o = t.waiting.front();
    t.waiting.pop_front();
    t.busy = false;
    ++opens_;
    opened_(o.tag);  // may open more files, on this thread too
    next(thread);
}

}  // namespace zng::storage::gofs
