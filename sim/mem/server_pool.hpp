// A pool of identical servers (the embedded cores of an SSD controller): a job holds one
// server for its service time; when all are busy, jobs wait in a FIFO of fixed depth.
// Throughput therefore saturates at servers / service time, and the waiting shows up as
// queueing delay. All completions share one TimedQueue event.
#pragma once
#include <cstdint>
#include <functional>

#include "sim/core/errors.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/timed_queue.hpp"

namespace zng {

template <class Job>
class ServerPool {
public:
    using Done = std::function<void(Job&)>;
    ServerPool(Simulator& sim, uint32_t servers, size_t queue_depth, Done done, const char* name = "server-pool")
        : sim_(sim), servers_(servers), queue_depth_(queue_depth), waiting_(queue_depth), done_(std::move(done)),
          running_(sim, [this](Job& j) { finish(j); }, name) {
        if (servers == 0) throw SimError("ServerPool: at least one server is needed");
    }

    // Room for one more job (an idle server or a free waiting slot).
    bool has_room() const { return busy_ < servers_ || waiting_.size() < queue_depth_; }
    // Called after every completion, when room has freed (for back-pressure retries).
    void set_on_room(std::function<void()> f) { on_room_ = std::move(f); }

    void submit(const Job& j, Tick service) {
        if (busy_ < servers_) {
            start(j, service);
        } else {
            if (waiting_.size() == queue_depth_) throw SimError("ServerPool: a job submitted with no room");
            waiting_.push_back(Waiting{j, service, sim_.now()});
        }
    }
    uint32_t servers() const { return servers_; }
    uint32_t busy() const { return busy_; }
    size_t waiting() const { return waiting_.size(); }
    Tick busy_time() const { return busy_time_; }    // summed over servers
    Tick wait_time() const { return wait_time_; }    // summed over jobs
    uint64_t jobs() const { return jobs_; }

private:
    struct Waiting {
        Job job{};
        Tick service = 0;
        Tick since = 0;
    };
    void start(const Job& j, Tick service) {
        ++busy_;
        ++jobs_;
        busy_time_ += service;
        running_.push(j, sim_.now() + service);
    }
    void finish(Job& j) {
        --busy_;
        if (!waiting_.empty()) {
            Waiting w = waiting_.take_front();
            wait_time_ += sim_.now() - w.since;
            start(w.job, w.service);
        }
        done_(j);
        if (on_room_) on_room_();  // a server or a waiting slot has freed
    }

    Simulator& sim_;
    uint32_t servers_;
    uint32_t busy_ = 0;
    size_t queue_depth_;
    RingQueue<Waiting> waiting_;
    Done done_;
    std::function<void()> on_room_;
    TimedQueue<Job> running_;
    Tick busy_time_ = 0, wait_time_ = 0;
    uint64_t jobs_ = 0;
};

}  // namespace zng
