#include "storage/register.hpp"

#include "storage/gpu/gpu_dma_port.hpp"
#include "storage/host/host_cpu.hpp"
#include "storage/pcie/pcie_topology.hpp"
#include "storage/ssd/calibrated_ssd_device.hpp"
#include "storage/ssd/firmware_ssd_device.hpp"
#include "storage/ssd/ssd_array.hpp"

namespace zng::storage {

void register_storage_components() {
    ssd_device_slot().add(CalibratedSsdDevice::schema(), [](const Params& p, Simulator& sim, const SsdDeviceContext&) {
        return std::make_unique<CalibratedSsdDevice>(sim, CalibratedSsdDevice::read(p));
    });
    ssd_device_slot().add(FirmwareSsdDevice::schema(), [](const Params& p, Simulator& sim, const SsdDeviceContext& ctx) {
        return std::make_unique<FirmwareSsdDevice>(sim, p, ctx.stats_name, ctx.flash);
    });
    // Components built by the platforms that use them, catalogued here.
    SsdArraySettings::schema();
    NvmeSettings::schema();
    PcieTopologySettings::schema();
    HostCpuSettings::schema();
    GpuDmaPortSettings::schema();
}

}  // namespace zng::storage
