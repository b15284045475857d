// ZnG's flash network (paper III-B): a 2D mesh of routers replacing the bus-based
// flash channels, so that controllers and packages are not limited by one 1-byte bus.
//
// Model (virtual cut-through at packet granularity, one event per packet per hop):
//  - routers on a rows x cols grid; package k sits at router k (row-major); controller c
//    sits at the west-edge router of the row holding its channel's first package;
//  - a message is cut into packets of at most max_packet payload bytes, each with a
//    header of header_bytes, i.e. ceil((header + part) / link_width) flits;
//  - XY routing; a head spends router_latency cycles in every router it leaves through
//    a link, then takes the output link for `flits` cycles (the tail follows the head
//    without further delay); at the destination router it ejects into the endpoint,
//    again for `flits` cycles. Uncontended: latency = hops x router_latency + flits.
//  - contention: one packet at a time per output link and per ejection / injection
//    port, waiting packets served in arrival order;
//  - back-pressure: every router input has buffer_flits of buffer; a packet moves on
//    only when the next input has room for the whole packet (credits come back when its
//    tail leaves that router), so a congested path stalls its upstream routers.
#pragma once
#include <cstdint>
#include <vector>

#include "flash_model/network/flash_network.hpp"
#include "flash_model/index_pool.hpp"
#include "sim/core/component.hpp"
#include "sim/core/cycle_calendar.hpp"
#include "sim/core/ring_queue.hpp"

namespace zng::flash {

class MeshNetwork final : private OwnedClock, public FlashNetwork, public Component {
public:
    static ComponentSchema schema();
    MeshNetwork(Simulator& sim, const std::string& name, const FlashNetworkLayout& layout, const Params& p);

    void attach(uint32_t endpoint, FlashEndpoint* e) override;
    void send(const FlashMessage& m) override;
    bool carries_package_io() const override { return false; }
    uint64_t in_flight() const override { return msgs_.live(); }

    uint32_t rows() const { return rows_; }
    uint32_t cols() const { return cols_; }
    uint32_t router_of(uint32_t endpoint) const { return endpoint_router_.at(endpoint); }
    // Links crossed from endpoint a to endpoint b (XY routing: Manhattan distance).
    uint32_t hops(uint32_t a, uint32_t b) const;
    // Flits of one packet carrying `payload` bytes.
    uint32_t packet_flits(uint32_t payload) const;
    uint32_t link_width() const { return width_; }
    // Largest payload of one packet (longer messages are split into packets of this size).
    uint32_t max_payload() const { return max_payload_; }
    Cycle router_latency() const { return router_latency_; }
    // The largest number of packages whose paths to their controllers cross one link
    // (XY routing, either direction). Paper III-B: the mesh "can meet the bandwidth
    // requirement of Z-NAND packages by increasing the frequency and link widths", so a
    // link must carry this many packages' I/O ports at once.
    uint32_t busiest_link_packages() const;

private:
    enum Dir : uint8_t { kNorth = 0, kEast = 1, kSouth = 2, kWest = 3 };
    struct Packet {
        uint32_t msg = 0;
        uint32_t flits = 0;
        uint32_t router = 0;
        uint32_t buffer = 0;  // input buffer whose credits it holds
    };
    struct Message {
        FlashMessage m;
        uint32_t parts_left = 0;
        Tick sent = 0;
    };
    // Ejected: a packet's tail has left its last router into the endpoint, which returns
    // the credits of the input buffer it held and delivers it (one item for the two, as
    // both fall at the tail's tick, credits first).
    enum class EvKind : uint8_t { Ready, WakeOutput, WakeInject, Credit, Ejected };
    struct Ev {
        EvKind kind;
        uint32_t a;  // packet, output, endpoint or buffer
        uint32_t b;  // credit flits
    };

    // The mesh acts only at its clock's edges (send waits for the next one), so the
    // edge of the current tick is "now" in cycles.
    Cycle now_cycle() const { return clock().remembered_edge_cycle(now()); }
    void on_event(Ev& e);
    void arrive(uint32_t pkt);
    void try_output(uint32_t out);
    void try_inject(uint32_t endpoint);
    // The most cycles an event lies beyond the current edge.
    Cycle events_horizon() const;
    uint32_t route(uint32_t router, uint32_t dst_router) const;
    uint32_t neighbor(uint32_t router, uint32_t dir) const;
    static uint32_t opposite(uint32_t dir) { return dir ^ 2u; }
    uint32_t eject_output(uint32_t endpoint) const { return 4 * routers_ + endpoint; }
    uint32_t inject_buffer(uint32_t endpoint) const { return 4 * routers_ + endpoint; }
    void wake_feeder(uint32_t buffer);
    void return_credits(uint32_t buffer, uint32_t flits);
    void deliver(uint32_t pkt);

    uint32_t rows_ = 0, cols_ = 0, routers_ = 0;
    uint32_t width_ = 8, header_ = 8, max_payload_ = 512, buffer_flits_ = 0;
    Cycle router_latency_ = 1;
    std::vector<uint32_t> endpoint_router_;
    std::vector<uint32_t> package_channel_;  // controller endpoint of each package
    std::vector<FlashEndpoint*> endpoints_;

    // Outputs: 4 links per router, then one ejection port per endpoint. Busy until the
    // edge of that cycle.
    std::vector<Cycle> out_busy_;
    std::vector<RingQueue<uint32_t>> out_wait_;
    std::vector<uint8_t> out_wake_;
    // Input buffers: 4 per router (by the side a packet enters), then one injection
    // buffer per endpoint.
    std::vector<uint32_t> credits_;
    std::vector<RingQueue<uint32_t>> inject_wait_;
    std::vector<Cycle> inject_busy_;
    std::vector<uint8_t> inject_wake_;

    IndexPool<Packet> pkts_;
    IndexPool<Message> msgs_;
    // Every item is at most one packet or one router latency ahead (events_horizon).
    CycleCalendar<Ev> events_;

    Counter& messages_;
    Counter& packets_;
    Counter& flits_;
    Counter& bytes_;
    Average& latency_;
};

}  // namespace zng::flash
