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


def test_the_papers_constructions_for_any_torus_gossip_as_the_cli_simulates_them():
    # (dims, algorithm, packets per PU, steps): the same tables as `dancecard simulate torus --dims D --algo A`
    for dims, algorithm, packets, steps in [([4, 6], "hamiltonian", 2, 12), ([3, 5], "hamiltonian", 2, 7),
                                            ([3, 4, 5], "hamiltonian", 3, 30), ([6, 8], "one-packet", 1, 15),
                                            ([6, 7], "partial", 1, 19)]:
        table = dc.torus_table(dims, algorithm)
        assert table.dims == dims and table.packets == packets
        report = dc.simulate_torus_gossip(table)
        assert report.holds, report.describe()
        assert report.figures["steps"] == steps, (dims, algorithm)
    with pytest.raises(ValueError, match="partial cycles"):
        dc.torus_table([4, 4], "partial")
    with pytest.raises(ValueError, match="algorithm: expected"):
        dc.torus_table([4, 4], "zigzag")
    with pytest.raises(ValueError, match="supply: expected"):
        dc.torus_table([6, 8], "one-packet", supply="sometimes")
