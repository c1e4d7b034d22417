# The driver's contract (docs/tool.md): exit statuses, -i, --export-fixes,
# determinism with -j, nothing written for a unit that fails to parse.
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(flags -std=c++17 -I${INCLUDE})

function(expect_exit expected)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expected)
    message(FATAL_ERROR "expected exit ${expected}, got ${rc}: ${ARGN}\n${out}${err}")
  endif()
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

# Usage errors: 2.
expect_exit(2 ${DPSTUB} ${SAMPLES}/vector_add.cpp -- ${flags})           # no output mode
expect_exit(2 ${DPSTUB} -i --list ${SAMPLES}/vector_add.cpp -- ${flags}) # two modes
expect_exit(2 ${DPSTUB} --list -- ${flags})                              # no input
expect_exit(2 ${DPSTUB} --no-such-option ${SAMPLES}/vector_add.cpp)
if(last_err MATCHES "dpstub: dpstub:" OR NOT last_err MATCHES "Unknown command line argument '--no-such-option'")
  message(FATAL_ERROR "an unknown option should be one line with one prefix:\n${last_err}")
endif()
# --header-filter: only with --migrate, and a regular expression.
expect_exit(2 ${DPSTUB} --list --header-filter=x ${SAMPLES}/vector_add.cpp -- ${flags})
expect_exit(2 ${DPSTUB} --migrate --list "--header-filter=(" ${SAMPLES}/vector_add.cpp -- ${flags})
if(NOT last_err MATCHES "--header-filter='\\(' is not a regular expression")
  message(FATAL_ERROR "a bad --header-filter should be named:\n${last_err}")
endif()

# LLVM's conventions: -jN and -j N, --version names dpstub, --help shows -i.
expect_exit(0 ${DPSTUB} -j2 --list ${SAMPLES}/vector_add.cpp -- ${flags})
expect_exit(0 ${DPSTUB} -j 2 --list ${SAMPLES}/vector_add.cpp -- ${flags})
execute_process(COMMAND ${DPSTUB} --version OUTPUT_VARIABLE version ERROR_VARIABLE version)
if(NOT version MATCHES "^dpstub [0-9]+\\.[0-9]+\\.[0-9]+ \\(built with LLVM 19")
  message(FATAL_ERROR "--version should name dpstub and its version:\n${version}")
endif()
execute_process(COMMAND ${DPSTUB} --help OUTPUT_VARIABLE help ERROR_VARIABLE help)
if(NOT help MATCHES "\n  -i +- Alias for --in-place" OR NOT help MATCHES "--in-place +- Rewrite")
  message(FATAL_ERROR "--help should show -i and --in-place:\n${help}")
endif()

# A unit that fails to parse: 1, and nothing written.
file(WRITE ${WORK}/broken/broken.cpp "#include <dp/dp.hpp>\nvoid f() { dp::forall(dp::grid<1>(3), [](int &x) {}, undeclared); }\n")
expect_exit(1 ${DPSTUB} ${WORK}/broken/broken.cpp --out-dir ${WORK}/broken-out -- ${flags})
if(EXISTS ${WORK}/broken-out)
  message(FATAL_ERROR "output was written for a unit that failed to parse")
endif()

# -i: the source rewritten in place, the stub header beside it; running it
# again changes nothing.
file(MAKE_DIRECTORY ${WORK}/inplace)
configure_file(${SAMPLES}/vector_add.cpp ${WORK}/inplace/vector_add.cpp COPYONLY)
configure_file(${SAMPLES}/check.hpp ${WORK}/inplace/check.hpp COPYONLY)
expect_exit(0 ${DPSTUB} -i ${WORK}/inplace/vector_add.cpp -- ${flags})
file(READ ${WORK}/inplace/vector_add.cpp rewritten)
if(NOT rewritten MATCHES "dpstub::vector_add_cpp::forall_" OR NOT EXISTS ${WORK}/inplace/vector_add.cpp.dpstub.hpp)
  message(FATAL_ERROR "-i did not rewrite the source and write its stub header")
endif()
file(GLOB leftovers ${WORK}/inplace/*dpstub-*)
if(leftovers)
  message(FATAL_ERROR "temporary files left behind: ${leftovers}")
endif()
expect_exit(0 ${DPSTUB} -i ${WORK}/inplace/vector_add.cpp -- ${flags})
file(READ ${WORK}/inplace/vector_add.cpp again)
if(NOT again STREQUAL rewritten)
  message(FATAL_ERROR "-i is not idempotent")
endif()

# --export-fixes: a YAML of the edits; the source is not touched.
configure_file(${SAMPLES}/vector_add.cpp ${WORK}/fixes/vector_add.cpp COPYONLY)
configure_file(${SAMPLES}/check.hpp ${WORK}/fixes/check.hpp COPYONLY)
expect_exit(0 ${DPSTUB} --export-fixes ${WORK}/fixes.yaml ${WORK}/fixes/vector_add.cpp -- ${flags})
file(READ ${WORK}/fixes.yaml yaml)
file(READ ${WORK}/fixes/vector_add.cpp untouched)
file(READ ${SAMPLES}/vector_add.cpp original)
if(NOT yaml MATCHES "MainSourceFile:" OR NOT yaml MATCHES "ReplacementText: *'?dpstub::vector_add_cpp::forall_"
   OR NOT untouched STREQUAL original)
  message(FATAL_ERROR "--export-fixes wrote something else than the YAML:\n${yaml}")
endif()
# clang-apply-replacements edits only files that exist: the new stub header
# is created, empty, for it to fill.
file(READ ${WORK}/fixes/vector_add.cpp.dpstub.hpp stub_placeholder)
if(NOT stub_placeholder STREQUAL "")
  message(FATAL_ERROR "--export-fixes should create the stub header empty")
endif()

# Deterministic: the same input gives the same bytes, in parallel too.
foreach(run 1 2)
  expect_exit(0 ${DPSTUB} -j 2 ${SAMPLES}/vector_add.cpp ${SAMPLES}/matmul_spread.cpp
              ${SAMPLES}/sum_rows.cpp --out-dir ${WORK}/det${run} -- ${flags})
endforeach()
foreach(f vector_add.cpp vector_add.cpp.dpstub.hpp matmul_spread.cpp.dpstub.hpp sum_rows.cpp.dpstub.hpp)
  file(READ ${WORK}/det1/${f} a)
  file(READ ${WORK}/det2/${f} b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${f} differs between two runs")
  endif()
endforeach()
# A file that several targets compile (two entries in the database) is
# translated once.
file(MAKE_DIRECTORY ${WORK}/db)
configure_file(${SAMPLES}/vector_add.cpp ${WORK}/db/vector_add.cpp COPYONLY)
configure_file(${SAMPLES}/check.hpp ${WORK}/db/check.hpp COPYONLY)
set(entry "{\"directory\": \"${WORK}/db\", \"file\": \"${WORK}/db/vector_add.cpp\", \"command\": \"c++ -std=c++17 -I${INCLUDE} -c vector_add.cpp\"}")
file(WRITE ${WORK}/db/compile_commands.json "[${entry}, ${entry}]")
expect_exit(0 ${DPSTUB} -p ${WORK}/db ${WORK}/db/vector_add.cpp --out-dir ${WORK}/db-out)
file(READ ${WORK}/db-out/vector_add.cpp once)
string(REGEX MATCHALL "#include \"vector_add.cpp.dpstub.hpp\"" includes "${once}")
list(LENGTH includes count)
if(NOT count EQUAL 2)
  message(FATAL_ERROR "expected the stub header included twice (declarations, definitions), found ${count}")
endif()
# A source the database does not know: one clear line, exit 1, nothing
# else (no guessed flags, no compiler errors).
configure_file(${SAMPLES}/vector_add.cpp ${WORK}/db/unknown.cpp COPYONLY)
expect_exit(1 ${DPSTUB} -p ${WORK}/db ${WORK}/db/unknown.cpp --list)
string(REGEX MATCHALL "\n" lines "${last_err}")
list(LENGTH lines line_count)
if(NOT last_err MATCHES "unknown.cpp is not in the compilation database" OR NOT line_count EQUAL 1)
  message(FATAL_ERROR "a source missing from the database should give one line:\n${last_err}")
endif()
# A header is in no database, and --migrate's warning at a loop in one says
# to run it on the header: there the header takes the command of the
# source nearest to it, and a note says so. Translation still wants a
# source of the build.
file(WRITE ${WORK}/db/loops.h "#pragma once\ninline void twice(int n, double *a) {\n#pragma omp parallel for\n  for (int i = 0; i < n; ++i)\n    a[i] *= 2;\n}\n")
file(WRITE ${WORK}/db/uses_loops.cpp "#include \"loops.h\"\nint main() { double a[4] = {1, 2, 3, 4}; twice(4, a); return a[3] == 8 ? 0 : 1; }\n")
set(uses "{\"directory\": \"${WORK}/db\", \"file\": \"${WORK}/db/uses_loops.cpp\", \"command\": \"c++ -std=c++17 -I${INCLUDE} -c uses_loops.cpp\"}")
file(WRITE ${WORK}/db/compile_commands.json "[${entry}, ${uses}]")
expect_exit(0 ${DPSTUB} --migrate --list -p ${WORK}/db ${WORK}/db/uses_loops.cpp)
if(NOT last_err MATCHES "so run it on 'loops.h'")
  message(FATAL_ERROR "a loop in an included header should be reported with the header to run on:\n${last_err}")
endif()
execute_process(COMMAND ${DPSTUB} --migrate --list -p ${WORK}/db ${WORK}/db/loops.h
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err MATCHES "dpstub: note: loops.h is not in the compilation database; as a header, it takes the flags inferred from [^\n]*uses_loops.cpp"
   OR NOT err MATCHES "loops.h:4:3: remark: converted to dp::forall" OR NOT out MATCHES "\"verdict\": \"converted\"")
  message(FATAL_ERROR "--migrate on a header should take a neighbour's flags and convert its loop (${rc}):\n${out}${err}")
endif()
expect_exit(1 ${DPSTUB} --list -p ${WORK}/db ${WORK}/db/loops.h)
if(NOT last_err MATCHES "loops.h is not in the compilation database")
  message(FATAL_ERROR "translating a header should still want a source of the build:\n${last_err}")
endif()

# Directories made for --out-dir follow the umask.
string(JOIN " " flat_flags ${flags})
execute_process(COMMAND sh -c "umask 022 && '${DPSTUB}' '${SAMPLES}/vector_add.cpp' --out-dir '${WORK}/perm/a/b' -- ${flat_flags}"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
execute_process(COMMAND stat -c %a ${WORK}/perm ${WORK}/perm/a ${WORK}/perm/a/b ${WORK}/perm/a/b/vector_add.cpp
                OUTPUT_VARIABLE modes)
string(REPLACE "\n" " " modes "${modes}")
if(NOT rc EQUAL 0 OR NOT modes STREQUAL "755 755 755 644 ")
  message(FATAL_ERROR "with umask 022, --out-dir made modes ${modes}(exit ${rc}): ${err}")
endif()

# --depfile: the rewritten source depends on what it includes.
expect_exit(0 ${DPSTUB} ${SAMPLES}/vector_add.cpp --out-dir ${WORK}/dep --depfile ${WORK}/dep/va.d -- ${flags})
file(READ ${WORK}/dep/va.d depfile)
if(NOT depfile MATCHES "^${WORK}/dep/vector_add.cpp: \\\\\n" OR NOT depfile MATCHES "samples/check.hpp"
   OR NOT depfile MATCHES "include/dp/field.hpp")
  message(FATAL_ERROR "the dependency file misses the source's includes:\n${depfile}")
endif()
# Locations are the user's lines. --out-dir keeps them with #line markers
# (the stub's name, its comment and what the runtime reports cite line 4,
# the call's line in lines.cpp); -i's output is the user's file, whose
# lines moved with the inserted include.
file(WRITE ${WORK}/lines/lines.cpp "#include <dp/dp.hpp>\n\nvoid f(dp::field<1, float> &a) {\n  dp::forall(a.get_grid(), [](float &x) { x = 1; }, a);\n}\n")
expect_exit(0 ${DPSTUB} ${WORK}/lines/lines.cpp --out-dir ${WORK}/lines-out -- ${flags})
file(READ ${WORK}/lines-out/lines.cpp marked)
file(READ ${WORK}/lines-out/lines.cpp.dpstub.hpp marked_stubs)
if(NOT marked MATCHES "dpstub: launchers of this file's call-sites\n#line 2 \"${WORK}/lines/lines.cpp\"\n\nvoid f"
   OR NOT marked MATCHES "forall_4_3\\(" OR NOT marked_stubs MATCHES "\"lines.cpp:4:3\"")
  message(FATAL_ERROR "--out-dir should keep the user's line numbers:\n${marked}\n${marked_stubs}")
endif()
expect_exit(0 ${DPSTUB} -i ${WORK}/lines/lines.cpp -- ${flags})
file(READ ${WORK}/lines/lines.cpp in_place)
if(in_place MATCHES "#line" OR NOT in_place MATCHES "forall_5_3\\(")
  message(FATAL_ERROR "-i should name call-sites by the lines of the file it rewrites:\n${in_place}")
endif()

# A source with no flags at all finds dpstub's own headers.
file(WRITE ${WORK}/noflags/prog.cpp "#include <dp/dp.hpp>\nvoid f(dp::field<1, float> &a) { dp::forall(a.get_grid(), [](float &x) { x = 1; }, a); }\n")
expect_exit(0 ${DPSTUB} ${WORK}/noflags/prog.cpp --out-dir ${WORK}/noflags-out --)

# Diagnostics come before the compiler's count of them, as clang prints.
file(WRITE ${WORK}/diag/diag.cpp "#include <dp/dp.hpp>\nvoid f(dp::field<1, float> &a, dp::field<2, float> &b) {\n  dp::forall(a.get_grid(), [](float &x, float y) { x = y; }, a, b);\n}\n")
expect_exit(1 ${DPSTUB} ${WORK}/diag/diag.cpp --out-dir ${WORK}/diag-out -- ${flags})
if(NOT last_err MATCHES "error: argument 2 .*1 error generated\\.\n$" OR last_err MATCHES "Error while processing")
  message(FATAL_ERROR "the diagnostics should precede '1 error generated.':\n${last_err}")
endif()

# --fail-untranslated: a call-site left on the host fails the run (exit 1,
# one line saying how many); without it the same run passes.
file(WRITE ${WORK}/host/host.cpp "#include <dp/dp.hpp>\n#define RUN(f) dp::forall(f.get_grid(), [](float &x) { x = 1; }, f)\nvoid f(dp::field<1, float> &a) {\n  RUN(a);\n  dp::forall(a.get_grid(), [](float &x) { x = 2; }, a);\n}\n")
expect_exit(0 ${DPSTUB} ${WORK}/host/host.cpp --out-dir ${WORK}/host-out -- ${flags})
expect_exit(1 ${DPSTUB} --fail-untranslated ${WORK}/host/host.cpp --out-dir ${WORK}/host-out2 -- ${flags})
if(NOT last_err MATCHES "dpstub: error: 1 call-site is left on the host \\(--fail-untranslated\\)")
  message(FATAL_ERROR "--fail-untranslated should say how many call-sites stay on the host:\n${last_err}")
endif()
expect_exit(0 ${DPSTUB} --fail-untranslated ${WORK}/lines-out/lines.cpp --list -- ${flags})
# With --migrate, a refused loop fails the run the same way; the loop it
# converts is still written.
file(WRITE ${WORK}/refused/refused.cpp "void f(double *a, int n) {\n#pragma omp parallel for\n  for (int i = 0; i < n; ++i)\n    a[i] = 1;\n}\nvoid g(double *a, int n) {\n#pragma omp parallel for\n  for (int i = 0; i < n; ++i) {\n    if (a[i] < 0)\n      break;\n    a[i] = 2;\n  }\n}\n")
expect_exit(0 ${DPSTUB} --migrate ${WORK}/refused/refused.cpp --out-dir ${WORK}/refused-out -- ${flags})
expect_exit(1 ${DPSTUB} --migrate --fail-untranslated ${WORK}/refused/refused.cpp --out-dir ${WORK}/refused-out2 -- ${flags})
if(NOT last_err MATCHES "dpstub: error: 1 loop is left as written \\(--fail-untranslated\\)")
  message(FATAL_ERROR "--migrate --fail-untranslated should say how many loops stay as written:\n${last_err}")
endif()
file(READ ${WORK}/refused-out2/refused.cpp migrated)
if(NOT migrated MATCHES "dp::forall")
  message(FATAL_ERROR "--migrate --fail-untranslated should still write the loop it converts:\n${migrated}")
endif()

# On a terminal: progress lines and a closing summary, which --quiet turns
# off; neither when the output goes to a file (every run above).
find_program(SCRIPT script)
if(SCRIPT)
  set(tty_args "'${WORK}/host/host.cpp' '${WORK}/lines/lines.cpp' --out-dir '${WORK}/tty-out' -- ${flat_flags}")
  set(tty_cmd "'${DPSTUB}' ${tty_args}")
  execute_process(COMMAND ${SCRIPT} -qec "${tty_cmd}" /dev/null OUTPUT_VARIABLE tty ERROR_VARIABLE tty)
  if(NOT tty MATCHES "\\[1/2\\] [a-z]+/[a-z]+\\.cpp" OR NOT tty MATCHES "\\[2/2\\]"
     OR NOT tty MATCHES "dpstub: 2 units, 3 call-sites: 2 translated, 1 left on the host \\(dp::forall 3 found/2 translated/1 on the host\\); [0-9]+ files written")
    message(FATAL_ERROR "a terminal should show progress and a summary:\n${tty}")
  endif()
  execute_process(COMMAND ${SCRIPT} -qec "'${DPSTUB}' --quiet ${tty_args}" /dev/null OUTPUT_VARIABLE quiet ERROR_VARIABLE quiet)
  if(quiet MATCHES "\\[1/2\\]|call-sites:")
    message(FATAL_ERROR "--quiet should print no progress and no summary:\n${quiet}")
  endif()
endif()
# --all prints its closing summary in a CI log too (not a terminal);
# --quiet still turns it off.
file(MAKE_DIRECTORY ${WORK}/all)
configure_file(${WORK}/host/host.cpp ${WORK}/all/host.cpp COPYONLY)
file(WRITE ${WORK}/all/compile_commands.json
     "[{\"directory\": \"${WORK}/all\", \"file\": \"${WORK}/all/host.cpp\", \"arguments\": [\"c++\", \"-std=c++17\", \"-I${INCLUDE}\", \"-c\", \"host.cpp\"]}]")
expect_exit(0 ${DPSTUB} -p ${WORK}/all --all --out-dir ${WORK}/all-out)
if(NOT last_err MATCHES "dpstub: 1 unit, 2 call-sites: 1 translated, 1 left on the host \\(dp::forall 2 found/1 translated/1 on the host\\); 2 files written\n")
  message(FATAL_ERROR "--all should print its summary outside a terminal:\n${last_err}")
endif()
expect_exit(0 ${DPSTUB} -p ${WORK}/all --all --quiet --out-dir ${WORK}/all-out)
if(last_err MATCHES "call-sites:")
  message(FATAL_ERROR "--all --quiet should print no summary:\n${last_err}")
endif()

# The compiler's own warnings about the user's code stay quiet, notes and
# all, unless --compiler-warnings; dpstub's own warnings always show.
file(WRITE ${WORK}/warn/warn.cpp "#include <dp/dp.hpp>\nstruct B { virtual void g(); virtual void h(); };\nstruct D : B { void g() override; virtual void h(); };\nvoid f(dp::field<1, float> &a) {\n  int unused = 0;\n  dp::forall(a.get_grid(), [](float x) { x = 1; }, a);\n}\n")
expect_exit(0 ${DPSTUB} ${WORK}/warn/warn.cpp --list -- ${flags} -Wall -Winconsistent-missing-override)
if(last_err MATCHES "unused variable|not marked .override.|overridden virtual" OR NOT last_err MATCHES "warning: 'x' is a copy of its element")
  message(FATAL_ERROR "only dpstub's own warnings should show by default:\n${last_err}")
endif()
expect_exit(0 ${DPSTUB} --compiler-warnings ${WORK}/warn/warn.cpp --list -- ${flags} -Wall -Winconsistent-missing-override)
if(NOT last_err MATCHES "unused variable 'unused'" OR NOT last_err MATCHES "overrides a member function but is not marked .override."
   OR NOT last_err MATCHES "note: overridden virtual function")
  message(FATAL_ERROR "--compiler-warnings should show the compiler's warnings and their notes:\n${last_err}")
endif()

# A database made with g++ -fopenmp (and OpenACC's header): omp.h and
# openacc.h live in GCC's own include directory, which dpstub asks the
# compiler for (--query-driver); GCC 12's omp.h also needs the shim for
# its __malloc__(omp_free) attribute.
find_program(GXX NAMES g++ PATHS /usr/bin NO_DEFAULT_PATH)
if(GXX)
  file(WRITE ${WORK}/omp/omp.cpp "#include <omp.h>\n#include <openacc.h>\n#include <dp/dp.hpp>\nint threads() { return omp_get_max_threads(); }\nvoid f(dp::field<1, float> &a) {\n#pragma omp parallel for\n  for (int i = 0; i < 4; ++i) (void)i;\n  dp::forall(a.get_grid(), [](float &x) { x = 1; }, a);\n}\n")
  file(WRITE ${WORK}/omp/compile_commands.json
       "[{\"directory\": \"${WORK}/omp\", \"file\": \"${WORK}/omp/omp.cpp\", \"command\": \"${GXX} -std=c++17 -fopenmp -O2 -I${INCLUDE} -c omp.cpp -o omp.o\"}]")
  expect_exit(0 ${DPSTUB} -p ${WORK}/omp --all --out-dir ${WORK}/omp-out)
  if(NOT last_err MATCHES "1 translated")
    message(FATAL_ERROR "a g++ -fopenmp database should translate:\n${last_err}")
  endif()
  # Asking no compiler: a header is not found (what the query fixes).
  # Clang's resource directory has its own omp.h once libomp-dev is
  # installed, but never openacc.h, which only GCC ships.
  expect_exit(1 ${DPSTUB} -p ${WORK}/omp --all --query-driver= --list)
  if(NOT last_err MATCHES "'(omp|openacc)\\.h' file not found")
    message(FATAL_ERROR "without the query GCC's omp.h or openacc.h should be missing:\n${last_err}")
  endif()
endif()

execute_process(COMMAND ${DPSTUB} --help OUTPUT_VARIABLE help ERROR_VARIABLE help)
if(NOT help MATCHES "Exactly one output mode" OR NOT help MATCHES "-- -std=c\\+\\+17"
   OR NOT help MATCHES "Exit status: 0")
  message(FATAL_ERROR "--help should name the modes, the -- form and the exit codes:\n${help}")
endif()
message(STATUS "driver contract holds")
