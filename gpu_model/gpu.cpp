#include "gpu_model/gpu.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "gpu_model/common/stat_sums.hpp"
#include "gpu_model/tlb/translation_client.hpp"

namespace zng::gpu {

namespace {
using namespace param_kind;
const auto kClock = Param<Frequency>("clock", "1.2GHz", "core clock of SMs, crossbar and L2").range(1e6, 1e11);
const auto kSms = Param<UInt32>("sms", "16", "streaming multiprocessors").range(1, WarpMask::kMaxWarps);
const Param<Section> kSm{"sm", "", "SM parameters (see gpu.sm)"};
const Param<Section> kScheduler{"scheduler", "", "warp scheduler (slot warp_scheduler: gto | lrr)"};
const Param<Section> kL1d{"l1d", "", "per-SM L1 data cache (see gpu.l1d)"};
const Param<Section> kL1Tlb{"l1_tlb", "", "per-SM L1 TLB (see gpu.l1_tlb)"};
const Param<Section> kMmu{"mmu", "", "shared MMU: L2 TLB, page walker, walk cache (see gpu.mmu)"};
const Param<Section> kXbar{"xbar", "", "crossbar SMs <-> L2 banks (see gpu.xbar)"};
const Param<Section> kL2{"l2", "", "shared L2 (see gpu.l2)"};

std::string sub(const std::string& a, const std::string& b) { return a.empty() ? b : a + "." + b; }
}  // namespace

const ComponentSchema& Gpu::schema() {
    static const ComponentSchema s{
        .slot = "gpu",
        .name = "gpu",
        .description = "the GPU: SMs, L1 TLBs and L1D caches, shared MMU, crossbar, L2 banks",
        .params = {kClock, kSms, kSm, kScheduler, kL1d, kL1Tlb, kMmu, kXbar, kL2},
        .ports = {"memory_port(b): one request port per L2 bank, bound to the memory back end"}};
    return s;
}

Gpu::Gpu(Simulator& sim, const ConfigNode* gpu_section, AddressTranslator& translator, std::vector<AppSpec> apps,
         const std::string& name)
    : sim_(sim), name_(name) {
    const std::string path = gpu_section && !gpu_section->path().empty() ? gpu_section->path() : "gpu";
    Params p(gpu_section, schema(), path);
    // The parameters of a nested section, checked against the schema of its component.
    auto section = [&](const Param<Section>& key, const ComponentSchema& schema) {
        return Params(p[key], schema, sub(path, key.key()));
    };
    clock_ = ClockDomain(name + "-clock", p[kClock]);
    const uint32_t nsms = p[kSms];
    const SmConfig sm_cfg = SmConfig::from(section(kSm, SmConfig::schema()));
    const L1Config l1_cfg = L1Config::from(section(kL1d, L1Config::schema()));
    const L1TlbConfig tlb_cfg = L1TlbConfig::from(section(kL1Tlb, L1TlbConfig::schema()));
    const MmuConfig mmu_cfg = MmuConfig::from(section(kMmu, MmuConfig::schema()));
    const CrossbarConfig xbar_cfg = CrossbarConfig::from(section(kXbar, CrossbarConfig::schema()));
    const L2Config l2_cfg = L2Config::from(section(kL2, L2Config::schema()));
    const ConfigNode* sched_section = p[kScheduler];
    const std::string sched_path = sub(path, kScheduler.key());
    // Fail on a bad scheduler section now, not at the first SM.
    warp_scheduler_slot().create(sched_section, sched_path, "gto", SchedulerContext{sm_cfg.max_warps});
    if (translator.page_size() < l1_cfg.line || translator.page_size() < l2_cfg.line)
        throw ConfigError(fmt::format("{}: page size {} B is smaller than a cache line", p.where(kL1d.key()),
                                      translator.page_size()));

    StatGroup g(sim.stats(), name);
    latency_ = std::make_unique<RequestLatencyStats>(g.sub("mem_latency"));
    mmu_ = std::make_unique<Mmu>(sim, name + ".mmu", clock_, mmu_cfg, translator, nsms);
    auto make_scheduler = [&] {
        return warp_scheduler_slot().create(sched_section, sched_path, "gto", SchedulerContext{sm_cfg.max_warps});
    };
    for (uint32_t i = 0; i < nsms; ++i)
        sms_.push_back(std::make_unique<StreamingMultiprocessor>(sim, name + ".sm" + std::to_string(i), clock_, i,
                                                                 sm_cfg, l1_cfg, tlb_cfg, *mmu_, *latency_,
                                                                 make_scheduler));
    l2_ = std::make_unique<L2Cache>(sim, name + ".l2", clock_, l2_cfg);
    const L2AddressMap* map = &l2_->map();
    xbar_ = std::make_unique<Crossbar>(sim, name + ".xbar", clock_, xbar_cfg, nsms, l2_cfg.banks,
                                       [map](uint64_t paddr) { return map->bank(paddr); });
    for (uint32_t i = 0; i < nsms; ++i) sms_[i]->port().bind(xbar_->source_port(i));
    for (uint32_t b = 0; b < l2_cfg.banks; ++b) xbar_->sink_port(b).bind(l2_->bank(b).cpu_port());

    // Applications and their SMs.
    // No application is allowed: `zngsim config validate` builds a platform to check it.
    if (apps.size() > 256) throw ConfigError("gpu: at most 256 applications run together");
    if (apps.size() > nsms)
        throw ConfigError(fmt::format("gpu: {} applications cannot share {} SMs", apps.size(), nsms));
    std::vector<int> owner(nsms, -1);
    for (size_t a = 0; a < apps.size(); ++a) {
        if (!apps[a].trace) throw ConfigError("gpu: application '" + apps[a].name + "' has no trace");
        for (uint32_t s : apps[a].sms) {
            if (s >= nsms)
                throw ConfigError(fmt::format("gpu: application '{}' is given SM {}, but the GPU has {} SMs",
                                              apps[a].name, s, nsms));
            if (owner[s] != -1)
                throw ConfigError(fmt::format("gpu: SM {} is given to both '{}' and '{}'", s,
                                              apps[static_cast<size_t>(owner[s])].name, apps[a].name));
            owner[s] = static_cast<int>(a);
        }
    }
    std::vector<uint32_t> free_sms;
    for (uint32_t s = 0; s < nsms; ++s)
        if (owner[s] == -1) free_sms.push_back(s);
    size_t automatic = std::count_if(apps.begin(), apps.end(), [](const AppSpec& a) { return a.sms.empty(); });
    if (automatic > free_sms.size())
        throw ConfigError(fmt::format("gpu: {} applications without an SM list share only {} unassigned SMs",
                                      automatic, free_sms.size()));
    std::set<std::string> names;
    size_t k = 0;
    for (size_t a = 0; a < apps.size(); ++a) {
        std::vector<uint32_t> ids = apps[a].sms;
        if (ids.empty()) {
            // Equal split of the unassigned SMs, contiguous ranges in id order.
            size_t lo = k * free_sms.size() / automatic, hi = (k + 1) * free_sms.size() / automatic;
            ids.assign(free_sms.begin() + static_cast<long>(lo), free_sms.begin() + static_cast<long>(hi));
            ++k;
        }
        std::sort(ids.begin(), ids.end());
        std::vector<StreamingMultiprocessor*> mine;
        for (uint32_t s : ids) mine.push_back(sms_[s].get());
        std::string app_name = apps[a].name.empty() ? "app" + std::to_string(a) : apps[a].name;
        if (!names.insert(app_name).second) app_name += "_" + std::to_string(a);
        names.insert(app_name);
        apps_.push_back(std::make_unique<AppRunner>(sim, clock_, static_cast<uint16_t>(a), app_name,
                                                    std::move(apps[a].trace), std::move(mine),
                                                    g.sub("app").sub(app_name),
                                                    [this](AppRunner& r) { app_finished(r); }));
    }
    apps_left_ = static_cast<uint32_t>(apps_.size());
    // Time series (run.stats_interval): each application's requests from its SMs' L1Ds
    // to the L2 in every interval (paper Fig. 17b).
    for (auto& a : apps_) {
        auto last = std::make_shared<uint64_t>(0);
        const AppRunner* app = a.get();
        sim.stats().add_series_column(g.sub("app").sub(app->name()).full("memory_requests"), [app, last] {
            uint64_t n = 0;
            for (const StreamingMultiprocessor* sm : app->sms()) n += sm->l1d().requests_sent();
            const uint64_t delta = n - *last;
            *last = n;
            return static_cast<double>(delta);
        });
    }

    // Whole-GPU stats.
    cycles_stat_ = &g.counter("cycles", "GPU cycles until the last application finished", "cycles");
    g.formula("instructions", "warp instructions issued, all applications", "instructions",
              [this] { return static_cast<double>(instructions()); });
    g.formula("ipc", "warp instructions per GPU cycle until the last application finished", "instr/cycle", [this] {
        return end_cycle_ ? static_cast<double>(instructions()) / static_cast<double>(end_cycle_) : 0.0;
    });
    std::vector<std::string> l1s, tlbs;
    for (auto& sm : sms_) {
        l1s.push_back(sm->name() + ".l1d");
        tlbs.push_back(sm->name() + ".l1_tlb");
    }
    StatGroup l1g = g.sub("l1d");
    auto h = add_sum_formula(l1g, "hits", "L1D load hits, all SMs", l1s, "hits");
    auto m = add_sum_formula(l1g, "misses", "L1D misses that fetched a line, all SMs", l1s, "misses");
    auto mg = add_sum_formula(l1g, "merges", "L1D misses merged into an MSHR, all SMs", l1s, "merges");
    add_ratio_formula(l1g, "hit_rate", "L1D load hits / lookups", h, {m, mg});
    add_sum_formula(l1g, "reservation_fails", "L1D accesses refused, all SMs", l1s, "reservation_fails");
    StatGroup tg = g.sub("l1_tlb");
    auto th = add_sum_formula(tg, "hits", "L1 TLB hits, all SMs", tlbs, "hits");
    auto tm = add_sum_formula(tg, "misses", "L1 TLB misses, all SMs", tlbs, "misses");
    auto tmg = add_sum_formula(tg, "merges", "L1 TLB merged misses, all SMs", tlbs, "merges");
    add_ratio_formula(tg, "hit_rate", "L1 TLB hits / lookups", th, {tm, tmg});
}

Gpu::~Gpu() = default;

void Gpu::start() {
    if (started_) throw SimError(name_ + ": started twice");
    for (uint32_t b = 0; b < l2_->banks(); ++b)
        if (!l2_->bank(b).mem_port().bound())
            throw SimError(name_ + ": L2 bank " + std::to_string(b) + " has no memory back end bound");
    started_ = true;
    for (auto& a : apps_) a->start();
}

uint64_t Gpu::instructions() const {
    uint64_t n = 0;
    for (const auto& a : apps_) n += a->instructions();
    return n;
}

ProgressInfo Gpu::progress() const { return ProgressInfo{instructions(), 0}; }

std::vector<AppResult> Gpu::results() const {
    std::vector<AppResult> out;
    for (const auto& a : apps_) {
        AppResult r;
        r.name = a->name();
        r.instructions = a->instructions();
        r.finished = a->finished();
        r.cycles = a->finish_cycle();
        r.ipc = r.cycles ? static_cast<double>(r.instructions) / static_cast<double>(r.cycles) : 0.0;
        out.push_back(r);
    }
    return out;
}

void Gpu::close_window() {
    if (apps_left_ == 0) return;  // every application finished: its cycles are counted
    for (const auto& r : apps_) {
        r->close_window();
        end_cycle_ = std::max(end_cycle_, r->finish_cycle());
    }
    *cycles_stat_ += end_cycle_;
}

void Gpu::app_finished(AppRunner& a) {
    (void)a;
    if (--apps_left_ > 0) return;
    for (const auto& r : apps_) end_cycle_ = std::max(end_cycle_, r->finish_cycle());
    *cycles_stat_ += end_cycle_;
    drain_check();
}

bool Gpu::quiescent() const {
    for (const auto& sm : sms_)
        if (sm->requests_in_flight() || sm->l1d().in_flight()) return false;
    return xbar_->in_flight() == 0 && l2_->idle() && mmu_->walks_in_flight() == 0 && mmu_->lookups_in_flight() == 0 &&
           (!backend_drained_ || backend_drained_());
}

void Gpu::drain_check() {
    // Write-backs evicted late may still be on their way to memory, and the back end may
    // still run work of its own (a merge): let them end, so the run ends with nothing in
    // flight.
    if (!quiescent()) {
        sim_.schedule(drain_ev_, clock_.edge_after(sim_.now(), 64));
        return;
    }
    done_ = true;
    for (auto& sm : sms_) sm->flush_stats();
    l2_->flush_stats();
    sim_.stop();
}

void Gpu::check_invariants() const {
    auto fail = [this](const std::string& what) { throw SimError(name_ + ": end-of-run check failed: " + what); };
    for (const auto& a : apps_) {
        if (!a->finished()) fail("application '" + a->name() + "' did not finish");
        if (a->requests_in_flight()) fail("application '" + a->name() + "' has requests in flight");
    }
    uint64_t sm_instructions = 0;
    for (const auto& sm : sms_) {
        const std::string& n = sm->name();
        if (sm->requests_in_flight()) fail(fmt::format("{} has {} requests in flight", n, sm->requests_in_flight()));
        if (sm->resident_ctas()) fail(fmt::format("{} still holds {} CTAs", n, sm->resident_ctas()));
        if (sm->instructions() != sm->decoded_instructions())
            fail(fmt::format("{} issued {} instructions but its trace records hold {}", n, sm->instructions(),
                             sm->decoded_instructions()));
        if (sm->bytes_requested() != sm->bytes_delivered())
            fail(fmt::format("{} requested {} B but was delivered {} B", n, sm->bytes_requested(),
                             sm->bytes_delivered()));
        if (sm->l1d().in_flight() || sm->l1d().mshrs_in_use())
            fail(fmt::format("{} L1D still has {} requests / {} MSHRs in use", n, sm->l1d().in_flight(),
                             sm->l1d().mshrs_in_use()));
        sm_instructions += sm->instructions();
    }
    if (sm_instructions != instructions())
        fail(fmt::format("SMs issued {} instructions, applications counted {}", sm_instructions, instructions()));
    if (xbar_->in_flight()) fail(fmt::format("{} packets still in the crossbar", xbar_->in_flight()));
    if (!l2_->idle()) fail("the L2 still has requests queued or in flight");
    if (mmu_->walks_in_flight() || mmu_->lookups_in_flight()) fail("the MMU still has translations in flight");
}

}  // namespace zng::gpu
