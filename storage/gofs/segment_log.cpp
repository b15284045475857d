#include "storage/gofs/segment_log.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace zng::storage::gofs {

SegmentLog::SegmentLog(const SegmentLogSettings& s) : s_(s), segs_(s.segments), heads_(s.sms + 1) {
    if (s.segments < 2 || s.blocks_per_segment == 0 || s.sms == 0)
        throw SimError("a GoFS log needs at least two segments, one block per segment and one SM");
}

uint32_t SegmentLog::free_segments() const {
    uint32_t n = 0;
    for (const Head& h : heads_) n += static_cast<uint32_t>(h.pool.size());
    return n;
}

void SegmentLog::place(uint32_t b, uint64_t file, uint64_t block) {
    Segment& seg = segs_[b / s_.blocks_per_segment];
    if (!seg.owner) {
        seg.owner = std::make_unique<uint64_t[]>(s_.blocks_per_segment);
        std::fill_n(seg.owner.get(), s_.blocks_per_segment, kNoOwner);
    }
    seg.owner[b % s_.blocks_per_segment] = file << 32 | block;
    ++seg.valid;
    map_[file][block] = b;
}

void SegmentLog::invalidate(uint32_t b) {
    if (b == kNoBlock) return;
    Segment& seg = segs_[b / s_.blocks_per_segment];
    seg.owner[b % s_.blocks_per_segment] = kNoOwner;
    --seg.valid;
}

void SegmentLog::check_fits(const SegmentLogSettings& s, uint64_t files, uint64_t blocks) {
    // In doubles: files * blocks may not fit 64 bits.
    const double total = static_cast<double>(files) * static_cast<double>(blocks);
    if (total >= static_cast<double>(uint64_t(s.segments - 1) * s.blocks_per_segment))
        throw SimError(fmt::format("GoFS files of {:.0f} blocks do not fit a log of {} segments with one free", total,
                                   s.segments));
}

uint64_t SegmentLog::upfront_bytes(const SegmentLogSettings& s, uint64_t files, uint64_t blocks) {
    check_fits(s, files, blocks);
    return uint64_t{s.segments} * (sizeof(Segment) + sizeof(uint32_t)) +
           files * (sizeof(std::vector<uint32_t>) + blocks * sizeof(uint32_t));
}

void SegmentLog::format(uint64_t files, uint64_t blocks) {
    check_fits(s_, files, blocks);
    // Log block b holds block b % blocks of file b / blocks. Written as runs, not a
    // place() per block: an 8 GiB file is 2 M blocks, and placing them one by one (each
    // owner table first filled with kNoOwner, then overwritten) was a third of a GoFS
    // platform's start-up.
    map_.assign(files, {});
    uint32_t total = 0;
    for (auto& file_map : map_) {
        file_map.resize(blocks);
        std::iota(file_map.begin(), file_map.end(), total);
        total += static_cast<uint32_t>(blocks);
    }
    const uint32_t per = s_.blocks_per_segment;
    const uint32_t used = (total + per - 1) / per;
    for (uint32_t i = 0; i < used; ++i) {
        Segment& seg = segs_[i];
        const uint32_t first = i * per, n = std::min(per, total - first);
        if (!seg.owner) seg.owner = std::make_unique_for_overwrite<uint64_t[]>(per);
        uint64_t file = first / blocks, block = first % blocks;
        for (uint32_t k = 0; k < n; ++k) {
            seg.owner[k] = file << 32 | block;
            if (++block == blocks) {
                block = 0;
                ++file;
            }
        }
        std::fill(seg.owner.get() + n, seg.owner.get() + per, kNoOwner);
        seg.valid += n;
        seg.state = State::Full;
    }
    // Free segments dealt round-robin to the SMs' allocators.
    for (uint32_t i = used; i < s_.segments; ++i) heads_[(i - used) % s_.sms].pool.push_back(i);
}

void SegmentLog::redistribute() {
    std::vector<uint32_t> all;
    for (Head& h : heads_) {
        all.insert(all.end(), h.pool.begin(), h.pool.end());
        h.pool.clear();
    }
    std::sort(all.begin(), all.end());
    for (size_t i = 0; i < all.size(); ++i) heads_[i % s_.sms].pool.push_back(all[i]);
}

void SegmentLog::open_segment(uint32_t head) {
    Head& h = heads_[head];
    if (h.segment != kNoBlock) segs_[h.segment].state = State::Full;
    h.segment = kNoBlock;
    if (h.pool.empty()) redistribute();
    if (h.pool.empty()) {
        // Only the GC's allocator is never dealt segments: it takes the first free one.
        for (Head& o : heads_)
            if (!o.pool.empty()) {
                h.pool.push_back(o.pool.front());
                o.pool.pop_front();
                break;
            }
    }
    if (h.pool.empty()) throw SimError("GoFS ran out of free segments");
    h.segment = h.pool.front();
    h.pool.pop_front();
    h.next = 0;
    segs_[h.segment].state = State::Open;
}

uint32_t SegmentLog::append(uint32_t head, uint64_t file, uint64_t block) {
    Head& h = heads_[head];
    if (h.segment == kNoBlock || h.next == s_.blocks_per_segment) {
        if (head < s_.sms) collect_garbage(head);
        open_segment(head);
    }
    const uint32_t b = h.segment * s_.blocks_per_segment + h.next++;
    place(b, file, block);
    return b;
}

uint32_t SegmentLog::write(uint32_t sm, uint64_t file, uint64_t block) {
    const uint32_t old = map_[file][block];
    invalidate(old);
    map_[file][block] = kNoBlock;
    return append(sm % s_.sms, file, block);
}

void SegmentLog::collect_garbage(uint32_t head) {
    // At least 2, so that GC always has a free segment for its own log (F2FS likewise
    // reserves segments for GC).
    const uint32_t floor = std::max(2u, static_cast<uint32_t>(std::ceil(s_.gc_threshold * s_.segments)));
    const uint32_t gc = s_.sms;
    while (free_segments() < floor) {
        uint32_t victim = kNoBlock;
        for (uint32_t i = 0; i < s_.segments; ++i)
            if (segs_[i].state == State::Full && (victim == kNoBlock || segs_[i].valid < segs_[victim].valid))
                victim = i;
        if (victim == kNoBlock || segs_[victim].valid == s_.blocks_per_segment)
            throw SimError("GoFS is full: no segment has an invalid block to reclaim");
        ++gc_runs_;
        Segment& v = segs_[victim];
        for (uint32_t k = 0; k < s_.blocks_per_segment && v.valid > 0; ++k) {
            const uint64_t o = v.owner[k];
            if (o == kNoOwner) continue;
            const uint32_t from = victim * s_.blocks_per_segment + k;
            invalidate(from);
            const uint32_t to = append(gc, o >> 32, o & 0xFFFFFFFFu);
            moves_.push_back({from, to});
        }
        v.state = State::Free;
        v.owner.reset();
        trims_.push_back(victim);
        heads_[head].pool.push_back(victim);
    }
}

}  // namespace zng::storage::gofs
