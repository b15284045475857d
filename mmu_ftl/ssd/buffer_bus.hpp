// The data bus of an SSD controller's DRAM buffer, shared by two masters:
//  - the host side (the controller's front end serving requests: read hits read out,
//    writes written in), whose transfers are small and latency-critical; each gets its
//    arrival tick at once, so the caller schedules on it;
//  - the flash side (channel DMA: a sensed page written in, a dirty page read out for
//    its program), whose 4 KiB transfers are queued in order and reported through
//    `Delivered` when their last byte has arrived.
//
// How the two share the bus is the arbitration, chosen by name:
//  - fifo: one reservation timeline in call order. A read hit waits behind every page
//    fill granted before it (the controller as a single-queue device).
//  - round_robin: the DRAM controller alternates between the masters burst by burst
//    while both have data to move, as multi-port memory controllers arbitrate between
//    AXI masters. A host transfer arriving while flash-side data moves takes twice its
//    own time (every other burst) and delays the flash side by its own time; one
//    arriving while the flash side is idle runs at the full rate and the flash side's
//    later transfers use what time it leaves. The flash side's completion ticks are
//    therefore events, moved whenever host transfers take bus time from them.
// Either way the bus carries each byte once: bytes and busy time are the same.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "sim/core/event.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/simulator.hpp"
#include "sim/mem/serial_link.hpp"

namespace zng::ftl {

enum class BufferArbitration { Fifo, RoundRobin };

// "fifo" or "round_robin"; throws SimError naming `key` otherwise.
BufferArbitration parse_buffer_arbitration(const std::string& name, const std::string& key);

class BufferBus {
public:
    static constexpr uint32_t kNoToken = UINT32_MAX;
    // A flash-side transfer's token and the tick its last byte arrives (latency included).
    using Delivered = std::function<void(uint32_t token, Tick ready)>;

    BufferBus(Simulator& sim, double bytes_per_second, Tick latency, BufferArbitration arbitration,
              Delivered delivered);

    // Host side: returns the tick the last byte arrives.
    Tick host_transfer(uint64_t bytes);
    // Flash side: moves `bytes` after the flash side's earlier transfers; `token` is
    // delivered unless it is kNoToken.
    void flash_transfer(uint64_t bytes, uint32_t token);

    uint64_t bytes() const { return link_.bytes(); }
    uint64_t transfers() const { return link_.transfers(); }
    Tick busy_time() const { return link_.busy_time(); }
    BufferArbitration arbitration() const { return arbitration_; }

private:
    // Bus time the host side holds from `start` to `end`: all of it (full) or every other
    // burst (half), by round_robin.
    struct HostSpan {
        Tick start, end;
        bool half;
    };
    struct FlashTransfer {
        Tick work;  // bus time it needs
        uint32_t token;
    };
    // Bus time the host side leaves free in [from, to).
    Tick free_time(Tick from, Tick to) const;
    // When `work` of free bus time, counted from `from`, has passed.
    Tick finish_after(Tick from, Tick work) const;
    // Brings the transfer in service up to now and (re)schedules its end.
    void advance_flash();
    void start_next_flash();
    void flash_done();

    Simulator& sim_;
    BufferArbitration arbitration_;
    Delivered delivered_;
    // Counts bytes and busy time; in fifo mode also the one reservation timeline.
    SerialLink link_;
    // round_robin state.
    RingQueue<HostSpan> host_;  // in time order; those ended by now are dropped
    Tick host_free_ = 0;          // the end of the last host span
    RingQueue<FlashTransfer> flash_queue_;
    Tick queued_work_ = 0;        // bus time of the queued flash transfers behind the one in service
    bool flash_busy_ = false;
    Tick checkpoint_ = 0;         // the transfer in service needs `remaining_` of free time from here
    Tick remaining_ = 0;
    MemberEvent<BufferBus, &BufferBus::flash_done> flash_event_{this, "buffer-bus-flash"};
};

}  // namespace zng::ftl
