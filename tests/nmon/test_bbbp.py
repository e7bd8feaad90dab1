"""BBBP extraction: the command outputs embedded in an nmon file read by the standalone parsers."""

from __future__ import annotations

from pathlib import Path

import pytest

from lparscope.nmon import read_nmon
from lparscope.nmon.bbbp import bbbp_outputs
from lparscope.sources import parsers

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "nmon"
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


def outputs(path: Path) -> dict[str, tuple[int, str]]:
    return {cmd: (line, text) for cmd, line, text in read_nmon(path).bbbp_outputs}


def test_commands_lines_and_quoting() -> None:
    rec = read_nmon(FIX / "aix_small.nmon")
    assert [c for c, _, _ in rec.bbbp_outputs] == ["lparstat -i", "vmstat -v", "vmo -F -L", "lsattr -El sys0"]
    file_lines = (FIX / "aix_small.nmon").read_text().splitlines()
    cmd, first, text = rec.bbbp_outputs[0]
    assert file_lines[first - 2] == "BBBP,000,lparstat -i"
    for k, out_line in enumerate(text.splitlines()):  # output line k sits at file line first + k
        assert file_lines[first - 1 + k].endswith(f'"{out_line}"')
    assert text.splitlines()[5] == "Entitled Capacity                          : 0.80"
    vmo = dict((c, t) for c, _, t in rec.bbbp_outputs)["vmo -F -L"]
    assert "n---" not in vmo and vmo.splitlines()[2].startswith("-----")  # nmon's n---- restored
    assert all(line.startswith("BBB") for _, line in rec.config)
    assert len(rec.config) == 3 + 26  # BBBB lines + BBBP lines


def test_parsers_read_the_extracted_text() -> None:
    out = outputs(FIX / "aix_small.nmon")
    reg = parsers()
    info = reg["lparstat-i"].parse(out["lparstat -i"][1])
    assert not info.warnings and info.hostname == "aixtest1"
    rec = info.records[0]
    assert rec.entitled_capacity == 0.8 and rec.mode == "Uncapped" and rec.online_virtual_cpus == 2
    vm = reg["vmstat-v"].parse(out["vmstat -v"][1])
    assert not vm.warnings
    assert [(r.description, r.value) for r in vm.records][-1] == ("pending disk I/Os blocked with no pbuf", 112)
    tun = reg["tunables"].parse(out["vmo -F -L"][1])
    assert not tun.warnings
    assert [(t.name, t.current) for t in tun.records] == [("minfree", "960")]
    attrs = reg["lsattr"].parse(out["lsattr -El sys0"][1])
    assert {a.name: a.value for a in attrs.records} == {"maxuproc": "16384", "realmem": "16777216"}


def test_unquoted_and_orphan_lines() -> None:
    got = bbbp_outputs([(10, 'BBBP,001,uptime,"  05:23PM   up 35 days,  17:53"'), (11, "BBBP,002,uptime,plain"),
                        (12, "BBBP,003,oslevel"), (13, 'BBBP,004,oslevel,"7.2.0.0"'), (14, 'BBBP,005,df,"unclosed')])
    assert got == [("uptime", 10, "  05:23PM   up 35 days,  17:53\nplain"), ("oslevel", 13, "7.2.0.0"),
                   ("df", 14, "unclosed")]


@pytest.mark.skipif(not (CORPUS / "nmon").is_dir(), reason="../shared/corpus not present")
def test_real_topas_nmon_bbbp() -> None:
    out = outputs(CORPUS / "nmon" / "adejoux_aixlpar_7.1.3.30_POWER7.nmon")
    reg = parsers()
    info = reg["lparstat-i"].parse(out["lparstat -i"][1]).records[0]
    assert info.entitled_capacity == 1.3 and info.online_virtual_cpus == 7
    for cmd in ("vmo -F -L", "ioo -F -L", "schedo -F -L", "no -F -L"):
        parsed = reg["tunables"].parse(out[cmd][1])
        assert len(parsed.records) > 20, cmd
    assert any(a.name == "maxuproc" for a in reg["lsattr"].parse(out["lsattr -El sys0"][1]).records)
    assert reg["vmstat-v"].parse(out["vmstat -v"][1]).records
    assert reg["vmstat-s"].parse(out["vmstat -s"][1]).records


@pytest.mark.parametrize(("written", "output"), [
    ("n------- ---------------  ------", "-------- ---------------  ------"),  # mount's header rule
    ("e=====================", "======================"),
    ("p sys0                  System Object", "+ sys0                  System Object"),  # lsconf device marks
    ("m vio0                  Virtual I/O Bus", "* vio0                  Virtual I/O Bus"),
    ("p/- = Added or deleted from Resource List.", "+/- = Added or deleted from Resource List."),
    ("m IBM_PROLOG_END_TAG", "* IBM_PROLOG_END_TAG"),
    ("ddev/hd4        1024.00    469.09   55%    15511    11% /", "/dev/hd4        1024.00    469.09   55%    15511    11% /"),
    ("dproc                -         -    -         -     -  /proc", "/proc                -         -    -         -     -  /proc"),
    ("da02 from /a02:nimserver", "/a02 from /a02:nimserver"),  # nfsstat -m
])
def test_the_first_character_nmon_replaced_is_put_back(written: str, output: str) -> None:
    """nmon writes + * - / = at the start of an output line as p m n d e (a spreadsheet would take them
    for a formula); where the line shows which it was, the reader puts it back."""
    got = bbbp_outputs([(20, "BBBP,100,df -m"), (21, f'BBBP,101,df -m,"{written}"')])
    assert got == [("df -m", 21, output)]


@pytest.mark.parametrize("line", [
    "name          status     location", "n/a means the parameter is not applicable", "drwxr-xr-x 2 root system",
    "dahafs   -   -   -   -   -  /aha", "data 12", "mount", "e", "d", "pv_name", "enabled",
])
def test_lines_that_began_with_those_letters_stay_as_written(line: str) -> None:
    assert bbbp_outputs([(20, "BBBP,100,x"), (21, f'BBBP,101,x,"{line}"')]) == [("x", 21, line)]


def test_ending_outputs_are_read_as_their_command(tmp_path: Path) -> None:
    """nmon runs some commands again when the recording ends (``BBBP,...,ending df -m``): the output is
    read as that command's, without a warning on the line naming it, and nmon's d for / is put back."""
    from lparscope.pipeline import analyze

    rows = ["Filesystem    MB blocks      Free %Used    Iused %Iused Mounted on",
            "ddev/hd4        1024.00    469.09   55%    15511    11% /",
            "dproc                -         -    -         -     -  /proc"]
    text = (FIX / "aix_small.nmon").read_text() + "BBBP,900,ending df -m\n" + "".join(
        f'BBBP,{901 + i},ending df -m,"{r}"\n' for i, r in enumerate(rows))
    p = tmp_path / "ending.nmon"
    p.write_text(text)
    a = analyze([str(p)], workers=1)
    status = [i for i in a.estate.inputs if i.kind == "nmon"][0]
    assert not [m for _, m in status.warnings if "df" in m], status.warnings
    fs = a.estate.hosts["aixtest1"].filesystems
    assert fs["/"].record.filesystem == "/dev/hd4" and fs["/proc"].record.filesystem == "/proc"
    assert text.splitlines()[fs["/"].ev().line - 1].startswith("BBBP,902,ending df -m")


def test_blanks_after_the_closing_quote_are_not_part_of_the_value():
    lines = [(1, "BBBP,000,lparstat -i   "), (2, 'BBBP,001,lparstat -i,"Type                 : Shared-SMT-4"   '),
             (3, 'BBBP,002,lparstat -i,"Mode                 : Uncapped "\t')]
    [(cmd, first, text)] = bbbp_outputs(lines)
    assert cmd == "lparstat -i" and first == 2
    assert text.split("\n") == ["Type                 : Shared-SMT-4", "Mode                 : Uncapped "]
