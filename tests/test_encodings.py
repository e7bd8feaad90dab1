"""UTF-16 (with or without a byte order mark), a UTF-8 byte order mark and ANSI colours are read as text;
a Latin-1 host name is one host whatever encoding each file has."""

import re
from pathlib import Path

import pytest

from lparscope.inputs import collect
from lparscope.pipeline import analyze, read_estate
from lparscope.sources.base import preamble

FIX = Path(__file__).parent / "fixtures" / "encodings"


def test_utf16_and_bom_files_are_text():
    estate, _ = read_estate(collect([str(FIX)]))
    assert not [i for i in estate.inputs if i.status != "parsed"], [(i.path, i.status, i.reason) for i in estate.inputs]
    for host in ("aixw1", "aixw2", "aixw3", "aixw4"):
        disk = estate.hosts[host].devices["hdisk3"]
        assert disk.attrs["queue_depth"].value == "16"
        assert disk.attrs["queue_depth"].evidence.line == 2


def test_preamble_reads_prompt_host_and_body_without_colours():
    pre = preamble("\x1b[1mroot@aix1:/ #\x1b[0m lsattr -El ent0\r\nalias4  x  IPv4 Alias  True\r\n")
    assert (pre.host, pre.command, pre.body, pre.lines[1]) == ("aix1", "lsattr -El ent0", 1, "alias4  x  IPv4 Alias  True")
    bare = preamble("\n\nqueue_depth 8 Queue DEPTH True\n")
    assert (bare.prompt, bare.host, bare.command, bare.body) == (None, None, "", 2)


# A host name with a Latin-1 letter (s\xe9rveur1, an ISO8859-1 box) in an nmon header and in the
# host's text outputs is one host whatever encoding each file has: every path reads bytes as text
# files are read (UTF-8, else Latin-1), the nmon reader's text lines on the native and pure paths alike.

NAME = "s\u00e9rveur1"


def _latin1_estate(tmp: Path, nmon_enc: str, text_enc: str) -> Path:
    nmon = (FIX.parent / "nmon" / "aix_small.nmon").read_bytes()
    nmon = re.sub(rb"(?m)^AAA,host,.*$", f"AAA,host,{NAME}".encode(nmon_enc), nmon)
    nmon = re.sub(rb"(?m)^AAA,LPARNumberName,.*$", f"AAA,LPARNumberName,12,{NAME}".encode(nmon_enc), nmon)
    (tmp / "perf.nmon").write_bytes(nmon)
    lp = (FIX.parent / "lparstat-i" / "aix72_shared_smt8_ame.txt").read_text()
    lp = lp.replace("root@lpdb07", "root@" + NAME).replace(": lpdb07", ": " + NAME)
    lp = re.sub(r"(?m)^Partition Number( +): \d+", r"Partition Number\1: 12", lp)
    (tmp / "lparstat_i.txt").write_bytes(lp.encode(text_enc))
    (tmp / "names.txt").write_bytes(f"# hostname\n{NAME}\n# uname -a\nAIX {NAME} 2 7 00C8D4A04C00\n".encode(text_enc))
    return tmp


@pytest.mark.parametrize("native", ["1", "0"])
@pytest.mark.parametrize("nmon_enc, text_enc", [("latin-1", "utf-8"), ("latin-1", "latin-1"), ("utf-8", "latin-1")])
def test_a_latin1_host_name_joins_into_one_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nmon_enc: str,
                                                text_enc: str, native: str) -> None:
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", native)
    estate = analyze([str(_latin1_estate(tmp_path, nmon_enc, text_enc))], workers=1).estate
    assert list(estate.hosts) == [NAME], [(i.path, i.host) for i in estate.inputs]
    assert {i.host for i in estate.inputs} == {NAME}
    assert all(i.status == "parsed" for i in estate.inputs if i.kind == "hostname")
