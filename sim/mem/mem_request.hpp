// The one request object that travels from a warp to the medium and back. It carries
// who asked (app, SM, warp, PC), what (address, size, sectors, op), a timestamp at each
// stage it passes (for per-stage latency breakdowns), and the stack of ports it came
// through so that any component can send the response back without knowing its caller.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <type_traits>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/tick.hpp"

namespace zng {

class ResponsePort;

enum class MemOp : uint8_t {
    Read,       // demand load
    Write,      // store (write-through or write-back traffic from a warp)
    Atomic,     // read-modify-write performed at L2 / memory
    Writeback,  // dirty line evicted by a cache
    Prefetch,   // fill issued by a prefetcher, not by a warp
};
const char* to_string(MemOp op);
inline bool is_write_op(MemOp op) { return op == MemOp::Write || op == MemOp::Writeback; }

// Points in a request's life. Not every request passes every stage (an L1 hit stops at
// L1); the breakdown uses the stages a request did pass, in this order.
enum class Stage : uint8_t {
    Issue,        // the warp issued the instruction
    TlbDone,      // address translated
    L1Done,       // L1 lookup finished (hit: data ready; miss: sent on)
    L2Arrive,     // reached its L2 bank (after the crossbar)
    L2Done,       // L2 lookup finished (hit or miss sent on)
    MemArrive,    // reached the memory / flash controller
    MediumStart,  // the device (DRAM bank, flash plane, PMM media) began serving it
    MediumDone,   // the device finished (data in the controller)
    Complete,     // the response reached the requester
    kCount
};
constexpr int kStageCount = static_cast<int>(Stage::kCount);
const char* to_string(Stage s);

// 256 bytes on host cache-line boundaries: the fields a hop reads on the way out sit in
// the first two lines, and a response's route step (depth and the first slots) in the third.
struct alignas(64) MemRequest {
    uint64_t id = 0;
    uint16_t app = 0;
    uint16_t sm = 0;
    uint32_t warp = 0;  // global warp slot (sm * max_warps + slot)
    uint64_t pc = 0;
    uint64_t vaddr = 0;
    uint64_t paddr = 0;
    uint32_t size = 0;          // bytes
    uint32_t sector_mask = 0;   // 32 B sectors of the line touched
    MemOp op = MemOp::Read;
    bool local = false;         // a warp's local-memory access (the L1 caches it write-back)
    // Critical word first: a multi-line read may name the part its requester waits for
    // (first_bytes at first_offset from paddr). A memory that can, answers that part
    // first with a copy of the request marked first_piece, then the whole request.
    bool first_piece = false;
    uint32_t first_offset = 0;
    uint32_t first_bytes = 0;   // 0: no part is waited for first
    std::array<Tick, kStageCount> stamp{};  // 0 = stage not passed
    void* context = nullptr;  // owned by the originator (e.g. its MSHR entry)
    uint64_t tag = 0;         // free for the originator

    void mark(Stage s, Tick t) { stamp[static_cast<int>(s)] = t + 1; }  // +1: tick 0 is a real time
    bool passed(Stage s) const { return stamp[static_cast<int>(s)] != 0; }
    Tick at(Stage s) const { return stamp[static_cast<int>(s)] - 1; }

    // Route back to the requester (see ports). Depth is bounded: hierarchies are shallow.
    // The depth sits before the slots, so a shallow route's step reads one host line.
    static constexpr int kMaxRoute = 12;
    uint8_t route_depth = 0;
    std::array<ResponsePort*, kMaxRoute> route{};
    void push_route(ResponsePort* p) {
        if (route_depth == kMaxRoute) throw SimError("memory request routed through too many ports");
        route[route_depth++] = p;
    }
    ResponsePort* pop_route() {
        if (route_depth == 0) throw SimError("response has no route back to a requester");
        return route[--route_depth];
    }
};

static_assert(std::is_trivially_copyable_v<MemRequest> && std::is_standard_layout_v<MemRequest>,
              "RequestPool resets requests by copying a prefix");
static_assert(sizeof(MemRequest) == 256 && offsetof(MemRequest, route) == 160,
              "MemRequest's host-line layout (see its comment)");

// Requests are recycled through a free list: a simulation creates millions of them,
// and allocating each would dominate the hot path.
class RequestPool {
public:
    MemRequest* get() {
        if (free_.empty()) grow();
        MemRequest* r = free_.back();
        free_.pop_back();
        // A fresh request, except the route slots (96 B), which are only read below
        // route_depth (in the copied prefix): the copy of a constant prefix is a few
        // vector moves, where assigning a whole MemRequest{} stored 256 B per request.
        static constexpr MemRequest kFresh{};
        std::memcpy(static_cast<void*>(r), &kFresh, offsetof(MemRequest, route));
        r->id = next_id_++;
        ++live_;
        return r;
    }
    void put(MemRequest* r) {
        r->id = 0;  // ids start at 1: 0 marks a free object (oldest_live)
        free_.push_back(r);
        --live_;
    }
    uint64_t live() const { return live_; }
    // The live request created first (null if none): what a stuck run reports. Scans
    // every object, so it is for diagnostics only.
    const MemRequest* oldest_live() const {
        const MemRequest* best = nullptr;
        for (const auto& chunk : chunks_)
            for (const auto& r : chunk)
                if (r.id != 0 && (!best || r.id < best->id)) best = &r;
        return best;
    }
    uint64_t created() const { return next_id_ - 1; }

private:
    void grow() {
        chunks_.emplace_back(kChunk);
        for (auto& r : chunks_.back()) free_.push_back(&r);
    }
    static constexpr size_t kChunk = 4096;
    std::deque<std::vector<MemRequest>> chunks_;
    std::vector<MemRequest*> free_;
    uint64_t next_id_ = 1;
    uint64_t live_ = 0;
};

}  // namespace zng
