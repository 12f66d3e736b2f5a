"""dancecard.properties.check_generator, and a Hypothesis property over generated schedules."""

from hypothesis import given, settings
from hypothesis import strategies as st

import dancecard as dc


def test_a_correct_generator_holds_at_every_size():
    result = dc.properties.check_generator(lambda n: dc.classic_schedule("ring", "allgather", n), n_max=12)
    assert result["holds"] and result["sizes"] == 12 and result["smallest_failing"] is None


def test_the_smallest_failing_size_is_reported():
    def buggy(n):  # drops the last step from 5 ranks on
        schedule = dc.classic_schedule("bruck", "allgather", n)
        if n < 5:
            return schedule
        table = schedule.to_table()
        last = table[:, 0].max()
        rounds = [step["rounds"] for step in schedule.steps][:-1]
        return dc.Schedule.from_table(schedule.topology, schedule.collective, table[table[:, 0] != last],
                                      rounds=rounds, ports=schedule.ports)

    result = dc.properties.check_generator(buggy, n_max=10)
    assert not result["holds"] and result["smallest_failing"] == 5
    assert result["report"].witnesses[0]["kind"] == "missing"


def test_an_exception_in_the_generator_fails_at_its_size():
    result = dc.properties.check_generator(lambda n: dc.classic_schedule("rabenseifner", "allreduce", n), n_max=4)
    assert not result["holds"] and result["smallest_failing"] == 3 and "error" in result


@settings(max_examples=60, deadline=None, database=None)  # no example database written into the tree
@given(n=st.integers(min_value=2, max_value=12), drop=st.integers(min_value=0, max_value=10_000))
def test_dropping_any_transfer_of_a_ring_all_gather_is_caught(n, drop):
    schedule = dc.classic_schedule("ring", "allgather", n)
    table = schedule.to_table()
    table = table[[i for i in range(len(table)) if i != drop % len(table)]]
    damaged = dc.Schedule.from_table(schedule.topology, schedule.collective, table, ports=schedule.ports)
    report = dc.check_collective_schedule(damaged)
    assert not report.holds
    assert report.violation_count >= 1
