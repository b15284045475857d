// Storage I/O issued by GPU threads, as the GPU model hands it to a platform's storage
// path (the control plane: BaM, CAM, SPDK, ...) without knowing it. An SM gives the
// service one warp's io_submit record at a time as a batch of per-lane requests; the
// service calls the SM back once per request when its data is where it was sent (and
// the issuer has seen the completion), echoing the request's token.
//
// Back-pressure: a service holds a bounded number of requests it has not yet handed to
// an SSD queue. can_submit() refuses a batch that does not fit and remembers the
// refused client, which it calls back through io_room() when room frees (once per
// refusal). A batch always fits an otherwise empty service, so that no batch can wait
// forever.
#pragma once
#include <cstdint>
#include <string_view>

#include "sim/core/tick.hpp"

namespace zng {

// One lane's request: `bytes` between storage byte offset `offset` and GPU virtual
// address `dest` of application `app` (read: storage -> GPU memory).
struct StorageIo {
    uint64_t offset = 0;
    uint64_t dest = 0;
    uint64_t token = 0;  // the issuer's, echoed at completion
    uint32_t bytes = 0;
    bool write = false;
};

// The requests of one io_submit record: the active lanes of warp `warp` (a GPU-wide
// warp slot number) on SM `sm`, in lane order.
struct StorageIoBatch {
    uint16_t app = 0;
    uint16_t sm = 0;
    uint32_t warp = 0;
    const StorageIo* ios = nullptr;
    uint32_t count = 0;
};

class StorageIoClient {
public:
    virtual ~StorageIoClient() = default;
    // A request of a batch this client submitted has completed.
    virtual void io_done(uint64_t token) = 0;
    // The service that refused this client can take requests again.
    virtual void io_room() = 0;
};

class StorageIoService {
public:
    static constexpr std::string_view kInterfaceName = "storage_io_service";
    virtual ~StorageIoService() = default;
    // Whether a batch of `requests` requests fits now; if not, `waiter.io_room()` is
    // called when room frees.
    virtual bool can_submit(uint32_t requests, StorageIoClient& waiter) = 0;
    // Takes the batch (which must fit). The service copies what it keeps.
    virtual void submit(const StorageIoBatch& batch, StorageIoClient& client) = 0;
    // Requests taken and not yet completed.
    virtual uint64_t in_flight() const = 0;
    // How a GPU thread waiting for its requests learns of their completion. 0: it is
    // told (the warp stays resident, blocked, and issues nothing until the completion
    // wakes it). Otherwise the thread polls: the warp keeps issuing one poll
    // instruction every poll_interval() until a poll finds its requests complete.
    virtual Tick poll_interval() const { return 0; }
};

}  // namespace zng
