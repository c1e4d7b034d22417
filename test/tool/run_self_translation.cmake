# dpstub --all over this project's compile_commands.json must report no
# error but the one this project writes on purpose (a unit test proving the
# host reference throws on a divergent barrier, which the tool rejects at
# translation time), and every source without a call-site must come out
# byte for byte unchanged.
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${DPSTUB} --all -p ${BUILD} -j 2 --root ${SOURCE_DIR} --out-dir ${WORK}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
set(intended "tiles_test\\.cpp:[0-9]+:[0-9]+: error: barrier under a condition that depends on the thread")
string(REPLACE ";" "," flat "${err}") # a CMake list splits at semicolons
string(REGEX MATCHALL "[^\n]*: error: [^\n]*" errors "${flat}")
list(FILTER errors EXCLUDE REGEX "${intended}")
if(errors OR NOT (rc EQUAL 0 OR err MATCHES "${intended}"))
  message(FATAL_ERROR "dpstub --all exited ${rc}; unexpected errors: ${errors}\n${err}")
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
  if(NOT after STREQUAL before)
    message(FATAL_ERROR "${f} has no call-site but was changed")
  endif()
  math(EXPR unchanged "${unchanged} + 1")
endforeach()
if(unchanged LESS 5)
  message(FATAL_ERROR "too few sources checked (${unchanged}):\n${err}")
endif()
message(STATUS "${unchanged} sources without call-sites unchanged")
