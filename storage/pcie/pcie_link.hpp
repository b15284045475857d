// PCIe link parameters as a platform writes them (lanes, per-lane rate, encoding,
// payload efficiency, latency), turned into one SerialLink per direction: effective
// bandwidth = lanes x rate x encoding efficiency / 8 bits x payload efficiency.
// Gen3 x16: 16 x 8 GT/s x 128/130 / 8 = 15.75 GB/s. The payload efficiency is the
// measured fraction left after TLP headers, flow control and contention (seed 000,
// IV-B: "The measured peak PCIe bandwidth (21 GB/s) is lower than the theoretical
// value (32 GB/s) due to 1) PCIe header and control signal overhead and 2) PCIe
// traffic contention between multiple SSDs").
#pragma once
#include <string>
#include <vector>

#include "sim/config/params.hpp"
#include "sim/mem/serial_link.hpp"

namespace zng::storage {

struct PcieLinkSpec {
    uint32_t lanes = 16;
    uint64_t rate = 8'000'000'000;  // transfers per second per lane
    double encoding = 128.0 / 130.0;
    double payload_efficiency = 1.0;
    Tick latency = 1 * kMicrosecond;
    double bytes_per_second() const {
        return static_cast<double>(lanes) * static_cast<double>(rate) * encoding / 8.0 * payload_efficiency;
    }
};

// The parameters of one PCIe link in a component's schema, declared once: keys
// `<prefix>lanes`, `<prefix>rate`, `<prefix>encoding`, `<prefix>efficiency`,
// `<prefix>latency`, with the component's defaults; the schema takes specs(), the
// constructor read().
class PcieLinkParams {
public:
    PcieLinkParams(const std::string& prefix, const std::string& what, uint32_t lanes, const std::string& rate,
                   const std::string& latency, const std::string& efficiency = "1.0");
    std::vector<ParamSpec> specs() const { return {lanes_, rate_, encoding_, efficiency_, latency_}; }
    PcieLinkSpec read(const Params& p) const;

private:
    Param<param_kind::UInt32> lanes_;
    Param<param_kind::Rate> rate_;
    Param<param_kind::Choice> encoding_;
    Param<param_kind::Real> efficiency_;
    Param<param_kind::Time> latency_;
};

}  // namespace zng::storage
