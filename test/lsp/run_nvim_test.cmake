# A real client: headless Neovim runs nvim_translate.lua against
# dpstub-lsp on a copy of a program, translating one call-site at the
# cursor; the files it writes must build and print what `dpstub -i` gives.
# Then the translated program runs with DP_PROFILE, and Neovim shows what
# it measured at the call-site (hover, code lens).
#   cmake -DNVIM=... -DSERVER=... -DDPSTUB=... -DCXX=... -DINCLUDE=... -DRUNTIME=...
#         -DINPUT=<program.cpp> -DSCRIPT=<lua> -DWORK=... [-DEDITS=documentChanges] -P
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/editor ${WORK}/cli)
configure_file(${INPUT} ${WORK}/editor/program.cpp COPYONLY)
configure_file(${INPUT} ${WORK}/cli/program.cpp COPYONLY)
set(flags -std=c++17 -I${INCLUDE})

# The cursor on the forall of line 10 (0-based line 9).
execute_process(COMMAND ${CMAKE_COMMAND} -E env DPSTUB_LSP=${SERVER} SOURCE=${WORK}/editor/program.cpp
                        LINE=9 COLUMN=8 OUT=${WORK}/nvim.log "EDITS=${EDITS}"
                        ${NVIM} --headless --clean -u NONE -c "luafile ${SCRIPT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
file(READ ${WORK}/nvim.log log)
if(NOT rc EQUAL 0 OR NOT log MATCHES "written")
  message(FATAL_ERROR "Neovim failed (${rc}):\n${log}${out}${err}")
endif()
if(EDITS STREQUAL "documentChanges" AND NOT log MATCHES "applying workspace edit")
  message(FATAL_ERROR "the action should have come as a workspace edit:\n${log}")
endif()
if(NOT log MATCHES "hover ```cpp\n// dp::forall at program.cpp:10:3" OR
   NOT log MATCHES "argument 2 `2.0f` \\(float, rank 0\\) -> float s: broadcast scalar, read-only")
  message(FATAL_ERROR "the hover Neovim showed is not the stub's comment:\n${log}")
endif()

# The same translation from the command line, for comparison.
execute_process(COMMAND ${DPSTUB} -i ${WORK}/cli/program.cpp -- ${flags} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpstub -i failed:\n${err}")
endif()
foreach(side editor cli)
  execute_process(COMMAND ${CXX} ${flags} -I${WORK}/${side} ${WORK}/${side}/program.cpp ${RUNTIME} -ltbb
                          -o ${WORK}/${side}/program RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the ${side} translation does not compile:\n${err}")
  endif()
  execute_process(COMMAND ${WORK}/${side}/program RESULT_VARIABLE rc OUTPUT_VARIABLE printed_${side})
endforeach()
file(READ ${WORK}/editor/program.cpp editor_source)
if(NOT printed_editor STREQUAL printed_cli OR NOT editor_source MATCHES "dpstub::program_cpp::forall_")
  message(FATAL_ERROR "the program translated in Neovim printed '${printed_editor}', dpstub -i's '${printed_cli}'")
endif()

# The translated program, profiled: its summary lands beside it, and the
# editor shows the call-site's figures on hover and as a code lens (on the
# launch, a line lower now: the stub header's include came before it).
# Once: the two variants differ only in how the edit came.
if(EDITS STREQUAL "documentChanges")
  message(STATUS "translated in Neovim: ${printed_editor}")
  return()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env DP_PROFILE=summary ${WORK}/editor/program
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/editor/program.dp-profile.json)
  message(FATAL_ERROR "the profiled run left no summary (${rc}):\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env DPSTUB_LSP=${SERVER} SOURCE=${WORK}/editor/program.cpp
                        LINE=10 COLUMN=8 OUT=${WORK}/nvim-look.log LOOK=1
                        ${NVIM} --headless --clean -u NONE -c "luafile ${SCRIPT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
file(READ ${WORK}/nvim-look.log log)
if(NOT rc EQUAL 0 OR NOT log MATCHES "looked")
  message(FATAL_ERROR "Neovim failed on the translated program (${rc}):\n${log}${out}${err}")
endif()
if(NOT log MATCHES "\\*\\*Measured\\*\\* by DP_PROFILE \\(`program`" OR
   NOT log MATCHES "1 call, [^\n]+ of the run \\(the slowest call-site\\)" OR
   NOT log MATCHES "lens 10 [0-9.]+% of the run, ")
  message(FATAL_ERROR "Neovim did not show the profile's figures at the call-site:\n${log}")
endif()
message(STATUS "translated in Neovim: ${printed_editor}")
