#include "flash_model/flash_spec.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "sim/config/config_node.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/errors.hpp"

namespace zng::flash {

namespace {
using namespace param_kind;
const auto kChannels =
    Param<UInt32>("channels", "16", "flash channels (one flash controller each)").range(1, 4096);
const auto kPackagesPerChannel = Param<UInt32>("packages_per_channel", "1", "packages per channel").range(1, 64);
const auto kDiesPerPackage = Param<UInt32>("dies_per_package", "8", "dies per package").range(1, 64);
const auto kPlanesPerDie = Param<UInt32>("planes_per_die", "8", "planes per die").range(1, 64);
const auto kBlocksPerPlane =
    Param<UInt32>("blocks_per_plane", "1024", "blocks per plane (over-provisioned log blocks included)")
        .range(1, 1 << 24);
const auto kPagesPerBlock = Param<UInt32>("pages_per_block", "384", "pages per block").range(1, 1 << 16);
const auto kPageSize = Param<Size>("page_size", "4KiB", "bytes per flash page (a power of two)").min(512);
const Param<String> kAddressOrder{"address_order", "channel,package,die,plane,page,block",
                                  "address fields from fastest- to slowest-changing above the page offset"};
const Param<Time> kTRead{"tR", "3us", "read: sense a page into a register"};
const Param<Time> kTProg{"tPROG", "100us", "program a register into a page"};
const Param<Time> kTErase{"tBERS", "1ms", "erase a block"};
const auto kInterfaceRate = Param<Rate>("interface_rate", "800MT/s", "transfer rate of a package I/O port").min(1);
const auto kIoPortWidth =
    Param<Size>("io_port_width", "8B", "bytes per transfer of a package I/O port").range(1, 4096);
const auto kCommandCycles =
    Param<UInt32>("command_cycles", "7",
                  "I/O-port cycles of one command and its address (ONFI: 1 cmd + 5 addr + 1 cmd)")
        .range(0, 64);
const auto kIoPortsPerPackage =
    Param<UInt32>("io_ports_per_package", "2", "I/O ports per package, each moving one register's data at a time")
        .range(1, 64);
const auto kRegistersPerPlane =
    Param<UInt32>("registers_per_plane", "2", "flash registers per plane (2 conventional, 8 in zng-wropt)")
        .range(1, 64);
const auto kRegisterGrouping = Param<Choice>("register_grouping", "plane",
                                             "plane: a plane uses its own registers; package: all registers of a "
                                             "package form one fully-associative cache (zng-wropt)")
                                   .choices({"plane", "package"});
const Param<Section> kRegisterReplacement{
    "register_replacement", "", "replacement policy of the registers (type: lru | fifo | random; default lru)"};
const Param<Section> kRegisterInterconnect{
    "register_interconnect", "",
    "how registers reach remote planes when grouped per package (type: fcnet | nif | swnet; default nif)"};
const Param<Time> kDecoderSearch{
    "decoder_search", "0ns",
    "CAM search of the programmable row decoder's log page mapping table, paid by every array access"};
const Param<Bool> kMultiPlane{"multi_plane", "true",
                              "planes of a die may run operations of the same kind concurrently (multi-plane); false: "
                              "one array operation per die at a time"};
const Param<Bool> kWriteMissSense{
    "write_miss_sense", "false",
    "a write to a page not held in a register senses the page's current copy at once; false: the register records "
    "the chunks written and the old page is sensed and merged only when a partly written register is programmed "
    "over a page holding data"};
const Param<Bool> kCacheProgram{"cache_program", "true",
                                "a dirty register being programmed is free once its page is in the plane's page "
                                "buffer, when the program starts (ONFI PROGRAM PAGE CACHE); false: it stays busy "
                                "until tPROG ends"};
const Param<Bool> kReadsTakeDirtyRegisters{
    "reads_take_dirty_registers", "false",
    "a demand read that misses the registers and finds none empty or clean programs a dirty one to take it; false: "
    "it is sensed into its plane's page buffer and sent from there, not kept (paper III-C: the registers are the "
    "write buffer, the L2 the read buffer)"};
const Param<Bool> kReadsKeepPages{
    "reads_keep_pages", "true",
    "a demand read that misses the registers keeps its sensed page in an empty or clean register, so later reads of "
    "the page hit there; false: every such read is sensed into its plane's page buffer and sent from there, the "
    "registers hold written pages only (paper III-C: the registers are the write buffer, the L2 the read buffer), "
    "and reads keep apart from writes: plane_depth of each in flight per plane, and a read goes ahead of writes "
    "waiting for a register unless one of them writes its page"};
const auto kDirtyWatermark =
    Param<Real>("dirty_watermark", "1",
                "fraction of a register group (a plane's registers, or the package's when grouped) that may hold "
                "dirty pages; above it the least recently used dirty page is programmed in the background, never "
                "the one the last store went to nor one whose program would wait for a merge (its log group "
                "merging or its log block full) (1, the default: a dirty page is programmed only when a miss needs "
                "its register)")
        .range(0, 1);
const Param<Bool> kWriteStaging{
    "write_staging", "false",
    "every store that turns a register dirty queues its page for a background program, and each die programs the "
    "queued pages one at a time in the order of their first store, never the page the last store went to nor one "
    "whose program would wait for a merge; the page stays readable in its register until its program starts (seed "
    "004 III-A: \"for each write request, the application writes the data to the NLS and adds a data migration task "
    "to the pool; the library then executes the data migration tasks from the pool one by one\"); false: dirty "
    "pages are programmed when evicted or above dirty_watermark"};
const auto kRegisterPrograms = Param<Choice>(
    "register_programs", "on_eviction",
    "when a written register is programmed. on_eviction: the registers are a write cache, a dirty page is programmed "
    "when a miss needs its register (or above dirty_watermark, or queued by write_staging); pipeline: the registers "
    "are each plane's NAND page and cache registers (ONFI PROGRAM PAGE CACHE), every page a store turns dirty is "
    "queued and programmed as soon as its plane may, in the order of first stores, the stores that reach it while it "
    "waits merging into it (ONFI random data input before the program confirm); the register the last store went to "
    "is programmed too. Paper I: Z-NAND's \"internal cache registers\"; V-B: ZnG-base and ZnG-rdopt \"can be "
    "blocked by a few small write requests, as Z-NAND's write latency is 33x longer than its read latency\"")
                                   .choices({"on_eviction", "pipeline"});
const auto kEndurance =
    Param<UInt32>("endurance", "100000", "P/E cycles after which a block counts as worn out").range(1, 1e9);
const Param<Section> kThrashingChecker{
    "thrashing_checker", "",
    "register thrashing checker raising L2 redirection of dirty pages (zng-wropt; off by default)"};
}  // namespace

const ComponentSchema& flash_section_schema() {
    static const CataloguedSchema s{{
        .slot = "flash",
        .name = "znand",
        .description =
            "Z-NAND medium shared by every flash back end: geometry, address interleaving, array timing, "
            "package I/O ports, flash registers and the programmable row decoder (paper Table I, II-B, IV-A, IV-C).",
        .params = {kChannels,          kPackagesPerChannel,   kDiesPerPackage,          kPlanesPerDie,
                   kBlocksPerPlane,    kPagesPerBlock,        kPageSize,                kAddressOrder,
                   kTRead,             kTProg,                kTErase,                  kInterfaceRate,
                   kIoPortWidth,       kCommandCycles,        kIoPortsPerPackage,       kRegistersPerPlane,
                   kRegisterGrouping,  kRegisterReplacement,  kRegisterInterconnect,    kDecoderSearch,
                   kMultiPlane,        kWriteMissSense,       kCacheProgram,            kReadsTakeDirtyRegisters,
                   kReadsKeepPages,    kDirtyWatermark,       kWriteStaging,            kRegisterPrograms,
                   kEndurance,         kThrashingChecker},
        .ports = {},
    }};
    return s.schema;
}

FlashSpec parse_flash_section(const ConfigNode* section, const std::string& path) {
    Params p(section, flash_section_schema(), path);
    FlashGeometry::Shape shape;
    shape.channels = p[kChannels];
    shape.packages_per_channel = p[kPackagesPerChannel];
    shape.dies_per_package = p[kDiesPerPackage];
    shape.planes_per_die = p[kPlanesPerDie];
    shape.blocks_per_plane = p[kBlocksPerPlane];
    shape.pages_per_block = p[kPagesPerBlock];
    shape.page_size = p[kPageSize];
    FlashSpec s;
    try {
        s.geometry = FlashGeometry(shape, p[kAddressOrder]);
    } catch (const std::invalid_argument& e) {
        // Name the key most likely at fault: the order, unless it parsed and a radix is wrong.
        std::string what = e.what();
        const std::string& key = what.find("page_size") != std::string::npos  ? kPageSize.key()
                                 : what.find("capacity") != std::string::npos ? kBlocksPerPlane.key()
                                                                              : kAddressOrder.key();
        p.fail(key, what);
    }
    s.timing.t_read = p[kTRead];
    s.timing.t_prog = p[kTProg];
    s.timing.t_erase = p[kTErase];
    s.timing.interface_rate = p[kInterfaceRate];
    s.timing.io_port_width = static_cast<uint32_t>(p[kIoPortWidth]);
    s.timing.command_cycles = p[kCommandCycles];
    s.timing.decoder_search = p[kDecoderSearch];
    if (s.timing.t_read == 0) p.fail(kTRead.key(), "must be positive");
    if (s.timing.t_prog == 0) p.fail(kTProg.key(), "must be positive");
    if (s.timing.t_erase == 0) p.fail(kTErase.key(), "must be positive");
    s.io_ports_per_package = p[kIoPortsPerPackage];
    s.registers_per_plane = p[kRegistersPerPlane];
    s.grouping = p[kRegisterGrouping] == "package" ? RegisterGrouping::Package : RegisterGrouping::Plane;
    s.multi_plane = p[kMultiPlane];
    s.write_miss_sense = p[kWriteMissSense];
    s.dirty_watermark = p[kDirtyWatermark];
    s.write_staging = p[kWriteStaging];
    s.program_pipeline = p[kRegisterPrograms] == "pipeline";
    s.reads_take_dirty_registers = p[kReadsTakeDirtyRegisters];
    s.reads_keep_pages = p[kReadsKeepPages];
    s.cache_program = p[kCacheProgram];
    s.endurance = p[kEndurance];
    s.register_replacement = p[kRegisterReplacement];
    s.register_interconnect = p[kRegisterInterconnect];
    s.register_replacement_path = path + "." + kRegisterReplacement.key();
    s.register_interconnect_path = path + "." + kRegisterInterconnect.key();
    s.thrashing = ThrashingCheckerConfig::read(p[kThrashingChecker], path + "." + kThrashingChecker.key());
    return s;
}

FlashSpec load_flash_spec(const ConfigNode* root) {
    return parse_flash_section(root ? root->find("flash") : nullptr, "flash");
}

}  // namespace zng::flash
