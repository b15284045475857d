# Writes version.hpp with the project version and the commit the sources are at. Run at
# every build (sim/app/CMakeLists.txt), not only when CMake configures: a build after a
# commit would otherwise report the commit of the last configure in every stats.json.
# configure_file rewrites the header only when its text changes, so an unchanged commit
# recompiles nothing. A tree with uncommitted changes to tracked files adds ".dirty": its
# results were not made by the commit named, and stats.json should not say they were.
#   cmake -DSRC=<source dir> -DIN=<version.hpp.in> -DOUT=<version.hpp> -DPROJECT_VERSION=<x.y.z> -P zngsim_version.cmake
set(ZNG_GIT_SUFFIX "")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${SRC}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SRC} rev-parse --short HEAD
                  OUTPUT_VARIABLE ZNG_GIT_REV OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(ZNG_GIT_REV)
    set(ZNG_GIT_SUFFIX "+${ZNG_GIT_REV}")
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SRC} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE ZNG_GIT_CHANGES OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(ZNG_GIT_CHANGES)
      string(APPEND ZNG_GIT_SUFFIX ".dirty")
    endif()
  endif()
endif()
configure_file(${IN} ${OUT} @ONLY)
