#include "storage/control/os_fault_plane.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"

namespace zng::storage {

const ComponentSchema& OsFaultSettings::schema() {
    static const ComponentSchema s = ControlPlane::schema_of(
        "os_fault",
        "OS page faults (Hetero): the host's fault handler reads each faulting page from the SSDs "
        "into host DRAM and copies it over PCIe into GPU memory; no GPU-issued I/O.",
        {});
    return s;
}

OsFaultSettings OsFaultSettings::read(const Params& p) {
    OsFaultSettings s;
    s.max_in_flight = ControlPlane::read_max_in_flight(p);
    return s;
}

OsFaultPlane::OsFaultPlane(const StoragePath& path, const OsFaultSettings& s) : ControlPlane(path, s.max_in_flight) {}

uint64_t OsFaultPlane::granule() const {
    uint64_t g = p_.array.lba_bytes();
    for (uint32_t i = 0; i < p_.array.size(); ++i) g = std::max(g, p_.array.ssd(i).device().alignment());
    return g;
}

void OsFaultPlane::submit(const StorageIoBatch&, StorageIoClient&) {
    throw SimError("control plane os_fault: pages reach GPU memory by page faults; GPU-issued I/O (io_submit) needs "
                   "another storage.control_plane.type (bam, cam, spdk, posix, gds)");
}

void OsFaultPlane::host_command(uint64_t addr, uint64_t bytes, bool write, IoRequest::Done done) {
    StorageIo io;
    io.offset = addr;
    io.bytes = static_cast<uint32_t>(bytes);
    io.write = write;
    IoRequest r = command(io, IoMemory::Host);  // into / out of host DRAM, where the handler copies from
    r.done = std::move(done);
    issue(std::move(r));
}

}  // namespace zng::storage
