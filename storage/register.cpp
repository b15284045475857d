#include "storage/register.hpp"

#include "flash_model/register.hpp"
#include "mmu_ftl/wear/free_block_pool.hpp"
#include "sim/mem/address_translator.hpp"
#include "storage/control/control_plane.hpp"
#include "storage/gpu/gpu_dma_port.hpp"
#include "storage/hetero/hetero_host_translator.hpp"
#include "storage/host/host_cpu.hpp"
#include "storage/pcie/pcie_topology.hpp"
#include "storage/ssd/calibrated_ssd_device.hpp"
#include "storage/ssd/firmware_ssd_device.hpp"
#include "storage/ssd/ssd_array.hpp"
#include "storage/storage_system.hpp"

namespace zng::storage {

void register_storage_components() {
    // The firmware device builds flash networks and wear-levelling policies by name.
    register_flash_model_components();
    ftl::register_wear_leveling_policies();
    ssd_device_slot().add(CalibratedSsdDevice::schema(), [](const Params& p, Simulator& sim, const SsdDeviceContext&) {
        return std::make_unique<CalibratedSsdDevice>(sim, CalibratedSsdDevice::read(p));
    });
    ssd_device_slot().add(FirmwareSsdDevice::schema(), [](const Params& p, Simulator& sim, const SsdDeviceContext& ctx) {
        return std::make_unique<FirmwareSsdDevice>(sim, p, ctx.stats_name, ctx.flash);
    });
    translator_slot().add(HeteroHostTranslator::schema(),
                          [](const Params& p, Simulator& sim, const TranslatorContext& ctx) {
                              return std::make_unique<HeteroHostTranslator>(sim, p, ctx);
                          });
    register_control_planes();
    // Components built by the platforms that use them, catalogued here.
    StorageSystem::schema();
    HeteroHostSsd::schema();
    SsdArraySettings::schema();
    NvmeSettings::schema();
    PcieTopologySettings::schema();
    HostCpuSettings::schema();
    GpuDmaPortSettings::schema();
}

}  // namespace zng::storage
