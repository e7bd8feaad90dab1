"""maybe_prompt, the quick test the splitter runs on every line, never rules out a line that
parse_prompt reads a prompt, banner or bare command in."""

from itertools import product
from pathlib import Path

from lparscope.sources.base import KNOWN_COMMANDS, maybe_prompt, parse_prompt

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PREFIXES = ["", "  ", "\t", "root@aix1:/ # ", "padmin@vios1:/home/padmin$ ", "[root@h1]/ # ", "aix1:/home # ",
            "# ", "$ ", "> ", "=== ", "==== Command: ", "[", "*** ", "--- ", "~~~ ", "##### Running: ", ">>> ",
            "hscroot@hmc1:~> ", "/usr/sbin/", "\u00a0"]
SUFFIXES = ["", " -a", " -El ent0", "]", " ===", " ***", "3 -c host", "-x"]


def test_generated_prompt_lines() -> None:
    seen = 0
    for pre, cmd, post in product(PREFIXES, sorted(KNOWN_COMMANDS) + ["time", "ls", "x"], SUFFIXES):
        line = pre + cmd + post
        if parse_prompt(line) is not None:
            seen += 1
            assert maybe_prompt(line), line
    assert seen > 1000  # the generator does make prompts


def test_fixture_lines() -> None:
    for path in FIXTURES.rglob("*"):
        if path.is_file() and path.stat().st_size < 2_000_000:
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                if parse_prompt(line) is not None:
                    assert maybe_prompt(line), (path.name, line)


def test_rules_out_data_lines() -> None:
    assert not maybe_prompt("time=11/20/2026 00:00:00,event_type=sample,resource_type=lpar,lpar_name=aix1")
    assert not maybe_prompt("hdisk0          Available 00-00-02 MPIO FC 2145")
