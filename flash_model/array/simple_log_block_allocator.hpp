// The log-block map the zng_flash back end uses when no FTL provides one, so that the
// back end works standalone (tests, flash-only studies). It reserves the top
// `log_blocks_per_plane` blocks of every plane as log blocks (they start erased, as
// over-provisioned space does), gives each written data block its own log block, and
// merges a full log block in place with timed flash operations:
//   read every page's newest copy (log page if the decoder maps it, else the data page)
//   -> erase the data block -> program its pages back in order -> erase the log block,
// i.e. pages x (tR + tPROG) + 2 x tBERS plus transfers, then returns the log block to
// the pool. Unlike ZnG's FTL it neither shares log blocks among data blocks nor holds
// demand requests to the block during the merge. Running out of log blocks in a plane
// is a SimError that says to configure an FTL or more log blocks.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "flash_model/array/flash_geometry.hpp"
#include "flash_model/array/log_block_map.hpp"

namespace zng::flash {

class SimpleLogBlockAllocator final : public LogBlockMap {
public:
    // Throws ConfigError unless 1 <= log_blocks_per_plane < the geometry's blocks per plane.
    SimpleLogBlockAllocator(const FlashGeometry& geometry, uint32_t log_blocks_per_plane);

    uint32_t log_block_for(const FlashAddress& data_page) override;
    void log_block_full(const FlashAddress& log_block, std::function<void()> done) override;
    void attach(FlashOpExecutor& flash) override;

    uint64_t merges() const { return merges_; }
    bool is_log_block(uint32_t block) const { return block >= first_log_; }

private:
    struct PlanePool {
        std::vector<uint32_t> free;  // erased log blocks ready for use
        uint32_t never_used = 0;     // reserved blocks not handed out yet
    };
    struct Merge {
        FlashAddress data;
        FlashAddress log;
        std::function<void()> done;
        uint32_t pending = 0;
    };
    PlanePool& pool(const FlashAddress& a);
    FlashOpExecutor& flash() const;
    void merge_phase_erase_data(uint32_t m);
    void merge_phase_program(uint32_t m);
    void merge_phase_erase_log(uint32_t m);
    void merge_finish(uint32_t m);

    FlashGeometry geo_;
    FlashOpExecutor* flash_ = nullptr;
    uint32_t first_log_;
    std::unordered_map<uint64_t, PlanePool> pools_;      // by plane index (sparse)
    std::unordered_map<uint64_t, uint32_t> log_of_;      // data block index -> log block
    std::unordered_map<uint64_t, uint64_t> owner_;       // log block index -> data block index
    std::unordered_map<uint32_t, Merge> merges_running_;
    uint32_t next_merge_ = 0;
    uint64_t merges_ = 0;
};

}  // namespace zng::flash
