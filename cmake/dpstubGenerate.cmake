# dpstub_generate(<target> [SOURCES <src>...])
#
# Runs dpstub on the target's sources (or the ones named) as a pre-build
# step and compiles the generated code in their place. The tool re-runs for
# a source when the source, a header it includes (dpstub writes a
# dependency file, as `clang -MD` does) or the tool changed. Generated files live
# in <binary-dir>/dpstub/<target>/, mirroring the source tree; that folder
# and the mirror of each of the target's include directories come first on
# the include path, so headers dpstub rewrote (kernels' helpers marked for
# the device) are found before the originals. A copy no translation writes
# any more (its header moved or needs no mark) is removed.
#
# The tool reads the sources' flags from the build's compile database: an
# object library of the original sources (never built) stands in the
# database with the target's include directories, definitions, options,
# features and libraries as they are when dpstub_generate is called.
# Where dpstub_generate puts the translation of <source> for <target>, and
# the --root it translates it against.
function(dpstub_generated_path target source out_var root_var)
  get_filename_component(abs ${source} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${abs})
  set(root ${CMAKE_CURRENT_SOURCE_DIR})
  if(rel MATCHES "^\\.\\./")
    get_filename_component(root ${abs} DIRECTORY) # outside this folder: flat
    get_filename_component(rel ${abs} NAME)
  endif()
  set(${out_var} ${CMAKE_CURRENT_BINARY_DIR}/dpstub/${target}/${rel} PARENT_SCOPE)
  set(${root_var} ${root} PARENT_SCOPE)
endfunction()

function(dpstub_generate target)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  if(NOT DPSTUB_EXECUTABLE)
    message(FATAL_ERROR "dpstub_generate: DPSTUB_EXECUTABLE is not set")
  endif()
  get_target_property(all_sources ${target} SOURCES)
  if(NOT ARG_SOURCES)
    set(ARG_SOURCES ${all_sources})
  endif()
  set(out_root ${CMAKE_CURRENT_BINARY_DIR}/dpstub/${target})
  set(tool_depends ${DPSTUB_EXECUTABLE})
  if(TARGET dpstub)
    set(tool_depends dpstub)
  endif()
  set(new_sources)
  set(source_dirs)
  set(originals)
  foreach(src ${all_sources})
    get_filename_component(abs ${src} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    set(translate FALSE)
    foreach(wanted ${ARG_SOURCES})
      get_filename_component(wanted_abs ${wanted} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
      if(wanted_abs STREQUAL abs)
        set(translate TRUE)
      endif()
    endforeach()
    if(NOT translate OR NOT abs MATCHES "\\.(cpp|cc|cxx|cu|hip)$")
      list(APPEND new_sources ${abs})
      continue()
    endif()
    dpstub_generated_path(${target} ${abs} out root)
    file(RELATIVE_PATH rel ${root} ${abs})
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${DPSTUB_EXECUTABLE} -p ${CMAKE_BINARY_DIR} ${abs} --root ${root}
              --out-dir ${out_root} --depfile ${out}.d
      DEPENDS ${abs} ${tool_depends}
      DEPFILE ${out}.d
      COMMENT "dpstub: translating ${rel}"
      VERBATIM)
    list(APPEND originals ${abs})
    list(APPEND new_sources ${out})
    get_filename_component(source_dir ${abs} DIRECTORY)
    list(APPEND source_dirs ${source_dir})
  endforeach()
  list(REMOVE_DUPLICATES source_dirs)

  # The originals' entry in compile_commands.json.
  set(input ${target}_dpstub_input)
  add_library(${input} OBJECT EXCLUDE_FROM_ALL ${originals})
  set_target_properties(${input} PROPERTIES EXPORT_COMPILE_COMMANDS ON)
  foreach(prop INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS COMPILE_FEATURES
               CXX_STANDARD CXX_EXTENSIONS)
    get_target_property(value ${target} ${prop})
    if(value)
      set_property(TARGET ${input} PROPERTY ${prop} "${value}")
    endif()
  endforeach()
  target_link_libraries(${input} PRIVATE $<TARGET_PROPERTY:${target},LINK_LIBRARIES>)

  # Each include directory of the target inside this folder has its mirror
  # in the generated tree (where dpstub writes the headers it marks), in the
  # same order, all before the originals: `#include "kern.h"` finds the
  # marked copy of inc/kern.h, not the original.
  get_target_property(include_dirs ${target} INCLUDE_DIRECTORIES)
  set(mirrors)
  foreach(dir IN LISTS include_dirs)
    if(dir MATCHES "\\$<" OR NOT IS_ABSOLUTE "${dir}")
      continue()
    endif()
    file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${dir})
    if(rel STREQUAL "")
      list(APPEND mirrors ${out_root})
    elseif(NOT rel MATCHES "^\\.\\./")
      list(APPEND mirrors ${out_root}/${rel})
    endif()
  endforeach()

  set_property(TARGET ${target} PROPERTY SOURCES ${new_sources})
  # Generated code first, then the original folders for the sources' own
  # quoted includes.
  target_include_directories(${target} BEFORE PRIVATE ${out_root} ${mirrors} ${source_dirs})
endfunction()
