// Accuracy of the prefetch predictor's decisions (paper Fig. 15b), as opposed to the
// accuracy of the lines it prefetched. Every predictor check on a demand read miss is a
// decision about the window (prefetch_window) around the missed line:
//   prefetch     correct when at least half of the lines it brought into the L2 are
//                used by a demand access before they are evicted; judged when the last
//                of them leaves (a decision that brought no line, all being present or
//                in flight, is judged when the missed line leaves: 0 of 0 is correct);
//   no prefetch  correct when fewer than half of the window's other lines are demanded
//                while the missed line stays in the L2; judged when it leaves.
// Decisions wait for their verdict in a bounded FIFO table (a measurement structure, not
// modelled hardware). A decision pushed out of a full table, or still waiting at the end
// of the run, is judged on what has happened so far by the same rules (a prefetch whose
// lines are still in the L2 counts the uses seen until then). A line belongs to the
// newest decision whose window covers it.
// Which decision a line belongs to is kept per block of B aligned lines (B: the largest
// window, rounded up to a power of two), so a decision enters and leaves its window
// with one or two map look-ups and a pass over a small array, not one per line.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/core/hash_map.hpp"

namespace zng::gpu {

class DecisionAccuracy {
public:
    // `entries` decisions waiting at once; windows of at most `max_window_lines` (<= 64).
    DecisionAccuracy(uint32_t entries, uint32_t max_window_lines);

    void decide(bool prefetch, uint64_t first_line, uint32_t lines, uint64_t missed_line);
    // A line was filled by a prefetch.
    void prefetch_filled(uint64_t line);
    // A demand access to `line` (hit or miss); `first_use_of_prefetch`: it is the first
    // demand use of a prefetched line.
    void demanded(uint64_t line, bool first_use_of_prefetch);
    // A valid line left the L2; `used_prefetch`: it was prefetched and demanded.
    void evicted(uint64_t line, bool used_prefetch);

    uint64_t judged() const { return judged_; }
    uint64_t correct() const { return correct_; }
    // Decisions made so far (judged + waiting).
    uint64_t decisions() const { return decisions_; }
    // Correct decisions / decisions, the waiting ones judged on what has happened so far.
    double accuracy() const;

private:
    struct Decision {
        uint64_t first_line = 0;
        uint64_t missed_line = 0;
        uint64_t brought = 0;   // prefetch: lines it filled (bit i = first_line + i)
        uint64_t gone = 0;      // prefetch: of those, evicted
        uint64_t used = 0;      // prefetch: brought lines demanded; no prefetch: other lines demanded
        uint32_t lines = 0;
        bool prefetch = false;
        bool valid = false;
    };
    static bool verdict(const Decision& d);
    Decision* find(uint64_t line, uint64_t* bit, uint32_t* slot = nullptr);
    void judge(uint32_t slot);
    // Owner slots of the block's lines (kNoSlot: none), the block's first line at
    // [0]; null when no line of the block has an owner. create: a block is made.
    uint32_t* block_owners(uint64_t block, bool create);
    // Gives `slot` every line of [first, first + lines) (owner = slot), or takes back
    // from it those it still owns (owner = kNoSlot, only where the owner is `slot`).
    void set_owner(uint64_t first, uint32_t lines, uint32_t slot, bool take_back);

    static constexpr uint32_t kNoSlot = ~0u;
    std::vector<Decision> table_;
    uint32_t next_ = 0;                // FIFO: the oldest slot, taken next
    uint32_t max_window_lines_;
    uint32_t block_shift_;             // log2(B)
    FixedHashMap<uint32_t> blocks_;    // block number -> its place in owners_
    std::vector<uint32_t> owners_;     // per place: B owner slots
    std::vector<uint32_t> owned_;      // per place: lines with an owner
    std::vector<uint32_t> free_places_;
    uint64_t decisions_ = 0, judged_ = 0, correct_ = 0;
};

}  // namespace zng::gpu
