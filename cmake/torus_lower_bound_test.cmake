# One slow test: asks `dancecard prove torus` whether some table of MODEL completes gossip on DIMS within STEPS steps,
# and passes only on "unsat" with a DRAT proof accepted by dancecard's checker (exit 1 and that line) — the lower end
# of a catalogue cell whose proof is too large to store. Run as:
#   cmake -DEXE=dancecard -DDIMS=5x5 -DMODEL=pairing -DSTEPS=7 -DTIMEOUT=14400 -P torus_lower_bound_test.cmake
execute_process(COMMAND ${EXE} prove torus --dims ${DIMS} --model ${MODEL} --steps ${STEPS} --timeout ${TIMEOUT}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT code EQUAL 1)
  message(FATAL_ERROR "${DIMS} ${MODEL} within ${STEPS} steps: exit ${code}, expected 1 (unsat)")
endif()
string(FIND "${out}" "DRAT proof checked" checked)
if(checked EQUAL -1)
  message(FATAL_ERROR "${DIMS} ${MODEL} within ${STEPS} steps: unsat without a checked DRAT proof")
endif()
