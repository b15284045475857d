// One I/O as the host storage path carries it: an NVMe read or write of `bytes` at a
// logical block address, with the memory its data lands in (or comes from), the
// issuer's tag and a completion callback. The issuer hands it over by value; the
// component that holds it calls `done` once, when the issuer sees the completion
// (after the completion-queue entry and the interrupt or poll), and stamps the
// stages on the way so that a run can print where an I/O's time went.
#pragma once
#include <cstdint>
#include <functional>

#include "sim/core/tick.hpp"

namespace zng::storage {

enum class IoOp : uint8_t { Read, Write };

// The memory an I/O's data crosses to or from: GPU memory (peer-to-peer or through a
// host bounce buffer, as the PCIe topology routes it) or host DRAM.
enum class IoMemory : uint8_t { Gpu, Host };

struct IoRequest {
    IoOp op = IoOp::Read;
    uint64_t lba = 0;    // first logical block (of the device or array it is sent to)
    uint64_t bytes = 0;  // a whole number of logical blocks
    IoMemory memory = IoMemory::Gpu;
    uint64_t dest = 0;   // address in `memory` (reads land there, writes come from there)
    uint64_t tag = 0;    // the issuer's
    uint32_t queue = 0;  // the submission/completion queue pair it is issued on
    uint32_t ssd = 0;    // the SSD (direct placement; a RAID0 array ignores it)
    using Done = std::function<void(IoRequest&)>;
    Done done;

    // Stage timestamps, set by the components it passes.
    Tick submitted = 0;    // doorbell rung
    Tick fetched = 0;      // the SSD has fetched the command
    Tick device_done = 0;  // data read from flash / write accepted by the device
    Tick completed = 0;    // the issuer sees the completion

    bool is_write() const { return op == IoOp::Write; }
};

}  // namespace zng::storage
