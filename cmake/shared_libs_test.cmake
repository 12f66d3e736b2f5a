# ctest's shared_libraries test (cmake -P): dancecard configured with BUILD_SHARED_LIBS=ON builds its checkers as a
# shared library, and a project that knows only find_package(dancecard COMPONENTS checkers) against that build tree
# links it as such and runs. Arguments: SRC (dancecard's sources), CONSUMER (tests/consumer), BIN (a scratch
# directory), GENERATOR.
foreach(required SRC CONSUMER BIN GENERATOR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "shared_libs_test.cmake: -D${required}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${BIN})
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${out}\n${err}")
  endif()
endfunction()
# Unoptimised (Debug without -g): what is tested is how the libraries are built and found, not their speed, and
# compiling core and checkers at -O3 took four minutes of the suite on two cores.
set(quick_build -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0)
run("configuring dancecard with BUILD_SHARED_LIBS=ON"
    ${CMAKE_COMMAND} -S ${SRC} -B ${BIN}/dancecard -G ${GENERATOR} ${quick_build} -DBUILD_SHARED_LIBS=ON
    -DDANCECARD_TEST=OFF -DDANCECARD_BENCH=OFF -DDANCECARD_CLI=OFF)
run("building dancecard_checkers" ${CMAKE_COMMAND} --build ${BIN}/dancecard --target dancecard_checkers --parallel 2)
file(GLOB shared ${BIN}/dancecard/checkers/libdancecard_checkers.so*)
if(NOT shared)
  message(FATAL_ERROR "BUILD_SHARED_LIBS=ON built no libdancecard_checkers.so in ${BIN}/dancecard/checkers")
endif()
run("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER} -B ${BIN}/consumer -G ${GENERATOR} ${quick_build}
    -DCMAKE_PREFIX_PATH=${BIN}/dancecard)
run("building the consumer" ${CMAKE_COMMAND} --build ${BIN}/consumer)
run("running the consumer" ${BIN}/consumer/consumer)
file(GET_RUNTIME_DEPENDENCIES EXECUTABLES ${BIN}/consumer/consumer RESOLVED_DEPENDENCIES_VAR resolved
     UNRESOLVED_DEPENDENCIES_VAR unresolved DIRECTORIES ${BIN}/dancecard/checkers ${BIN}/dancecard/core)
foreach(library dancecard_checkers dancecard_core)
  if(NOT resolved MATCHES "lib${library}\\.so" AND NOT unresolved MATCHES "lib${library}\\.so")
    message(FATAL_ERROR "the consumer does not load lib${library}.so (it needs: ${resolved} ${unresolved})")
  endif()
endforeach()
message(STATUS "the consumer runs on the shared libdancecard_checkers.so and libdancecard_core.so")
