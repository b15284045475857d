#include "memory/dma_traffic_injector.hpp"

#include <algorithm>

namespace zng::memory {

DmaTrafficInjector::DmaTrafficInjector(Simulator& sim, const std::string& name, uint32_t chunk_bytes,
                                       TryEnqueue try_enqueue)
    : sim_(sim), chunk_(chunk_bytes), try_enqueue_(std::move(try_enqueue)),
      written_(sim.stats().counter(name + ".dma.bytes_written", "storage DMA bytes written into this memory", "bytes")),
      read_(sim.stats().counter(name + ".dma.bytes_read", "storage DMA bytes read out of this memory", "bytes")),
      refusals_(sim.stats().counter(name + ".dma.refusals", "storage DMA chunks that found their channel full",
                                    "chunks")),
      delay_(sim.stats().average(name + ".dma.delay", "time a storage DMA chunk waited past its arrival for its "
                                                      "channel (SM traffic ahead of it)", "ns")) {}

void DmaTrafficInjector::add(uint64_t addr, uint64_t bytes, Tick first, Tick last, bool write) {
    if (bytes == 0) return;
    transfers_.push_back(Transfer{addr, bytes, 0, first, std::max(first, last), write});
    (write ? written_ : read_) += bytes;
    if (transfers_.size() == 1 && !blocked_ && !wake_.scheduled())
        sim_.schedule(wake_, std::max(sim_.now(), arrival(transfers_.front(), next_chunk(transfers_.front()))));
}

uint32_t DmaTrafficInjector::next_chunk(const Transfer& t) const {
    const uint64_t at = t.addr + t.sent;
    const uint64_t to_boundary = chunk_ - at % chunk_;
    return static_cast<uint32_t>(std::min<uint64_t>(to_boundary, t.bytes - t.sent));
}

Tick DmaTrafficInjector::arrival(const Transfer& t, uint64_t chunk) const {
    // Bytes arrive evenly between the first's and the last's arrival.
    const uint64_t end = t.sent + chunk;
    return t.first + static_cast<Tick>((static_cast<__uint128_t>(t.last - t.first) * end) / t.bytes);
}

void DmaTrafficInjector::room_freed() {
    if (!blocked_) return;
    blocked_ = false;
    pump();
}

void DmaTrafficInjector::pump() {
    const Tick now = sim_.now();
    while (!transfers_.empty()) {
        Transfer& t = transfers_.front();
        const uint32_t chunk = next_chunk(t);
        const Tick at = arrival(t, chunk);
        if (at > now) {
            if (!wake_.scheduled()) sim_.schedule(wake_, at);
            return;
        }
        if (!try_enqueue_(t.addr + t.sent, chunk, t.write)) {
            ++refusals_;
            blocked_ = true;  // room_freed() goes on
            return;
        }
        delay_.sample(static_cast<double>(now - at) / kNanosecond);
        t.sent += chunk;
        if (t.sent == t.bytes) transfers_.pop_front();
    }
}

}  // namespace zng::memory
