// GoFS (seed 001) as the control plane of GPU-issued file I/O (`storage.control_plane.
// type: gofs`). The storage offset of a request names a file and a byte offset in it
// (file_offset.hpp). The file system occupies the array from offset 0: a node area of
// `node_area` bytes (dentry and node blocks), then the data area as a log of 2 MB
// segments (segment_log.hpp), formatted with the listing's files laid out in order.
//
// A request, as GoFS serves one read/write call:
//  1. the I/O kernel is launched (seed 001: "The kernel launch overhead in GoFS is
//     9.2 us on average");
//  2. it takes the file's range lock over its bytes (range_lock.hpp; shared for a
//     read), waiting behind earlier overlapping writes (a write: behind any earlier
//     overlapping request);
//  3. metadata stage: the first call on a file opens it (path lookup), and the node
//     blocks holding its data pointers are walked; every block the metadata cache
//     lacks is one 4 KB read from the node area, one after another
//     (file_namespace.hpp: "In stage one (metadata stage), we traverse the data
//     pointer tree to find the logical flash page addresses");
//  4. data stage: reads fetch the blocks where the log holds them; writes append them
//     at the head of the issuing SM's open segment, after any foreground GC the
//     allocation triggers (its moves are a read and a write each, which the write waits
//     for; its trims are counted, the SSD model having no deallocate command). Runs of
//     contiguous blocks go as one command. Each command is written into a submission
//     queue in GPU memory by a GPU thread (as BaM), on the queue of the issuing SM
//     (seed 001: "GoFS partitions the I/O queues evenly among all SMs and routes the
//     requests from an SM to its corresponding queues": SM s uses queue s mod the
//     SSD's queue pairs); data moves peer-to-peer ("all data I/O accesses are
//     zero-copy");
//  5. the range lock is released and the request completes.
//
// A batched call (file_offset.hpp) on files of one directory is one I/O kernel (one
// launch) whose threads work on the files in parallel (seed 001 §3.3: "GoFS leverages
// parallel threads to read all child entries under the directory node ... and fill the
// bnode file array"): after the directory's own path, the metadata blocks of all its
// files are read in waves, each wave's blocks at once (the dentry blocks, then the
// inode blocks, then each further level of the node trees); no range lock is taken
// ("all threads in a batched API will process different metadata/data without
// overlaps"); the data of every file goes at once, spread over the SMs' queues and
// allocators. Creating the files writes their dentry and inode blocks and the
// directory's inode once, together. Against one call per file this saves a launch and
// a lock per file and turns each file's chain of dependent metadata reads into shared
// waves.
//
// Sync and async mode differ in the SMs GoFS holds (seed 001 §3.8): in sync mode "only a
// few thread blocks (empirically, we use 16 thread blocks by default) will remain active
// to poll for I/O completion. Only up to 16 out of 108 SMs on our A100 GPU are occupied
// by GoFS, and the user application's kernels can execute on other SMs"; in async mode
// "the GoFS kernels will finish after submitting the NVMe commands and do not occupy any
// SM", leaving the daemon's one SM ("It only occupies a single SM"). Platform assembly
// gives the applications the other SMs (reserved_sms), the highest-numbered ones being
// GoFS's. The request's timing is the same in both modes.
#pragma once
#include <memory>
#include <vector>

#include "sim/core/timed_queue.hpp"
#include "storage/control/control_plane.hpp"
#include "storage/gofs/file_namespace.hpp"
#include "storage/gofs/file_offset.hpp"
#include "storage/gofs/range_lock.hpp"
#include "storage/gofs/segment_log.hpp"

namespace zng::storage::gofs {

struct GofsSettings {
    uint32_t max_in_flight = 65536;
    Listing listing;
    uint64_t node_area = 1ull << 30;
    uint64_t metadata_cache = 256ull << 20;
    uint64_t capacity = 0;  // 0: the whole array
    uint32_t sms = 108;
    double gc_threshold = 0.05;
    Tick launch_overhead = 9'200 * kNanosecond;
    Tick sqe_write_latency = 500 * kNanosecond;
    bool synchronous = true;
    uint32_t polling_sms = 16;

    // SMs GoFS takes from the applications: polling_sms in sync mode, the daemon's one
    // in async mode.
    uint32_t reserved_sms() const { return synchronous ? polling_sms : 1; }

    static const ComponentSchema& schema();
    static GofsSettings read(const Params& p);
    // reserved_sms() of the plane a `storage` section builds (0 unless it is gofs);
    // `path` names the section in errors.
    static uint32_t reserved_sms_of(const ConfigNode* storage_section, const std::string& path);
};

class GofsPlane final : public ControlPlane {
public:
    GofsPlane(const StoragePath& path, const GofsSettings& s);
    void submit(const StorageIoBatch& batch, StorageIoClient& client) override;
    void register_stats(StatGroup g) const override;

    uint64_t metadata_reads() const { return metadata_reads_; }
    uint64_t metadata_writes() const { return metadata_writes_; }
    uint64_t lock_waits() const { return lock_waits_; }
    const SegmentLog& log() const { return log_; }
    const FileNamespace& files() const { return ns_; }

private:
    struct Pending {
        StorageIo io;
        StorageIoClient* client = nullptr;
        Tick taken = 0;
        uint64_t file = 0;  // a batch's first
        uint64_t first_block = 0, blocks = 0;
        uint64_t count = 1;  // files of a batch
        BatchCall call = BatchCall::Data;
        bool batch = false;
        uint32_t sm = 0;
        uint32_t sent = 0;  // commands sent (a batch spreads them over the SMs' queues)
        uint32_t wave = 0;  // the next metadata wave
        uint32_t outstanding = 0;
        bool in_data = false;  // metadata stage done
        // Node-area blocks to read (or, with kMetaWrite, write) in waves: the blocks of
        // a wave go together, each wave after the one before has completed; wave i
        // ends before meta[waves[i]].
        std::vector<uint64_t> meta;
        std::vector<uint32_t> waves;
    };
    static constexpr uint64_t kMetaWrite = uint64_t{1} << 63;
    void check_request(const StorageIo& io) const;
    void start(uint32_t slot);
    void locked(uint32_t slot);
    void batch_locked(uint32_t slot);
    void next_metadata(uint32_t slot);
    void data(uint32_t slot);
    void data_of(uint32_t slot, uint32_t sm, uint64_t file, uint64_t first_block, uint64_t blocks, uint64_t dest);
    void send(uint32_t slot, IoOp op, uint64_t fs_offset, uint64_t bytes, uint64_t dest);
    void piece_done(uint32_t slot);
    void complete(uint32_t slot);

    GofsSettings s_;
    FileNamespace ns_;
    SegmentLog log_;
    uint64_t data_base_;  // byte offset of the data area
    std::vector<RangeLock> locks_;  // per file
    std::vector<bool> opened_;
    std::vector<Pending> slots_;
    std::vector<uint32_t> free_slots_;
    std::vector<uint64_t> granted_;
    struct Ready {
        uint32_t slot;
        bool launch;  // true: the kernel launched; false: an SQE written
        IoRequest cmd;
    };
    TimedQueue<Ready> ready_;
    uint64_t metadata_reads_ = 0, metadata_writes_ = 0, batches_ = 0, lock_waits_ = 0, gc_moves_ = 0, trims_ = 0;
};

}  // namespace zng::storage::gofs
