// N NVMe SSDs seen as one store. Direct placement: each SSD is its own address space
// and a request names its SSD (r.ssd). RAID0: one address space striped over the SSDs
// in `stripe_size` units (stripe k on SSD k mod N at offset (k div N) x stripe_size), as
// seed 000 builds "a widely adopted method of RAID 0 array" for POSIX I/O; a request is
// split at stripe boundaries into one command per piece, and completes when its last
// piece does.
//
// Back-pressure: can_submit(r) says whether every SSD r touches has room on queue pair
// r.queue for its pieces; on_room is called when any completion frees a slot.
#pragma once
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "sim/config/params.hpp"
#include "storage/ssd/nvme_ssd.hpp"

namespace zng::storage {

enum class Placement : uint8_t { Direct, Raid0 };

struct SsdArraySettings {
    uint32_t ssds = 1;
    Placement placement = Placement::Direct;
    uint64_t stripe_bytes = 128 * 1024;

    static const ComponentSchema& schema();
    // The `ssd:` section (NvmeSettings keys and `device:`) and the settings.
    static SsdArraySettings read(const Params& p);
    static const std::string& ssd_key();
};

class SsdArray {
public:
    // Builds SSD i from `nvme` and make_device(i).
    using DeviceFactory = std::function<std::unique_ptr<SsdDevice>(uint32_t ssd)>;
    SsdArray(Simulator& sim, const SsdArraySettings& s, const NvmeSettings& nvme, const DeviceFactory& make_device,
             SsdDataPath& path);
    // From the config section of SsdArraySettings::schema(): each device from the
    // `ssd.device` section through the ssd_device slot (stats `<stats_name>.ssd<i>`).
    static std::unique_ptr<SsdArray> create(Simulator& sim, const Params& p, const std::string& stats_name,
                                            SsdDataPath& path);

    struct Piece {
        uint32_t ssd;
        uint64_t offset;  // byte offset in the SSD
        uint64_t bytes;
    };
    // The pieces of `bytes` at array byte `addr` (RAID0) or at `addr` of SSD `ssd`
    // (direct), in address order.
    template <class F>
    void split(uint32_t ssd, uint64_t addr, uint64_t bytes, F&& f) const {
        if (s_.placement == Placement::Direct) {
            f(Piece{ssd, addr, bytes});
            return;
        }
        const uint64_t n = ssds_.size(), stripe = s_.stripe_bytes;
        while (bytes > 0) {
            const uint64_t k = addr / stripe, in = addr % stripe;
            const uint64_t len = std::min(bytes, stripe - in);
            f(Piece{static_cast<uint32_t>(k % n), (k / n) * stripe + in, len});
            addr += len;
            bytes -= len;
        }
    }

    bool can_submit(const IoRequest& r);
    // r.lba is in the SSDs' logical blocks over the whole array (RAID0) or the SSD r.ssd.
    void submit(IoRequest r);
    void set_on_room(std::function<void()> f) { on_room_ = std::move(f); }

    uint32_t size() const { return static_cast<uint32_t>(ssds_.size()); }
    NvmeSsd& ssd(uint32_t i) { return *ssds_.at(i); }
    const NvmeSsd& ssd(uint32_t i) const { return *ssds_.at(i); }
    uint64_t lba_bytes() const { return lba_bytes_; }
    uint64_t capacity_bytes() const;
    const SsdArraySettings& settings() const { return s_; }

private:
    struct Parent {
        IoRequest io;
        uint32_t pieces_left = 0;
    };
    void piece_done(uint32_t parent, const IoRequest& piece);

    SsdArraySettings s_;
    uint64_t lba_bytes_;
    std::vector<std::unique_ptr<NvmeSsd>> ssds_;
    std::vector<Parent> parents_;
    std::vector<uint32_t> free_parents_;
    std::vector<uint32_t> needed_;  // scratch of can_submit: slots per SSD
    std::function<void()> on_room_;
};

}  // namespace zng::storage
