# Runs one dpstub golden test, clang-tidy style: the input source carries
# its expectations as FileCheck lines.
#   // EXIT: N          expected exit status (default 0)
#   // REWRITE: line    a line of the rewritten source (full-line match)
#   // STUB: line       a line of the generated stub header, written under
#                       its call-site (stubs come in source order), naming
#                       stubs by the call's line: forall_[[@LINE-1]]_3
#   // DIAG: text       a diagnostic; any diagnostic not checked fails
#   // LIST: text       a line of `dpstub --list` output
#   // FILES: a.hpp     more inputs copied beside the source (from its folder)
#   // HEADER: line     a line of the first of those, as dpstub wrote it
# Then: the rewritten source must compile, and dpstub run on its own output
# must change nothing.
#
# cmake -DDPSTUB=... -DFILECHECK=... -DCXX=... -DINCLUDE=... -DINPUT=... -DWORK=... -P
cmake_minimum_required(VERSION 3.20)
get_filename_component(name ${INPUT} NAME)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/in ${WORK}/out ${WORK}/again)
configure_file(${INPUT} ${WORK}/in/${name} COPYONLY)
file(READ ${INPUT} source)
get_filename_component(input_dir ${INPUT} DIRECTORY)
set(extra_files)
if(source MATCHES "// FILES: ([^\n]+)")
  string(REPLACE " " ";" extra_files "${CMAKE_MATCH_1}")
  foreach(f IN LISTS extra_files)
    configure_file(${input_dir}/${f} ${WORK}/in/${f} COPYONLY)
  endforeach()
endif()
set(flags -std=c++17 -I${INCLUDE})

set(expected_exit 0)
if(source MATCHES "// EXIT: ([0-9]+)")
  set(expected_exit ${CMAKE_MATCH_1})
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

execute_process(COMMAND ${DPSTUB} ${WORK}/in/${name} --out-dir ${WORK}/out -- ${flags}
                RESULT_VARIABLE rc ERROR_VARIABLE diags OUTPUT_VARIABLE ignored)
file(WRITE ${WORK}/diagnostics.txt "${diags}")
if(NOT rc EQUAL expected_exit)
  message(FATAL_ERROR "dpstub exited ${rc}, expected ${expected_exit}:\n${diags}")
endif()

# Diagnostics: every one must be checked (like clang-tidy's tests).
if(source MATCHES "// DIAG:")
  execute_process(COMMAND ${FILECHECK} ${INPUT} --check-prefix=DIAG --dump-input=fail
                          --implicit-check-not=warning: --implicit-check-not=error:
                          --input-file=${WORK}/diagnostics.txt
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "DIAG checks failed:\n${out}")
  endif()
elseif(NOT diags STREQUAL "")
  message(FATAL_ERROR "unexpected diagnostics:\n${diags}")
endif()

if(source MATCHES "// LIST:")
  execute_process(COMMAND ${DPSTUB} ${WORK}/in/${name} --list -- ${flags}
                  OUTPUT_FILE ${WORK}/list.json ERROR_VARIABLE ignored)
  filecheck(LIST ${WORK}/list.json)
endif()

if(NOT expected_exit EQUAL 0)
  if(EXISTS ${WORK}/out/${name})
    message(FATAL_ERROR "a translation unit with errors was written")
  endif()
  return()
endif()

filecheck(REWRITE ${WORK}/out/${name})
filecheck(STUB ${WORK}/out/${name}.dpstub.hpp)
if(extra_files)
  list(GET extra_files 0 first_extra)
  filecheck(HEADER ${WORK}/out/${first_extra})
endif()

# The rewritten source is valid C++ for the host compiler...
execute_process(COMMAND ${CXX} ${flags} -I${WORK}/out -fsyntax-only ${WORK}/out/${name}
                RESULT_VARIABLE rc ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the rewritten source does not compile:\n${out}")
endif()
# ...and dpstub leaves its own output as it is.
foreach(f IN LISTS extra_files)
  configure_file(${WORK}/out/${f} ${WORK}/again/${f} COPYONLY)
endforeach()
execute_process(COMMAND ${DPSTUB} ${WORK}/out/${name} --out-dir ${WORK}/again -- ${flags}
                RESULT_VARIABLE rc ERROR_VARIABLE out)
file(READ ${WORK}/out/${name} first)
file(READ ${WORK}/again/${name} second)
if(NOT rc EQUAL 0 OR NOT first STREQUAL second)
  message(FATAL_ERROR "dpstub is not idempotent on its output (exit ${rc}):\n${out}")
endif()
