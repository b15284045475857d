// A flash back end reduced to what the FTL sees, for tests: FlashOps take tR / tPROG /
// tBERS on their plane (one operation at a time per plane, no channel), the NAND rules
// are enforced by the flash model's BlockStateTable, and demand writes go through the
// flash model's programmable row decoder to the log block the LogBlockMap names,
// parking on a full log block until the FTL's merge is done (as the zng_flash back end
// does). Parked writes follow block_moved(), as the back end's must.
#pragma once
#include <functional>
#include <map>
#include <vector>

#include "flash_model/array/block_state_table.hpp"
#include "flash_model/array/flash_geometry.hpp"
#include "flash_model/array/log_block_map.hpp"
#include "flash_model/array/row_decoder.hpp"
#include "sim/core/timed_queue.hpp"

namespace zng::ftl::test {

// The small SSD geometry of the SSD-controller tests: `channels` x 1 package x 1 die x
// 2 planes, 16 blocks of 4 pages, pages interleaved over channels, packages, dies and
// planes before blocks.
inline flash::FlashGeometry small_ssd_geometry(uint32_t channels = 2) {
    flash::FlashGeometry::Shape s;
    s.channels = channels;
    s.packages_per_channel = 1;
    s.dies_per_package = 1;
    s.planes_per_die = 2;
    s.blocks_per_plane = 16;
    s.pages_per_block = 4;
    return flash::FlashGeometry(s, "channel,package,die,plane,page,block");
}

class TestFlash final : public flash::FlashOpExecutor {
public:
    TestFlash(Simulator& sim, const flash::FlashGeometry& g, Tick t_read, Tick t_prog, Tick t_erase)
        : sim_(sim), geo_(g), states_(geo_, 100000), t_read_(t_read), t_prog_(t_prog), t_erase_(t_erase),
          plane_free_(g.planes(), 0), done_(sim, [](std::function<void()>& f) { f(); }, "test-flash") {}

    void set_log_block_map(flash::LogBlockMap* m) { map_ = m; }

    const flash::FlashGeometry& geometry() const override { return geo_; }
    void submit(flash::FlashOp op) override {
        Tick dur = 0;
        switch (op.kind) {
            case flash::FlashOp::Read:
                dur = t_read_;
                ++reads;
                read_at.push_back(op.addr);
                read_times.push_back(sim_.now());
                break;
            case flash::FlashOp::Program: dur = t_prog_; states_.program(op.addr); ++programs; break;
            case flash::FlashOp::Erase:
                dur = t_erase_;
                states_.erase(op.addr);
                decoder(op.addr).erase_block(op.addr.block);
                ++erases;
                break;
        }
        done_.push(std::move(op.done), occupy(op.addr, dur));
    }
    void set_block_erased(const flash::FlashAddress& b) override {
        states_.set_erased(b);
        ++set_erased_calls;
    }
    void block_moved(const flash::FlashAddress& from, const flash::FlashAddress& to) override {
        decoder(from).drop_data_block(from.block);
        for (auto& w : parked_)
            if (w.addr.same_block(from)) w.addr.block = to.block;
        ++moves;
    }
    uint32_t erase_count(const flash::FlashAddress& b) const override { return states_.erase_count(b); }
    flash::FlashAddress newest_copy(const flash::FlashAddress& p) const override {
        auto it = decoders_.find(geo_.plane_index(p));
        if (it == decoders_.end()) return p;
        flash::ProgrammableRowDecoder::Row row = it->second.resolve(p.block, p.page);
        return p.with_block(row.block).with_page(row.page);
    }

    bool page_programmed(const flash::FlashAddress& p) const override { return states_.page_programmed(p); }
    // A demand write of a data page (the address a translation produced).
    void write(const flash::FlashAddress& data_page, std::function<void()> done) {
        uint32_t lb = map_->log_block_for(data_page);
        if (decoder(data_page).log_full(lb)) {
            ++parked_writes;
            parked_.push_back({data_page, std::move(done)});
            map_->log_block_full(data_page.with_block(lb).with_page(0), [this] { resume_parked(); });
            return;
        }
        uint32_t lp = decoder(data_page).program_log(lb, data_page.block, data_page.page);
        states_.program(data_page.with_block(lb).with_page(lp));
        ++log_writes;
        done_.push(std::move(done), occupy(data_page, t_prog_));
    }
    // Where a read of a data page lands (the row decoder's LPMT check).
    flash::ProgrammableRowDecoder::Row resolve(const flash::FlashAddress& data_page) {
        ++lpmt_checks;
        return decoder(data_page).resolve(data_page.block, data_page.page);
    }

    uint64_t reads = 0, programs = 0, erases = 0, set_erased_calls = 0, moves = 0, log_writes = 0,
             parked_writes = 0, lpmt_checks = 0;
    std::vector<flash::FlashAddress> read_at;  // exact address of every FlashOp::Read
    std::vector<Tick> read_times;              // and when it was submitted
    const flash::BlockStateTable& states() const { return states_; }

private:
    struct ParkedWrite {
        flash::FlashAddress addr;
        std::function<void()> done;
    };
    Tick occupy(const flash::FlashAddress& a, Tick dur) {
        Tick& f = plane_free_[geo_.plane_index(a)];
        Tick start = f > sim_.now() ? f : sim_.now();
        f = start + dur;
        return f;
    }
    flash::ProgrammableRowDecoder& decoder(const flash::FlashAddress& a) {
        auto it = decoders_.find(geo_.plane_index(a));
        if (it == decoders_.end())
            it = decoders_.emplace(geo_.plane_index(a), flash::ProgrammableRowDecoder(geo_.pages_per_block())).first;
        return it->second;
    }
    void resume_parked() {
        std::vector<ParkedWrite> w;
        w.swap(parked_);
        for (auto& p : w) write(p.addr, std::move(p.done));
    }

    Simulator& sim_;
    flash::FlashGeometry geo_;
    flash::BlockStateTable states_;
    Tick t_read_, t_prog_, t_erase_;
    std::vector<Tick> plane_free_;
    std::map<uint64_t, flash::ProgrammableRowDecoder> decoders_;
    std::vector<ParkedWrite> parked_;
    flash::LogBlockMap* map_ = nullptr;
    TimedQueue<std::function<void()>> done_;
};

}  // namespace zng::ftl::test
