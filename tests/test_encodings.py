"""UTF-16 (with or without a byte order mark), a UTF-8 byte order mark and ANSI colours are read as text."""

from pathlib import Path

from lparscope.inputs import collect
from lparscope.pipeline import read_estate
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
