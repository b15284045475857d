// Storage DMA into a channelled memory (sim/mem/dma_traffic_sink.hpp): each transfer is
// cut into chunks of `chunk_bytes` (aligned), each chunk becomes one channel
// transaction when its last byte has arrived, and the transactions enter the channels
// in arrival order, as the one DMA stream of the GPU's link delivers them. A chunk
// whose channel is full waits (and those behind it) until a channel frees room.
// Statistics under `<name>.dma`: bytes written and read, refusals, and the mean time a
// chunk waited past its arrival.
#pragma once
#include <deque>
#include <functional>
#include <string>

#include "sim/core/event.hpp"
#include "sim/core/simulator.hpp"
#include "sim/stats/stats.hpp"

namespace zng::memory {

class DmaTrafficInjector {
public:
    // Enqueues one chunk's transaction; false when its channel has no room.
    using TryEnqueue = std::function<bool(uint64_t addr, uint32_t bytes, bool write)>;
    DmaTrafficInjector(Simulator& sim, const std::string& name, uint32_t chunk_bytes, TryEnqueue try_enqueue);

    void add(uint64_t addr, uint64_t bytes, Tick first, Tick last, bool write);
    // A channel has room again: a waiting chunk tries once more.
    void room_freed();
    bool idle() const { return transfers_.empty(); }

private:
    struct Transfer {
        uint64_t addr = 0, bytes = 0, sent = 0;  // sent: bytes already enqueued
        Tick first = 0, last = 0;
        bool write = true;
    };
    // The next chunk of `t`: its size and the tick its last byte arrives.
    uint32_t next_chunk(const Transfer& t) const;
    Tick arrival(const Transfer& t, uint64_t end) const;
    void pump();

    Simulator& sim_;
    uint32_t chunk_;
    TryEnqueue try_enqueue_;
    std::deque<Transfer> transfers_;
    bool blocked_ = false;
    MemberEvent<DmaTrafficInjector, &DmaTrafficInjector::pump> wake_{this, "dma-traffic"};
    Counter& written_;
    Counter& read_;
    Counter& refusals_;
    Average& delay_;
};

}  // namespace zng::memory
