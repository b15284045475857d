// Loads a platform file with its includes, builds (validates) every component of the
// platform, and reads the default flash shape: the config loader, the component
// registry and the models all come from the installed libraries.
#include <iostream>

#include "flash_model/array/flash_geometry.hpp"
#include "sim/app/cli_common.hpp"
#include "sim/app/platform.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: zng_consumer PLATFORM.yaml\n";
        return 2;
    }
    zng::cli::register_all_components();
    const zng::ConfigNode root = zng::cli::load_platform_config(argv[1], {});
    zng::cli::validate_platform(root);
    std::cout << "platform " << root.find_path("platform.name")->scalar() << "\n";
    std::cout << "flash planes " << zng::flash::FlashGeometry{}.planes() << "\n";
    return 0;
}
