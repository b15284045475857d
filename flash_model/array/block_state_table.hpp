// The program/erase state of every block that has been touched, and the rules of NAND
// flash enforced on it: erase before write, in-order programming inside a block (ZnG
// paper II: Z-NAND "forbids overwrites and only allows an in-order programming"), no
// program of a page that is not free. In order means in increasing page order: a program
// may skip pages, which then stay erased (holding nothing) until the block is erased,
// since no page may be programmed below one already programmed. Blocks never touched
// hold the pre-loaded data set (all pages programmed, never erased), so the table grows
// with the blocks a run touches, not with the array's capacity.
#pragma once
#include <cstdint>
#include <vector>

#include "flash_model/array/flash_geometry.hpp"
#include "sim/core/hash_map.hpp"

namespace zng::flash {

class BlockStateTable {
public:
    BlockStateTable(const FlashGeometry& geometry, uint32_t endurance) : geo_(geometry), endurance_(endurance) {}

    // Throws SimError naming the page and the rule it breaks.
    void program(const FlashAddress& page);
    // Erases the block holding `block` (page field ignored); counts a P/E cycle.
    void erase(const FlashAddress& block);
    // Untimed initial condition: the block is erased and holds nothing (spare blocks).
    void set_erased(const FlashAddress& block);

    // Programmed: below the block's next free page and not skipped.
    bool page_programmed(const FlashAddress& page) const;
    // The lowest page a program may write (pages below it are programmed or skipped).
    uint32_t next_free_page(const FlashAddress& block) const;
    uint32_t erase_count(const FlashAddress& block) const;
    uint32_t max_erase_count() const { return max_erases_; }
    uint64_t worn_blocks() const { return worn_; }
    size_t touched_blocks() const { return states_.size(); }

private:
    // What every read asks (is the page programmed?) sits in the map's slot: the block's
    // next free page and whether any page below it was skipped. The rest (erase count,
    // which pages were skipped) is in states_, read only for blocks with skipped pages.
    struct Head {
        uint32_t next_page;  // pages below it are programmed or skipped; the rest are free
        uint32_t place;      // the block's State in states_, plus one; top bit: it has skipped pages
    };
    static constexpr uint32_t kSkips = 1u << 31;
    struct State {
        uint32_t erases;
        std::vector<uint64_t> skipped;  // bit per page skipped since the last erase (empty: none)
    };
    Head& touch(const FlashAddress& a);
    // Every page free and none skipped (after an erase).
    void set_free(Head& h);
    const Head* find(const FlashAddress& a) const { return index_.get(geo_.block_index(a)); }
    State& state(const Head& h) { return states_[(h.place & ~kSkips) - 1]; }
    const State& state(const Head& h) const { return states_[(h.place & ~kSkips) - 1]; }

    const FlashGeometry& geo_;
    uint32_t endurance_;
    // Every read asks whether its page holds data: an open-addressing map from block
    // index to its Head (std::unordered_map's node per block and its pointer chase showed
    // in profiles of flash-bound runs, and so did the second load when the map held only
    // the State's place).
    GrowingHashMap<Head> index_{1024};
    std::vector<State> states_;  // in the order blocks were first touched
    uint32_t max_erases_ = 0;
    uint64_t worn_ = 0;
};

}  // namespace zng::flash
