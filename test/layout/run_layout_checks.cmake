# What the runtime's layout promises, checked on the sources:
#  * only dp::record's recorders, their record (detail/recording.hpp,
#    runtime/recording.cpp), the host reference's recorder
#    (reference/record_call.hpp) and the executor that chooses among the
#    executors (rt/executors.hpp) ask whether a recording is being made;
#  * no include loop among the headers of include/.
#
# cmake -DROOT=<source tree> -P run_layout_checks.cmake
cmake_minimum_required(VERSION 3.20)

file(GLOB_RECURSE headers RELATIVE ${ROOT} ${ROOT}/include/*.hpp)
file(GLOB_RECURSE runtime RELATIVE ${ROOT} ${ROOT}/runtime/*.cpp ${ROOT}/runtime/*.hpp)

set(asks_allowed
    include/dp/detail/recording.hpp runtime/recording.cpp include/dp/reference/record_call.hpp
    include/dp/rt/executors.hpp include/dp/rt/host/recorder.hpp include/dp/rt/device/recorder.hpp)
set(failures "")
foreach(f ${headers} ${runtime})
  file(READ ${ROOT}/${f} text)
  if(text MATCHES "recording::(active|of_call_site)\\(|\\.recording\\(\\)|record_into\\("
     AND NOT f IN_LIST asks_allowed)
    string(APPEND failures "  ${f} asks whether a recording is made (only the recorders may)\n")
  endif()
endforeach()

# The include graph of include/: "a.hpp" includes resolved against the
# including header's folder.
set(nodes "")
foreach(f ${headers})
  file(STRINGS ${ROOT}/${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  get_filename_component(dir ${f} DIRECTORY)
  set(out "")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" inc "${line}")
    cmake_path(SET target NORMALIZE "${dir}/${inc}")
    if(target IN_LIST headers)
      list(APPEND out ${target})
    endif()
  endforeach()
  set("edges_${f}" ${out})
  list(APPEND nodes ${f})
endforeach()
# Peels off, until none is left to peel, the headers that include no header
# left (OUT), or that no header left includes (IN).
function(peel mode)
  set(changed TRUE)
  while(changed)
    set(changed FALSE)
    set(keep "")
    foreach(f ${left})
      set(linked FALSE)
      foreach(g ${left})
        if((mode STREQUAL "OUT" AND g IN_LIST edges_${f}) OR (mode STREQUAL "IN" AND f IN_LIST edges_${g}))
          set(linked TRUE)
          break()
        endif()
      endforeach()
      if(linked)
        list(APPEND keep ${f})
      else()
        set(changed TRUE)
      endif()
    endforeach()
    set(left ${keep})
  endwhile()
  set(left ${left} PARENT_SCOPE)
endfunction()
# What stays of both peels (Kahn's, each way) is the loops themselves.
set(left ${nodes})
peel(OUT)
peel(IN)
if(left)
  list(JOIN left "\n    " loop)
  string(APPEND failures "  include loop among:\n    ${loop}\n")
endif()

list(LENGTH headers count)
if(failures)
  message(FATAL_ERROR "layout checks failed:\n${failures}")
endif()
message(STATUS "${count} headers: no include loop; only the recorders ask whether a recording is made")
