"""prompt_lines finds the same prompts as parse_prompt applied to every line."""

from __future__ import annotations

import random

from lparscope.sources.base import KNOWN_COMMANDS, parse_prompt
from lparscope.sources.prompt_scan import prompt_lines

# Pieces prompt lines and look-alikes are made of: sigils, banner marks, user@host, paths,
# known and unknown command words, option words, and blanks of several kinds (tab, form feed,
# no-break space, the ideographic space) that str.strip and the regular expressions both know.
_PIECES = (
    ["#", "$", ">", "# ", "$ ", "> ", "====", "---", "***", "~~", "[", "]", "=", "-", "*",
     "root@aix1:/ ", "padmin@vios1:/home/padmin", "[root@lpar2]/", "aix1:/", "hscroot@hmc:~",
     "Command: ", "-El", "-a", "-v", "ent0", "hdisk3", "|", "| |", "foo", "lsattrs", "_x", "9",
     " ", "  ", "\t", "\x0c", "\xa0", "\u3000", "\r", "Running:", "/usr/sbin/", "bash-4.2", "root on vios1:/",
     "padmin@vios1:[/home/padmin]", ":[", "ioscli ", "/usr/ios/cli/ioscli ", "aix7", "[root@aix1 ~]", "[root@aix1 logs]"]
    + sorted(KNOWN_COMMANDS)
)


def _line(rng: random.Random) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 6)))


def _expected(lines: list[str]) -> list[tuple[int, object]]:
    return [(i, p) for i, line in enumerate(lines) if (p := parse_prompt(line)) is not None]


def test_random_lines_give_what_parse_prompt_gives() -> None:
    rng = random.Random(20261127)
    found = 0
    for _ in range(300):
        lines = [_line(rng) for _ in range(rng.randint(0, 40))]
        want = _expected(lines)
        assert prompt_lines(lines) == want, lines
        found += len(want)
    assert found > 200  # the pieces make many prompts, not only misses


def test_every_kind_of_prompt_among_plain_lines() -> None:
    lines = [
        "ETHERNET STATISTICS (ent0) :",
        "root@aix1:/ # lsattr -El hdisk0",
        "Packets: 12",
        "\u3000lsdev -Cc adapter",  # a known command after an ideographic space
        "==== vmstat -v ====",
        "[lparstat -i]",
        "$",
        "padmin@vios1:/home/padmin$ ioslevel",
        "  ioslevel",
        "lsattrs -El x",  # not a known command: the whole word counts
        "x" * 5000 + " # lsdev",  # longer than a prompt line can be
        "",
    ]
    got = prompt_lines(lines)
    assert got == _expected(lines)
    assert [i for i, _ in got] == [1, 3, 4, 5, 6, 7, 8]
