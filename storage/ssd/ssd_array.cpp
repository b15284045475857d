#include "storage/ssd/ssd_array.hpp"

#include <algorithm>

#include "sim/config/registry.hpp"
#include "sim/core/errors.hpp"

namespace zng::storage {
namespace {
using namespace param_kind;
const auto kSsds = Param<UInt32>("ssds", "1", "NVMe SSDs in the array (seed 000 Table III: 12)").range(1, 1024);
const auto kPlacement = Param<Choice>("placement", "direct",
                                      "direct: each SSD its own address space, a request names its SSD; raid0: "
                                      "striped over all SSDs")
                            .choices({"direct", "raid0"});
const auto kStripeSize =
    Param<Size>("stripe_size", "128KiB", "RAID0 stripe unit (assumption: mdadm's default chunk, 512 KiB, is also "
                                         "common)")
        .min(512);
const Param<Section> kSsd{"ssd", "", "each SSD: queue pairs, costs and `device:` (see storage/nvme_ssd)"};
}  // namespace

const std::string& SsdArraySettings::ssd_key() { return kSsd.key(); }

const ComponentSchema& SsdArraySettings::schema() {
    static const CataloguedSchema s{{.slot = "storage",
                                     .name = "ssd_array",
                                     .description = "N NVMe SSDs, direct placement or RAID0 striping.",
                                     .params = {kSsds, kPlacement, kStripeSize, kSsd},
                                     .ports = {}}};
    return s.schema;
}

SsdArraySettings SsdArraySettings::read(const Params& p) {
    SsdArraySettings s;
    s.ssds = p[kSsds];
    s.placement = p[kPlacement] == "raid0" ? Placement::Raid0 : Placement::Direct;
    s.stripe_bytes = p[kStripeSize];
    return s;
}

SsdArray::SsdArray(Simulator& sim, const SsdArraySettings& s, const NvmeSettings& nvme,
                   const DeviceFactory& make_device, SsdDataPath& path)
    : s_(s), lba_bytes_(nvme.lba_bytes), needed_(s.ssds, 0) {
    if (s.ssds == 0) throw SimError("SSD array: at least one SSD is needed");
    for (uint32_t i = 0; i < s.ssds; ++i) {
        auto dev = make_device(i);
        if (s.placement == Placement::Raid0 && (s.stripe_bytes % nvme.lba_bytes || s.stripe_bytes % dev->alignment()))
            throw SimError("SSD array: stripe_size " + std::to_string(s.stripe_bytes) +
                           " B is not a multiple of the SSDs' logical block and device alignment");
        ssds_.push_back(std::make_unique<NvmeSsd>(sim, i, nvme, std::move(dev), path));
        ssds_.back()->set_on_room([this](uint32_t) {
            if (on_room_) on_room_();
        });
    }
}

std::unique_ptr<SsdArray> SsdArray::create(Simulator& sim, const Params& p, const std::string& stats_name,
                                           SsdDataPath& path) {
    const SsdArraySettings s = SsdArraySettings::read(p);
    const std::string ssd_path = p.path() + "." + kSsd.key();
    const Params nvme(p[kSsd], NvmeSettings::schema(), ssd_path);
    const NvmeSettings ns = NvmeSettings::read(nvme);
    if (s.placement == Placement::Raid0 && s.stripe_bytes % ns.lba_bytes)
        p.fail(kStripeSize.key(), "must be a multiple of the SSDs' lba_size (" + std::to_string(ns.lba_bytes) + " B)");
    const ConfigNode* device = nvme.section(NvmeSettings::device_key());
    const std::string device_path = ssd_path + "." + NvmeSettings::device_key();
    return std::make_unique<SsdArray>(
        sim, s, ns,
        [&](uint32_t i) {
            SsdDeviceContext ctx{stats_name + ".ssd" + std::to_string(i), nullptr};
            return ssd_device_slot().create(device, device_path, "calibrated", sim, ctx);
        },
        path);
}

uint64_t SsdArray::capacity_bytes() const {
    uint64_t smallest = ssds_.front()->capacity_bytes();
    for (const auto& d : ssds_) smallest = std::min(smallest, d->capacity_bytes());
    if (s_.placement == Placement::Direct) return smallest;
    return smallest / s_.stripe_bytes * s_.stripe_bytes * ssds_.size();
}

bool SsdArray::can_submit(const IoRequest& r) {
    std::fill(needed_.begin(), needed_.end(), 0u);
    split(r.ssd, r.lba * lba_bytes_, r.bytes, [&](const Piece& pc) { ++needed_.at(pc.ssd); });
    for (uint32_t i = 0; i < ssds_.size(); ++i)
        if (needed_[i] && ssds_[i]->outstanding(r.queue) + needed_[i] > ssds_[i]->settings().queue_depth) return false;
    return true;
}

void SsdArray::submit(IoRequest r) {
    if (r.bytes == 0 || r.bytes % lba_bytes_ || (s_.placement == Placement::Direct && r.ssd >= ssds_.size()))
        throw SimError("SSD array: request of " + std::to_string(r.bytes) + " B for SSD " + std::to_string(r.ssd) +
                       " is empty, not whole blocks or names no SSD");
    if (s_.placement == Placement::Raid0 && r.lba * lba_bytes_ + r.bytes > capacity_bytes())
        throw SimError("SSD array: request beyond the array's " + std::to_string(capacity_bytes()) + " B");
    uint32_t parent;
    if (!free_parents_.empty()) {
        parent = free_parents_.back();
        free_parents_.pop_back();
    } else {
        parent = static_cast<uint32_t>(parents_.size());
        parents_.emplace_back();
    }
    uint32_t pieces = 0;
    split(r.ssd, r.lba * lba_bytes_, r.bytes, [&](const Piece&) { ++pieces; });
    Parent& pr = parents_[parent];
    pr.pieces_left = pieces;
    const IoRequest proto = r;  // piece fields copied from it, without its callback
    pr.io = std::move(r);
    uint64_t offset = 0;  // of the piece in the request
    split(proto.ssd, proto.lba * lba_bytes_, proto.bytes, [&](const Piece& pc) {
        IoRequest piece;
        piece.op = proto.op;
        piece.lba = pc.offset / lba_bytes_;
        piece.bytes = pc.bytes;
        piece.memory = proto.memory;
        piece.dest = proto.dest + offset;
        offset += pc.bytes;
        piece.tag = proto.tag;
        piece.queue = proto.queue;
        piece.ssd = pc.ssd;
        piece.done = [this, parent](IoRequest& done) { piece_done(parent, done); };
        ssds_[pc.ssd]->submit(std::move(piece));
    });
}

void SsdArray::piece_done(uint32_t parent, const IoRequest& piece) {
    Parent& pr = parents_[parent];
    pr.io.submitted = piece.submitted;  // every piece is submitted at once
    pr.io.fetched = std::max(pr.io.fetched, piece.fetched);
    pr.io.device_done = std::max(pr.io.device_done, piece.device_done);
    if (--pr.pieces_left != 0) return;
    IoRequest io = std::move(pr.io);
    free_parents_.push_back(parent);
    io.completed = piece.completed;
    if (io.done) io.done(io);
}

}  // namespace zng::storage
