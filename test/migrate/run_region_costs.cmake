# What the call-sites of a migrated program move between host and device
# on the emulated device, in the order of their lines (DP_PROFILE=summary's
# table), against EXPECT:
# - c_mesh: a structured data region over member paths holds its arrays
#   for its whole extent: relax()'s two loops of 5 calls each move 3,072
#   bytes in all (both arrays, once) and 0 bytes; each call-site borrowing
#   by itself would move them at every call.
# - acc_corner: inside the data region (whose opening and closing move
#   the grid, rows of their own) the wavefront's loop and the two kernels
#   of one point (the second on queue 1, under .when()) move nothing; were
#   they host code, they would have no rows and each sweep would bring the
#   grid back and forth.
# - acc_stream: arrays from malloc, first written by a device loop: their
#   fields are value-initialised, and their device copies start as zeros
#   set on the device, so no call-site moves a byte (the first moved the
#   three arrays' zeros, 1,572,864 bytes, before the runtime set them).
# - omp_host_threads: HOST_ACCESS, the host's own transfers (calls;
#   bytes): fields a call-site wrote are brought to the host once before
#   the OpenMP threads that stay share them, 4 times 'a' (512 KiB) in the
#   loop and once 'b' before the run of statements a split region keeps;
#   each thread's first access bringing its own copy would count more.
#   The last call-site, whose region keeps only the statement asking for
#   its team, sends 'b' once for its 2 calls; the final sum brings it
#   back once (the sixth transfer). The call-site that left the
#   private(t) region sends 'a' again (the host's threads wrote it), and
#   'a' comes back once before the region the split left (the seventh).
# Only the forall rows of CALLS calls count, when it is given.
#   cmake -DDP=<translated program> -DFILE=c_mesh.cpp -DCALLS=5 -DEXPECT="3072;0"
#         [-DHOST_ACCESS="5;2621440"] -P run_region_costs.cmake
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${CMAKE_COMMAND} -E env DP_HOST_MODE=emulate DP_PROFILE=summary ${DP}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${DP} exited ${rc}:\n${out}")
endif()
# Rows: call-site, kind, calls, total ms, mean us, bytes moved, ...
# The table is ordered by time taken, which varies run to run: the rows
# are put back in the order of their lines.
string(REPLACE "." "\\." file_pattern "${FILE}")
if(NOT CALLS)
  set(CALLS "[0-9]+") # rows of any number of calls
endif()
string(REGEX MATCHALL "${file_pattern}:[0-9]+:[0-9]+ +forall +${CALLS} +[0-9.]+ +[0-9.]+ +[0-9]+" rows "${out}")
set(by_line)
foreach(row IN LISTS rows)
  string(REGEX REPLACE "^${file_pattern}:([0-9]+):.* ([0-9]+)$" "\\1=\\2" entry "${row}")
  list(APPEND by_line ${entry})
endforeach()
list(SORT by_line COMPARE NATURAL)
set(bytes)
foreach(entry IN LISTS by_line)
  string(REGEX REPLACE "^[0-9]+=" "" moved "${entry}")
  list(APPEND bytes ${moved})
endforeach()
if(NOT bytes STREQUAL "${EXPECT}")
  message(FATAL_ERROR "${FILE}'s call-sites moved '${bytes}' bytes, expected '${EXPECT}':\n${out}")
endif()
if(DEFINED HOST_ACCESS)
  if(NOT out MATCHES "host access +transfer +([0-9]+) +[0-9.]+ +[0-9.]+ +([0-9]+)")
    message(FATAL_ERROR "no host access row in the profile:\n${out}")
  endif()
  if(NOT "${CMAKE_MATCH_1};${CMAKE_MATCH_2}" STREQUAL "${HOST_ACCESS}")
    message(FATAL_ERROR "the host's transfers were '${CMAKE_MATCH_1};${CMAKE_MATCH_2}' (calls;bytes), "
                        "expected '${HOST_ACCESS}':\n${out}")
  endif()
endif()
