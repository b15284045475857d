// One NVMe SSD as the host (or a GPU) drives it: queue pairs of a fixed depth, the
// cost of submitting a command (the doorbell's MMIO write reaching the SSD, the SSD
// fetching the 64 B command), a device model behind the queues (SsdDevice), the data's
// DMA through the PCIe topology (SsdDataPath), and the cost of completing it (the SSD
// writing the completion-queue entry, then an interrupt or a poll seeing it).
//
// A read: submit -> +submission -> device -> DMA out of the SSD -> +completion -> done.
// A write: submit -> +submission -> DMA into the SSD while the device works -> the
// later of the two -> +completion -> done.
//
// Back-pressure (NVMe queues are rings of fixed size): a queue pair holds at most
// `queue_depth` commands from submission to completion; the issuer asks can_submit()
// and, refused, is called back through on_room when a completion frees a slot.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "sim/config/params.hpp"
#include "sim/core/timed_queue.hpp"
#include "storage/io_request.hpp"
#include "storage/ssd/ssd_device.hpp"

namespace zng::storage {

// Where an SSD's data goes: the PCIe topology. Returns when the last byte has arrived.
// `addr` is the data's address in that memory.
class SsdDataPath {
public:
    virtual ~SsdDataPath() = default;
    virtual Tick ssd_to_memory(uint32_t ssd, IoMemory to, Tick earliest, uint64_t bytes, uint64_t addr) = 0;
    virtual Tick memory_to_ssd(uint32_t ssd, IoMemory from, Tick earliest, uint64_t bytes, uint64_t addr) = 0;
};

enum class CompletionNotice : uint8_t { Interrupt, Polling };

struct NvmeSettings {
    uint32_t queue_pairs = 1;
    uint32_t queue_depth = 1024;
    Tick doorbell_latency = 0;       // MMIO write of the SQ tail doorbell, host/GPU -> SSD
    Tick command_fetch_latency = 0;  // the SSD reads the 64 B submission entry
    Tick completion_write_latency = 0;  // the SSD writes the 16 B completion entry
    CompletionNotice notice = CompletionNotice::Interrupt;
    Tick interrupt_latency = 0;      // MSI-X to the handler having read the entry
    Tick poll_latency = 0;           // a poller seeing the entry
    uint64_t lba_bytes = 512;

    Tick submission_cost() const { return doorbell_latency + command_fetch_latency; }
    Tick completion_cost() const {
        return completion_write_latency + (notice == CompletionNotice::Interrupt ? interrupt_latency : poll_latency);
    }

    // The keys (with the device section `device:`), their reader, and the catalogued
    // schema that `config describe` lists.
    static std::vector<ParamSpec> params();
    static const ComponentSchema& schema();
    static NvmeSettings read(const Params& p);
    static const std::string& device_key();
};

class NvmeSsd {
public:
    // `index` is the SSD's number in the topology.
    NvmeSsd(Simulator& sim, uint32_t index, const NvmeSettings& s, std::unique_ptr<SsdDevice> device,
            SsdDataPath& path);

    bool can_submit(uint32_t queue) const { return outstanding_.at(queue) < s_.queue_depth; }
    // Issues r on queue pair r.queue (which must have room). r.done is called at its
    // completion with the request, stamped.
    void submit(IoRequest r);
    // Called after a completion has freed a slot of `queue`.
    void set_on_room(std::function<void(uint32_t queue)> f) { on_room_ = std::move(f); }

    uint32_t index() const { return index_; }
    const NvmeSettings& settings() const { return s_; }
    uint64_t capacity_bytes() const { return device_->capacity_bytes(); }
    uint64_t lba_bytes() const { return s_.lba_bytes; }
    uint32_t outstanding(uint32_t queue) const { return outstanding_.at(queue); }
    SsdDevice& device() { return *device_; }
    const SsdDevice& device() const { return *device_; }
    uint64_t commands() const { return commands_; }
    uint64_t bytes_read() const { return bytes_read_; }
    uint64_t bytes_written() const { return bytes_written_; }

private:
    struct Command {
        IoRequest io;
        Tick dma_end = 0;  // a write's data is in the SSD
    };
    void fetched(uint32_t c);
    void device_done(uint32_t c);
    void complete(uint32_t c);

    Simulator& sim_;
    uint32_t index_;
    NvmeSettings s_;
    std::unique_ptr<SsdDevice> device_;
    SsdDataPath& path_;
    std::vector<uint32_t> outstanding_;  // per queue pair
    std::vector<Command> cmds_;
    std::vector<uint32_t> free_cmds_;
    std::function<void(uint32_t)> on_room_;
    TimedQueue<uint32_t> started_;   // commands whose submission cost has passed
    TimedQueue<uint32_t> finished_;  // commands whose completion the issuer sees
    uint64_t commands_ = 0, bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace zng::storage
