"""Logs that hold many command outputs: coloured, cut by banner lines or by the titles of a
collection script. Every output is read as its own input, evidence points into the log."""

from __future__ import annotations

from pathlib import Path

from lparscope.inputs import collect
from lparscope.pipeline import read_estate
from lparscope.sources.base import parse_prompt, strip_ansi
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent / "fixtures" / "collections"


def test_escapes_removed_without_moving_lines():
    text = "\x1b[1;32m==== x ====\x1b[0m\n\x1b[m\x0fUp\x1b[m\x0f \x1b(B\x1b[mok\x1b]0;title\x07\n\x1b[2Kend"
    assert strip_ansi(text) == "==== x ====\nUp ok\nend"
    assert strip_ansi("plain\ntext") == "plain\ntext"


def test_banner_lines_name_the_command():
    cases = {
        "==== lsattr -El sys0 ====": "lsattr -El sys0", "##### vmstat -v": "vmstat -v",
        "--- lsdev -Cc adapter ---": "lsdev -Cc adapter", "*** mpstat -d ***": "mpstat -d",
        ">>> lscfg -vp": "lscfg -vp", "[lparstat -i]": "lparstat -i", "==== hostname ====": "hostname",
        "=== Command: lsattr -El ent0 ===": "lsattr -El ent0", "## Running: /usr/bin/vmstat -s ##": "vmstat -s",
    }
    for line, command in cases.items():
        p = parse_prompt(line)
        assert p is not None and p.command == command, line
    for line in ("==== no more data ====", "=================", "-------- ------", "## comment", "[sys0]",
                 "###command:lshmc -V###", "---- General Statistics ----"):
        assert parse_prompt(line) is None, line


def test_coloured_collection_each_output_read_with_file_lines():
    path = FIX / "aixapp7_collect_coloured.log"
    estate, _ = read_estate(collect([str(path)]))
    found = [(i.line, i.kind, i.status) for i in estate.inputs]
    assert found == [(1, "hostname", "parsed"), (3, "lsattr", "parsed"), (7, "lsattr", "parsed"),
                     (10, "vmstat-v", "parsed"), (14, "mpstat", "parsed"), (21, "svmon-G", "parsed"),
                     (24, "lsvg-l", "parsed")]
    (host,) = estate.hosts.values()
    assert host.name == "aixapp7" and {i.host for i in estate.inputs} == {"aixapp7"}  # the hostname output names it
    assert host.devices["ent0"].attrs["large_send"].value == "yes"  # coloured value read plain
    assert host.devices["ent0"].attrs["large_send"].evidence.line == 9
    assert host.devices["sys0"].attrs["realmem"].evidence.line == 6
    (lv,) = host.records["lsvg-l"]  # the banner's command put the output under its line
    assert (lv.record.name, lv.record.vg, lv.ev().line) == ("hd5", "rootvg", 27)
    (svmon,) = host.records["svmon-G"]
    assert svmon.record.memory["size"] == 8388608 and svmon.offset + svmon.record.lines["memory"] == 23
    rows = [s.record for s in host.records["mpstat"] if type(s.record).__name__ == "CpuRow"]
    assert rows[0].values["S0rd"] == 93.1 and host.records["mpstat"][1].offset + rows[0].line == 19


def test_titled_sections_of_a_collection_script():
    text = (FIX / "vios7a_lssea_titled.log").read_text()
    segs = split_and_classify(text)
    assert [(s.start, s.kind) for s in segs] == [(1, None), (6, "lsmcode"), (10, "lscfg"), (25, "fcstat"), (35, "lssea")]
    estate, _ = read_estate(collect([str(FIX / "vios7a_lssea_titled.log")]))
    (host,) = estate.hosts.values()
    assert host.firmware["system_permanent"].value == "MH1060_076" and host.firmware["system"].evidence.line == 6
    assert host.devices["fscsi0"].evidence.line == 22


def test_titles_inside_one_output_do_not_cut():
    text = ("System Configuration:\n---------------------\nPartition Name : aix1\n"
            "Processor Implementation Mode : POWER9\nNumber Of Logical CPUs : 8\n")
    assert len(split_and_classify(text)) == 1


def test_hostname_read_only_behind_its_command():
    from lparscope.sources import hostname
    r = hostname.parse("root@x:/ # hostname\naixapp7.example.com\n")
    assert r.hostname == "aixapp7.example.com" and r.records[0].line == 2 and r.warnings == []
    assert hostname.detect("aixapp7\n") == 0
    assert [w.line for w in hostname.parse("# uname -n\naix1\nextra line\n").warnings] == [3]


def test_uname_a_names_the_host_by_its_second_word():
    from lparscope.sources import hostname
    r = hostname.parse("# uname -a\nAIX aix12 3 7 00F6DB0A4C00\n")
    assert r.hostname == "aix12" and r.records[0].line == 2 and not r.warnings
    assert hostname.parse("$ uname -a\nLinux lnx4.example.com 5.14.0-70.el9.ppc64le #1 SMP ppc64le GNU/Linux\n").hostname == "lnx4.example.com"
    assert hostname.parse("# uname -a\nAIX\n").hostname is None
