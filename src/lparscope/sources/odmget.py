"""ODM stanzas: ``odmget PdAt`` / ``odmget -q attribute=ha_mode PdAt`` / ``odmget CuAt``.

Input (one stanza per object; a blank line separates them)::

    # odmget -q attribute=ha_mode PdAt

    PdAt:
            uniquetype = "adapter/pseudo/sea"
            attribute = "ha_mode"
            deflt = "disabled"
            values = "disabled,auto,standby,sharing"
            nls_index = 88

Output: one :class:`OdmStanza` per object::

    OdmStanza(object_class="PdAt",
              fields={"uniquetype": "adapter/pseudo/sea", "attribute": "ha_mode",
                      "deflt": "disabled", "values": "disabled,auto,standby,sharing",
                      "nls_index": "88"},
              line=3, lines={"uniquetype": 4, "attribute": 5, ...})

Also read: stanzas whose line breaks were lost in pasted text
(``CuAt: name = "hdisk5" attribute = "queue_depth" value = "8" type = "R"``),
typographic quotes from documents (``"ha_mode“``), a quote lost inside a value
(``uniquetype = "wio attribute = ...``), and an object class left at the end of the
command line (``# odmget PdAt | grep -p "wio PdAt:``). Values are the unquoted strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, is_bare_prompt, leading_prompt, split_lines, strip_ansi

KIND = "odmget"
TITLE = "odmget"
COMMANDS = [r"^odmget\b"]
STARTS = re.compile(r"^(?:PdAt|CuAt|PdDv|CuDv|CuDep|CuVPD|PdCn|CuDvDr|Config_Rules|SWservAt|inventory|lpp|product):\s*$")

# a prompt with no command: "$", "root@aix1:/ #"
_CLASS = re.compile(r"^(?P<cls>[A-Za-z_][\w]*):\s*(?P<rest>.*)$")
_KEY = re.compile(r"(?:^|\s)(?P<key>[A-Za-z_]\w*)\s*=\s*")
_QUOTES = "\"'\u201c\u201d\u201e\u2018\u2019"


@dataclass
class OdmStanza:
    object_class: str
    fields: dict[str, str]
    line: int
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    lines = [ln.strip() for ln in split_lines(strip_ansi(text))[:60] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if prompt and prompt.program == "odmget":
        return 95
    body = lines[start:]
    heads = [ln for ln in body if _CLASS.match(ln) and (ln.endswith(":") or _KEY.search(_CLASS.match(ln)["rest"]))]
    pairs = [ln for ln in body if re.match(r"^[A-Za-z_]\w*\s*=\s*\S", ln)]
    if heads and pairs and len(heads) + len(pairs) >= 0.8 * len(body):
        return 90
    if heads and all(_KEY.search(ln) for ln in heads):
        return 70
    return 0


def _pairs(text: str) -> list[tuple[str, str]]:
    """``key = value`` pairs from a line; several may share a line when breaks were lost."""
    found = list(_KEY.finditer(text))
    out = []
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        value = text[m.end():end].strip()
        out.append((m.group("key"), value.strip(_QUOTES).strip() if value[:1] in _QUOTES or value[-1:] in _QUOTES else value))
    return out


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    current: OdmStanza | None = None
    if prompt:
        out.hostname = prompt.host
        # "# odmget PdAt | grep -p "wio PdAt:" - breaks lost, the stanza begins on the prompt line
        m = re.search(r"\s(?P<cls>[A-Z]\w*):(?P<rest>\s+[A-Za-z_]\w*\s*=.*)?$", prompt.command)
        if m and start > 0:
            current = OdmStanza(m.group("cls"), {}, start)
            out.records.append(current)
            for key, value in _pairs((m.group("rest") or "").strip()):
                current.fields[key] = value
                current.lines[key] = start
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or is_bare_prompt(s):
            continue
        m = _CLASS.match(s)
        if m and (not m.group("rest") or _KEY.match(" " + m.group("rest"))):
            current = OdmStanza(m.group("cls"), {}, lineno)
            out.records.append(current)
            s = m.group("rest")
            if not s:
                continue
        pairs = _pairs(s) if _KEY.match(s) else []
        if not pairs:
            out.warn(lineno, f"not an ODM field: {s[:60]!r}")
            continue
        if current is None:
            out.warn(lineno, "field before any object class line (e.g. 'PdAt:')")
            current = OdmStanza("", {}, lineno)
            out.records.append(current)
        for key, value in pairs:
            current.fields[key] = value
            current.lines[key] = lineno
    return out
