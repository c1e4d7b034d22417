# A real client converts a loop: headless Neovim runs nvim_translate.lua
# against dpstub-lsp with the cursor on a plain loop, applies "Convert this
# loop to a dp call-site" and writes the file; it must be what `dpstub
# --migrate --selection` writes, build and print what the original prints.
#   cmake -DNVIM=... -DSERVER=... -DDPSTUB=... -DCXX=... -DINCLUDE=... -DRUNTIME=...
#         -DINPUT=<program.cpp> -DSCRIPT=<lua> -DWORK=... -P
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/editor ${WORK}/cli ${WORK}/original)
foreach(side editor cli original)
  configure_file(${INPUT} ${WORK}/${side}/program.cpp COPYONLY)
endforeach()
set(flags -std=c++17 -I${INCLUDE})

# The cursor on the loop of line 12 (0-based 11).
execute_process(COMMAND ${CMAKE_COMMAND} -E env DPSTUB_LSP=${SERVER} SOURCE=${WORK}/editor/program.cpp
                        LINE=11 COLUMN=4 OUT=${WORK}/nvim.log "ACTION=^Convert this loop"
                        ${NVIM} --headless --clean -u NONE -c "luafile ${SCRIPT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
file(READ ${WORK}/nvim.log log)
if(NOT rc EQUAL 0 OR NOT log MATCHES "written")
  message(FATAL_ERROR "Neovim failed (${rc}):\n${log}${out}${err}")
endif()

execute_process(COMMAND ${DPSTUB} --migrate --selection=${WORK}/cli/program.cpp:12:5 -i ${WORK}/cli/program.cpp
                        -- ${flags} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpstub --migrate -i failed:\n${err}")
endif()
file(READ ${WORK}/editor/program.cpp editor_source)
file(READ ${WORK}/cli/program.cpp cli_source)
if(NOT editor_source STREQUAL cli_source OR NOT editor_source MATCHES "dp::forall\\(")
  message(FATAL_ERROR "Neovim's conversion differs from dpstub --migrate's:\n--- editor\n${editor_source}--- cli\n${cli_source}")
endif()
foreach(side editor original)
  execute_process(COMMAND ${CXX} ${flags} ${WORK}/${side}/program.cpp ${RUNTIME} -ltbb -lpthread
                          -o ${WORK}/${side}/program RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the ${side} program does not compile:\n${err}")
  endif()
  execute_process(COMMAND ${WORK}/${side}/program RESULT_VARIABLE rc OUTPUT_VARIABLE printed_${side})
endforeach()
if(NOT printed_editor STREQUAL printed_original)
  message(FATAL_ERROR "converted in Neovim it prints '${printed_editor}', the original '${printed_original}'")
endif()
message(STATUS "converted in Neovim: ${printed_editor}")
