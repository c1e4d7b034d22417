# Runs a program and the program dpstub --migrate made of it; both must
# exit 0 and print the same.
#   cmake -DORIGINAL=... -DMIGRATED=... -P run_compare.cmake
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${ORIGINAL} RESULT_VARIABLE rc OUTPUT_VARIABLE expected ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the original program failed (${rc}):\n${expected}${err}")
endif()
execute_process(COMMAND ${MIGRATED} RESULT_VARIABLE rc OUTPUT_VARIABLE got ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT got STREQUAL expected)
  message(FATAL_ERROR "the migrated program differs (exit ${rc}):\n--- original\n${expected}--- migrated\n${got}--- stderr\n${err}")
endif()
message(STATUS "the migrated program prints what the original prints")
