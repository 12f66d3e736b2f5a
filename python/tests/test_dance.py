"""Dance schedules as NumPy arrays."""

import numpy as np
import pytest

import dancecard as dc


@pytest.mark.parametrize("algorithm", ["sequential", "searching", "divide", "factorization"])
def test_the_papers_generators_hold(algorithm):
    for n in [2, 5, 8, 13]:
        dances = dc.generate_dance(algorithm, n)
        assert dances.ndim == 3 and dances.shape[2] == 2
        report = dc.check_dance_schedule(dances, n)
        assert report.holds, report.describe()
        assert report.figures["dances"] == n * (n - 1) // 2


def test_a_pair_dancing_twice_is_a_witness():
    dances = dc.generate_dance("factorization", 6)
    dances[1, 0] = dances[0, 0]  # round 1's first couple replaced by round 0's
    report = dc.check_dance_schedule(dances, 6)
    assert not report.holds and report.violation_count >= 1
    assert {w["kind"] for w in report.witnesses} >= {"pair_meets_twice", "pair_never_meets"}


def test_lists_and_bad_shapes():
    assert dc.check_dance_schedule([[[0, 1]]], 2).holds
    with pytest.raises(ValueError, match="rounds × pairs × 2"):
        dc.check_dance_schedule(np.zeros((2, 2), dtype=np.int64), 2)
    with pytest.raises(ValueError, match="outside"):
        dc.check_dance_schedule([[[0, 5]]], 2)


def test_int32_arrays_checked_in_place_answer_as_int64_copies_do():
    dances = dc.generate_dance("factorization", 12)
    assert dances.dtype == np.int32
    broken = dances.copy()
    broken[3, 2] = broken[0, 0]
    for array in (dances, broken):
        in_place = dc.check_dance_schedule(array, 12)
        copied = dc.check_dance_schedule(array.astype(np.int64), 12)
        strided = dc.check_dance_schedule(np.asfortranarray(array), 12)
        assert in_place.outcome == copied.outcome == strided.outcome
        assert in_place.witnesses == copied.witnesses == strided.witnesses
    with pytest.raises(ValueError, match="outside"):
        dc.check_dance_schedule(np.full((1, 1, 2), 12, dtype=np.int32), 12)


def test_the_dance_formats_round_trip_and_name_the_place_of_an_error():
    dances = dc.generate_dance("factorization", 7)
    text = dc.write_dance_json(dances, 7, algorithm="factorization")
    again = dc.read_dance_json(text)
    assert again["people"] == 7 and np.array_equal(again["dances"], dances)
    with pytest.raises(dc.FormatError, match=r"rounds\[0\]\[0\]"):
        dc.read_dance_json('{"format": "dancecard.dance/1", "n": 3, "rounds": [[[0, 7]]]}')


def test_the_partner_matrix_reads_checks_and_writes():
    # 4 people in 3 rounds, 1-based: round 1 pairs (1,2)(3,4), round 2 (1,3)(2,4), round 3 (1,4)(2,3)
    text = "2 3 4\n1 4 3\n4 1 2\n3 2 1\n"
    matrix = dc.read_partner_matrix(text)
    assert matrix.shape == (4, 3) and matrix.dtype == np.uint32
    report = dc.check_partner_matrix(matrix)
    assert report.holds, report.describe()
    assert report.figures["dances"] == 6
    assert dc.read_partner_matrix(dc.write_partner_matrix(matrix)).tolist() == matrix.tolist()
    broken = matrix.copy()
    broken[0, 0] = 3  # person 1 names 3 in round 1, but 3 names 4
    assert not dc.check_partner_matrix(broken).holds
    assert "asymmetric_entry" in {w["kind"] for w in dc.check_partner_matrix(broken).witnesses}
    with pytest.raises(ValueError, match=r"matrix\[0\]\[1\]"):
        dc.check_partner_matrix([[2, -1], [1, 1]])
    with pytest.raises(dc.FormatError):
        dc.read_partner_matrix("2 x\n1 1\n")


def test_directed_schedules_check_and_round_trip():
    rounds = dc.prove_directed(4)["witness"]
    report = dc.check_directed_schedule(rounds, 4)
    assert report.holds and report.figures["transfers"] == 12
    again = dc.read_directed_json(dc.write_directed_json(rounds, 4))
    assert again["people"] == 4 and again["rounds"] == rounds
    twice = [list(r) for r in rounds]
    twice[1][0] = twice[0][0]  # the first transfer of round 0 again in round 1
    assert not dc.check_directed_schedule(twice, 4).holds
    with pytest.raises(ValueError, match=r"rounds\[0\]\[0\]"):
        dc.check_directed_schedule([[(0, 9)]], 4)
