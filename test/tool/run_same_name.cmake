# Two sources with the same file name (a/k.cpp, b/k.cpp), translated in
# separate runs, compiled and linked into one program: each call-site must
# run its own stub, natively and in dispatch emulation.
#   cmake -DDPSTUB=... -DCXX=... -DINCLUDE=... -DRUNTIME=... -DINPUT=<same_name dir> -DWORK=... -P
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
set(flags -std=c++17 -I${INCLUDE})
set(objects)
foreach(dir a b)
  execute_process(COMMAND ${DPSTUB} ${INPUT}/${dir}/k.cpp --out-dir ${WORK}/${dir} -- ${flags}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpstub failed on ${dir}/k.cpp:\n${err}")
  endif()
  execute_process(COMMAND ${CXX} ${flags} -I${WORK}/${dir} -O1 -c ${WORK}/${dir}/k.cpp -o ${WORK}/${dir}.o
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the translated ${dir}/k.cpp does not compile:\n${err}")
  endif()
  list(APPEND objects ${WORK}/${dir}.o)
endforeach()
execute_process(COMMAND ${CXX} ${flags} ${INPUT}/main.cpp ${objects} ${RUNTIME} -ltbb -o ${WORK}/program
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "linking failed:\n${err}")
endif()
foreach(mode native emulate)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env DP_HOST_MODE=${mode} ${WORK}/program
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "DP_HOST_MODE=${mode}: one program ran the other's kernel:\n${out}${err}")
  endif()
endforeach()
message(STATUS "${out}")
