#include "storage/control/cpu_managed_plane.hpp"

#include <algorithm>
#include <deque>
#include <map>

#include "sim/core/errors.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;

// The keys of every CPU-managed plane; the defaults are each plane's (below).
struct Defaults {
    const char* description;
    const char* gpu_signal;
    bool poll;
    const char* data;
    const char* copy_call;
    const char* host_signal;
    const char* threads = "0";
    const char* call = "0ns";
    bool synchronous = false;
    const char* assign = "by_ssd";
};

// Seed 000 III-B: the GPU threads "fill the first region with logical block addresses"
// in host memory and "the leading thread also writes a signal to the third region,
// informing the CPU polling thread"; "this region will be written to by the CPU polling
// thread once it has fully processed all requests" (the fourth region, in GPU memory,
// which the GPU's leading thread polls). Each is a posted PCIe write across the GPU's
// link and the root complex; 1 us for a write and the reader seeing it is an assumption
// (two PCIe link traversals of ~500 ns, as the links' latencies here).
//
// Seed 000 II-A: with a host bounce buffer "the cudaMemcpyAsync function needs to be
// called multiple times" when the destination is not contiguous; at 4 KB, 1.3 GB/s, of
// which "cudaMemcpyAsync costs 78% of the total time": 4096 B / 1.3 GB/s = 3.15 us per
// request, 78% of it 2.46 us per copy call. (Fig. 16's 4 KB point is this figure's
// source, so it checks consistency there, not a prediction.)
const Defaults kCam{"CAM (seed 000 III): GPU threads write a batch of LBAs and a flag into host memory; a CPU "
                    "polling thread picks it up and a pool of SPDK threads (one queue pair per SSD per thread) "
                    "issues the commands; data peer-to-peer; a completion flag back to the GPU.",
                    "1us", true, "peer_to_peer", "0ns", "1us"};
const Defaults kSpdk{"SPDK driven by the host: user-space NVMe commands from a thread pool into a host bounce "
                     "buffer, then a cudaMemcpyAsync per contiguous run of destinations.",
                     "0ns", false, "host_bounce", "2460ns", "0ns"};
const Defaults kPosix{"POSIX I/O: pread/pwrite through the kernel's I/O stack (the host CPU's posix cost per "
                      "command) into a host bounce buffer, then a cudaMemcpyAsync per contiguous run.",
                      "0ns", false, "host_bounce", "2460ns", "0ns", "0", "0ns", false, "round_robin"};
// Seed 000 IV-E: "GDS relies on a complex file system to deal with the EXT4 File
// System, NVFS Management, and CUDA library-related tasks. These I/O unrelated
// operations account for 70% of the total processing time." Taken per call at 4 KB:
// an I/O of ~86 us at QD1 (P5510 read 82 us plus NVMe and PCIe) is 30% of a call,
// so the rest is 0.7 / 0.3 x 86 us = 200 us of CPU time per call (an assumption: the
// seed's share comes from GEMM's larger blocks). cuFileRead is synchronous. Threads:
// one per issuing core of Table III's 2 x 52 (assumption: the seed gives no count).
const Defaults kGds{"GPUDirect Storage: host threads call cuFileRead (file system, nvidia-fs and CUDA work per "
                    "call, synchronous), the command's data peer-to-peer into GPU memory.",
                    "0ns", false, "peer_to_peer", "0ns", "0ns", "51", "200us", true, "round_robin"};

struct Keys {
    Param<Time> gpu_signal;
    Param<Bool> poll;
    Param<UInt32> threads;
    Param<Choice> data;
    Param<Time> copy_call;
    Param<Time> host_signal;
    Param<Time> call;
    Param<Bool> synchronous;
    Param<Choice> assign;
    explicit Keys(const Defaults& d)
        : gpu_signal("gpu_signal_latency", d.gpu_signal,
                     "GPU threads' LBAs and the leading thread's flag reaching host memory (0: the host knows the "
                     "requests itself)"),
          poll("poll_pickup", d.poll ? "true" : "false",
               "the CPU polling thread picks a batch up on its next pass (host_cpu.poll_interval)"),
          threads(Param<UInt32>("threads", d.threads,
                                "CPU threads issuing commands, each with a queue pair on every SSD and SSD s on "
                                "thread s mod threads (0: between ceil(N/4) and ceil(N/2) for N SSDs from the last "
                                "batch's compute and I/O times, as CAM sizes its pool)")
                      .range(0, 4096)),
          data(Param<Choice>("data", d.data,
                             "peer_to_peer into GPU memory, or host_bounce: a host buffer, then a copy per "
                             "contiguous run of destinations")
                   .choices({"peer_to_peer", "host_bounce"})),
          copy_call("copy_call_cost", d.copy_call,
                    "CPU time of one host<->GPU copy call, serialised on the copying thread (seed 000 II-A: "
                    "cudaMemcpyAsync is 78% of 3.15 us per 4 KB request)"),
          host_signal("host_signal_latency", d.host_signal,
                      "the host's completion flag reaching GPU memory and the polling GPU thread seeing it"),
          call("call_cost", d.call,
               "CPU time of the API call wrapping each command beyond the I/O stack's (GDS: cuFile's file system, "
               "nvidia-fs and CUDA work)"),
          synchronous("synchronous_calls", d.synchronous ? "true" : "false",
                      "a thread waits for its command to complete before its next call (cuFileRead)"),
          assign(Param<Choice>("assign", d.assign,
                               "by_ssd: SSD s is thread s mod threads' (one queue pair per SSD per thread); "
                               "round_robin: requests go to the threads in turn")
                     .choices({"by_ssd", "round_robin"})) {}
    std::vector<ParamSpec> specs() const {
        std::vector<ParamSpec> v = ControlPlane::common_params();
        for (const ParamSpec& p :
             std::vector<ParamSpec>{gpu_signal, poll, threads, data, copy_call, host_signal, call, synchronous, assign})
            v.push_back(p);
        return v;
    }
};
const Keys& keys() {
    static const Keys k(kCam);
    return k;
}
}  // namespace

const ComponentSchema& CpuManagedSettings::schema(const std::string& name) {
    static std::map<std::string, ComponentSchema> schemas;
    auto it = schemas.find(name);
    if (it != schemas.end()) return it->second;
    const Defaults& d = name == "cam"     ? kCam
                        : name == "spdk"  ? kSpdk
                        : name == "posix" ? kPosix
                        : name == "gds"   ? kGds
                                          : throw SimError("no CPU-managed plane '" + name + "'");
    const Keys k(d);
    ComponentSchema c;
    c.name = name;
    c.description = d.description;
    c.params = k.specs();
    return schemas.emplace(name, std::move(c)).first->second;
}

CpuManagedSettings CpuManagedSettings::read(const Params& p) {
    const Keys& k = keys();
    CpuManagedSettings s;
    s.max_in_flight = ControlPlane::read_max_in_flight(p);
    s.gpu_signal_latency = p[k.gpu_signal];
    s.poll_pickup = p[k.poll];
    s.threads = p[k.threads];
    s.data = p[k.data] == "host_bounce" ? PlaneData::HostBounce : PlaneData::PeerToPeer;
    s.copy_call_cost = p[k.copy_call];
    s.host_signal_latency = p[k.host_signal];
    s.call_cost = p[k.call];
    s.synchronous_calls = p[k.synchronous];
    s.round_robin = p[k.assign] == "round_robin";
    return s;
}

CpuManagedPlane::CpuManagedPlane(const StoragePath& path, const CpuManagedSettings& s)
    : ControlPlane(path, s.max_in_flight), s_(s),
      picked_up_(path.sim, [this](uint32_t& b) { start(b); }, "plane-pickup"),
      copied_(path.sim,
              [this](uint64_t& br) {
                  Batch& bt = batches_[br >> 32];
                  bt.left -= bt.runs[br & 0xffffffffu].count;
                  if (bt.left == 0) batch_done(static_cast<uint32_t>(br >> 32));
              },
              "plane-copy"),
      issued_(path.sim,
              [this](uint64_t& bi) {
                  const uint32_t b = static_cast<uint32_t>(bi >> 32), i = static_cast<uint32_t>(bi);
                  const Item& it = batches_[b].items[i];
                  const bool host = batches_[b].in_host || s_.data == PlaneData::HostBounce;
                  IoRequest cmd = ControlPlane::command(it.io, host ? IoMemory::Host : IoMemory::Gpu);
                  cmd.queue = it.thread;  // each thread its own queue pair on every SSD
                  cmd.done = [this, b, i](IoRequest&) { command_done(b, i); };
                  issue(std::move(cmd));
              },
              "plane-issue"),
      seen_(path.sim, [this](uint32_t& b) { notified(b); }, "plane-seen") {
    if (s.threads > path.host.issuing_cores())
        throw SimError("control plane: " + std::to_string(s.threads) + " threads but the host CPU has " +
                       std::to_string(path.host.issuing_cores()) + " issuing cores");
    threads_ = s.threads ? s.threads : max_threads();
    thread_state_.resize(std::max(threads_, max_threads()));
    if (threads_ > path.array.ssd(0).settings().queue_pairs)
        throw SimError("control plane: " + std::to_string(threads_) + " threads need a queue pair each on every "
                       "SSD, and the SSDs have " + std::to_string(path.array.ssd(0).settings().queue_pairs));
}

uint32_t CpuManagedPlane::min_threads() const {
    return std::min(p_.host.issuing_cores(), std::max(1u, (p_.array.size() + 3) / 4));
}
uint32_t CpuManagedPlane::max_threads() const {
    return std::min(p_.host.issuing_cores(), std::max(1u, (p_.array.size() + 1) / 2));
}

void CpuManagedPlane::submit(const StorageIoBatch& batch, StorageIoClient& client) { take(batch, client, false); }

void CpuManagedPlane::submit_in_host(const StorageIoBatch& batch, StorageIoClient& client) {
    take(batch, client, true);
}

void CpuManagedPlane::take(const StorageIoBatch& batch, StorageIoClient& client, bool in_host) {
    taken(batch.count);
    uint32_t b;
    if (!free_batches_.empty()) {
        b = free_batches_.back();
        free_batches_.pop_back();
    } else {
        b = static_cast<uint32_t>(batches_.size());
        batches_.emplace_back();
    }
    Batch& bt = batches_[b];
    const Tick now = p_.sim.now();
    bt.client = &client;
    bt.taken = now;
    bt.compute = now > last_done_ ? now - last_done_ : 0;
    bt.left = batch.count;
    bt.in_host = in_host;
    bt.items.clear();
    bt.runs.clear();
    // Runs: lanes whose destinations follow one another (and that move the same way).
    for (uint32_t i = 0; i < batch.count; ++i) {
        const StorageIo& io = batch.ios[i];
        const bool extends = i > 0 && io.write == batch.ios[i - 1].write &&
                             io.dest == batch.ios[i - 1].dest + batch.ios[i - 1].bytes;
        if (!extends) bt.runs.push_back({0, 0, i, 0});
        Run& r = bt.runs.back();
        r.bytes += io.bytes;
        ++r.left;
        ++r.count;
        bt.items.push_back({io, static_cast<uint32_t>(bt.runs.size() - 1)});
    }
    Tick rung = now + s_.gpu_signal_latency;
    if (s_.poll_pickup) rung = p_.host.polled(rung);
    bt.rung = rung;
    picked_up_.push(b, rung);
}

void CpuManagedPlane::start(uint32_t b) {
    Batch& bt = batches_[b];
    const Tick now = p_.sim.now();
    for (uint32_t r = 0; r < bt.runs.size(); ++r) {
        const Run& run = bt.runs[r];
        Tick at = now;
        // A bounced write's data goes to the host buffer first, one copy per run.
        if (s_.data == PlaneData::HostBounce && !bt.in_host && bt.items[run.first].io.write) {
            copier_free_ = std::max(copier_free_, now) + s_.copy_call_cost;
            at = p_.pcie.gpu_to_host(copier_free_, run.bytes, bt.items[run.first].io.dest);
            ++copies_;
        }
        for (uint32_t i = run.first; i < run.first + run.count; ++i) command(b, i, at);
    }
}

void CpuManagedPlane::command(uint32_t b, uint32_t item, Tick at) {
    Item& it = batches_[b].items[item];
    const IoRequest cmd = ControlPlane::command(it.io, IoMemory::Gpu);
    it.thread = s_.round_robin ? static_cast<uint32_t>(next_thread_++ % threads_) : ssd_of(cmd) % threads_;
    Thread& th = thread_state_[it.thread];
    if (s_.synchronous_calls && (th.busy || !th.waiting.empty())) {
        th.waiting.emplace_back(b, item);
        return;
    }
    call(it.thread, b, item, at);
}

void CpuManagedPlane::call(uint32_t thread, uint32_t b, uint32_t item, Tick at) {
    Thread& th = thread_state_[thread];
    th.busy = s_.synchronous_calls;
    // The stack's command cost on the core, then the call's own work on the same thread.
    const Tick stack_done = p_.host.run_on(thread, std::max(at, th.free), 1);
    th.free = stack_done + s_.call_cost;
    issued_.push(uint64_t{b} << 32 | item, th.free);
}

void CpuManagedPlane::command_done(uint32_t b, uint32_t item) {
    Batch& bt = batches_[b];
    const Item& it = bt.items[item];
    if (s_.synchronous_calls) {
        Thread& th = thread_state_[it.thread];
        th.busy = false;
        if (!th.waiting.empty()) {
            const auto [nb, ni] = th.waiting.front();
            th.waiting.pop_front();
            call(it.thread, nb, ni, p_.sim.now());
        }
    }
    if (s_.data == PlaneData::HostBounce && !bt.in_host && !it.io.write) {
        Run& run = bt.runs[it.run];
        if (--run.left > 0) return;
        copier_free_ = std::max(copier_free_, p_.sim.now()) + s_.copy_call_cost;
        copied_.push(uint64_t{b} << 32 | it.run, p_.pcie.host_to_gpu(copier_free_, run.bytes, bt.items[run.first].io.dest));
        ++copies_;
        return;
    }
    if (--bt.left == 0) batch_done(b);
}

void CpuManagedPlane::batch_done(uint32_t b) {
    Batch& bt = batches_[b];
    const Tick now = p_.sim.now();
    // Seed 000 III-A: "CAM adjusts the number of cores for CPU-based SSD control
    // according to the relative time of computation and I/O in the last batch."
    if (s_.threads == 0) threads_ = now - bt.rung <= bt.compute ? min_threads() : max_threads();
    last_done_ = now;
    ++batches_done_;
    seen_.push(b, now + s_.host_signal_latency);
}

void CpuManagedPlane::notified(uint32_t b) {
    // Telling a client may make it submit again, which can grow batches_: the items
    // are read from a scratch vector, and b is freed afterwards.
    StorageIoClient& client = *batches_[b].client;
    const Tick taken_at = batches_[b].taken;
    notify_.swap(batches_[b].items);
    for (const Item& it : notify_) finish(client, it.io, taken_at);
    batches_[b].items.swap(notify_);
    free_batches_.push_back(b);
}

void CpuManagedPlane::register_stats(StatGroup g) const {
    ControlPlane::register_stats(g);
    g.formula("copies", "host<->GPU copy calls of bounced data", "copies", [this] { return double(copies_); });
    g.formula("batches", "batches completed", "batches", [this] { return double(batches_done_); });
    g.formula("threads", "CPU threads the next batch uses", "threads", [this] { return double(threads_); });
}

}  // namespace zng::storage
