"""Collective schedules from Python: build, check, damage, read and write, generate, prove."""

import json

import numpy as np
import pytest

import dancecard as dc


def test_a_ring_all_gather_from_a_list_holds_and_one_lost_transfer_is_named():
    n = 4
    steps = [[(((r - t) % n), r, (r + 1) % n) for r in range(n)] for t in range(n - 1)]
    schedule = dc.Schedule("ring:4", dc.Collective("allgather", n), steps)
    report = dc.check_collective_schedule(schedule)
    assert report.holds, report.describe()
    assert report.figures["steps"] == 3 and report.figures["transfers"] == 12
    assert report.figures["step_bound"] == 2  # the ring's diameter
    steps[2].pop()  # rank 3's last chunk never arrives at rank 0
    damaged = dc.check_collective_schedule(dc.Schedule("ring:4", dc.Collective("allgather", n), steps))
    assert not damaged.holds
    assert damaged.violation_count == 1
    witness = damaged.witnesses[0]
    assert witness["kind"] == "missing" and witness["to"] == 0 and witness["chunk"] == 1
    assert "lacks chunk 1" in damaged.describe(), damaged.describe()
    assert '"outcome": "violated"' in damaged.to_json()


def test_an_alltoallv_of_moves_and_an_h_relation_as_one():
    coll = dc.Collective("alltoallv", 3, counts=[[0, 2, 0], [0, 0, 0], [1, 0, 0]])
    assert coll.chunk_count == 3 and coll.counts == [[0, 2, 0], [0, 0, 0], [1, 0, 0]]
    assert [coll.source(k) for k in range(3)] == [0, 0, 2] and coll.wanted(2, 0)
    steps = [[(0, 0, 1, "move"), (2, 2, 0, "move")], [(1, 0, 1, "move")]]
    schedule = dc.Schedule("complete:3", coll, steps, ports="one-port-simplex")
    report = dc.check_collective_schedule(schedule)
    assert not report.holds  # 0 sends and receives in step 0: one direction a step
    assert report.witnesses[0]["kind"] == "port conflict"
    steps = [[(0, 0, 1, "move")], [(1, 0, 1, "move")], [(2, 2, 0, "move")]]
    assert dc.check_collective_schedule(dc.Schedule("complete:3", coll, steps, ports="one-port-simplex")).holds
    table = dc.Schedule("complete:3", coll, steps).to_table()
    assert list(table[:, 4]) == [2, 2, 2]  # op 2: move
    steps[1] = [(0, 0, 1, "move")]  # chunk 0 again: 0 gave it up
    again = dc.check_collective_schedule(dc.Schedule("complete:3", coll, steps))
    assert [w["kind"] for w in again.witnesses] == ["not held", "missing"]
    with pytest.raises(ValueError, match="counts"):
        dc.Collective("alltoallv", 3)
    with pytest.raises(ValueError, match="counts\\[1\\]"):
        dc.Collective("alltoallv", 2, counts=[[0, 1], [1]])
    # the paper's two triangles with forwarding: 12 slots of 1/5 as moves of fifths of a packet
    instance = dc.hrel_family("triangles", 6, 2)
    slots = dc.hrel_schedule_of("forwarding", instance)
    adapted = dc.hrel_schedule_as_collective(instance, slots)
    assert adapted.ports == "one-port-simplex" and adapted.collective.kind == "alltoallv"
    assert dc.check_collective_schedule(adapted).holds == dc.check_hrel_schedule(instance, slots).holds


def test_a_transfer_table_round_trips_through_numpy():
    schedule = dc.classic_schedule("ring", "allreduce", 6, chunks=2)
    table = schedule.to_table()
    assert table.shape == (schedule.transfers, 5) and table.dtype == np.int64
    rounds = [step["rounds"] for step in schedule.steps]
    back = dc.Schedule.from_table(schedule.topology, schedule.collective, table, rounds=rounds, ports=schedule.ports,
                                  algorithm=schedule.algorithm)
    assert dc.write_collective_schedule(back) == dc.write_collective_schedule(schedule)
    assert dc.check_collective_schedule(back).holds
    table[0, 4] = 0  # the first reduction made a copy: a contribution goes missing
    assert not dc.check_collective_schedule(dc.Schedule.from_table("ring:6", schedule.collective, table)).holds


def test_the_file_format_round_trips_and_a_bad_file_names_the_place():
    schedule = dc.classic_schedule("bruck", "allgather", 5)
    text = dc.write_collective_schedule(schedule)
    again = dc.read_collective_schedule(text)
    assert dc.write_collective_schedule(again) == text
    document = json.loads(text)
    document["steps"][0]["transfers"][0][2] = 99
    with pytest.raises(dc.FormatError, match=r"steps\[0\]\.transfers\[0\]\[2\]: rank 99"):
        dc.read_collective_schedule(json.dumps(document))
    with pytest.raises(ValueError):  # FormatError is a ValueError
        dc.read_collective_schedule("{")


def test_bad_values_raise_value_error_naming_what():
    with pytest.raises(ValueError, match="kind"):
        dc.Collective("allscatter", 4)
    with pytest.raises(ValueError, match="no built-in network"):
        dc.Topology.builtin("mesh:4")
    with pytest.raises(ValueError, match="columns"):
        dc.Schedule.from_table("ring:4", dc.Collective("allgather", 4), np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(ValueError, match="step order"):
        dc.Schedule.from_table("ring:4", dc.Collective("allgather", 4),
                               np.array([[1, 0, 0, 1, 0], [0, 1, 1, 2, 0]], dtype=np.int64))
    with pytest.raises(ValueError, match="op must be"):
        dc.Schedule.from_table("ring:4", dc.Collective("allgather", 4), np.array([[0, 0, 0, 1, 7]]))
    with pytest.raises(ValueError, match="ports"):
        dc.Schedule("ring:4", dc.Collective("allgather", 4), [], ports="two-port")


def test_topologies():
    dgx1 = dc.Topology.builtin("dgx1")
    assert dgx1.size == 8 and dgx1.capacity(0, 1) == 2 and dgx1.capacity(0, 5) == 0
    mine = dc.Topology("line", 3, [(0, 1, 1), (1, 0, 1), (1, 2, 2), (2, 1, 2)])
    assert mine.links == [(0, 1, 1), (1, 0, 1), (1, 2, 2), (2, 1, 2)]
    with pytest.raises(ValueError):
        dc.Topology("bad", 2, [(0, 5, 1)])


def test_automorphisms_of_any_network():
    dgx1 = dc.Topology.builtin("dgx1")
    generators = dgx1.automorphisms()
    assert dgx1.translations() == []
    group = {tuple(range(8))}
    while True:  # the group the generators make, closed under products
        more = {tuple(g[p[r]] for r in range(8)) for p in group for g in generators} | group
        if more == group:
            break
        group = more
    assert len(group) == 4
    for g in group:
        assert all(dgx1.capacity(g[a], g[b]) == c for a, b, c in dgx1.links)
    star = dc.Topology("star", 4, [(0, r, 1) for r in (1, 2, 3)] + [(r, 0, 1) for r in (1, 2, 3)])
    assert all(g[0] == 0 for g in star.automorphisms()) and len(star.automorphisms()) == 2  # S3 on the leaves
    assert len(dc.Topology.builtin("hypercube:3").translations()) == 3


def test_a_network_file_round_trips_and_a_bad_one_names_the_place():
    mine = dc.Topology("line", 3, [(0, 1, 1), (1, 0, 1), (1, 2, 2), (2, 1, 2)])
    back = dc.read_topology(dc.write_topology(mine))
    assert back.name == "line" and back.size == 3 and back.links == mine.links
    with pytest.raises(ValueError, match=r"topology\.links\[0\]"):
        dc.read_topology('{"format": "dancecard.topology/1", "ranks": 2, "links": [[0, 2, 1]]}')


def test_least_steps_and_rounds_with_their_certificates():
    r = dc.prove_least_steps("dgx1", dc.Collective("allgather", 8), timeout_ms=0)
    assert r["status"] == "proven" and r["steps"] == 2
    assert dc.check_collective_schedule(r["witness"]).holds
    below = r["queries"][1]
    assert below["answer"] == "unsat" and "cutting-planes certificate checked" in below["detail"]
    assert below["certificate"].startswith("dancecard.cp/1")
    drat = dc.prove_least_steps("dgx1", dc.Collective("allgather", 8), timeout_ms=0, cut_certificates=False)
    assert "DRAT proof checked" in drat["queries"][1]["detail"]
    r = dc.prove_least_rounds("dgx1", dc.Collective("allgather", 8, chunks=2), steps=2, timeout_ms=0)
    assert r["status"] == "proven" and r["rounds"] == 3  # SCCL's (2, 2, 3)


def test_invariant_witnesses_and_the_direct_all_reduce():
    torus = dc.prove_least_rounds("torus:3x3", dc.Collective("allgather", 9, chunks=2), steps=2, timeout_ms=0)
    assert torus["status"] == "proven"
    assert "invariant under the network's translations" in torus["queries"][-1]["detail"]
    whole = dc.prove_least_rounds("torus:3x3", dc.Collective("allgather", 9, chunks=2), steps=2, timeout_ms=0,
                                  symmetric_witnesses=False)
    assert whole["rounds"] == torus["rounds"]
    assert all("invariant" not in q["detail"] for q in whole["queries"])
    ring = dc.prove_least_steps("ring:4", dc.Collective("allreduce", 4), timeout_ms=0)
    assert ring["status"] == "proven" and ring["steps"] == 3
    assert dc.check_collective_schedule(ring["witness"]).holds


def test_a_formula_past_the_clause_limit_answers_unknown():
    r = dc.prove_least_steps("ring:6", dc.Collective("allgather", 6), timeout_ms=0, cut_certificates=False,
                             symmetric_witnesses=False, max_clauses=100)
    assert r["status"] == "unknown" and "max_clauses" in r["reason"]
    assert r["queries"][-1]["answer"] == "unknown"
    r = dc.prove_least_steps("ring:6", dc.Collective("allgather", 6), timeout_ms=0, cut_certificates=False)
    assert r["status"] == "proven" and r["steps"] == 3
    with pytest.raises(ValueError, match="max_clauses"):
        dc.prove_least_steps("ring:6", dc.Collective("allgather", 6), max_clauses=0)


def test_the_frontier_of_a_small_ring():
    f = dc.prove_frontier("ring:4", dc.Collective("allgather", 4), max_chunks=3, timeout_ms=0)
    assert f["status"] == "proven"
    on = [(p["chunks"], p["steps"], p["rounds"]) for p in f["points"] if p["on_frontier"]]
    assert on == [(1, 2, 2), (2, 2, 3)]


def test_the_generators_hold_on_many_sizes():
    for algorithm, kind in [("ring", "allgather"), ("recursive-doubling", "allgather"), ("pairwise", "alltoall"),
                            ("ring", "reduce-scatter"), ("double-binary-tree", "allreduce")]:
        for n in range(2, 10):
            report = dc.check_collective_schedule(dc.classic_schedule(algorithm, kind, n))
            assert report.holds, (algorithm, kind, n, report.describe())


def test_the_multi_ring_all_gather_meets_the_in_link_bound():
    schedule = dc.multi_ring_allgather("4x8", 4)
    report = dc.check_collective_schedule(schedule)
    assert report.holds, report.describe()
    assert (report.figures["steps"], report.figures["rounds"], report.figures["round_bound"]) == (31, 31, 31)
    with pytest.raises(ValueError, match="multiple of the 4 directed rings"):
        dc.multi_ring_allgather("4x8", 6)


def test_the_bidirectional_multi_ring_all_gather_takes_half_the_steps():
    report = dc.check_collective_schedule(dc.bidirectional_multi_ring_allgather("4x8", 4))
    assert report.holds, report.describe()
    assert (report.figures["steps"], report.figures["rounds"], report.figures["round_bound"]) == (16, 31, 31)
    with pytest.raises(ValueError, match="multiple of 4 on 4x8"):
        dc.bidirectional_multi_ring_allgather("4x8", 2)


def test_rotated_doubling_meets_the_distance_and_in_link_bounds_at_once():
    report = dc.check_collective_schedule(dc.classic_schedule("rotated-doubling", "allgather", 32, chunks=5))
    assert report.holds, report.describe()
    figures = report.figures
    assert (figures["steps"], figures["step_bound"], figures["rounds"], figures["round_bound"]) == (5, 5, 31, 31)
    with pytest.raises(ValueError, match="multiple of the 5 dimensions"):
        dc.classic_schedule("rotated-doubling", "allgather", 32, chunks=4)


def test_ctrl_c_stops_a_long_proof_and_the_answer_is_unknown():
    # All-gather of 4 chunks per rank on the 4-cube in 4 steps: the query at the cut bound's 15 rounds runs for
    # minutes. SIGINT a quarter of a second in stops the solver; the answer is unknown, never a guess.
    import os
    import signal
    import threading

    timer = threading.Timer(0.25, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = dc.prove_least_rounds("hypercube:4", dc.Collective("allgather", 16, chunks=4), steps=4, timeout_ms=0)
    finally:
        timer.cancel()
    assert r["status"] == "unknown"
    assert "cancelled" in r["reason"] or "cancelled" in r["queries"][-1]["detail"], r
    assert r["witness"] is None
    # Python's own handler is back: a Ctrl-C now is a KeyboardInterrupt again
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_proofs_on_two_threads_leave_pythons_ctrl_c_handler_in_place():
    import signal
    import threading

    results = []

    def prove():
        results.append(dc.prove_least_steps("ring:6", dc.Collective("allgather", 6), timeout_ms=0)["status"])

    threads = [threading.Thread(target=prove) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["proven", "proven"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
