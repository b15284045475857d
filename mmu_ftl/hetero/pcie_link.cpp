#include "mmu_ftl/hetero/pcie_link.hpp"

#include "mmu_ftl/common/schema_params.hpp"

namespace zng::ftl {

std::vector<ParamSpec> PcieLinkSpec::params(const std::string& prefix, const std::string& what, uint32_t lanes,
                                            const std::string& rate, const std::string& latency) {
    using namespace ftl_schema;
    return {
        param(prefix + "lanes", ParamType::UInt, std::to_string(lanes), "PCIe lanes of " + what, 1, 32),
        param(prefix + "rate", ParamType::Rate, rate, "PCIe transfer rate per lane of " + what, 1),
        choice(prefix + "encoding", "128b130b", {"8b10b", "128b130b"},
               "line encoding of " + what + " (8b10b: Gen1/2, 128b130b: Gen3+)"),
        param(prefix + "latency", ParamType::Time, latency, "one-way latency of " + what + " (DMA setup, flight)"),
    };
}

PcieLinkSpec PcieLinkSpec::read(const Params& p, const std::string& prefix) {
    PcieLinkSpec s;
    s.lanes = p.u32(prefix + "lanes");
    s.rate = p.rate(prefix + "rate");
    s.efficiency = p.str(prefix + "encoding") == "8b10b" ? 0.8 : 128.0 / 130.0;
    s.latency = p.time(prefix + "latency");
    return s;
}

}  // namespace zng::ftl
