// Ports with back-pressure, in the manner of gem5's timing protocol. A requester sends
// through its RequestPort; the responder may refuse (queue full), in which case the
// requester must hold the request and is called back with recv_retry() once the
// responder calls retry() on its ResponsePort. Responses are never refused: a requester
// only sends when it has reserved room for the answer (an MSHR entry, a buffer slot),
// which is how real hardware avoids response deadlock.
#pragma once
#include <string>

#include "sim/mem/mem_request.hpp"

namespace zng {

class RequestPort;
class ResponsePort;

class MemRequester {
public:
    virtual ~MemRequester() = default;
    virtual void recv_response(MemRequest* r, RequestPort& port) = 0;
    virtual void recv_retry(RequestPort& port) = 0;
};

class MemResponder {
public:
    virtual ~MemResponder() = default;
    // Accept (true) or refuse (false) a request arriving on `port`.
    virtual bool recv_request(MemRequest* r, ResponsePort& port) = 0;
};

class RequestPort {
public:
    RequestPort(MemRequester& owner, std::string name) : owner_(&owner), name_(std::move(name)) {}
    void bind(ResponsePort& peer);
    bool bound() const { return peer_ != nullptr; }
    // True if accepted. False: keep the request; recv_retry() will follow.
    bool send(MemRequest* r);
    // True while a refusal is outstanding (sending again before the retry is pointless).
    bool waiting_retry() const { return waiting_; }
    const std::string& name() const { return name_; }
    MemRequester& owner() { return *owner_; }

private:
    friend class ResponsePort;
    friend void send_response(MemRequest* r);
    MemRequester* owner_;
    std::string name_;
    ResponsePort* peer_ = nullptr;
    bool waiting_ = false;
};

class ResponsePort {
public:
    ResponsePort(MemResponder& owner, std::string name) : owner_(&owner), name_(std::move(name)) {}
    bool bound() const { return peer_ != nullptr; }
    // Room has freed: let a refused requester try again.
    void retry();
    const std::string& name() const { return name_; }
    uint32_t index = 0;  // free for the owner (e.g. which input of a crossbar)

private:
    friend class RequestPort;
    friend void send_response(MemRequest* r);
    MemResponder* owner_;
    std::string name_;
    RequestPort* peer_ = nullptr;
};

// Sends a finished request back along the route it came (to the requester whose
// RequestPort delivered it to the most recent ResponsePort).
void send_response(MemRequest* r);

}  // namespace zng
