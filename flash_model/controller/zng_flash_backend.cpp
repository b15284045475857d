#include "flash_model/controller/zng_flash_backend.hpp"

#include "sim/mem/address_translator.hpp"

namespace zng::flash {

namespace {
const auto kLogBlocksPerPlane =
    Param<param_kind::UInt32>(
        "log_blocks_per_plane", "64",
        "blocks per plane the built-in log-block allocator reserves when no FTL provides a log-block map")
        .min(1);
}  // namespace

ComponentSchema ZngFlashBackend::schema() {
    ComponentSchema s;
    s.name = "zng_flash";
    s.description =
        "ZnG: flash controllers on the GPU interconnect, a flash network (mesh) and Z-NAND packages with registers "
        "and programmable row decoders; geometry and timing from the shared `flash:` section.";
    s.params = FlashBackboneSettings::params();
    s.params.push_back(kLogBlocksPerPlane);
    s.ports = {"port[i]: one response port per L2 bank"};
    return s;
}

ZngFlashBackend::ZngFlashBackend(Simulator& sim, const BackendContext& ctx, const Params& p) {
    FlashSpec spec = load_flash_spec(ctx.root);
    FlashBackboneSettings bs = FlashBackboneSettings::read(p, "memory");
    backbone_ = std::make_unique<FlashBackbone>(sim, spec, bs);
    LogBlockMap* map = ctx.translator ? ctx.translator->find_interface<LogBlockMap>() : nullptr;
    if (!map) {
        try {
            builtin_ = std::make_unique<SimpleLogBlockAllocator>(backbone_->geometry(), p[kLogBlocksPerPlane]);
        } catch (const ConfigError& e) {
            p.fail(kLogBlocksPerPlane.key(), e.what());
        }
        map = builtin_.get();
    }
    set_log_block_map(*map);
    for (uint32_t i = 0; i < ctx.ports; ++i) {
        ports_.push_back(std::make_unique<ResponsePort>(*this, "memory.port" + std::to_string(i)));
        ports_.back()->index = i;
    }
    refused_.assign(ctx.ports, 0);
    turn_.resize(ctx.ports);
    backbone_->set_room_callback([this] { retry_refused(); });
}

void ZngFlashBackend::set_log_block_map(LogBlockMap& m) {
    backbone_->set_log_block_map(&m);
    m.attach(*this);
}

bool ZngFlashBackend::recv_request(MemRequest* r, ResponsePort& port) {
    if (backbone_->accept(r)) return true;
    refused_[port.index] = 1;
    return false;
}

bool ZngFlashBackend::redirect_write(uint64_t paddr) const {
    if (backbone_->thrashing_packages() == 0 || paddr >= capacity_bytes()) return false;
    return backbone_->package_of(geometry().decode(paddr)).thrashing();
}

void ZngFlashBackend::retry_refused() {
    turn_.pass([&](uint32_t i) {
        if (!refused_[i]) return false;
        refused_[i] = 0;
        ports_[i]->retry();
        return true;
    });
}

}  // namespace zng::flash
