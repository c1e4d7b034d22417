# The memory check at exit must catch a leak: leak_probe, translated, run
# on the emulated device, must fail check_memory_at_exit.
#   cmake -DDP=... -P run_leak_probe.cmake
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/memory_at_exit.cmake)
execute_process(COMMAND ${CMAKE_COMMAND} -E env DP_HOST_MODE=emulate DP_TRACE_DISPATCH=1 ${DP}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "leaked on purpose")
  message(FATAL_ERROR "leak_probe did not run (exit ${rc}):\n${out}${err}")
endif()
if(NOT err MATCHES "dp-count: dp::forall")
  message(FATAL_ERROR "leak_probe's call-site did not run on the emulated device:\n${err}")
endif()
# A run of the check in a child, so that its failure is what we test.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/leak_probe_check.cmake
     "include(${CMAKE_CURRENT_LIST_DIR}/memory_at_exit.cmake)\n"
     "check_memory_at_exit([=[${err}]=] \"DP_HOST_MODE=emulate\")\n")
execute_process(COMMAND ${CMAKE_COMMAND} -P ${CMAKE_CURRENT_BINARY_DIR}/leak_probe_check.cmake
                RESULT_VARIABLE check ERROR_VARIABLE said)
if(check EQUAL 0)
  message(FATAL_ERROR "the memory check at exit passed a program that leaks a field")
endif()
message(STATUS "the memory check at exit caught the leak: ${said}")
