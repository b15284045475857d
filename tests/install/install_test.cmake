# cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER_DIR=... -DCXX_COMPILER=... [-DCONSUMER_LINK_FLAGS=...] -DPYTHON=... -P install_test.cmake
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# 1. Install the existing build tree.
run_checked("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f bin/zngsim share/zngsim/configs/zng.yaml share/zngsim/configs/fragments/znand.yaml
          share/zngsim/experiments/sweep.py share/zngsim/experiments/sweeps/spec.py
          share/zngsim/experiments/fig10_ipc.yaml include/sim/config/config_node.hpp
          include/sim/app/version.hpp include/flash_model/array/flash_geometry.hpp
          lib/cmake/zngsim/zngsimConfig.cmake lib/cmake/zngsim/zngsimConfigVersion.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${prefix}/${f}")
  endif()
endforeach()

# 2. The installed binary runs a built-in workload on an installed platform file,
# whose includes (zng-base.yaml, fragments/) resolve inside the prefix. Its own trace
# cache keeps the test independent of the user's.
run_checked("installed zngsim run" ${CMAKE_COMMAND} -E env ZNGSIM_CACHE=${WORK_DIR}/cache
            ${prefix}/bin/zngsim run --config ${prefix}/share/zngsim/configs/zng.yaml
            --workload deg --preset small --out ${WORK_DIR}/run -q)
file(READ ${WORK_DIR}/run/stats.json stats)
string(JSON platform GET "${stats}" config platform name)
if(NOT platform STREQUAL "zng")
  message(FATAL_ERROR "installed run: platform '${platform}' in stats.json, expected zng")
endif()

# 3. The installed sweep runner finds the installed binary (no ZNGSIM, no build/) and
# resolves a spec's configs/ against share/zngsim.
file(WRITE ${WORK_DIR}/one.yaml "description: one point\nconfigs: [configs/ideal.yaml]\nworkloads: [deg]\n"
                                "options: {preset: small}\nmetrics: {}\n")
run_checked("installed sweep.py" ${CMAKE_COMMAND} -E env --unset=ZNGSIM ZNGSIM_CACHE=${WORK_DIR}/cache
            ${PYTHON} ${prefix}/share/zngsim/experiments/sweep.py ${WORK_DIR}/one.yaml
            --out ${WORK_DIR}/sweep -j 1)
if(NOT EXISTS ${WORK_DIR}/sweep/stats.csv)
  message(FATAL_ERROR "installed sweep.py wrote no stats.csv:\n${last_output}")
endif()

# 4. A consumer project links the models through find_package(zngsim).
run_checked("consumer configure" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer
            -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release
            "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_LINK_FLAGS}")
run_checked("consumer build" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run_checked("consumer run" ${WORK_DIR}/consumer/zng_consumer ${prefix}/share/zngsim/configs/zng.yaml)
# zng's platform file names its platform; the default flash shape has
# 16 channels x 1 package x 8 dies x 8 planes = 1024 planes.
if(NOT last_output MATCHES "platform zng\nflash planes 1024\n")
  message(FATAL_ERROR "consumer printed:\n${last_output}")
endif()
message(STATUS "install test passed: ${last_output}")
