# A dpstub-lsp transcript test, as MLIR's and clangd's -lit-test ones: the
# input holds JSON-RPC messages delimited by '// -----' and, in comments,
# the FileCheck lines the server's output must match. @DIR@ in the input is
# a fresh folder (file:// URIs point there), @INCLUDE@ dpstub's headers.
# The markers below put files there first.
#   cmake -DSERVER=... -DFILECHECK=... -DINPUT=... -DWORK=... -DINCLUDE=... -P
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# The documents live outside the build tree: the server looks for a
# compile_commands.json in every parent folder (as clangd does), and the
# build tree's own would give them a neighbour's command, never the
# fallback flags a lone file gets.
if(DEFINED ENV{TMPDIR})
  set(tmp $ENV{TMPDIR})
else()
  set(tmp /tmp)
endif()
string(RANDOM LENGTH 8 suffix)
get_filename_component(name ${INPUT} NAME_WE)
set(DIR ${tmp}/dpstub-lsp-${name}-${suffix})
file(MAKE_DIRECTORY ${DIR})
configure_file(${INPUT} ${WORK}/transcript.test @ONLY)
# "// DATABASE: flags": a compile_commands.json in @DIR@/build/ giving k.cpp
# these flags, where the server must find it.
file(STRINGS ${INPUT} database REGEX "^// DATABASE: ")
if(database)
  string(REGEX REPLACE "^// DATABASE: " "" database_flags "${database}")
  string(CONFIGURE "${database_flags}" database_flags @ONLY)
  file(WRITE ${DIR}/build/compile_commands.json
       "[{\"directory\": \"${DIR}\", \"file\": \"${DIR}/k.cpp\", \"command\": \"c++ ${database_flags} -c k.cpp\"}]")
endif()
# "// PROFILE: json": a profiled run's summary, @DIR@/build/prog.dp-profile.json.
file(STRINGS ${INPUT} profile REGEX "^// PROFILE: ")
if(profile)
  string(REGEX REPLACE "^// PROFILE: " "" profile "${profile}")
  string(CONFIGURE "${profile}" profile @ONLY)
  file(WRITE ${DIR}/build/prog.dp-profile.json "${profile}")
endif()
# "// ON DISK: name": the file exists on disk, saved now (the documents are
# otherwise only the editor's).
file(STRINGS ${INPUT} on_disk REGEX "^// ON DISK: ")
foreach(line IN LISTS on_disk)
  string(REGEX REPLACE "^// ON DISK: " "" name "${line}")
  file(WRITE ${DIR}/${name} "// saved\n")
endforeach()
execute_process(COMMAND ${SERVER} --lit-test INPUT_FILE ${WORK}/transcript.test
                OUTPUT_FILE ${WORK}/output.txt ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpstub-lsp exited ${rc}:\n${err}")
endif()
execute_process(COMMAND ${FILECHECK} ${WORK}/transcript.test --input-file=${WORK}/output.txt
                        --dump-input=fail
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the server's replies do not match (documents in ${DIR}):\n${out}")
endif()
foreach(expected IN LISTS EXPECT_FILES)
  if(NOT EXISTS ${DIR}/${expected})
    message(FATAL_ERROR "the server should have written ${expected} in ${DIR}")
  endif()
endforeach()
file(REMOVE_RECURSE ${DIR})
