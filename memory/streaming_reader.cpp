#include "memory/streaming_reader.hpp"

#include <string>

namespace zng::memory {

StreamingReader::StreamingReader(Simulator& sim, MemoryBackend& memory, const Config& cfg)
    : sim_(sim), cfg_(cfg), outstanding_(memory.num_ports(), 0), held_(memory.num_ports(), nullptr) {
    if (cfg_.request_bytes == 0) throw ConfigError("streaming reader: request size must be positive");
    if (cfg_.outstanding_per_port == 0) throw ConfigError("streaming reader: needs at least one request per port");
    total_ = cfg_.bytes / cfg_.request_bytes;
    for (uint32_t i = 0; i < memory.num_ports(); ++i) {
        ports_.push_back(std::make_unique<RequestPort>(*this, "stream.port" + std::to_string(i)));
        ports_.back()->bind(memory.port(i));
    }
}

void StreamingReader::start() {
    result_.first_issue = sim_.now();
    for (uint32_t i = 0; i < ports_.size(); ++i) fill(i);
}

void StreamingReader::fill(uint32_t i) {
    while (outstanding_[i] < cfg_.outstanding_per_port) {
        MemRequest* r = held_[i];
        if (!r) {
            if (issued_ == total_) return;
            r = sim_.requests().get();
            r->paddr = r->vaddr = cfg_.base + issued_ * cfg_.request_bytes;
            r->size = cfg_.request_bytes;
            r->op = cfg_.op;
            r->tag = i;
            r->mark(Stage::Issue, sim_.now());
            ++issued_;
        }
        if (!ports_[i]->send(r)) {
            held_[i] = r;
            return;
        }
        held_[i] = nullptr;
        ++outstanding_[i];
    }
}

void StreamingReader::recv_response(MemRequest* r, RequestPort&) {
    const uint32_t i = static_cast<uint32_t>(r->tag);  // the port it was sent through
    --outstanding_[i];
    ++result_.requests;
    result_.bytes += r->size;
    result_.last_response = sim_.now();
    sim_.requests().put(r);
    fill(i);
}

void StreamingReader::recv_retry(RequestPort& port) {
    for (uint32_t i = 0; i < ports_.size(); ++i)
        if (ports_[i].get() == &port) fill(i);
}

}  // namespace zng::memory
