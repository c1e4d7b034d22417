# Compiles a translated source for a GPU: hipcc for AMD (gfx90a) or nvcc for
# NVIDIA (sm_90). No GPU is needed to compile.
#   cmake -DCOMPILER=hipcc|nvcc -DEXE=... -DSOURCE=... -DINCLUDES=a;b [-DDEFINES=X;Y=1]
#         [-DHOST_PASS=ON] [-DRDC=ON] -DOUT=... -P
# Without HOST_PASS only the device pass runs. It still parses every host
# function and instantiates every kernel the host code launches (the
# stubs, the vendor algorithms' kernels), so each kernel goes through the
# GPU back end; what it skips is generating the host's own object code
# (a third of an nvcc compile, a quarter of a hipcc one: cudafe++ and gcc,
# or clang's host pass). HOST_PASS compiles both, as a GPU build does.
# RDC: SOURCE lists the files of one program whose kernels call device
# functions another of them defines; each compiles with relocatable device
# code (OUT.<n>.o, or .cubin for nvcc's device pass), and with nvcc the
# device link of them all must resolve every call (hipcc's device link needs ROCm's linker, which Debian's HIP
# does not ship: its files are only compiled).
cmake_minimum_required(VERSION 3.20)
set(flags -std=c++17)
foreach(dir IN LISTS INCLUDES)
  if(dir) # an empty entry would make a bare -I that eats the next flag
    list(APPEND flags -I${dir})
  endif()
endforeach()
foreach(macro IN LISTS DEFINES)
  if(macro)
    list(APPEND flags -D${macro})
  endif()
endforeach()
if(RDC AND COMPILER STREQUAL "hipcc")
  list(APPEND flags -fgpu-rdc)
elseif(RDC)
  list(APPEND flags -rdc=true)
endif()
if(COMPILER STREQUAL "hipcc" AND NOT HOST_PASS)
  list(APPEND flags --cuda-device-only)
endif()
# hipcc (clang) leaves two empty directories in the temporary directory per
# compile: keep them beside the output, not in /tmp.
set(ENV{TMPDIR} ${OUT}.tmp)
file(REMOVE_RECURSE ${OUT}.tmp)
file(MAKE_DIRECTORY ${OUT}.tmp)
set(objects)
set(index 0)
foreach(source IN LISTS SOURCE)
  set(object ${OUT})
  if(RDC)
    # nvcc's device link takes the device pass's relocatable cubins.
    if(COMPILER STREQUAL "nvcc" AND NOT HOST_PASS)
      set(object ${OUT}.${index}.cubin)
    else()
      set(object ${OUT}.${index}.o)
    endif()
    math(EXPR index "${index} + 1")
    list(APPEND objects ${object})
  endif()
  if(COMPILER STREQUAL "hipcc")
    # -O0: the check is that the stubs and the rocPRIM code they instantiate
    # compile for gfx90a; optimising them takes ten times longer.
    set(command ${EXE} -x hip --offload-arch=gfx90a -O0 ${flags} -c ${source} -o ${object})
  else()
    # --expt-relaxed-constexpr: standard functors (std::plus<>, std::less<>) as
    # reduction operators and comparators are constexpr, not __device__.
    # NVVM at -O1 and ptxas at -O0: every kernel still goes through both to
    # sm_90 code (register allocation, shared memory and register limits).
    # -O1 takes 0.7 of the time of -O3 in cicc (63 s -> 37 s on the
    # largest case); ptxas at -O0 takes 0.62 of -O1 (57 s -> 35 s on
    # reduce_scan_sort_cases, 2026-12-02). cicc at -O0 would not pay: its
    # PTX is two thirds larger, and ptxas then takes three times as long.
    # -cubin: the device pass alone (cicc and ptxas to sm_90 code).
    if(HOST_PASS)
      set(output -c)
    else()
      set(output -cubin)
    endif()
    set(command ${EXE} -x cu --extended-lambda --expt-relaxed-constexpr -arch=sm_90
        -Xcicc -O1 -Xptxas -O0 ${flags} ${output} ${source} -o ${object})
  endif()
  execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${COMPILER} failed on ${source}:\n${out}")
  endif()
endforeach()
if(RDC AND COMPILER STREQUAL "nvcc")
  execute_process(COMMAND ${EXE} -arch=sm_90 -dlink ${objects} -o ${OUT}.dlink.o
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc's device link failed:\n${out}")
  endif()
endif()
file(REMOVE_RECURSE ${OUT}.tmp)
