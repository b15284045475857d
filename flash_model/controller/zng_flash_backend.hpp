// The `zng_flash` memory back end (slot "memory"): ZnG's flash side behind the L2.
// L2 bank ports -> flash controllers (one per channel, chosen by the decoded flash
// address) -> flash network (mesh by default) -> Z-NAND packages with registers and
// programmable row decoders. Physical addresses are flash byte addresses (the MMU's
// FTL translates to them); capacity is the geometry's.
//
// Writes go to log blocks chosen by a LogBlockMap: the one the platform's
// AddressTranslator offers (ZnG's MMU-resident FTL), else the built-in
// SimpleLogBlockAllocator. The back end is also a FlashOpExecutor and attaches itself
// to the map it adopts (LogBlockMap::attach), so the FTL issues its merge reads,
// programs and erases here without the platform wiring anything.
//
// medium_bytes_read counts whole pages sensed, medium_bytes_written whole pages
// programmed: the flash-array traffic, not the bytes the L2 asked for.
#pragma once
#include <memory>
#include <vector>

#include "flash_model/controller/flash_backbone.hpp"
#include "flash_model/array/simple_log_block_allocator.hpp"
#include "sim/mem/memory_backend.hpp"
#include "sim/mem/round_robin.hpp"
#include "sim/mem/write_redirection.hpp"

namespace zng::flash {

class ZngFlashBackend final : public MemoryBackend, public FlashOpExecutor, public WriteRedirectionSource {
public:
    static ComponentSchema schema();
    ZngFlashBackend(Simulator& sim, const BackendContext& ctx, const Params& p);

    // MemoryBackend
    ResponsePort& port(uint32_t i) override { return *ports_.at(i); }
    uint32_t num_ports() const override { return static_cast<uint32_t>(ports_.size()); }
    uint64_t in_flight() const override { return backbone_->in_flight(); }
    uint64_t medium_bytes_read() const override { return backbone_->bytes_sensed(); }
    uint64_t medium_bytes_written() const override { return backbone_->bytes_programmed(); }
    uint64_t capacity_bytes() const override { return backbone_->geometry().capacity_bytes(); }
    bool recv_request(MemRequest* r, ResponsePort& port) override;
    // Any read inside one flash page is one command, one sense or register hit, one
    // port transfer and one network message.
    uint64_t max_read_bytes() const override { return backbone_->geometry().page_size(); }

    // FlashOpExecutor
    const FlashGeometry& geometry() const override { return backbone_->geometry(); }
    void submit(FlashOp op) override { backbone_->submit(std::move(op)); }
    void set_block_erased(const FlashAddress& b) override { backbone_->set_block_erased(b); }
    void block_moved(const FlashAddress& f, const FlashAddress& t) override { backbone_->block_moved(f, t); }
    uint32_t erase_count(const FlashAddress& b) const override { return backbone_->erase_count(b); }
    FlashAddress newest_copy(const FlashAddress& p) const override { return backbone_->newest_copy(p); }
    bool page_programmed(const FlashAddress& p) const override { return backbone_->page_programmed(p); }

    // WriteRedirectionSource: the thrashing checkers of the packages (flash.thrashing_checker).
    bool redirect_write(uint64_t paddr) const override;
    bool redirect_active() const override { return backbone_->thrashing_packages() > 0; }

    // Replaces the log-block map (an FTL not wired as the translator) and attaches it.
    void set_log_block_map(LogBlockMap& m);
    FlashBackbone& backbone() { return *backbone_; }
    // The built-in allocator, when it is the one in use (else null).
    SimpleLogBlockAllocator* builtin_allocator() { return builtin_.get(); }

protected:
    void* offered_interface(std::string_view name) override {
        return offer<WriteRedirectionSource>(this, name);
    }

private:
    void retry_refused();

    std::unique_ptr<FlashBackbone> backbone_;
    std::unique_ptr<SimpleLogBlockAllocator> builtin_;
    std::vector<std::unique_ptr<ResponsePort>> ports_;
    std::vector<uint8_t> refused_;
    RoundRobin turn_;  // which refused L2 bank retries first when room frees
};

}  // namespace zng::flash
