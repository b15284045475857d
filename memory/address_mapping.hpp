// Physical address -> (channel, bank, row, column) for channel-interleaved memories.
// The address is cut into `granule`-byte blocks that stay contiguous; the block number
// is then split, least significant first, by the fields named in `order` (mixed radix,
// so channel counts need not be powers of two: a GTX580 has 6). The row takes whatever
// is left above the other fields, so no field depends on the configured capacity.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/params.hpp"

namespace zng::memory {

struct DecodedAddress {
    uint32_t channel = 0;
    uint32_t bank = 0;
    uint64_t row = 0;
    uint32_t column = 0;  // granule index inside the row
};

class AddressMapping {
public:
    enum class Field : uint8_t { Channel, Bank, Column, Row };
    enum class BankHash : uint8_t { None, Xor };

    // order: field names from the least significant upward; `row` must come last.
    // Throws std::invalid_argument with a message that says what is wrong.
    AddressMapping(uint32_t channels, uint32_t banks, uint64_t row_bytes, uint64_t granule_bytes,
                   const std::vector<std::string>& order, BankHash hash);

    DecodedAddress decode(uint64_t addr) const {
        uint64_t x = addr / granule_;
        DecodedAddress d;
        for (int i = 0; i < 3; ++i) {
            const Field f = order_[i];
            const uint64_t n = count(f);
            const uint64_t v = x % n;
            x /= n;
            if (f == Field::Channel) d.channel = static_cast<uint32_t>(v);
            else if (f == Field::Bank) d.bank = static_cast<uint32_t>(v);
            else d.column = static_cast<uint32_t>(v);
        }
        d.row = x;
        // Permutation-based interleaving (Zhang et al., MICRO 2000): rows that map to the
        // same bank in a stride pattern land in different banks.
        if (hash_ == BankHash::Xor) d.bank ^= static_cast<uint32_t>(d.row & (banks_ - 1));
        return d;
    }

    uint32_t channels() const { return channels_; }
    uint32_t banks() const { return banks_; }
    uint64_t row_bytes() const { return row_bytes_; }
    uint64_t granule() const { return granule_; }
    uint32_t columns() const { return columns_; }

    // Builds the mapping from the common keys (address_map, interleave, bank_hash) of a
    // memory back end's section; errors name the file, line and key.
    static AddressMapping from_params(const Params& p, uint32_t channels, uint32_t banks, uint64_t row_bytes);
    // The declarations of the keys from_params reads, for a back end's schema.
    static std::vector<ParamSpec> params();

private:
    uint64_t count(Field f) const {
        return f == Field::Channel ? channels_ : f == Field::Bank ? banks_ : columns_;
    }
    uint32_t channels_, banks_;
    uint64_t row_bytes_, granule_;
    uint32_t columns_;
    std::array<Field, 3> order_{};
    BankHash hash_;
};

}  // namespace zng::memory
