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
     "padmin@vios1:[/home/padmin]", ":[", "ioscli ", "/usr/ios/cli/ioscli ", "aix7", "[root@aix1 ~]", "[root@aix1 logs]",
     "ssh ", "-l ", "hscroot@hmc1 ", "./", "'", '"', "[console-expect]", "/", "[root@:/tmp]", "-c "]
    + sorted(KNOWN_COMMANDS)
)


def _line(rng: random.Random) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 6)))


def _expected(lines: list[str]) -> list[tuple[int, object]]:
    return [(i, p) for i, line in enumerate(lines) if (p := parse_prompt(line)) is not None]


def test_random_lines_give_what_parse_prompt_gives() -> None:
    rng = random.Random(20261127)
    found = 0
    for _ in range(400):
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


def test_remote_shells_path_and_bracket_prompts() -> None:
    cases = {
        "root@box# ssh viewer@hmc7 lssyscfg -m s1 -r lpar -F name,state": ("lssyscfg -m s1 -r lpar -F name,state", "hmc7"),
        '# ssh -p 22 -l hscroot hmc7 "lshwres -r proc -m s1 --level lpar"': ("lshwres -r proc -m s1 --level lpar", "hmc7"),
        "$ ssh padmin@vios2 ioscli lsmap -all": ("lsmap -all", "vios2"),
        'hscroot@hmc7:~> viosvrcmd -m s1 -p vios2 -c "lsmap -all -npiv"': ("lsmap -all -npiv", None),
        "/# ioo -a": ("ioo -a", None),
        "[console-expect]#lshmc -V": ("lshmc -V", None),
        "[root@:/home/x]# lsvg -l rootvg": ("lsvg -l rootvg", None),
        "$ mkvg -vg datavg hdisk6": ("mkvg -vg datavg hdisk6", None),
    }
    for line, (command, host) in cases.items():
        p = parse_prompt(line)
        assert p is not None and (p.command, p.host) == (command, host), line
    # a login, a comment that names ssh, a remote command nobody reads: no prompt of a known command
    for line in ("$ ssh hmc7", "# ssh into the box and look", "# ssh hmc7 the thing"):
        assert parse_prompt(line) is None, line


def test_a_password_request_after_the_command_is_not_output() -> None:
    from lparscope.sources.prompt_line import leading_prompt
    lines = ["", "root@box# ssh viewer@hmc7 lssyscfg -r sys -F name", "viewer@hmc7's password:", "frame1"]
    p, body = leading_prompt(lines)
    assert p is not None and p.host == "hmc7" and lines[body] == "frame1"
    assert leading_prompt(["$ sudo lparstat -i", "[sudo] password for admin: ", "Node Name : a"])[1] == 2
    assert leading_prompt(["# lsattr -El sys0", "Password: yes  True"])[1] == 1  # a value, not a request
