"""Fuzz inputs: the project's own fixtures and example estate, cut per kind, then mutated.

``seeds()`` maps each parser kind to the command outputs of that kind found in
``tests/fixtures`` and ``examples/estate`` (files this project wrote). ``mutate(text, rng)``
applies a few random edits that real damage and hostile inputs make: lines dropped, repeated
or swapped, numbers replaced by ``inf`` / ``nan`` / ``1e308`` / 300 digits, control and
non-UTF-8-looking characters, very long lines, prompts glued to text, random bytes.
``nmon_kinds()`` adds the nmon reader as two more "parsers" (its native core when built, and its
pure path), fed with the project's nmon fixtures.
Used by the hypothesis properties (tests/hardening/test_fuzz*.py) and by bench/fuzz.py.
"""

from __future__ import annotations

import os
import random
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEED_DIRS = [ROOT / "tests" / "fixtures", ROOT / "examples" / "estate"]

HOSTILE_NUMBERS = ["inf", "-inf", "nan", "NaN", "1e308", "-1e308", "9" * 300, "0x" + "f" * 40, "-0", "1e-320",
                   "18446744073709551616", "4294967296", "-1", "0", "00000000000000000000001", "1,5", "1.5.5",
                   "١٢٣", "½"]
HOSTILE_TEXT = ["\x00", "\x1a", "\x1b[31m", "\ufffd", "\u202e", "\r", "\t", "\x0c", "'", '"', "`", "$(id)", ";",
                "|", "=cmd|' /C calc'!A0", "a@b", "#", "$", ">", "::", "==", ",,,,", "(", ")", "[", "]",
                "root@aix1:/ # ", "# lsattr -El hdisk0", "$ ", "AAA,", "###command:lssyscfg###", "\u00e9", "\U0001f600"]
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")


@lru_cache(maxsize=1)
def seeds() -> dict[str, list[str]]:
    """{kind: [command output text, ...]} from the project's own fixture files."""
    from lparscope.sources import parsers
    from lparscope.sources.detect import split_and_classify

    registry = parsers()
    out: dict[str, list[str]] = {k: [] for k in registry}
    for base in SEED_DIRS:
        for path in sorted(base.rglob("*")):
            if not path.is_file() or path.stat().st_size > 2_000_000:
                continue
            data = path.read_bytes()
            if b"\x00" in data[:4096] or data[:4] == b"PK\x03\x04" or data.startswith(b"AAA,"):
                continue
            text = data.decode("utf-8", "replace")
            for seg in split_and_classify(text, registry):
                if seg.kind in out and len(out[seg.kind]) < 40:
                    out[seg.kind].append(seg.text)
    return out


def _lines_op(lines: list[str], rng: random.Random) -> list[str]:
    if not lines:
        return lines
    i = rng.randrange(len(lines))
    op = rng.randrange(6)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[i])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    elif op == 4:
        lines.insert(i, "")
    else:
        lines[i:i] = [lines[i]] * rng.randrange(2, 50)
    return lines


def _line_op(line: str, rng: random.Random) -> str:
    op = rng.randrange(7)
    if op == 0:  # a number replaced by a hostile one
        nums = list(_NUMBER_RE.finditer(line))
        if nums:
            m = rng.choice(nums)
            return line[: m.start()] + rng.choice(HOSTILE_NUMBERS) + line[m.end():]
    if op == 1:  # hostile text inserted
        at = rng.randrange(len(line) + 1)
        return line[:at] + rng.choice(HOSTILE_TEXT) + line[at:]
    if op == 2:  # a long run
        at = rng.randrange(len(line) + 1)
        return line[:at] + rng.choice([" ", "a", "1", ":", "=", ",", "a@b", "Packets: 1"]) * rng.randrange(100, 5000) + line[at:]
    if op == 3:  # a character flipped
        if line:
            at = rng.randrange(len(line))
            return line[:at] + chr(rng.randrange(1, 0x3000)) + line[at + 1:]
    if op == 4:  # split fields glued
        return line.replace(" ", "", rng.randrange(1, 4))
    if op == 5:  # separators changed
        return line.replace(rng.choice([":", "=", ",", " "]), rng.choice([":", "=", ",", " ", ""]))
    return line


def mutate(text: str, rng: random.Random, edits: int | None = None) -> str:
    """``text`` with 1-8 random edits of the kinds listed in the module docstring."""
    lines = text.split("\n")
    for _ in range(edits if edits is not None else rng.randrange(1, 9)):
        if rng.random() < 0.3:
            lines = _lines_op(lines, rng)
        elif lines:
            i = rng.randrange(len(lines))
            lines[i] = _line_op(lines[i], rng)
    out = "\n".join(lines)
    if rng.random() < 0.05:
        out = "".join(chr(rng.randrange(1, 256)) for _ in range(rng.randrange(0, 400)))
    return out


NMON_SEEDS = [ROOT / "tests" / "fixtures" / "nmon", ROOT / "examples" / "estate"]


@lru_cache(maxsize=1)
def nmon_seeds() -> list[str]:
    """The project's own nmon recordings (each cut to its first 16,000 characters)."""
    out = []
    for base in NMON_SEEDS:
        for path in sorted(base.rglob("*.nmon")):
            text = path.read_text(encoding="utf-8", errors="replace")
            out.append(text[: text.rfind("\n", 0, 16_000) + 1] if len(text) > 16_000 else text)
    return out


class NmonKind:
    """The nmon reader with the parser contract of the fuzz harness: detect() and parse(text)."""

    def __init__(self, native: bool) -> None:
        self.native = native

    def detect(self, text: str) -> int:
        from lparscope.nmon import is_nmon

        return 100 if is_nmon(text[:65536].encode("utf-8", "surrogatepass")) else 0

    def parse(self, text: str) -> object:
        from lparscope.nmon import read_nmon

        before = os.environ.get("LPARSCOPE_NMON_NATIVE")
        os.environ["LPARSCOPE_NMON_NATIVE"] = "1" if self.native else "0"
        try:
            return read_nmon(text.encode("utf-8", "surrogatepass"))
        finally:
            if before is None:
                del os.environ["LPARSCOPE_NMON_NATIVE"]
            else:
                os.environ["LPARSCOPE_NMON_NATIVE"] = before


def nmon_kinds() -> dict[str, NmonKind]:
    """{"nmon-pure": ..., "nmon-native": ... (only when the native core is built)}."""
    from lparscope.nmon import native

    kinds = {"nmon-pure": NmonKind(False)}
    if native.available():
        kinds["nmon-native"] = NmonKind(True)
    return kinds
