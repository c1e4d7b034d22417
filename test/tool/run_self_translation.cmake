# dpstub --all over this project's sources must exit 0, and every source
# without a call-site must come out byte for byte unchanged. The database
# is this build's compile_commands.json with each source once (several
# targets compile some) and without the build tree's generated sources
# (dpstub's own outputs: tool.retranslation translates those again), and
# with three of the tool's own sources standing for all of them.
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(READ ${BUILD}/compile_commands.json all)
string(JSON entries LENGTH "${all}")
math(EXPR last "${entries} - 1")
set(seen "")
set(kept "")
foreach(i RANGE ${last})
  string(JSON file GET "${all}" ${i} file)
  string(FIND "${file}" "${BUILD}/" at)
  if(at EQUAL 0 OR file IN_LIST seen)
    continue()
  endif()
  # The tool's own sources parse clang's headers (about 7 s each on two
  # cores, two thirds of this test): three of them stand for the rest.
  if(file MATCHES "^${SOURCE_DIR}/(lib|tool)/" AND
     NOT file MATCHES "/(lib/SourceEdits|tool/dpstub|tool/lsp/Server)\\.cpp$")
    continue()
  endif()
  list(APPEND seen "${file}")
  string(JSON entry GET "${all}" ${i})
  if(kept)
    string(APPEND kept ",\n")
  endif()
  string(APPEND kept "${entry}")
endforeach()
list(LENGTH seen sources)
file(WRITE ${WORK}.db/compile_commands.json "[\n${kept}\n]\n")
message(STATUS "${sources} of ${entries} database entries: each source once, none generated")
execute_process(COMMAND ${DPSTUB} --all -p ${WORK}.db -j 2 --root ${SOURCE_DIR} --out-dir ${WORK}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpstub --all exited ${rc}:\n${err}")
endif()
file(GLOB_RECURSE written RELATIVE ${WORK} ${WORK}/*)
set(unchanged 0)
foreach(f IN LISTS written)
  if(f MATCHES "\\.dpstub\\.hpp$")
    continue()
  endif()
  file(READ ${WORK}/${f} after)
  if(NOT EXISTS ${SOURCE_DIR}/${f})
    continue() # generated inputs of the build tree
  endif()
  file(READ ${SOURCE_DIR}/${f} before)
  if(EXISTS ${WORK}/${f}.dpstub.hpp)
    continue() # has call-sites: rewritten on purpose
  endif()
  # A header of kernel helpers gets their device marks, nothing else.
  string(REPLACE "DP_HOST_DEVICE " "" unmarked "${after}")
  if(NOT unmarked STREQUAL before)
    message(FATAL_ERROR "${f} has no call-site but was changed beyond device marks")
  endif()
  math(EXPR unchanged "${unchanged} + 1")
endforeach()
if(unchanged LESS 5)
  message(FATAL_ERROR "too few sources checked (${unchanged}):\n${err}")
endif()
message(STATUS "${unchanged} sources without call-sites unchanged")
