"""dancecard: check, generate and prove communication schedules of collective operations.

The C++ library for Python: the checkers return a ``Report`` (``holds``, ``witnesses`` as dicts, ``describe()``,
``to_json()``); the proofs return a dict whose ``status`` is "proven", "refuted" or "unknown", with a witness the
checker accepted and the refutations below it (each a checked DRAT proof or cutting-planes certificate). Bad input
raises ``ValueError`` (``FormatError`` for files and texts), whose message names the place. See docs/python.md.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Optional

from . import _dancecard
from ._dancecard import (  # noqa: F401  (the re-exported API)
    Collective,
    FormatError,
    HrelInstance,
    HrelSchedule,
    MscclProgram,
    OnlineInstance,
    RoutingTable,
    Schedule,
    Topology,
    bidirectional_multi_ring_allgather,
    classic_schedule,
    difficult_relation,
    generate_dance,
    hamiltonian_torus_table,
    hrel_family,
    hrel_reversal_symmetry,
    hrel_schedule_as_collective,
    hrel_schedule_of,
    import_msccl,
    multi_ring_allgather,
    prove_dance,
    prove_directed,
    prove_frontier,
    prove_hrel,
    prove_least_rounds,
    prove_least_steps,
    prove_torus,
    random_online_relation,
    read_collective_schedule,
    read_dance_json,
    read_directed_json,
    read_hrel_instance,
    read_hrel_schedule,
    read_msccl_xml,
    read_partner_matrix,
    read_topology,
    read_torus_routing,
    reversed_hrel_schedule,
    run_online_campaign,
    simulate_online,
    to_msccl,
    total_exchange,
    torus_table,
    torus_table_as_collective,
    write_collective_schedule,
    write_dance_json,
    write_directed_json,
    write_hrel_instance,
    write_hrel_schedule,
    write_msccl_xml,
    write_partner_matrix,
    write_topology,
    write_torus_routing,
)

__all__ = [
    "Collective", "FormatError", "HrelInstance", "HrelSchedule", "MscclProgram", "OnlineInstance", "Report",
    "Schedule", "Topology", "check_collective_schedule", "check_dance_schedule", "check_directed_schedule",
    "check_hrel_schedule", "check_partner_matrix", "read_dance_json", "read_directed_json", "read_partner_matrix",
    "write_dance_json", "write_directed_json", "write_partner_matrix",
    "check_msccl_program", "check_online_trace", "difficult_relation", "random_online_relation",
    "run_online_campaign", "simulate_online", "total_exchange",
    "bidirectional_multi_ring_allgather", "classic_schedule", "generate_dance", "hrel_family", "hrel_reversal_symmetry",
    "hrel_schedule_as_collective", "hrel_schedule_of", "import_msccl", "multi_ring_allgather", "properties",
    "prove_dance", "prove_directed", "prove_frontier", "prove_hrel", "prove_least_rounds", "prove_least_steps",
    "prove_torus", "read_collective_schedule", "read_hrel_instance",
    "read_hrel_schedule", "read_msccl_xml", "read_torus_routing", "reversed_hrel_schedule", "RoutingTable",
    "hamiltonian_torus_table",
    "simulate_torus_gossip", "to_msccl", "torus_table", "torus_table_as_collective", "write_collective_schedule",
    "write_hrel_instance", "write_hrel_schedule", "write_msccl_xml", "write_torus_routing", "verify", "verify_list",
    "read_topology", "write_topology",
]


class Report:
    """A checker's answer: the verdict, what was checked, the witnesses (dicts) and the figures."""

    def __init__(self, data: dict):
        self._data = data

    @property
    def outcome(self) -> str:
        """"holds", "violated" or "unknown"."""
        return self._data["outcome"]

    @property
    def holds(self) -> bool:
        return self._data["outcome"] == "holds"

    @property
    def checked(self) -> str:
        return self._data["checked"]

    @property
    def violation_count(self) -> int:
        """All violations found (the witnesses are the first few)."""
        return self._data["violation_count"]

    @property
    def witnesses(self) -> list:
        return self._data["witnesses"]

    @property
    def figures(self) -> dict:
        return self._data["figures"]

    def describe(self) -> str:
        """The text `dancecard check` prints."""
        return self._data["text"]

    def to_json(self) -> str:
        return json.dumps({k: v for k, v in self._data.items() if k != "text"}, indent=2)

    def __bool__(self) -> bool:
        return self.holds

    def __repr__(self) -> str:
        return f"<Report {self.outcome}: {self.checked}>"


def check_collective_schedule(schedule: Schedule, exact: bool = False, max_witnesses: int = 10) -> Report:
    """Links, capacities × rounds, ports, causality, contributions, the postcondition; figures and lower bounds."""
    return Report(_dancecard.check_collective_schedule(schedule, exact=exact, max_witnesses=max_witnesses))


def check_msccl_program(program: MscclProgram, connection_slots: int = 1, max_witnesses: int = 10) -> Report:
    """Structure, matching, deadlock, races and the postcondition of an MSCCL-IR program."""
    return Report(_dancecard.check_msccl_program(program, connection_slots=connection_slots,
                                                 max_witnesses=max_witnesses))


def check_dance_schedule(dances: Any, people: int, max_witnesses: int = 10) -> Report:
    """A dance schedule as an int array rounds × pairs × 2 (NumPy or nested lists; -1 pairs pad short rounds)."""
    return Report(_dancecard.check_dance_schedule(dances, people, max_witnesses=max_witnesses))


def check_partner_matrix(matrix: Any, max_witnesses: int = 10) -> Report:
    """The paper's partner matrix (people × rounds, 1-based entries, a person's own number when idle)."""
    return Report(_dancecard.check_partner_matrix(matrix, max_witnesses=max_witnesses))


def check_directed_schedule(rounds: Any, people: int, max_witnesses: int = 10) -> Report:
    """Full-duplex all-to-all as rounds of (from, to): every ordered pair once, one send and one receive a round."""
    return Report(_dancecard.check_directed_schedule(rounds, people, max_witnesses=max_witnesses))


def check_hrel_schedule(instance: HrelInstance, schedule: HrelSchedule, duplex: str = "half",
                        max_witnesses: int = 10) -> Report:
    """Ports (half or full duplex), rates, causality with forwarding, delivery; figures["makespan"] a Fraction."""
    return Report(_dancecard.check_hrel_schedule(instance, schedule, duplex=duplex, max_witnesses=max_witnesses))


def simulate_torus_gossip(table: RoutingTable, max_steps: int = 0, max_witnesses: int = 10) -> Report:
    """Runs a routing table until every PU holds every packet: figures["steps"] when it holds."""
    return Report(_dancecard.simulate_torus_gossip(table, max_steps=max_steps, max_witnesses=max_witnesses))


def check_online_trace(instance: OnlineInstance, trace: dict, max_witnesses: int = 10) -> Report:
    """Replays an on-line trace (as simulate_online returns it) under its discipline: every send and delivery allowed,
    every message delivered once; figures["rounds"]."""
    return Report(_dancecard.check_online_trace(instance, trace, max_witnesses=max_witnesses))


def verify(only: str = "") -> list:
    """Runs the theorem book's rows (all, or those of a module such as "dance", or of a row id prefix): a dict per row
    with its verdict ("holds", "violated", "unknown", "informational"), evidence and certificate."""
    if not hasattr(_dancecard, "verify"):
        raise RuntimeError("this build of dancecard has no theorem book (built without the CLI's library)")
    return _dancecard.verify(only)


def verify_list(only: str = "") -> list:
    """The theorem book's rows without running them: id, paper, section, statement, method."""
    if not hasattr(_dancecard, "verify_list"):
        raise RuntimeError("this build of dancecard has no theorem book (built without the CLI's library)")
    return _dancecard.verify_list(only)


class properties:  # noqa: N801  (a namespace, as the C++ library's properties/)
    """Property tests of users' generators."""

    @staticmethod
    def check_generator(generate: Callable[[int], Schedule], n_max: int, n_min: int = 1,
                        check: Optional[Callable[[Schedule], Report]] = None) -> dict:
        """Calls ``generate(n)`` for n = n_min … n_max and checks each schedule (check_collective_schedule unless
        ``check`` is given). Returns {"holds": bool, "sizes": checked sizes, "smallest_failing": n or None,
        "report": the failing Report or None}; an exception raised by the generator counts as a failure at that n."""
        check = check or check_collective_schedule
        for n in range(n_min, n_max + 1):
            try:
                report = check(generate(n))
            except (ValueError, RuntimeError, IndexError) as error:
                return {"holds": False, "sizes": n - n_min, "smallest_failing": n, "report": None,
                        "error": str(error)}
            if not report.holds:
                return {"holds": False, "sizes": n - n_min, "smallest_failing": n, "report": report}
        return {"holds": True, "sizes": n_max - n_min + 1, "smallest_failing": None, "report": None}
