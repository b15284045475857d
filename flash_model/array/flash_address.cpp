#include "flash_model/array/flash_address.hpp"

#include <fmt/format.h>

namespace zng::flash {

std::string FlashAddress::to_string() const {
    return fmt::format("ch{}/pkg{}/die{}/pl{}/blk{}/pg{}", channel, package, die, plane, block, page);
}

}  // namespace zng::flash
