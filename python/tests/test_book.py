"""The theorem book from Python: listed, and a module run (its rows hold)."""

import pytest

import dancecard as dc


def test_the_book_lists_every_module_and_runs_the_collective_points():
    rows = dc.verify_list()
    modules = {row["id"].split(".")[0] for row in rows}
    assert {"dance", "hrel", "online", "torus", "collective", "mpi"} <= modules
    results = dc.verify("collective.sccl_1_2_2") + dc.verify("dance.table")
    assert [r["verdict"] for r in results] == ["holds"] * len(results)
    assert "witness accepted" in results[0]["evidence"]
    with pytest.raises(ValueError, match="no claim matches"):
        dc.verify("nothing.here")
