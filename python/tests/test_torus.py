"""Torus gossip from Python: Section 3.1's Hamiltonian tables, the simulator, the collective view."""

import pytest

import dancecard as dc


def test_hamiltonian_tables_gossip_in_the_papers_steps():
    for dims in [(4, 4), (4, 6), (6, 8)]:
        table = dc.hamiltonian_torus_table(list(dims))
        report = dc.simulate_torus_gossip(table)
        assert report.holds, report.describe()
        p = dims[0] * dims[1]
        assert report.figures["steps"] == p // 2  # two cycles, one packet a PU, both directions
        schedule = dc.torus_table_as_collective(table, report.figures["steps"])
        assert dc.check_collective_schedule(schedule).holds
        short = dc.torus_table_as_collective(table, report.figures["steps"] - 1)
        assert not dc.check_collective_schedule(short).holds


def test_a_table_round_trips_and_a_cut_short_run_is_named():
    table = dc.hamiltonian_torus_table([4, 4])
    again = dc.read_torus_routing(dc.write_torus_routing(table))
    assert dc.write_torus_routing(again) == dc.write_torus_routing(table)
    report = dc.simulate_torus_gossip(table, max_steps=3)
    assert not report.holds and report.violation_count >= 1
    with pytest.raises(dc.FormatError):
        dc.read_torus_routing("{}")
