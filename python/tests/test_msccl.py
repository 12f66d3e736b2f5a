"""MSCCL-IR from Python: export, write and read, check, import, and the errors of a broken file."""

import pytest

import dancecard as dc


def test_export_check_and_import_round_trip():
    schedule = dc.classic_schedule("ring", "allreduce", 4)
    program = dc.to_msccl(schedule, channels=2)
    text = dc.write_msccl_xml(program)
    again = dc.read_msccl_xml(text)
    assert again.ngpus == 4 and again.coll == "allreduce" and again.nchannels == 2
    report = dc.check_msccl_program(again)
    assert report.holds, report.describe()
    assert report.figures["transfers"] == schedule.transfers
    imported = dc.import_msccl(again, topology="ring:4")
    assert imported["schedule"] is not None, imported["reason"]
    assert len(imported["schedule"].steps) == len(schedule.steps)  # the ring's depth is its steps
    assert dc.check_collective_schedule(imported["schedule"]).holds


def test_a_broken_program_is_rejected_and_not_imported():
    text = dc.write_msccl_xml(dc.to_msccl(dc.classic_schedule("ring", "allgather", 3)))
    program = dc.read_msccl_xml(text.replace('type="s"', 'type="r"'))
    report = dc.check_msccl_program(program)
    assert not report.holds
    assert report.witnesses[0]["kind"] in ("deadlock", "unmatched", "malformed")
    imported = dc.import_msccl(program)
    assert imported["schedule"] is None and imported["program_invalid"]


def test_a_broken_file_names_the_element_and_attribute():
    text = dc.write_msccl_xml(dc.to_msccl(dc.classic_schedule("ring", "allgather", 3)))
    with pytest.raises(dc.FormatError, match=r"attribute 'cnt' is 'one'"):
        dc.read_msccl_xml(text.replace('cnt="1"', 'cnt="one"', 1))
