# The differential random-program tester: for each seed, dpgen writes a
# self-checking program; it is built untranslated (the host reference) and
# translated by dpstub, and run natively and in dispatch emulation under
# limits that force multi-launch plans. Every run must exit 0 and print
# exactly what the untranslated build printed. A failing program is kept
# under KEEP as a reproducer.
# With DEVICE_COMPILERS (a list of hipcc and nvcc paths), the translated
# program must also compile for each GPU (compile_for_device.cmake); with
# DEVICE_ONLY, that is all it checks (no host build, no run).
#   cmake -DDPGEN=... -DDPSTUB=... -DCXX=... -DINCLUDE=... -DRUNTIME=...
#         -DSEEDS=1;2;3 -DWORK=... -DKEEP=... [-DDEVICE_COMPILERS=...] -P run_fuzz.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT DEVICE_SCRIPT)
  set(DEVICE_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/../e2e/compile_for_device.cmake)
endif()
set(flags -std=c++17 -O0 -w -I${INCLUDE})
set(configs
  "DP_HOST_MODE=native"
  "DP_HOST_MODE=emulate DP_EMULATE_MAX_GROUPS=2,2,2 DP_EMULATE_GROUP=2"
  "DP_HOST_MODE=emulate DP_DISPATCH_POLICY=split DP_EMULATE_MAX_GROUPS=3,2,2 DP_EMULATE_GROUP=2,2,1"
  "DP_HOST_MODE=emulate DP_DISPATCH_POLICY=load_balance DP_EMULATE_MAX_GROUPS=1,1,1 DP_EMULATE_GROUP=3")

# The checks of one seed, in order, each a macro setting `why` when it
# fails; a seed stops at its first failure. DEVICE_ONLY keeps the steps
# that need no host build.
macro(check_generate)
  execute_process(COMMAND ${DPGEN} ${seed} OUTPUT_FILE ${dir}/program.cpp RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    set(why "dpgen failed")
  endif()
endmacro()
macro(check_build_reference)
  execute_process(COMMAND ${CXX} ${flags} ${dir}/program.cpp ${RUNTIME} -ltbb -o ${dir}/reference
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    set(why "the untranslated program does not compile:\n${err}")
  endif()
endmacro()
macro(check_translate)
  execute_process(COMMAND ${DPSTUB} ${dir}/program.cpp --out-dir ${dir}/out -- ${flags}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR err MATCHES "warning:")
    set(why "dpstub exited ${rc} or warned (every call-site dpgen writes can be translated):\n${err}")
  endif()
endmacro()
macro(check_build_translated)
  execute_process(COMMAND ${CXX} ${flags} -I${dir}/out ${dir}/out/program.cpp ${RUNTIME} -ltbb -o ${dir}/translated
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    set(why "the translated program does not compile:\n${err}")
  endif()
endmacro()
macro(check_compile_for_devices)
  foreach(compiler_path IN LISTS DEVICE_COMPILERS)
    get_filename_component(compiler ${compiler_path} NAME)
    execute_process(COMMAND ${CMAKE_COMMAND} -DCOMPILER=${compiler} -DEXE=${compiler_path}
                            -DSOURCE=${dir}/out/program.cpp -DOUT=${dir}/program.${compiler}.o
                            "-DINCLUDES=${dir}/out;${INCLUDE}"
                            -P ${DEVICE_SCRIPT}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE err ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      set(why "the translated program does not compile with ${compiler}:\n${err}")
      break()
    endif()
  endforeach()
endmacro()
macro(check_run_reference)
  execute_process(COMMAND ${dir}/reference RESULT_VARIABLE rc OUTPUT_VARIABLE expected ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    set(why "the untranslated program failed its own checks (${rc}):\n${expected}${err}")
  endif()
endmacro()
macro(check_run_translated)
  foreach(config IN LISTS configs)
    separate_arguments(env UNIX_COMMAND "${config}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${dir}/translated
                    RESULT_VARIABLE rc OUTPUT_VARIABLE got ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT got STREQUAL expected)
      set(why "translated under '${config}' (exit ${rc}):\n--- expected\n${expected}--- got\n${got}${err}")
      break()
    endif()
  endforeach()
endmacro()
set(steps generate build_reference translate build_translated compile_for_devices run_reference
          run_translated)
if(DEVICE_ONLY)
  list(REMOVE_ITEM steps build_reference build_translated run_reference run_translated)
endif()

set(failed)
foreach(seed IN LISTS SEEDS)
  set(dir ${WORK}/${seed})
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir}/out)
  set(why "")
  foreach(step IN LISTS steps)
    cmake_language(CALL check_${step})
    if(why)
      break()
    endif()
  endforeach()
  if(why)
    file(MAKE_DIRECTORY ${KEEP})
    file(COPY ${dir} DESTINATION ${KEEP})
    file(WRITE ${KEEP}/${seed}/why.txt "${why}")
    list(APPEND failed ${seed})
    message("seed ${seed}: ${why}")
  else()
    file(REMOVE_RECURSE ${dir})
  endif()
endforeach()
list(LENGTH SEEDS ran)
if(failed)
  message(FATAL_ERROR "${ran} programs, failing seeds: ${failed} (reproducers in ${KEEP})")
endif()
if(DEVICE_ONLY)
  message(STATUS "${ran} random programs translated and compiled for ${DEVICE_COMPILERS}")
else()
  message(STATUS "${ran} random programs agree untranslated, translated and emulated")
endif()
