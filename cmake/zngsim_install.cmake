# What `cmake --install` puts under the prefix:
#   bin/zngsim
#   share/zngsim/configs/       platform files and their fragments (includes resolve
#                               relative to the including file, so the tree works anywhere)
#   share/zngsim/experiments/   sweep.py, the figure scripts and specs, the sweeps and
#                               figures packages (their ROOT is share/zngsim)
#   include/                    the public headers of the model libraries
#   lib/                        the model libraries
#   lib/cmake/zngsim/           the package: find_package(zngsim) gives zngsim::<library>
include(CMakePackageConfigHelpers)

set(ZNG_EXPORTED_LIBRARIES sim traces workloads trace_importers flash_model memory mmu_ftl storage gpu_model zngsim_app)
set(ZNG_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/zngsim)
set(ZNG_DATA_DIR ${CMAKE_INSTALL_DATADIR}/zngsim)

# zngsim::app is the platform assembly (Platform, register_all_components) behind the command.
set_target_properties(zngsim_app PROPERTIES EXPORT_NAME app)

install(TARGETS zngsim ${ZNG_EXPORTED_LIBRARIES}
        EXPORT zngsimTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Headers keep their source paths: code includes "sim/config/params.hpp" either way.
foreach(dir sim traces flash_model memory mmu_ftl storage gpu_model)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${CMAKE_BINARY_DIR}/generated/sim/app/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sim/app)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs DESTINATION ${ZNG_DATA_DIR}
        FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/experiments DESTINATION ${ZNG_DATA_DIR} USE_SOURCE_PERMISSIONS
        FILES_MATCHING PATTERN "*.py" PATTERN "*.yaml" PATTERN "*.sh" PATTERN "README.md"
        PATTERN "results*" EXCLUDE PATTERN "__pycache__" EXCLUDE)

install(EXPORT zngsimTargets NAMESPACE zngsim:: DESTINATION ${ZNG_PACKAGE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/zngsimConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/generated/zngsimConfig.cmake
                              INSTALL_DESTINATION ${ZNG_PACKAGE_DIR}
                              PATH_VARS ZNG_DATA_DIR)
# The libraries are built from one source tree with no stable ABI: only the same
# minor version is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/zngsimConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/generated/zngsimConfig.cmake ${CMAKE_BINARY_DIR}/generated/zngsimConfigVersion.cmake
        DESTINATION ${ZNG_PACKAGE_DIR})
