"""AIX numbered messages (NNNN-NNN) printed instead of a command's output: no records, one warning
naming the message."""

from pathlib import Path

from lparscope.sources import lspv
from lparscope.sources._aix_message import is_message, messages
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures"


def test_lspv_of_a_missing_disk_is_one_warning_naming_the_message():
    text = (FIX / "lspv" / "aix73_lspv_not_found.txt").read_text()
    assert [s.kind for s in split_and_classify(text)] == ["lspv"]
    r = lspv.parse(text)
    assert r.records == [] and r.hostname == "aixapp7"
    assert [(w.line, w.message) for w in r.warnings] == [
        (2, "lspv error 0516-1396 The physical volume hdisk9, was not found in the system database.")]


def test_a_message_among_rows_is_warned_and_the_rows_are_read():
    text = ("# lspv\nhdisk0          00c84c1d3e0a51b7                    rootvg          active\n"
            "0516-320 lspv: Physical volume hdisk7 is not assigned to\na volume group.\n"
            "hdisk1          00c84c1d5c816fc2                    None\n")
    r = lspv.parse(text)
    assert [p.name for p in r.records] == ["hdisk0", "hdisk1"]
    assert [(w.line, w.message) for w in r.warnings] == [
        (3, "lspv error 0516-320 Physical volume hdisk7 is not assigned to a volume group.")]


def test_message_forms():
    lines = ["0516-1396 : The physical volume hdisk1, was not found in the", "system database.", "#",
             "lsvg: 0516-010 : Volume group must be varied on; use varyonvg command.",
             "0514-519 The following device was not found in the customized", "device configuration database:",
             "        hdisk77", "", "hdisk0 00c84c1d3e0a51b7 rootvg active"]
    found, taken = messages(lines)
    assert found == [(1, "0516-1396 The physical volume hdisk1, was not found in the system database."),
                     (4, "0516-010 Volume group must be varied on; use varyonvg command."),
                     (5, "0514-519 The following device was not found in the customized device configuration database: hdisk77")]
    assert taken == {0, 1, 3, 4, 5, 6}
    assert not is_message("hdisk0 00c84c1d3e0a51b7 rootvg active") and not is_message("2024-01-02 10:00")
    assert messages(["1234-567" + "x" * 10000] + ["y"] * 10)[1] == {0, 1, 2, 3}  # at most three lines more
