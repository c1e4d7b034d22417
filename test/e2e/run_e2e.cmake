# Runs a program untranslated (REF) and translated (DP): natively, and in
# dispatch emulation under limits that force every dispatch mode and
# multi-launch plans. Every run must print exactly what REF printed.
# CHECK_MODES lists the dispatch modes the emulated runs together must have
# used; they must also have split into several direct and indirect launches
# (DP_TRACE_DISPATCH lines prove it). Every emulated run must leave no
# device or page-locked memory allocated at exit (memory_at_exit.cmake).
#   cmake -DREF=... -DDP=... [-DCHECK_MODES=1;2;...;7] [-DARGS=a;b] -P run_e2e.cmake
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/memory_at_exit.cmake)

execute_process(COMMAND ${REF} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE expected ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the untranslated program failed (${rc}):\n${expected}${err}")
endif()

# One environment per line (space-separated variables).
set(configs
  "DP_HOST_MODE=native"
  "DP_HOST_MODE=emulate"
  "DP_HOST_MODE=emulate DP_EMULATE_MAX_GROUPS=10,2,64 DP_EMULATE_GROUP=4"
  "DP_HOST_MODE=emulate DP_EMULATE_MAX_GROUPS=5,64,64 DP_EMULATE_GROUP=4"
  "DP_HOST_MODE=emulate DP_EMULATE_MAX_GROUPS=3,64,64 DP_EMULATE_GROUP=4"
  "DP_HOST_MODE=emulate DP_DISPATCH_POLICY=split DP_EMULATE_MAX_GROUPS=3,2,2 DP_EMULATE_GROUP=4,2,1"
  "DP_HOST_MODE=emulate DP_DISPATCH_POLICY=load_balance DP_EMULATE_MAX_GROUPS=2,2,2 DP_EMULATE_GROUP=8")
set(trace "")
foreach(config IN LISTS configs)
  separate_arguments(env UNIX_COMMAND "${config}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} DP_TRACE_DISPATCH=1 ${DP} ${ARGS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE got ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT got STREQUAL expected)
    message(FATAL_ERROR "translated run under '${config}' differs (exit ${rc}):\n"
                        "--- expected\n${expected}--- got\n${got}--- stderr\n${err}")
  endif()
  check_memory_at_exit("${err}" "${config}")
  string(APPEND trace "${err}")
endforeach()

if(CHECK_MODES)
  foreach(mode IN LISTS CHECK_MODES)
    if(NOT trace MATCHES "mode ${mode},")
      message(FATAL_ERROR "no emulated run used dispatch mode ${mode}:\n${trace}")
    endif()
  endforeach()
  if(NOT trace MATCHES "mode [123], [0-9]+ launches" OR NOT trace MATCHES "mode 7, [0-9]+ launches")
    message(FATAL_ERROR "no emulated run split into several direct and indirect launches")
  endif()
endif()
list(LENGTH configs runs)
message(STATUS "identical output in ${runs} translated runs")
