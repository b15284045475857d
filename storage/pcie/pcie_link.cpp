#include "storage/pcie/pcie_link.hpp"

namespace zng::storage {

PcieLinkParams::PcieLinkParams(const std::string& prefix, const std::string& what, uint32_t lanes,
                               const std::string& rate, const std::string& latency, const std::string& efficiency)
    : lanes_(Param<param_kind::UInt32>(prefix + "lanes", std::to_string(lanes), "PCIe lanes of " + what).range(1, 32)),
      rate_(Param<param_kind::Rate>(prefix + "rate", rate, "PCIe transfer rate per lane of " + what).min(1)),
      encoding_(Param<param_kind::Choice>(prefix + "encoding", "128b130b",
                                          "line encoding of " + what + " (8b10b: Gen1/2, 128b130b: Gen3+)")
                    .choices({"8b10b", "128b130b"})),
      efficiency_(Param<param_kind::Real>(prefix + "efficiency", efficiency,
                                          "fraction of the encoded bandwidth of " + what +
                                              " that carries payload (TLP headers, flow control, contention)")
                      .range(0.01, 1.0)),
      latency_(prefix + "latency", latency, "one-way latency of " + what + " (DMA setup, flight)") {}

PcieLinkSpec PcieLinkParams::read(const Params& p) const {
    PcieLinkSpec s;
    s.lanes = p[lanes_];
    s.rate = p[rate_];
    s.encoding = p[encoding_] == "8b10b" ? 0.8 : 128.0 / 130.0;
    s.payload_efficiency = p[efficiency_];
    s.latency = p[latency_];
    return s;
}

}  // namespace zng::storage
