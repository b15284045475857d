#include "storage/ssd/ssd_device.hpp"

namespace zng::storage {

SsdDeviceSlot& ssd_device_slot() {
    static SsdDeviceSlot slot("ssd_device");
    return slot;
}

}  // namespace zng::storage
