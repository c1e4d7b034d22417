# The CMake package as users meet it: a consumer project configured against
# the build tree (Ninja) or an installed prefix (Unix Makefiles) builds with
# dpstub_generate(), runs, and re-translates when a header its sources
# include changes.
#   cmake -DMODE=build-tree|install -DBUILD=<dpstub build dir> -DSOURCE=<consumer dir>
#         -DWORK=... -P run_package_test.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(COPY ${SOURCE}/ DESTINATION ${WORK}/src)

include(${CMAKE_CURRENT_LIST_DIR}/run_helpers.cmake)

if(MODE STREQUAL "install")
  run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
  foreach(f bin/dpstub include/dp/dp.hpp lib/libdp_runtime.a lib/pkgconfig/dpstub.pc
            lib/cmake/dpstub/dpstubConfig.cmake
            lib/cmake/dpstub/dpstubGenerate.cmake)
    if(NOT EXISTS ${WORK}/prefix/${f})
      message(FATAL_ERROR "cmake --install did not install ${f}")
    endif()
  endforeach()
  set(configure -G "Unix Makefiles" -DCMAKE_PREFIX_PATH=${WORK}/prefix)
  # By hand, as docs/getting-started.md shows: the installed dpstub with no
  # flags (it finds its own headers), then the compiler with pkg-config's.
  find_program(PKG_CONFIG pkg-config REQUIRED)
  set(ENV{PKG_CONFIG_PATH} ${WORK}/prefix/lib/pkgconfig)
  run(${PKG_CONFIG} --cflags --libs dpstub)
  string(STRIP "${last_output}" pc_flags)
  separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
  file(MAKE_DIRECTORY ${WORK}/by-hand)
  file(WRITE ${WORK}/by-hand/prog.cpp "#include <dp/dp.hpp>\n#include <cstdio>\nint main() {\n  dp::field<1, int> f(dp::grid<1>(4));\n  dp::forall(f.get_grid(), [](dp::index<1> i, int &x) { x = 2 * int(i[0]); }, dp::_index, f);\n  std::printf(\"by hand %d\\n\", f(3));\n}\n")
  run(${WORK}/prefix/bin/dpstub ${WORK}/by-hand/prog.cpp --out-dir ${WORK}/by-hand/gen --)
  run(c++ -std=c++17 ${WORK}/by-hand/gen/prog.cpp ${pc_flags} -o ${WORK}/by-hand/prog)
  run(${WORK}/by-hand/prog)
  if(NOT last_output MATCHES "by hand 6")
    message(FATAL_ERROR "the program built with pkg-config's flags printed: ${last_output}")
  endif()
else()
  set(configure -G Ninja -Ddpstub_DIR=${BUILD})
endif()

run(${CMAKE_COMMAND} -S ${WORK}/src -B ${WORK}/build ${configure})
run(${CMAKE_COMMAND} --build ${WORK}/build)
run(${WORK}/build/consumer)
if(NOT last_output MATCHES "sum 135 a 4 b 8")
  message(FATAL_ERROR "the consumer printed: ${last_output}")
endif()

# Nothing changed: nothing is translated again.
run(${CMAKE_COMMAND} --build ${WORK}/build)
if(last_output MATCHES "dpstub: translating")
  message(FATAL_ERROR "an up-to-date build translated again:\n${last_output}")
endif()

# A header main.cpp includes changes: main.cpp is translated again.
file(READ ${WORK}/src/helper.hpp helper)
string(REPLACE "return 3;" "return 5;" helper "${helper}")
file(WRITE ${WORK}/src/helper.hpp "${helper}")
run(${CMAKE_COMMAND} --build ${WORK}/build)
if(NOT last_output MATCHES "dpstub: translating main.cpp")
  message(FATAL_ERROR "changing helper.hpp did not translate main.cpp again:\n${last_output}")
endif()
run(${WORK}/build/consumer)
if(NOT last_output MATCHES "sum 225 a 4 b 8")
  message(FATAL_ERROR "after changing helper.hpp the consumer printed: ${last_output}")
endif()
message(STATUS "${MODE}: ${last_output}")
