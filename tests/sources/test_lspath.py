from pathlib import Path

from lparscope.sources import lsdev, lspath, lspv
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lspath"


def rows(result):
    return [(p.disk, p.status, p.parent, p.connection, p.path_id, p.path_status, p.line) for p in result.records]


def test_plain_lspath():
    text = (FIX / "aix72_lspath_fscsi.txt").read_text()
    assert lspath.detect(text) >= 90
    r = lspath.parse(text)
    assert r.warnings == [] and r.hostname == "aixdb01"
    assert rows(r)[0] == ("hdisk0", "Enabled", "vscsi0", None, None, None, 2)
    assert [p.status for p in r.records if p.disk == "hdisk1"] == ["Enabled", "Enabled", "Failed"]
    assert r.records[-1].status == "Missing"


def test_F_fields_from_command():
    r = lspath.parse((FIX / "aix71_F_connection.txt").read_text())
    assert r.warnings == []
    assert rows(r) == [("hdisk0", "Enabled", "vscsi0", "810000000000", None, None, 2),
                       ("hdisk0", "Enabled", "vscsi1", "810000000000", None, None, 3)]


def test_lsmpio_table():
    text = (FIX / "aix73_lsmpio_l.txt").read_text()
    assert lspath.detect(text) >= 90
    r = lspath.parse(text)
    assert r.warnings == [] and len(r.records) == 4
    assert rows(r)[0] == ("hdisk2", "Enabled", "fscsi0", "5005076810113b2e,2000000000000", 0, "Sel,Opt", 3)
    assert r.records[3].status == "Failed" and r.records[3].path_id == 3
    assert lspath.detect(text.split("\n", 1)[1]) >= 90  # header without the prompt


def test_bad_input():
    r = lspath.parse((FIX / "bad_input.txt").read_text())
    assert len(r.records) == 1 and [w.line for w in r.warnings] == [3, 4]
    for junk in ("", "Enabled", "\x00", "name path_id status path_status parent connection\n"):
        lspath.parse(junk)


def test_prompt_less_rows_classified_as_lspath():
    text = "Enabled hdisk3 fscsi0\nEnabled hdisk3 fscsi1\n"
    assert lsdev.detect(text) == 0 and lspv.detect(text) == 0
    (seg,) = split_and_classify(text)
    assert seg.kind == "lspath"


def test_lsmpio_q_not_claimed():
    segs = split_and_classify("# lsmpio -q -l hdisk2\nDevice:  hdisk2\n           Vendor Id:  IBM\n")
    assert all(s.kind != "lspath" for s in segs)
