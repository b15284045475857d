// PCIe link parameters as a platform writes them (lanes, per-lane rate, encoding,
// latency), turned into one SerialLink per direction: effective bandwidth =
// lanes x rate x encoding efficiency / 8 bits. Gen3 x16: 16 x 8 GT/s x 128/130 / 8 =
// 15.75 GB/s.
#pragma once
#include <string>
#include <vector>

#include "sim/config/params.hpp"
#include "sim/mem/serial_link.hpp"

namespace zng::ftl {

struct PcieLinkSpec {
    uint32_t lanes = 16;
    uint64_t rate = 8'000'000'000;  // transfers per second per lane
    double efficiency = 128.0 / 130.0;
    Tick latency = 1 * kMicrosecond;
    double bytes_per_second() const { return static_cast<double>(lanes) * static_cast<double>(rate) * efficiency / 8.0; }

};

// The parameters of one PCIe link in a component's schema, declared once: keys
// `<prefix>lanes`, `<prefix>rate`, `<prefix>encoding`, `<prefix>latency`, with the
// component's defaults; the schema takes specs(), the constructor read().
class PcieLinkParams {
public:
    PcieLinkParams(const std::string& prefix, const std::string& what, uint32_t lanes, const std::string& rate,
                   const std::string& latency);
    std::vector<ParamSpec> specs() const { return {lanes_, rate_, encoding_, latency_}; }
    PcieLinkSpec read(const Params& p) const;

private:
    Param<param_kind::UInt32> lanes_;
    Param<param_kind::Rate> rate_;
    Param<param_kind::Choice> encoding_;
    Param<param_kind::Time> latency_;
};

}  // namespace zng::ftl
