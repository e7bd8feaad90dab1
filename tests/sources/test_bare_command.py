"""A command typed without its prompt is read after any leading blanks (the same blanks str.strip
removes), and a line whose first word is no known command is ruled out."""

import pytest

from lparscope.sources.base import parse_prompt


@pytest.mark.parametrize("blank", ["", "  ", "\t", "\u00a0", "\u2003", "\x1c"])
def test_bare_command_after_blanks(blank: str) -> None:
    p = parse_prompt(blank + "lsattr -El ent0" + blank)
    assert p is not None and p.command == "lsattr -El ent0"
    assert parse_prompt(blank + "oslevel").command == "oslevel"  # type: ignore[union-attr]  # bare, no option


@pytest.mark.parametrize("line", [
    "time=11/20/2026 00:00:00,event_type=sample,resource_type=lpar,lpar_name=aix1",
    "hdisk0          Available 00-00-02 MPIO FC 2145",
    "lsattrx -El ent0",  # not a known command, though it starts like one
    "lsattr| |x -El",
    "Lsattr -El ent0",
    "lsattr",  # a command that needs options, alone
])
def test_not_commands(line: str) -> None:
    assert parse_prompt(line) is None
