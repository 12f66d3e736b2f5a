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
