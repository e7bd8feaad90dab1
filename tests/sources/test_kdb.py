from pathlib import Path

from lparscope.sources import kdb
from lparscope.sources.kdb import KernelDiskEntry, KernelQueueDepth

FIX = Path(__file__).parent.parent / "fixtures" / "kdb"

# The fixtures reproduce the two states of the versioned-WPAR queue depth case in
# seed 004_39e9519fe8a18f63.txt (values and addresses are our own): the
# disk reads 0x100 in the kernel before it is exported, and 0x1 once exported to the
# AIX 5.3 WPAR (IV63665), where the same kernel address is listed under a new name.


def depths(result):
    return [r for r in result.records if isinstance(r, KernelQueueDepth)]


def entries(result):
    return [r for r in result.records if isinstance(r, KernelDiskEntry)]


def test_line_per_row_list_and_queue_depth_before_export():
    text = (FIX / "global_hdisk5_qdepth_256.txt").read_text()
    assert kdb.detect(text) >= 90
    r = kdb.parse(text)
    assert r.warnings == []
    e = entries(r)
    assert [x.name for x in e] == ["hdisk0", "hdisk0", "hdisk1", "hdisk5"]  # a name may repeat
    assert e[3].address == "0xF1000A01D0A14000" and e[3].state == "0x00000002" and e[3].line == 16
    (q,) = depths(r)
    assert (q.address, q.name, q.queue_depth, q.line) == ("0xF1000A01D0A14000", "hdisk5", 256, 19)


def test_exported_disk_renamed_with_queue_depth_one_and_hostname():
    r = kdb.parse((FIX / "vwpar_exported_qdepth_1.txt").read_text())
    assert r.hostname == "aixglb1"
    assert r.warnings == []
    q1, q2 = depths(r)
    assert (q1.address, q1.name, q1.queue_depth, q1.line) == ("0xF1000A01D0A14000", "hdisk1", 1, 11)
    assert (q2.address, q2.name, q2.queue_depth) == ("0xF1000A0150618000", "hdisk1", 32)
    assert entries(r)[3].state == "0x00000001"


def test_collapsed_web_paste_reads_both_states():
    text = (FIX / "collapsed_blog_paste.txt").read_text()
    r = kdb.parse(text)
    before, after = depths(r)
    # first reading: the list before it lacks the address (its row was cut to "hdisk5"),
    # so the name comes from the later list that shows the same kernel address
    assert (before.address, before.queue_depth, before.line) == ("0xF1000A01D0A14000", 256, 4)
    assert before.name == "hdisk1"
    assert (after.address, after.name, after.queue_depth, after.line) == ("0xF1000A01D0A14000", "hdisk1", 1, 8)
    assert [(x.name, x.line) for x in entries(r)][-1] == ("hdisk1", 6)
    assert len(entries(r)) == 5
    assert [w.line for w in r.warnings] == [3]  # the truncated "hdisk5" row


def test_kdb_prompt_gives_the_address():
    r = kdb.parse("(0)> scsidisk 0xf1000a01d0a14000\n    ushort queue_depth = 0x14;\n")
    (q,) = depths(r)
    assert (q.address, q.name, q.queue_depth, q.line) == ("0xF1000A01D0A14000", None, 20, 2)


def test_bad_input_warns_and_does_not_raise():
    r = kdb.parse("ushort queue_depth = 0x8;\nNAME ADDRESS STATE CMDS_OUT CURRBUF LOW\n\x00\x01 junk\n")
    (q,) = depths(r)
    assert q.address is None and q.queue_depth == 8
    assert {w.line for w in r.warnings} == {1, 2}
    assert kdb.parse("").records == []
    assert kdb.detect("hello world") == 0
