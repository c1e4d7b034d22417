# Runs one `dpstub --migrate` golden test, clang-tidy style: the input
# source carries its expectations as FileCheck lines under the loops they
# concern.
#   // EXIT: N          expected exit status (default 0)
#   // SELECTION: L:C-L:C   migrate with --selection over these lines (plain
#                       loops are candidates only there)
#   // REWRITE: line    a line of the migrated source (full-line match)
#   // DIAG: text       a remark, warning or note; any other fails the test
#   // LIST: text       a line of `dpstub --migrate --list` output
#   // SUMMARY: text    the closing summary line
#   // ARGS: a b        more arguments for each `dpstub --migrate`
#   // FLAGS: a b       more compile flags of the source (`-fopenmp`), for
#                       every step
# Headers named <input's stem>_*.h beside it are copied with it.
# Then: the migrated source compiles, migrating it again changes nothing,
# and dpstub translates it like any dp program (its output compiles too).
# A `.c` input is migrated as C (gnu99); its migration is C++ from then on.
#
# cmake -DDPSTUB=... -DFILECHECK=... -DCXX=... -DINCLUDE=... -DINPUT=... -DWORK=... -P
cmake_minimum_required(VERSION 3.20)
get_filename_component(name ${INPUT} NAME)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/in ${WORK}/out ${WORK}/again ${WORK}/translated)
configure_file(${INPUT} ${WORK}/in/${name} COPYONLY)
# Headers beside the input named after it (refusals_loops.h for
# refusals.cpp) go with it; every later step finds them there.
get_filename_component(stem ${INPUT} NAME_WE)
get_filename_component(dir ${INPUT} DIRECTORY)
file(GLOB companions ${dir}/${stem}_*.h)
foreach(header IN LISTS companions)
  configure_file(${header} ${WORK}/in/ COPYONLY)
endforeach()
file(READ ${INPUT} source)
set(flags -std=c++17 -I${INCLUDE} -iquote ${WORK}/in)
# A C source is migrated as C; what comes out is C++, whatever its name.
set(in_flags ${flags})
set(out_flags ${flags})
if(name MATCHES "\\.c$")
  set(in_flags -std=gnu99 -I${INCLUDE} -iquote ${WORK}/in)
  set(out_flags -x c++ ${flags})
endif()

if(source MATCHES "// FLAGS: ([^\n]*)")
  separate_arguments(user_flags UNIX_COMMAND "${CMAKE_MATCH_1}")
  list(APPEND in_flags ${user_flags})
  list(APPEND out_flags ${user_flags})
endif()

set(expected_exit 0)
if(source MATCHES "// EXIT: ([0-9]+)")
  set(expected_exit ${CMAKE_MATCH_1})
endif()
set(selection)
if(source MATCHES "// SELECTION: ([0-9:-]+)")
  set(selection --selection=${WORK}/in/${name}:${CMAKE_MATCH_1})
endif()

set(args)
if(source MATCHES "// ARGS: ([^\n]*)")
  separate_arguments(args UNIX_COMMAND "${CMAKE_MATCH_1}")
endif()

function(filecheck prefix file)
  if(source MATCHES "// ${prefix}:")
    execute_process(COMMAND ${FILECHECK} ${INPUT} --check-prefix=${prefix} --match-full-lines
                            --dump-input=fail --input-file=${file}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${prefix} checks failed:\n${out}")
    endif()
  endif()
endfunction()

execute_process(COMMAND ${DPSTUB} --migrate ${args} ${selection} ${WORK}/in/${name} --out-dir ${WORK}/out -- ${in_flags}
                RESULT_VARIABLE rc ERROR_VARIABLE diags OUTPUT_VARIABLE ignored)
file(WRITE ${WORK}/diagnostics.txt "${diags}")
if(NOT rc EQUAL expected_exit)
  message(FATAL_ERROR "dpstub --migrate exited ${rc}, expected ${expected_exit}:\n${diags}")
endif()

# Every remark, warning and note must be checked (like clang-tidy's tests).
execute_process(COMMAND ${FILECHECK} ${INPUT} --check-prefix=DIAG --dump-input=fail --allow-empty
                        --implicit-check-not=warning: --implicit-check-not=error:
                        --implicit-check-not=remark: --implicit-check-not=note:
                        --input-file=${WORK}/diagnostics.txt
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "DIAG checks failed:\n${out}")
endif()
filecheck(SUMMARY ${WORK}/diagnostics.txt)

if(source MATCHES "// LIST:")
  execute_process(COMMAND ${DPSTUB} --migrate --list ${args} ${selection} ${WORK}/in/${name} -- ${in_flags}
                  RESULT_VARIABLE rc OUTPUT_FILE ${WORK}/list.json ERROR_VARIABLE list_diags)
  # --list says what the migration would stop at, and fails as it would.
  if(NOT rc EQUAL expected_exit)
    message(FATAL_ERROR "dpstub --migrate --list exited ${rc}, expected ${expected_exit}:\n${list_diags}")
  endif()
  filecheck(LIST ${WORK}/list.json)
endif()

if(NOT expected_exit EQUAL 0)
  if(EXISTS ${WORK}/out/${name})
    message(FATAL_ERROR "a translation unit with errors was written")
  endif()
  return()
endif()
if(NOT EXISTS ${WORK}/out/${name}) # nothing converted: the source stays
  configure_file(${WORK}/in/${name} ${WORK}/out/${name} COPYONLY)
endif()
filecheck(REWRITE ${WORK}/out/${name})

# The migrated source is valid C++ for the host compiler...
execute_process(COMMAND ${CXX} ${out_flags} -fsyntax-only ${WORK}/out/${name}
                RESULT_VARIABLE rc ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the migrated source does not compile:\n${out}")
endif()
# ...migrating it again changes nothing...
execute_process(COMMAND ${DPSTUB} --migrate ${args} ${WORK}/out/${name} --out-dir ${WORK}/again -- ${out_flags}
                RESULT_VARIABLE rc ERROR_VARIABLE out OUTPUT_VARIABLE ignored)
if(EXISTS ${WORK}/again/${name})
  file(READ ${WORK}/out/${name} first)
  file(READ ${WORK}/again/${name} second)
  if(NOT first STREQUAL second)
    message(FATAL_ERROR "migrating the migrated source changed it:\n${out}")
  endif()
endif()
# ...and it translates like any dp program.
execute_process(COMMAND ${DPSTUB} ${WORK}/out/${name} --out-dir ${WORK}/translated -- ${out_flags}
                RESULT_VARIABLE rc ERROR_VARIABLE out OUTPUT_VARIABLE ignored)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpstub does not translate the migrated source (exit ${rc}):\n${out}")
endif()
if(EXISTS ${WORK}/translated/${name})
  execute_process(COMMAND ${CXX} ${out_flags} -I${WORK}/translated -fsyntax-only ${WORK}/translated/${name}
                  RESULT_VARIABLE rc ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the translated migrated source does not compile:\n${out}")
  endif()
endif()
