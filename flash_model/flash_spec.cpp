#include "flash_model/flash_spec.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "sim/config/config_node.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/errors.hpp"

namespace zng::flash {

const ComponentSchema& flash_section_schema() {
    static const ComponentSchema s = [] {
        ComponentSchema r;
        r.slot = "flash";
        r.name = "znand";
        r.description =
            "Z-NAND medium shared by every flash back end: geometry, address interleaving, array timing, "
            "package I/O ports, flash registers and the programmable row decoder (paper Table I, II-B, IV-A, IV-C).";
        auto u = [](const char* k, const char* d, const char* desc, double min, double max) {
            ParamSpec p{k, ParamType::UInt, d, desc};
            p.min = min;
            p.max = max;
            return p;
        };
        ParamSpec order{"address_order", ParamType::String, "channel,package,die,plane,page,block",
                        "address fields from fastest- to slowest-changing above the page offset"};
        ParamSpec grouping{"register_grouping", ParamType::Choice, "plane",
                           "plane: a plane uses its own registers; package: all registers of a package form one "
                           "fully-associative cache (zng-wropt)"};
        grouping.choices = {"plane", "package"};
        ParamSpec page{"page_size", ParamType::Size, "4KiB", "bytes per flash page (a power of two)"};
        page.min = 512;
        ParamSpec rate{"interface_rate", ParamType::Rate, "800MT/s", "transfer rate of a package I/O port"};
        rate.min = 1;
        ParamSpec watermark{"dirty_watermark", ParamType::Real, "1",
                            "fraction of a register group (a plane's registers, or the package's when grouped) that "
                            "may hold dirty pages; above it the least recently used dirty page is programmed in the "
                            "background, never the one the last store went to nor one whose program would wait for a merge "
                            "(its log group merging or its log block full) (1, the default: a dirty page is programmed only when a miss needs its "
                            "register)"};
        watermark.min = 0;
        watermark.max = 1;
        ParamSpec width{"io_port_width", ParamType::Size, "8B", "bytes per transfer of a package I/O port"};
        width.min = 1;
        width.max = 4096;
        r.params = {
            u("channels", "16", "flash channels (one flash controller each)", 1, 4096),
            u("packages_per_channel", "1", "packages per channel", 1, 64),
            u("dies_per_package", "8", "dies per package", 1, 64),
            u("planes_per_die", "8", "planes per die", 1, 64),
            u("blocks_per_plane", "1024", "blocks per plane (over-provisioned log blocks included)", 1, 1 << 24),
            u("pages_per_block", "384", "pages per block", 1, 1 << 16),
            page,
            order,
            {"tR", ParamType::Time, "3us", "read: sense a page into a register"},
            {"tPROG", ParamType::Time, "100us", "program a register into a page"},
            {"tBERS", ParamType::Time, "1ms", "erase a block"},
            rate,
            width,
            u("command_cycles", "7", "I/O-port cycles of one command and its address (ONFI: 1 cmd + 5 addr + 1 cmd)",
              0, 64),
            u("io_ports_per_package", "2", "I/O ports per package, each moving one register's data at a time", 1,
              64),
            u("registers_per_plane", "2", "flash registers per plane (2 conventional, 8 in zng-wropt)", 1, 64),
            grouping,
            {"register_replacement", ParamType::Section, "",
             "replacement policy of the registers (type: lru | fifo | random; default lru)"},
            {"register_interconnect", ParamType::Section, "",
             "how registers reach remote planes when grouped per package (type: fcnet | nif | swnet; default "
             "nif)"},
            {"decoder_search", ParamType::Time, "0ns",
             "CAM search of the programmable row decoder's log page mapping table, paid by every array access"},
            {"multi_plane", ParamType::Bool, "true",
             "planes of a die may run operations of the same kind concurrently (multi-plane); false: one array "
             "operation per die at a time"},
            {"write_miss_sense", ParamType::Bool, "false",
             "a write to a page not held in a register senses the page's current copy at once; false: the register "
             "records the chunks written and the old page is sensed and merged only when a partly written register "
             "is programmed over a page holding data"},
            {"cache_program", ParamType::Bool, "true",
             "a dirty register being programmed is free once its page is in the plane's page buffer, when the "
             "program starts (ONFI PROGRAM PAGE CACHE); false: it stays busy until tPROG ends"},
            {"reads_take_dirty_registers", ParamType::Bool, "false",
             "a demand read that misses the registers and finds none empty or clean programs a dirty one to take "
             "it; false: it is sensed into its plane's page buffer and sent from there, not kept (paper III-C: the "
             "registers are the write buffer, the L2 the read buffer)"},
            watermark,
            u("endurance", "100000", "P/E cycles after which a block counts as worn out", 1, 1e9),
            {"thrashing_checker", ParamType::Section, "",
             "register thrashing checker raising L2 redirection of dirty pages (zng-wropt; off by default)"},
        };
        SchemaCatalog::global().add(&r);
        return r;
    }();
    return s;
}

FlashSpec parse_flash_section(const ConfigNode* section, const std::string& path) {
    Params p(section, flash_section_schema(), path);
    FlashGeometry::Shape shape;
    shape.channels = p.u32("channels");
    shape.packages_per_channel = p.u32("packages_per_channel");
    shape.dies_per_package = p.u32("dies_per_package");
    shape.planes_per_die = p.u32("planes_per_die");
    shape.blocks_per_plane = p.u32("blocks_per_plane");
    shape.pages_per_block = p.u32("pages_per_block");
    shape.page_size = p.size("page_size");
    FlashSpec s;
    try {
        s.geometry = FlashGeometry(shape, p.str("address_order"));
    } catch (const std::invalid_argument& e) {
        // Name the key most likely at fault: the order, unless it parsed and a radix is wrong.
        std::string what = e.what();
        std::string key = what.find("page_size") != std::string::npos ? "page_size"
                          : what.find("capacity") != std::string::npos ? "blocks_per_plane"
                                                                       : "address_order";
        p.fail(key, what);
    }
    s.timing.t_read = p.time("tR");
    s.timing.t_prog = p.time("tPROG");
    s.timing.t_erase = p.time("tBERS");
    s.timing.interface_rate = p.rate("interface_rate");
    s.timing.io_port_width = static_cast<uint32_t>(p.size("io_port_width"));
    s.timing.command_cycles = p.u32("command_cycles");
    s.timing.decoder_search = p.time("decoder_search");
    if (s.timing.t_read == 0) p.fail("tR", "must be positive");
    if (s.timing.t_prog == 0) p.fail("tPROG", "must be positive");
    if (s.timing.t_erase == 0) p.fail("tBERS", "must be positive");
    s.io_ports_per_package = p.u32("io_ports_per_package");
    s.registers_per_plane = p.u32("registers_per_plane");
    s.grouping = p.str("register_grouping") == "package" ? RegisterGrouping::Package : RegisterGrouping::Plane;
    s.multi_plane = p.flag("multi_plane");
    s.write_miss_sense = p.flag("write_miss_sense");
    s.dirty_watermark = p.real("dirty_watermark");
    s.reads_take_dirty_registers = p.flag("reads_take_dirty_registers");
    s.cache_program = p.flag("cache_program");
    s.endurance = p.u32("endurance");
    s.register_replacement = p.section("register_replacement");
    s.register_interconnect = p.section("register_interconnect");
    s.register_replacement_path = path + ".register_replacement";
    s.register_interconnect_path = path + ".register_interconnect";
    s.thrashing = ThrashingCheckerConfig::read(p.section("thrashing_checker"), path + ".thrashing_checker");
    return s;
}

FlashSpec load_flash_spec(const ConfigNode* root) {
    return parse_flash_section(root ? root->find("flash") : nullptr, "flash");
}

}  // namespace zng::flash
