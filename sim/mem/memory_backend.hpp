// What sits behind the L2: GDDR5 controllers, Optane PMM controllers, ZnG's flash
// controllers and flash network, HybridGPU's SSD controller, Hetero's GDDR5 + host path.
// Each is registered in the "memory" slot and chosen in YAML (`memory: {type: ...}`).
//
// Protocol: the L2 owns one RequestPort per bank, bound to port(bank). Requests carry a
// physical address (paddr) in the back end's address space, a size (normally the L2
// line) and an op (Read, Writeback, Write, Atomic, Prefetch). Every request gets exactly
// one response (writes too: the response is the acknowledgement), sent with
// send_response(); the requester frees the request. A back end refuses a request
// (recv_request returns false) when its queue for that request is full, and calls
// port(i).retry() when room frees. A back end offers what else it implements (write
// redirection) by name: interface_provider.hpp.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "sim/config/registry.hpp"
#include "sim/core/clock_domain.hpp"
#include "sim/core/simulator.hpp"
#include "sim/mem/interface_provider.hpp"
#include "sim/mem/port.hpp"

namespace zng {

class AddressTranslator;

// What a back end may need to know about the rest of the platform.
struct BackendContext {
    uint32_t ports = 1;                  // one per L2 bank
    uint32_t line_size = 128;            // L2 line, bytes
    const ClockDomain* gpu_clock = nullptr;
    const ConfigNode* root = nullptr;    // the whole resolved config (shared fragments)
    AddressTranslator* translator = nullptr;  // the platform's translation (FTL-aware back ends)
};

class MemoryBackend : public MemResponder, public InterfaceProvider {
public:
    ~MemoryBackend() override = default;
    virtual ResponsePort& port(uint32_t i) = 0;
    virtual uint32_t num_ports() const = 0;
    // Requests accepted and not yet answered (for end-of-run invariants).
    virtual uint64_t in_flight() const = 0;
    // Bytes moved at the storage medium (DRAM bursts, flash pages, PMM media lines),
    // so every platform reports a comparable "memory/flash-array bandwidth".
    virtual uint64_t medium_bytes_read() const = 0;
    virtual uint64_t medium_bytes_written() const = 0;
    // Capacity of the physical address space the back end serves.
    virtual uint64_t capacity_bytes() const = 0;
    // Largest read served as ONE transaction (one command, one medium access, one
    // transfer) when it lies inside one aligned block of that many bytes; 0: reads are
    // one L2 line. The L2 sends a multi-line fill only to a back end that declares it.
    virtual uint64_t max_read_bytes() const { return 0; }
};

using MemoryBackendSlot = Slot<MemoryBackend, Simulator&, const BackendContext&>;
MemoryBackendSlot& memory_backend_slot();

}  // namespace zng
