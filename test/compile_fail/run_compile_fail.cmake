# A program the host reference must reject at compile time, with a readable
# message. The source says what the compiler must print:
#   // EXPECT-ERROR: text       (every such line must appear in its output)
#   cmake -DCXX=... -DINCLUDE=... -DINPUT=... -P run_compile_fail.cmake
cmake_minimum_required(VERSION 3.20)
file(STRINGS ${INPUT} expectations REGEX "// EXPECT-ERROR: ")
if(NOT expectations)
  message(FATAL_ERROR "${INPUT} has no EXPECT-ERROR line")
endif()
execute_process(COMMAND ${CXX} -std=c++17 -I${INCLUDE} -fsyntax-only ${INPUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "${INPUT} compiled, but the host reference must reject it")
endif()
foreach(line IN LISTS expectations)
  string(REGEX REPLACE ".*// EXPECT-ERROR: " "" text "${line}")
  string(FIND "${out}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected \"${text}\" in the compiler's output:\n${out}")
  endif()
endforeach()
