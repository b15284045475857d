// The predictor's decision accuracy (Fig. 15b): each decision judged by what the demand
// stream did with its window.
#include <gtest/gtest.h>

#include "banked_l2_rig.hpp"
#include "gpu_model/l2/prefetch/decision_accuracy.hpp"

namespace zng::gpu::testing {
namespace {

// Windows of 4 lines: decision on window 0..3 (miss of line 0), and so on.
TEST(DecisionAccuracy, PrefetchIsCorrectWhenHalfItsLinesAreUsedBeforeEviction) {
    DecisionAccuracy a(8, 4);
    // Prefetch of 0..3 for the miss of 0: brings 1, 2, 3; 1 is used (1 of 3: 2 < 3).
    a.decide(true, 0, 4, 0);
    for (uint64_t l : {1, 2, 3}) a.prefetch_filled(l);
    a.demanded(1, true);
    for (uint64_t l : {1, 2}) a.evicted(l, l == 1);
    EXPECT_EQ(a.judged(), 0u);  // line 3 is still in the L2
    a.evicted(3, false);
    EXPECT_EQ(a.judged(), 1u);
    EXPECT_EQ(a.correct(), 0u);
    // Prefetch of 4..7 for the miss of 4: brings 5, 6 (7 was present); 6 is used (1 of
    // 2: 2 >= 2): correct.
    a.decide(true, 4, 4, 4);
    for (uint64_t l : {5, 6}) a.prefetch_filled(l);
    a.demanded(6, true);
    a.evicted(5, false);
    a.evicted(7, false);  // not brought by this decision: no effect
    a.evicted(6, true);
    EXPECT_EQ(a.judged(), 2u);
    EXPECT_EQ(a.correct(), 1u);
    EXPECT_DOUBLE_EQ(a.accuracy(), 0.5);
}

TEST(DecisionAccuracy, NoPrefetchIsCorrectWhenFewerThanHalfTheOtherLinesAreDemanded) {
    DecisionAccuracy a(8, 4);
    // No prefetch for the miss of 0: then 1 is demanded (1 of 3 others: 2 < 3), and 0
    // leaves: correct.
    a.decide(false, 0, 4, 0);
    a.demanded(1, false);
    a.demanded(0, false);  // the missed line itself does not count
    a.evicted(1, false);   // not the missed line: still waiting
    EXPECT_EQ(a.judged(), 0u);
    a.evicted(0, false);
    EXPECT_EQ(a.correct(), 1u);
    // No prefetch for the miss of 8: 9 and 10 demanded (2 of 3: 4 >= 3): wrong.
    a.decide(false, 8, 4, 8);
    a.demanded(9, false);
    a.demanded(10, false);
    a.evicted(8, false);
    EXPECT_EQ(a.judged(), 2u);
    EXPECT_EQ(a.correct(), 1u);
}

// Windows that are not aligned to 4 lines: 2..5 spans lines kept in two blocks of 4.
TEST(DecisionAccuracy, AWindowAcrossTwoBlocksAndANewerWindowOverIt) {
    DecisionAccuracy a(4, 4);
    a.decide(false, 2, 4, 2);  // decision A: no prefetch on 2..5, the miss of 2
    a.demanded(4, false);      // A: other lines demanded {4}
    a.decide(false, 4, 4, 4);  // decision B on 4..7 (the miss of 4): 4 and 5 are B's now
    a.demanded(5, false);      // B: {5}
    a.evicted(2, false);       // A's missed line leaves: A judged, 2 x 1 < 3: correct
    EXPECT_EQ(a.judged(), 1u);
    EXPECT_EQ(a.correct(), 1u);
    a.demanded(3, false);      // no decision holds 3 any more
    a.demanded(6, false);      // B: {5, 6}
    a.evicted(4, false);       // B's missed line, still B's after A was judged: 2 x 2 >= 3: wrong
    EXPECT_EQ(a.judged(), 2u);
    EXPECT_EQ(a.correct(), 1u);
    EXPECT_DOUBLE_EQ(a.accuracy(), 0.5);  // 1 correct of 2 decisions
    EXPECT_THROW(a.decide(false, 0, 5, 0), std::invalid_argument);  // wider than 4 lines
}

TEST(DecisionAccuracy, WaitingAndPushedOutDecisionsAreJudgedOnWhatHappenedSoFar) {
    DecisionAccuracy a(2, 4);  // two decisions wait at most
    a.decide(false, 0, 4, 0);  // nothing demanded yet: correct so far
    a.decide(true, 4, 4, 4);
    a.prefetch_filled(5);      // brought 5, unused so far: wrong so far
    EXPECT_EQ(a.judged(), 0u);
    EXPECT_DOUBLE_EQ(a.accuracy(), 0.5);  // (1 + 0) / 2, both still waiting
    a.decide(false, 8, 4, 8);  // the table is full: the oldest (0..3) is judged: correct
    EXPECT_EQ(a.judged(), 1u);
    EXPECT_EQ(a.correct(), 1u);
    a.demanded(1, false);      // its window is no longer tracked
    a.demanded(5, true);       // the waiting prefetch is now right: 1 of 1
    EXPECT_DOUBLE_EQ(a.accuracy(), 1.0);  // (1 judged + 1 + 1 waiting) / 3
}

// Through the policy: 256 B flash pages, so every window is 2 lines; the predictor has
// seen too little to prefetch (counter below the threshold): no-prefetch decisions.
TEST(DecisionAccuracy, PolicyReportsItAsPredictorAccuracy) {
    BankedL2Rig rig(4096, "prefetch: dynamic, page_size: 256B, unit_initial: 256B, unit_min: 256B, unit_max: 256B");
    // Miss of line 0: decision A, no prefetch of window {0, 1}; nothing else demanded,
    // line 0 stays: correct so far.
    rig.read_at(0, 0);
    rig.sim.run();
    EXPECT_EQ(rig.stat("gpu.l2.policy.predictor_checks"), 1);
    EXPECT_EQ(rig.stat("gpu.l2.policy.predictor_triggers"), 0);
    EXPECT_DOUBLE_EQ(rig.stat("gpu.l2.policy.predictor_accuracy"), 1.0);
    // Line 1 is demanded while line 0 stays: 1 of A's 1 other line, not fewer than
    // half: A is wrong. Its miss is decision B (window {0, 1}, missed 1): correct so
    // far. (0 + 1) / 2.
    rig.read_at(200, 128);
    rig.sim.run();
    EXPECT_EQ(rig.stat("gpu.l2.policy.predictor_checks"), 2);
    EXPECT_DOUBLE_EQ(rig.stat("gpu.l2.policy.predictor_accuracy"), 0.5);
}

}  // namespace
}  // namespace zng::gpu::testing
