// Shared by the flash_model tests: a small platform (YAML text -> zng_flash back end)
// and a requester that drives it through a real RequestPort, recording completions.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "flash_model/register.hpp"
#include "flash_model/controller/zng_flash_backend.hpp"
#include "sim/config/config_node.hpp"
#include "sim/mem/port.hpp"
#include "tests/support/at_tick.hpp"

namespace zng::flash::testing {

// Every clock of small_platform runs at 800 MHz: hand-computed times are whole cycles
// of 1250 ps plus tR / tPROG.
constexpr Tick kCycle = 1250;

struct Rig {
    Simulator sim;
    ConfigNode root;
    std::unique_ptr<MemoryBackend> backend;
    explicit Rig(const std::string& yaml) : root(parse_config_text(yaml, "test.yaml")) {
        register_flash_model_components();
        BackendContext ctx;
        ctx.root = &root;
        ctx.ports = 1;
        backend = memory_backend_slot().create(root.find("memory"), "memory", "zng_flash", sim, ctx);
    }
    ZngFlashBackend& zng() { return dynamic_cast<ZngFlashBackend&>(*backend); }
};

class Requester final : public MemRequester {
public:
    explicit Requester(Rig& rig) : rig_(rig), port_(*this, "test.port") { port_.bind(rig.backend->port(0)); }

    // Queues a request; sent at once if the back end accepts it, else after a retry.
    // first_bytes > 0: the part at first_offset is waited for first (critical word first).
    void issue(uint64_t paddr, uint32_t size, MemOp op, uint32_t first_offset = 0, uint32_t first_bytes = 0) {
        MemRequest* r = rig_.sim.requests().get();
        r->paddr = paddr;
        r->size = size;
        r->op = op;
        r->first_offset = first_offset;
        r->first_bytes = first_bytes;
        r->tag = next_tag_++;
        pending_.push_back(r);
        pump();
    }
    void recv_response(MemRequest* r, RequestPort&) override {
        if (r->first_piece) {
            first_at.resize(std::max<size_t>(first_at.size(), r->tag + 1), 0);
            first_at[r->tag] = rig_.sim.now();
            first_piece_addr = r->paddr;
            rig_.sim.requests().put(r);
            return;
        }
        done_at.resize(std::max<size_t>(done_at.size(), r->tag + 1), 0);
        done_at[r->tag] = rig_.sim.now();
        ++completed;
        rig_.sim.requests().put(r);
        if (on_done) on_done();
    }
    void recv_retry(RequestPort&) override { pump(); }

    std::vector<Tick> done_at;   // completion tick by issue order
    std::vector<Tick> first_at;  // arrival of the first part, by issue order (0: none)
    uint64_t first_piece_addr = 0;
    uint64_t completed = 0;
    std::function<void()> on_done;

private:
    void pump() {
        while (!pending_.empty() && !port_.waiting_retry()) {
            if (!port_.send(pending_.front())) return;
            pending_.erase(pending_.begin());
        }
    }
    Rig& rig_;
    RequestPort port_;
    std::vector<MemRequest*> pending_;
    uint64_t next_tag_ = 0;
};

// A small array whose clocks all share 800 MHz edges (1250 ps), so that hand-computed
// times need no edge rounding. Fields in braces are filled by each test.
inline std::string small_platform(const std::string& flash_extra, const std::string& memory_extra,
                                  int io_ports = 2, int planes = 8, int channels = 2, int dies = 1) {
    return "flash:\n"
           "  channels: " + std::to_string(channels) + "\n  packages_per_channel: 1\n  dies_per_package: " +
           std::to_string(dies) + "\n  planes_per_die: " +
           std::to_string(planes) + "\n"
           "  blocks_per_plane: 16\n  pages_per_block: 8\n  page_size: 4KiB\n"
           "  tR: 3us\n  tPROG: 100us\n  tBERS: 1ms\n  interface_rate: 800MT/s\n  io_port_width: 8B\n"
           "  command_cycles: 7\n  io_ports_per_package: " + std::to_string(io_ports) + "\n  registers_per_plane: 2\n" +
           flash_extra +
           "memory:\n  type: zng_flash\n  controller_clock: 800MHz\n  controller_latency: 4\n"
           "  log_blocks_per_plane: 4\n" +
           memory_extra;
}

// A statistic of the memory back end, by its name under "memory.".
inline double stat(Rig& rig, const std::string& name) { return rig.sim.stats().value("memory." + name); }

// Calls `f` at tick `when` (to look at the model in the middle of a run).
using Probe = zng::test::At;

inline const char* kMesh1x2 =
    "  network: {type: mesh, rows: 1, cols: 2, clock: 800MHz, link_width: 8B, header_bytes: 8B, "
    "max_packet: 4KiB, router_latency: 2}\n";

}  // namespace zng::flash::testing
