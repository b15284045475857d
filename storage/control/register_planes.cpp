#include "storage/control/bam_plane.hpp"
#include "storage/control/cpu_managed_plane.hpp"
#include "storage/gofs/basic_plane.hpp"
#include "storage/gofs/geminifs_plane.hpp"
#include "storage/gofs/gofs_plane.hpp"
#include "storage/gofs/gpufs_plane.hpp"

namespace zng::storage {

void register_control_planes() {
    control_plane_slot().add(BamSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<BamPlane>(path, BamSettings::read(p));
    });
    for (const char* name : {"cam", "spdk", "posix", "gds"})
        control_plane_slot().add(CpuManagedSettings::schema(name), [](const Params& p, const StoragePath& path) {
            return std::make_unique<CpuManagedPlane>(path, CpuManagedSettings::read(p));
        });
    control_plane_slot().add(gofs::GofsSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<gofs::GofsPlane>(path, gofs::GofsSettings::read(p));
    });
    control_plane_slot().add(gofs::BasicSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<gofs::BasicPlane>(path, gofs::BasicSettings::read(p));
    });
    control_plane_slot().add(gofs::GpufsSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<gofs::GpufsPlane>(path, gofs::GpufsSettings::read(p));
    });
    control_plane_slot().add(gofs::GeminifsSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<gofs::GeminifsPlane>(path, gofs::GeminifsSettings::read(p));
    });
}

}  // namespace zng::storage
