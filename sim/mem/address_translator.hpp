// Virtual -> physical translation policy behind the GPU's MMU (slot "translation").
// The MMU (TLBs, page walker, walk cache) models the timing of finding a translation;
// the translator owns the mapping itself:
//   - first_touch: a physical frame allocated on first use (ideal, optane, hybridgpu);
//   - ZnG's zero-overhead FTL: the page table is the data-block mapping table (DBMT),
//     so the physical address is a flash physical address;
//   - Hetero: pages live on a host SSD until a fault brings them into GPU memory.
// Addresses are per application (separate address spaces); physical addresses are
// shared by all applications. A translator offers what else it implements (a flush hook,
// a log-block map, a resident-page tracker) by name: interface_provider.hpp.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "sim/config/registry.hpp"
#include "sim/core/simulator.hpp"
#include "sim/mem/interface_provider.hpp"

namespace zng {

class AddressTranslator : public InterfaceProvider {
public:
    ~AddressTranslator() override = default;
    // Translation granule in bytes (a power of two).
    virtual uint64_t page_size() const = 0;
    // Fast path, called by the page walker once the walk's timing is paid: true and
    // the physical page number if the page is mapped (or can be mapped at once).
    virtual bool translate(uint16_t app, uint64_t vpn, uint64_t& ppn) = 0;
    // Slow path when translate() returned false (a fault): serve it (host interrupt,
    // SSD read, PCIe copy...) and call done(ppn) when the page is usable.
    using FaultDone = std::function<void(uint64_t ppn)>;
    virtual void resolve_fault(uint16_t app, uint64_t vpn, FaultDone done) = 0;
    // The MMU installs this so the translator can shoot down TLB entries of pages it
    // unmaps (eviction, migration).
    using Shootdown = std::function<void(uint16_t app, uint64_t vpn)>;
    void set_shootdown(Shootdown s) { shootdown_ = std::move(s); }
    // Units of work this translator has finished off the demand path (ZnG's garbage-
    // collection merges). The run's progress watchdog counts them beside retired warp
    // instructions: applications held by merges that keep ending are slow, not stuck.
    virtual uint64_t background_work_done() const { return 0; }
    // What that background work is doing now, for a stopped run's report (empty: none).
    virtual std::string background_work_state() const { return {}; }

protected:
    Shootdown shootdown_;
};

// Whether bytes [first, last] of application `app`'s virtual address space lie in its
// data set (the arrays its trace declares), so that a translator can tell the pages that
// hold data from those never allocated. An application that declares no arrays, or an
// empty query, counts every page as data.
using DataSetQuery = std::function<bool(uint16_t app, uint64_t first, uint64_t last)>;

struct TranslatorContext {
    const ConfigNode* root = nullptr;  // whole resolved config
    uint32_t apps = 0;                 // co-running applications (ids 0..apps-1); 0 when not known
    DataSetQuery in_data_set;
    // The control plane of the platform's `storage:` section, null without one. A
    // translator whose misses go to storage (Hetero's page faults) asks it for the
    // interface it drives, so that its SSDs and links are the node's, not its own.
    InterfaceProvider* storage_plane = nullptr;
};

using TranslatorSlot = Slot<AddressTranslator, Simulator&, const TranslatorContext&>;
TranslatorSlot& translator_slot();

}  // namespace zng
