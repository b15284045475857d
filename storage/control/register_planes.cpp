#include "storage/cache_vol/cache_vol_plane.hpp"
#include "storage/control/bam_plane.hpp"
#include "storage/control/cpu_managed_plane.hpp"
#include "storage/control/os_fault_plane.hpp"
#include "storage/gofs/basic_plane.hpp"
#include "storage/gofs/geminifs_plane.hpp"
#include "storage/gofs/gofs_plane.hpp"
#include "storage/streamer/cache_tier_plane.hpp"
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
    control_plane_slot().add(OsFaultSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<OsFaultPlane>(path, OsFaultSettings::read(p));
    });
    control_plane_slot().add(gofs::GofsSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<gofs::GofsPlane>(path, gofs::GofsSettings::read(p));
    });
    control_plane_slot().add(gofs::BasicSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<gofs::BasicPlane>(path, gofs::BasicSettings::read(p));
    });
    control_plane_slot().add(cache_vol::CacheVolSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<cache_vol::CacheVolPlane>(path, cache_vol::CacheVolSettings::read(p));
    });
    for (const std::string& name : streamer::CacheTierSettings::models())
        control_plane_slot().add(streamer::CacheTierSettings::schema(name), [](const Params& p, const StoragePath& path) {
            return std::make_unique<streamer::CacheTierPlane>(path, streamer::CacheTierSettings::read(p));
        });
    control_plane_slot().add(gofs::GpufsSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<gofs::GpufsPlane>(path, gofs::GpufsSettings::read(p));
    });
    control_plane_slot().add(gofs::GeminifsSettings::schema(), [](const Params& p, const StoragePath& path) {
        return std::make_unique<gofs::GeminifsPlane>(path, gofs::GeminifsSettings::read(p));
    });
}

}  // namespace zng::storage
