"""The papers' optimality proofs from Python: the dance and directed optima, the h-relation optimum at granularity
1/k and the torus minimum — each a witness the checker accepted and a checked refutation below it, bad input as
ValueError, and Ctrl-C stopping the solver with the answer unknown."""

import os
import signal
import threading

import numpy as np
import pytest

import dancecard as dc


def interrupted_after(seconds, prove):
    """Runs prove() with a SIGINT sent `seconds` in; Python's own handler must be back afterwards."""
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = prove()
    finally:
        timer.cancel()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    return result


def test_the_dance_optimum_with_its_witness_and_certificates():
    r = dc.prove_dance(9)
    assert r["status"] == "proven" and r["rounds"] == 9, r["reason"]
    assert dc.check_dance_schedule(r["witness"], 9).holds
    assert r["witness"].shape[0] == 9
    kinds = {c["kind"]: c for c in r["certificates"]}
    assert kinds["cutting planes"]["accepted"] and kinds["cutting planes"]["text"].startswith("dancecard.cp/1")
    # the checked certificate carries the bound: Z3 is asked below only with solve_below
    assert r["below"] == {"rounds": 8, "asked": False, "answer": None, "reason": r["below"]["reason"]}
    asked = dc.prove_dance(6, solve_below=True)
    assert asked["status"] == "proven" and asked["below"]["asked"] and asked["below"]["answer"] == "unsat"
    drat = {c["kind"]: c for c in asked["certificates"]}["DRAT"]
    assert drat["accepted"] and drat["steps"] > 0  # CaDiCaL's proof of 4 rounds, checked
    with pytest.raises(ValueError, match="n: 2 to 200"):
        dc.prove_dance(1)
    with pytest.raises(ValueError, match="n: 2 to 200"):
        dc.prove_dance(201)


def test_the_directed_optimum_is_n_minus_one_rounds_of_full_duplex_transfers():
    r = dc.prove_directed(6)
    assert r["status"] == "proven" and r["rounds"] == 5, r["reason"]
    sent = {(a, b) for rnd in r["witness"] for (a, b) in rnd}
    assert sent == {(a, b) for a in range(6) for b in range(6) if a != b}
    for rnd in r["witness"]:  # full duplex: one send and one receive per rank and round
        assert len({a for a, _ in rnd}) == len(rnd) and len({b for _, b in rnd}) == len(rnd)
    with pytest.raises(ValueError):
        dc.prove_directed(0)


def test_the_hrel_optimum_at_granularity_one_half_with_forwarding():
    two = dc.hrel_family("triangles", 2, 2)  # two directed triangles, P = 6, h = 2
    r = dc.prove_hrel(two, granularity=2, forwarding=True)
    assert r["status"] == "proven", r["reason"]
    assert r["optimum"] == 3 and r["slots"] == 6
    assert dc.check_hrel_schedule(two, r["witness"]).holds
    # 5 slots: above the counting certificate (which refutes 4), so CaDiCaL's unsat with its DRAT proof checked
    assert r["certified_bound"] == 5 and r["certificate"].startswith("dancecard.cp/1")
    assert r["below"]["answer"] == "unsat" and r["below"]["proof_check"].startswith("accepted")
    direct = dc.prove_hrel(two)  # without forwarding: 3, the odd-set certificate refutes 2
    assert direct["status"] == "proven" and direct["optimum"] == 3
    with pytest.raises(ValueError, match="granularity"):
        dc.prove_hrel(two, granularity=0)
    with pytest.raises(ValueError, match="engine"):
        dc.prove_hrel(two, engine="cbc")


def test_the_torus_minimum_with_a_simulated_witness_and_a_checked_proof_below():
    r = dc.prove_torus([4, 4], model="general")
    assert r["status"] == "proven" and r["minimum_steps"] == 5, r["reason"]
    assert r["proven_lower_bound"] == 5 and r["counting_bound"] == 4
    assert dc.simulate_torus_gossip(r["witness"], max_steps=5).holds
    assert r["below"]["answer"] == "unsat" and "DRAT proof checked" in r["below"]["reason"]
    pairing = dc.prove_torus([3, 5])
    assert pairing["status"] == "proven" and pairing["minimum_steps"] == 5, pairing["reason"]
    with pytest.raises(ValueError, match="model"):
        dc.prove_torus([4, 4], model="mesh")
    with pytest.raises(ValueError, match="every side from 2"):
        dc.prove_torus([4, 1])
    with pytest.raises(ValueError, match="packets"):
        dc.prove_torus([4, 4], packets=5)


def test_ctrl_c_stops_the_torus_and_hrel_proofs_with_the_answer_unknown():
    # 5 x 6 pairing at 9 steps is one of the open cells: no budget would end the search in a test's time
    r = interrupted_after(0.5, lambda: dc.prove_torus([5, 6], timeout_ms=0))
    assert r["status"] == "unknown"
    assert "cancelled" in r["reason"], r["reason"]
    assert r["minimum_steps"] is None
    # three triangles at granularity 1/5: the witness search runs for minutes; Z3 is interrupted as CaDiCaL is
    nine = dc.hrel_family("triangles", 3, 2)
    for engine in ("sat", "z3"):
        r = interrupted_after(0.5, lambda: dc.prove_hrel(nine, granularity=5, forwarding=True, timeout_ms=0,
                                                          engine=engine))
        assert r["status"] == "unknown", (engine, r["reason"])
        assert r["optimum"] is None


def test_a_dance_witness_is_an_int32_array_the_checker_reads_in_place():
    r = dc.prove_dance(8)
    assert r["witness"].dtype == np.int32 and r["witness"].shape == (7, 4, 2)
