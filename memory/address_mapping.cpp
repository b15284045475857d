#include "memory/address_mapping.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace zng::memory {

namespace {
using namespace param_kind;
bool is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

// The defaults are those of every back end that uses the mapping (GDDR5, Optane).
const Param<String> kAddressMap{"address_map", "channel,column,bank,row",
                                "how a physical address is split: channel, bank, column, row, comma-separated, least "
                                "significant first (row last); below them sit `interleave` contiguous bytes"};
const auto kInterleave =
    Param<Size>("interleave", "256B", "bytes kept contiguous before the next address field changes (divides the row)")
        .min(1);
const auto kBankHash =
    Param<Choice>("bank_hash", "none",
                  "none, or xor: bank ^= low row bits (permutation interleaving; power-of-two banks)")
        .choices({"none", "xor"});
}  // namespace

AddressMapping::AddressMapping(uint32_t channels, uint32_t banks, uint64_t row_bytes, uint64_t granule_bytes,
                               const std::vector<std::string>& order, BankHash hash)
    : channels_(channels), banks_(banks), row_bytes_(row_bytes), granule_(granule_bytes), hash_(hash) {
    if (channels_ == 0 || banks_ == 0) throw std::invalid_argument("channels and banks must be at least 1");
    if (granule_ == 0 || row_bytes_ == 0 || row_bytes_ % granule_ != 0)
        throw std::invalid_argument(
            fmt::format("the interleave granule ({} B) must divide the row size ({} B)", granule_, row_bytes_));
    if (row_bytes_ / granule_ > 0xffffffffull) throw std::invalid_argument("too many granules per row");
    columns_ = static_cast<uint32_t>(row_bytes_ / granule_);
    if (hash_ == BankHash::Xor && !is_pow2(banks_))
        throw std::invalid_argument(fmt::format("bank_hash xor needs a power-of-two bank count (have {})", banks_));
    if (order.size() != 4 || order.back() != "row")
        throw std::invalid_argument(
            "address_map must list channel, bank, column and row once each, least significant first, row last");
    bool seen[3] = {false, false, false};
    for (int i = 0; i < 3; ++i) {
        Field f;
        if (order[i] == "channel") f = Field::Channel;
        else if (order[i] == "bank") f = Field::Bank;
        else if (order[i] == "column") f = Field::Column;
        else
            throw std::invalid_argument(fmt::format(
                "address_map entry '{}' is not one of channel, bank, column (row must be last)", order[i]));
        if (seen[static_cast<int>(f)]) throw std::invalid_argument(fmt::format("address_map lists '{}' twice", order[i]));
        seen[static_cast<int>(f)] = true;
        order_[i] = f;
    }
}

AddressMapping AddressMapping::from_params(const Params& p, uint32_t channels, uint32_t banks, uint64_t row_bytes) {
    std::vector<std::string> order;
    const std::string text = p[kAddressMap];
    size_t start = 0;
    for (;;) {
        size_t comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        while (!item.empty() && item.front() == ' ') item.erase(item.begin());
        while (!item.empty() && item.back() == ' ') item.pop_back();
        order.push_back(item);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    try {
        return AddressMapping(channels, banks, row_bytes, p[kInterleave], order,
                              p[kBankHash] == "xor" ? BankHash::Xor : BankHash::None);
    } catch (const std::invalid_argument& e) {
        p.fail(kAddressMap.key(), e.what());
    }
}

std::vector<ParamSpec> AddressMapping::params() { return {kAddressMap, kInterleave, kBankHash}; }

}  // namespace zng::memory
