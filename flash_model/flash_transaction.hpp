// One operation travelling between a flash controller and a package, and the state
// shared by the controllers and packages of one flash backbone (the transaction pool,
// the block state table, the network, the log-block map and the counters), so that a
// transaction is passed around as a 32-bit index with no allocation.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "flash_model/array/block_state_table.hpp"
#include "flash_model/array/flash_address.hpp"
#include "flash_model/network/flash_network.hpp"
#include "flash_model/flash_spec.hpp"
#include "flash_model/index_pool.hpp"
#include "flash_model/array/log_block_map.hpp"
#include "sim/core/hash_map.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/mem/mem_request.hpp"
#include "sim/stats/stats.hpp"

namespace zng::flash {

enum class TxnKind : uint8_t {
    DemandRead,   // a line read from the L2: row decoder + registers
    DemandWrite,  // a line write from the L2: absorbed by a register
    OpRead,       // firmware / GC page read at an exact address
    OpProgram,    // firmware / GC page program at an exact address
    OpErase,      // firmware / GC block erase
    Evict,        // package-internal: program a dirty register into its log block
};
inline bool is_firmware(TxnKind k) { return k == TxnKind::OpRead || k == TxnKind::OpProgram || k == TxnKind::OpErase; }
inline bool is_read(TxnKind k) { return k == TxnKind::DemandRead || k == TxnKind::OpRead; }

enum class MsgKind : uint8_t {
    Command,  // controller -> package (carries write / program data)
    Data,     // package -> controller: read data
    DataFirst,  // package -> controller: the part of a read its requester waits for, ahead of the rest
    Ack,      // package -> controller: write absorbed, program or erase finished
    Migrate,  // SWnet: a register's page bounced through the controller's buffer
};

struct FlashTxn {
    TxnKind kind = TxnKind::DemandRead;
    FlashAddress addr;     // data page (demand, evict) or exact page (firmware)
    FlashAddress target;   // page the array operation touches (log page or resolved row)
    uint32_t bytes = 0;    // bytes moved between controller and package
    uint32_t plane = 0;    // plane inside the package
    int32_t reg = -1;      // register in use (-1: the plane's page buffer)
    int32_t evicting = -1; // register being emptied for this demand (one eviction at a time),
                           // or kVictimHeld
    // `evicting` once the program of the register emptied for this demand turned out to wait
    // for a merge: the demand then takes only registers whose programs can run.
    static constexpr int32_t kVictimHeld = -2;
    uint8_t migrate_phase = 0;  // SWnet copy through the controller: 1 out, 2 back in
    uint8_t merge_sense = 0;    // eviction: sense the old page before the program
    uint8_t program_coming = 0;  // eviction: counted in its die's programs_coming until it reaches its plane
    uint16_t combined = 1;      // demand writes to this page carried by this one command sequence
    uint64_t chunks = 0;        // chunks of the page this write carries (FlashSpec::chunk_mask)
    MemRequest* req = nullptr;  // null once a posted write has been answered
    std::function<void()> done;  // firmware completion
    uint16_t app = 0;
    Tick accepted = 0;
    // Demand reads: the programming clock of the read's die when its controller accepted
    // it (FlashPackage::die_programming), so the wait until the read's service starts can
    // be split into the part its die spent programming or erasing.
    Tick die_programming_at_accept = 0;
};

struct FlashCounters {
    Counter* senses = nullptr;
    Counter* programs = nullptr;
    Counter* erases = nullptr;
    Counter* register_read_hits = nullptr;
    Counter* register_write_hits = nullptr;
    Counter* register_misses = nullptr;
    Counter* evictions = nullptr;
    Counter* log_hits = nullptr;
    Counter* migrations = nullptr;
    Counter* bytes_sensed = nullptr;
    Counter* bytes_programmed = nullptr;
    Counter* merges_requested = nullptr;
    Counter* evictions_held_for_merge = nullptr;
    Counter* forwarded_requests = nullptr;
    Counter* reads_of_erased_pages = nullptr;
    Counter* demand_senses = nullptr;
    Counter* read_reaccesses = nullptr;
    Counter* thrashing_episodes = nullptr;
    Counter* thrashing_rewrites = nullptr;
    Counter* merge_senses = nullptr;
    Counter* background_programs = nullptr;
    Counter* page_buffer_reads = nullptr;
    Counter* page_buffer_hits = nullptr;
};

class FlashPackage;

struct FlashShared {
    FlashShared(const FlashSpec& s) : spec(s), blocks(spec.geometry, spec.endurance) {}
    FlashSpec spec;
    BlockStateTable blocks;
    IndexPool<FlashTxn> txns;
    FlashNetwork* network = nullptr;
    LogBlockMap* log_map = nullptr;
    FlashCounters c;
    // Programs from a register, and the distinct data pages they wrote (values unused;
    // open addressing, as pages_written below: one is looked up per program).
    uint64_t register_programs = 0;
    GrowingHashMap<uint8_t> pages_programmed{1024};
    // Distinct data pages demand writes reached (write redundancy's denominator; the
    // values are unused). Open addressing: one is looked up per demand program and
    // sense, and a node-based set's lookups miss the host's caches.
    GrowingHashMap<uint8_t> pages_written{1024};
    // Demand-read senses per distinct data page (read re-accesses: senses of a page sensed before).
    GrowingHashMap<uint32_t> senses_per_page{1024};
    // Packages whose thrashing checker currently asks for L2 redirection.
    uint32_t thrashing_packages = 0;
    uint32_t controllers = 0;
    // Every package, by index (channel x packages per channel + package), as each
    // registers itself: controllers read a die's programming clock for statistics.
    std::vector<const FlashPackage*> packages;
    uint32_t package_endpoint(uint32_t package_index) const { return controllers + package_index; }
};

}  // namespace zng::flash
