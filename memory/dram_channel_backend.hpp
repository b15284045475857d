// What the DRAM-channel back ends (GDDR5, Optane DC PMM) share around their channels:
// the response ports toward the L2 banks (refusals remembered per channel and retried
// when that channel frees room), the traffic accounting, the command clock, the address
// mapping and the capacity. Each back end keeps its own channels and decides how a
// request becomes channel transactions.
#pragma once
#include <string>
#include <utility>

#include "memory/address_mapping.hpp"
#include "memory/backend_ports.hpp"
#include "memory/dram_channel.hpp"
#include "sim/mem/memory_backend.hpp"

namespace zng::memory {

class DramChannelBackend : public MemoryBackend, protected DramChannelClient {
public:
    ResponsePort& port(uint32_t i) override { return ports_.port(i); }
    uint32_t num_ports() const override { return ports_.size(); }
    uint64_t in_flight() const override { return traffic_.in_flight(); }
    uint64_t capacity_bytes() const override { return capacity_; }
    const AddressMapping& mapping() const { return mapping_; }

protected:
    DramChannelBackend(Simulator& sim, const std::string& name, uint32_t ports, uint64_t command_clock_hz,
                       AddressMapping mapping, uint64_t capacity)
        : name_(name),
          clock_(name + ".clock", command_clock_hz),
          mapping_(std::move(mapping)),
          capacity_(capacity),
          ports_(*this, name, ports),
          traffic_(sim, name) {}
    void room_freed(DramChannel& ch) override { ports_.room_freed(ch.index()); }

    std::string name_;
    ClockDomain clock_;
    AddressMapping mapping_;
    uint64_t capacity_;
    BackendPorts ports_;
    BackendTraffic traffic_;
};

}  // namespace zng::memory
