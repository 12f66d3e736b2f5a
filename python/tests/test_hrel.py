"""h-relations from Python: the paper's two triangles, the generators on families, damage, formats."""

from fractions import Fraction

import pytest

import dancecard as dc


def test_two_triangles_with_forwarding_take_twelve_fifths():
    instance = dc.HrelInstance(6, [(0, 1, 1), (1, 2, 1), (2, 0, 1), (3, 4, 1), (4, 5, 1), (5, 3, 1)])
    assert instance.h_half_duplex == 2 and instance.h_full_duplex == 1
    direct = dc.hrel_schedule_of("direct", instance)
    forwarding = dc.hrel_schedule_of("forwarding", instance)
    assert dc.check_hrel_schedule(instance, direct).holds
    report = dc.check_hrel_schedule(instance, forwarding)
    assert report.holds, report.describe()
    assert report.figures["makespan"] == forwarding.makespan
    assert forwarding.makespan < direct.makespan == 3


def test_every_generator_holds_on_random_instances_and_a_lost_slot_is_caught():
    for seed in range(1, 6):
        instance = dc.hrel_family("random", 6, 4, seed)
        for algorithm in ["direct", "forwarding"]:
            schedule = dc.hrel_schedule_of(algorithm, instance)
            assert dc.check_hrel_schedule(instance, schedule).holds, (seed, algorithm)
        full = dc.hrel_schedule_of("full-duplex", instance)
        assert dc.check_hrel_schedule(instance, full, duplex="full").holds
    text = dc.write_hrel_schedule(dc.hrel_schedule_of("direct", instance))
    again = dc.read_hrel_schedule(text)
    assert dc.write_hrel_schedule(again) == text
    import json
    document = json.loads(text)
    document["slots"].pop()
    damaged = dc.check_hrel_schedule(instance, dc.read_hrel_schedule(json.dumps(document)))
    assert not damaged.holds
    assert any(w["kind"] == "message_incomplete" for w in damaged.witnesses), damaged.describe()
    assert all(isinstance(w["held"], Fraction) for w in damaged.witnesses)


def test_bad_input_names_the_problem():
    with pytest.raises(ValueError):
        dc.HrelInstance(3, [(0, 0, 1)])  # a message to itself
    with pytest.raises(ValueError, match="family"):
        dc.hrel_family("square", 4, 2)
    with pytest.raises(ValueError, match="duplex"):
        dc.check_hrel_schedule(dc.HrelInstance(2, [(0, 1, 1)]),
                               dc.hrel_schedule_of("direct", dc.HrelInstance(2, [(0, 1, 1)])), duplex="quarter")
    with pytest.raises(dc.FormatError):
        dc.read_hrel_instance('{"format": "dancecard.hrel/1", "pes": -1}')


def test_a_schedule_run_backwards_and_renamed_is_checked_again():
    three = dc.hrel_family("triangles", 3, 2)
    pi = dc.hrel_reversal_symmetry(three)
    assert pi == [0, 2, 1, 3, 5, 4, 6, 8, 7]  # each directed triangle reflected
    for algorithm in ("direct", "forwarding"):
        schedule = dc.hrel_schedule_of(algorithm, three)
        back = dc.reversed_hrel_schedule(three, schedule, pi)
        report = dc.check_hrel_schedule(three, back)
        assert report.holds, report.describe()
        assert report.figures["makespan"] == dc.check_hrel_schedule(three, schedule).figures["makespan"]
    # unequal messages along a path turn round onto nothing; a wrong pi is refused
    path = dc.HrelInstance(3, [(0, 1, 1), (1, 2, 2)])
    assert dc.hrel_reversal_symmetry(path) is None
    with pytest.raises(ValueError):
        dc.reversed_hrel_schedule(path, dc.hrel_schedule_of("direct", path), [2, 1, 0])
