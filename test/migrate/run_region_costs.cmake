# A structured data region over member paths holds its arrays for its
# whole extent: in c_mesh's relax(), run on the emulated device, the
# two loops of 5 calls each move 3,072 bytes in all (both arrays, once)
# and 0 bytes; each call-site borrowing by itself would move them at
# every call. Reads DP_PROFILE=summary's table.
#   cmake -DDP=<translated c_mesh> -P run_region_costs.cmake
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${CMAKE_COMMAND} -E env DP_HOST_MODE=emulate DP_PROFILE=summary ${DP}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${DP} exited ${rc}:\n${out}")
endif()
# Rows: call-site, kind, calls, total ms, mean us, bytes moved, ...
# The table is ordered by time taken, which varies run to run: the rows
# are put back in the order of their lines.
string(REGEX MATCHALL "c_mesh\\.cpp:[0-9]+:[0-9]+ +forall +5 +[0-9.]+ +[0-9.]+ +[0-9]+" rows "${out}")
set(by_line)
foreach(row IN LISTS rows)
  string(REGEX REPLACE "^c_mesh\\.cpp:([0-9]+):.* ([0-9]+)$" "\\1=\\2" entry "${row}")
  list(APPEND by_line ${entry})
endforeach()
list(SORT by_line COMPARE NATURAL)
set(bytes)
foreach(entry IN LISTS by_line)
  string(REGEX REPLACE "^[0-9]+=" "" moved "${entry}")
  list(APPEND bytes ${moved})
endforeach()
if(NOT bytes STREQUAL "3072;0")
  message(FATAL_ERROR "relax()'s two loops moved '${bytes}' bytes, expected 3072 then 0:\n${out}")
endif()
