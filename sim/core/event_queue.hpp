// The discrete-event core. Events fire in (tick, insertion sequence) order, so two
// events at the same tick fire in the order they were scheduled and runs are
// deterministic. Once the queue has grown to the model's working size, scheduling and
// firing allocate nothing.
//
// Events are kept in one FIFO bucket per pending tick, and a sorted list orders the
// ticks. Sequence numbers only grow, so appending an event to its tick's bucket keeps
// the bucket in sequence order: firing a bucket front to back is (tick, sequence)
// order, and an event scheduled for the current tick while others of that tick fire
// simply joins the end of the bucket. Models run on clock edges, so most events share
// their tick with others (on zng bfs1 about five in six fire at the tick of the event
// before): the list holds a few distinct ticks instead of every pending event.
//
// The list is sorted latest first, so the earliest tick is its last element: retiring
// it is a pop_back. An event object is scheduled at most once at a time, so there are
// never more distinct ticks than event objects (tens to a few hundred). Most
// schedulings aim at the next edges of the clocks, the latest-but-few end of the list,
// so a tick is looked up (and a new one inserted) by walking from that end, with a
// binary search for the rest when the walk is long: this replaced a heap of ticks plus
// a hash map from tick to bucket, whose upkeep cost more than the walk. Before the
// walk, a small direct-mapped memo of pending ticks answers most lookups.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/event.hpp"

namespace zng {

class EventQueue {
public:
    EventQueue();

    Tick now() const { return now_; }
    bool empty() const { return live_ == 0; }
    uint64_t size() const { return live_; }
    uint64_t fired() const { return fired_; }

    // Schedules ev at tick `when` (>= now). If ev is already scheduled, it is moved.
    // Inline: every component schedules on its hot path, and most schedulings join the
    // bucket of the tick scheduled just before.
    void schedule(Event& ev, Tick when) {
        if (when < now_) [[unlikely]]
            scheduled_in_the_past(ev, when);
        if (ev.scheduled()) --live_;  // the old entry becomes stale and is skipped when reached
        ev.when_ = when;
        ev.seq_ = next_seq_++;
        buckets_[bucket_of(when)].entries.push_back({ev.seq_, &ev});
        ++live_;
    }
    // Schedules ev unless it is already scheduled at or before `when`.
    void schedule_at_most(Event& ev, Tick when) {
        if (!ev.scheduled() || ev.when() > when) schedule(ev, when);
    }
    void deschedule(Event& ev);

    // Tick of the next live event, or kMaxTick when none.
    Tick next_tick();
    // Fires the next event; false when the queue is empty. Inline, for the run loop.
    bool step() {
        while (!ticks_.empty()) {
            Bucket& b = buckets_[ticks_.back().bucket];
            while (b.head < b.entries.size()) {
                const Entry e = b.entries[b.head++];
                if (e.ev->seq_ != e.seq) continue;  // stale
                now_ = ticks_.back().when;
                e.ev->seq_ = 0;
                --live_;
                ++fired_;
                // The next event object is usually cold in the host cache: start loading
                // it (its seq_ and vtable) while this one runs.
                if (b.head < b.entries.size()) __builtin_prefetch(b.entries[b.head].ev);
                e.ev->process();  // may append to this bucket: nothing of it is used after
                return true;
            }
            retire_front();
        }
        return false;
    }
    // Fires events until the queue is empty or the next event lies beyond `until`.
    void run_until(Tick until);

private:
    // One scheduling. A moved or cancelled event leaves its entry behind (stale: the
    // event's seq_ no longer matches), skipped when its bucket reaches it.
    static constexpr uint32_t kNoBucket = UINT32_MAX;
    struct Entry {
        uint64_t seq;
        Event* ev;
    };
    struct Bucket {
        std::vector<Entry> entries;  // in sequence order
        size_t head = 0;             // entries before head have fired or were skipped
    };
    struct TickEntry {
        Tick when;
        uint32_t bucket;
    };
    // Steps walked from the earliest end of the list before a binary search.
    static constexpr size_t kWalk = 8;
    [[noreturn]] void scheduled_in_the_past(const Event& ev, Tick when) const;
    // The bucket of tick `when`: the last answer, else the memo, else bucket_for.
    uint32_t bucket_of(Tick when) {
        if (when == last_tick_ && last_bucket_ != kNoBucket) return last_bucket_;
        const TickMemo& m = memo_[memo_slot(when)];
        if (m.when == when && m.bucket != kNoBucket) {
            last_tick_ = when;
            return last_bucket_ = m.bucket;
        }
        return bucket_for(when);
    }
    // The bucket of tick `when`, made (and the tick inserted in the list) if new.
    uint32_t bucket_for(Tick when);
    // Inserts tick `when` at list position i with a fresh bucket; returns the bucket.
    [[gnu::noinline]] uint32_t insert_tick(size_t i, Tick when);
    void retire_front();
    void drop_stale();

    // A direct-mapped memo of pending ticks and their buckets. Schedulings alternate
    // between the next edges of a few clocks, so the tick asked for is usually pending
    // but not the one asked for last: the memo finds it without walking the list. A
    // tick's entry is cleared when the tick retires, so a hit is always live.
    struct TickMemo {
        Tick when = kMaxTick;
        uint32_t bucket = kNoBucket;
    };
    static constexpr uint32_t kMemoBits = 6;
    static uint32_t memo_slot(Tick t) {
        return static_cast<uint32_t>((t * 0x9E3779B97F4A7C15ull) >> (64 - kMemoBits));
    }

    std::vector<TickEntry> ticks_;  // the pending ticks, each once, latest first
    std::vector<Bucket> buckets_;   // pool; a bucket is reused once its tick is done
    std::vector<uint32_t> free_buckets_;
    Tick last_tick_ = 0;  // the tick bucket_for last answered, and its bucket
    uint32_t last_bucket_ = kNoBucket;
    TickMemo memo_[1u << kMemoBits];
    Tick now_ = 0;
    uint64_t next_seq_ = 1;
    uint64_t live_ = 0;
    uint64_t fired_ = 0;
};

}  // namespace zng
