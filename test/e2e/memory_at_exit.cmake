# check_memory_at_exit(STDERR CONFIG): a translated run on the emulated
# device (DP_TRACE_DISPATCH=1) must end with its device state gone and no
# device or page-locked byte still allocated (device/executor.hpp's
# report_memory_at_exit). A run whose state never went (a field leaked)
# prints no such line, which fails too. What compute-sanitizer's leak check
# finds on a GPU, found on a CPU.
function(check_memory_at_exit stderr config)
  if(NOT config MATCHES "DP_HOST_MODE=emulate")
    return()
  endif()
  if(NOT stderr MATCHES "dp-memory: the emulated device at exit: 0 device bytes, 0 pinned bytes live")
    string(REGEX MATCH "dp(-memory)?: the emulated device[^\n]*" said "${stderr}")
    if(NOT said)
      set(said "no report: the device's state was never freed (memory still held at exit)")
    endif()
    message(FATAL_ERROR "memory left at exit under '${config}': ${said}")
  endif()
endfunction()
