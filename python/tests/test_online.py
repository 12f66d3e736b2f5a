"""The on-line model from Python: instances and families, seeded simulation, the trace checker, campaigns."""
from fractions import Fraction

import numpy as np
import pytest

import dancecard as dc


def test_instances_and_families():
    i = dc.OnlineInstance(3, [(0, 1), (1, 2), (2, 0), (0, 2)])
    assert i.processors == 3 and i.h == 2 and i.messages[3] == (0, 2)
    assert dc.total_exchange(5).h == 4
    assert dc.random_online_relation(8, 3, seed=2).h == 3
    assert dc.difficult_relation(3).processors == 1 + 3 + 6 + 12
    with pytest.raises(ValueError):
        dc.OnlineInstance(2, [(0, 0)])  # a message to itself
    with pytest.raises(ValueError):
        dc.difficult_relation(41)


def test_a_seeded_run_replays_and_a_damaged_trace_does_not():
    i = dc.random_online_relation(32, 8, seed=1)
    run = dc.simulate_online(i, "arbitrary", seed=5)
    assert run["protocol"] == "weighted" and run["finished"]
    again = dc.simulate_online(i, "arbitrary", seed=5)
    assert again["rounds"] == run["rounds"]
    assert np.array_equal(again["trace"]["deliveries"], run["trace"]["deliveries"])
    report = dc.check_online_trace(i, run["trace"])
    assert report.holds and report.figures["rounds"] == run["rounds"]
    damaged = dict(run["trace"])
    damaged["deliveries"] = run["trace"]["deliveries"][:-1]  # one message never delivered
    assert not dc.check_online_trace(i, damaged).holds
    assert dc.simulate_online(i, "fifo", keep_trace=False)["trace"] is None
    with pytest.raises(ValueError, match="does not run under"):
        dc.simulate_online(i, "fifo", "weighted")
    with pytest.raises(ValueError, match="discipline"):
        dc.simulate_online(i, "lifo")
    with pytest.raises(ValueError, match="deliveries"):
        dc.check_online_trace(i, {"discipline": "fifo", "sends": np.zeros((0, 3)), "deliveries": np.zeros((2, 3))})


def test_a_campaign_has_an_exact_mean():
    c = dc.run_online_campaign(dc.total_exchange(16), "priority", runs=3)
    assert c["runs"] == 3 and c["all_finished"] and c["all_valid"]
    assert c["mean_ratio"] == Fraction(sum(c["rounds"]), 3 * c["h"])
    assert c["min_rounds"] <= c["mean"] * c["h"] <= c["max_rounds"]
