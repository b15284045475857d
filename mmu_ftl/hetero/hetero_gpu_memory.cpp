#include "mmu_ftl/hetero/hetero_gpu_memory.hpp"
#include "sim/mem/address_translator.hpp"

#include <fmt/format.h>


namespace zng::ftl {
namespace {
const Param<param_kind::Section> kDram{
    "dram", "", "the GPU memory itself (a memory back end: type gddr5 | optane | fixed_latency ...; default gddr5)"};
}  // namespace

namespace {

ResidentPageTracker& host_translator(const Params& p, const BackendContext& ctx) {
    auto* h = ctx.translator ? ctx.translator->find_interface<ResidentPageTracker>() : nullptr;
    if (!h)
        p.fail("type", "hetero_gpu_memory reports GPU-memory accesses to the hetero_host translator; set "
                       "translation.type: hetero_host");
    return *h;
}

}  // namespace

const ComponentSchema& HeteroGpuMemory::schema() {
    static const ComponentSchema s = [] {
        ComponentSchema c;
        c.name = "hetero_gpu_memory";
        c.description =
            "Hetero's GPU memory: the memory in `dram:` (GDDR5 by default), with every access reported to the "
            "hetero_host translator (LRU order, dirty pages written back to the host SSD on eviction).";
        c.params = {kDram};
        c.ports = {"port<i>: one response port per L2 bank, forwarded to the inner memory's port<i>"};
        return c;
    }();
    return s;
}

HeteroGpuMemory::HeteroGpuMemory(Simulator& sim, const Params& p, const BackendContext& ctx)
    : host_(host_translator(p, ctx)),
      inner_(memory_backend_slot().create(p[kDram], p.path() + "." + kDram.key(), "gddr5", sim, ctx)),
      reads_(sim.stats().counter(p.path() + ".reported_reads", "GPU-memory reads reported to the translator", "requests")),
      writes_(sim.stats().counter(p.path() + ".reported_writes",
                                  "GPU-memory writes and atomics reported to the translator (pages turn dirty)", "requests")) {
    if (inner_->capacity_bytes() < host_.gpu_memory_bytes())
        p.fail(kDram.key(), fmt::format("the GPU memory serves {} B but translation.gpu_memory places pages in {} B",
                                   inner_->capacity_bytes(), host_.gpu_memory_bytes()));
    if (inner_->num_ports() != ctx.ports)
        p.fail(kDram.key(), fmt::format("the inner memory has {} ports for {} L2 banks", inner_->num_ports(), ctx.ports));
    for (uint32_t i = 0; i < ctx.ports; ++i) {
        from_l2_.push_back(std::make_unique<ResponsePort>(*this, fmt::format("{}.port{}", p.path(), i)));
        from_l2_.back()->index = i;
        to_inner_.push_back(std::make_unique<RequestPort>(*this, fmt::format("{}.to_dram{}", p.path(), i)));
        to_inner_.back()->bind(inner_->port(i));
    }
}

bool HeteroGpuMemory::recv_request(MemRequest* r, ResponsePort& port) {
    if (!to_inner_[port.index]->send(r)) return false;  // the inner memory's retry reaches recv_retry
    const bool write = is_write_op(r->op) || r->op == MemOp::Atomic;  // an atomic modifies the page
    ++(write ? writes_ : reads_);
    host_.note_access(r->paddr, write);
    return true;
}

void HeteroGpuMemory::recv_response(MemRequest* r, RequestPort&) { send_response(r); }

void HeteroGpuMemory::recv_retry(RequestPort& port) {
    // Port i forwards to inner port i: find which one is free again.
    for (uint32_t i = 0; i < to_inner_.size(); ++i)
        if (to_inner_[i].get() == &port) {
            from_l2_[i]->retry();
            return;
        }
}

}  // namespace zng::ftl
