"""The host's own name: ``hostname``, ``hostname -s``, ``uname -n``, ``uname -a``.

Collection logs often start with it (``==== hostname ====`` then the name), which names the
host of every output in the file when no prompt does.

Input::

    # hostname
    aixapp7.example.com

Output: one :class:`HostName`, and ``Parsed.hostname`` (the pipeline shortens it to ``aixapp7``)::

    HostName(name="aixapp7.example.com", line=2)

``uname -a`` prints the system name first and the host name second (``AIX aix12 3 7
00F6DB0A4C00``, ``Linux lnx4 5.14.0 ...``): its second word is read.

Only read behind its command line (a prompt or a banner): a lone word is never taken for a host name.
Also read: the header section of a Checkmk agent's output, which names its host (the other lines of
that section are the agent's own, read quietly)::

    <<<check_mk>>>
    Version: 2.3.0
    AgentOS: aix
    Hostname: aixapp7
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import HOST_NAME_RE, Parsed, command_matches, is_bare_prompt, output_head, preamble

KIND = "hostname"
TITLE = "hostname / uname -n"
COMMANDS = [r"^hostname(?:\s+-s)?\s*$", r"^uname\s+-[na]\s*$"]
_UNAME_ALL = re.compile(r"^uname\s+-a\s*$")
STARTS = None


@dataclass
class HostName:
    name: str
    line: int


_AGENT_KEY = re.compile(r"^(?P<key>[A-Za-z]\w*):\s*(?P<value>.*?)\s*$")


def _agent_header(lines: list[str]) -> bool:
    """A Checkmk agent's header section: its AgentOS and Hostname lines among the first ones."""
    keys = {m.group("key") for ln in lines[:15] if (m := _AGENT_KEY.match(ln.strip()))}
    return {"AgentOS", "Hostname"} <= keys


def detect(text: str) -> int:
    prompt, body = output_head(text, 15)
    if command_matches(prompt, COMMANDS):
        return 95
    return 80 if _agent_header(body) else 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    if _agent_header(pre.lines[pre.body:]):
        for idx in range(pre.body, len(pre.lines)):
            m = _AGENT_KEY.match(pre.lines[idx].strip())
            if m and m.group("key") == "Hostname" and HOST_NAME_RE.match(m.group("value")) and not out.records:
                out.records.append(HostName(m.group("value"), idx + 1))
                out.hostname = m.group("value")
        return out
    every = pre.prompt is not None and bool(_UNAME_ALL.match(pre.prompt.command.strip()))
    for idx in range(pre.body, len(pre.lines)):
        s = pre.lines[idx].strip()
        if not s or is_bare_prompt(s):
            continue
        if every and not out.records:  # uname -a: the system's name, then the host's
            words = s.split()
            if len(words) < 2:
                out.warn(idx + 1, f"not a uname -a line: {s[:60]!r}")
                continue
            s = words[1]
        if out.records or not HOST_NAME_RE.match(s):
            out.warn(idx + 1, f"not a host name: {s[:60]!r}")
            continue
        out.records.append(HostName(s, idx + 1))
        out.hostname = s
    return out
