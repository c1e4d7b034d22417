# Runs an MPI program under mpirun with each rank count in RANKS:
# untranslated (REF) and, when given, translated (DP) natively and in
# dispatch emulation, with halo messages staged through host memory and
# handed to MPI as (emulated) device memory. Every run must succeed and print exactly what REF
# printed on one rank.
#   cmake -DMPIEXEC=mpirun -DREF=... [-DDP=...] -DRANKS=1;2;3;4 -P run_mpi.cmake
cmake_minimum_required(VERSION 3.20)

# Open MPI refuses to run as root without these (CI runs as root).
set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
# Ranks share this machine's cores: yield instead of spinning while waiting.
set(ENV{OMPI_MCA_mpi_yield_when_idle} 1)

function(run_ranks program np config out_var)
  separate_arguments(env UNIX_COMMAND "${config}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env}
                          ${MPIEXEC} --oversubscribe --bind-to none -np ${np} ${program}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${program} on ${np} ranks under '${config}' failed (${rc}):\n${out}${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

run_ranks(${REF} 1 "DP_HOST_MODE=native" expected)
if(expected STREQUAL "")
  message(FATAL_ERROR "${REF} printed nothing")
endif()
set(runs "")
foreach(np IN LISTS RANKS)
  set(jobs "${REF}|DP_HOST_MODE=native")
  if(DP)
    list(APPEND jobs "${DP}|DP_HOST_MODE=native"
         "${DP}|DP_HOST_MODE=emulate DP_DISPATCH_POLICY=split DP_EMULATE_MAX_GROUPS=3,2,2 DP_EMULATE_GROUP=4,2,1"
         "${DP}|DP_HOST_MODE=emulate DP_MPI_GPU_AWARE=1")
  endif()
  foreach(job IN LISTS jobs)
    string(REPLACE "|" ";" parts "${job}")
    list(GET parts 0 program)
    list(GET parts 1 config)
    run_ranks(${program} ${np} "${config}" got)
    if(NOT got STREQUAL expected)
      message(FATAL_ERROR "${program} on ${np} ranks under '${config}' differs from one rank:\n"
                          "--- one rank\n${expected}--- ${np} ranks\n${got}")
    endif()
    math(EXPR runs "${runs} + 1")
  endforeach()
endforeach()
message(STATUS "the same output in ${runs} runs over ${RANKS} ranks:\n${expected}")
