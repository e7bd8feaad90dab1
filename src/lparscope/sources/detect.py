"""Cut a file into the command outputs it holds and say what kind each one is.

People paste outputs one after another, with or without the prompt that ran them.
A file is cut (1) at every prompt line naming a command (a banner such as
``==== lsattr -El sys0 ====`` counts as one, and so does the ``.....    lsattr -El sys0``
header AIX ``snap`` writes, see ``base.parse_prompt``), (2) inside
prompt-less text, at a line that opens another kind's output (each parser's ``STARTS``),
and (3) at a collection script's title line (``FC info:``) where what follows is clearly
another kind the piece's own parser could not read. Terminal colours are removed first,
line numbers stay those of the file.
Each piece is then classified by the command its prompt names, confirmed by the
parsers' ``detect`` scores, or by the best score alone. File names are never used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

from . import parsers
from .base import SNAP_RULE, Prompt, is_snap_rule, snap_header, split_lines, strip_ansi
from .dsh import host_spans
from .prompt_scan import prompt_lines, without_notes_above
from .detect_tails import late_start, warned_tail

MIN_SCORE = 30  # below this a piece is reported as unrecognised
# No command output has lines anywhere near this long (the longest real ones, HMC -F lines,
# stay under 3,000 characters); longer lines are cut so one runaway line costs little.
MAX_LINE = 16384

# Commands that show another command's saved or filtered output: judge what they print by content.
_PASS_THROUGH = {"cat", "more", "less", "pg", "sudo", "su", "ioscli", "clogin", "rsh", "ssh",
                 "grep", "egrep", "fgrep", "tail", "head", "awk", "sed", "zcat", "gzcat"}

# Commands that print nothing worth reading, or only switch shells.
_SILENT = {"", "oem_setup_env", "exit", "cd", "clear", "uname", "hostname", "date", "echo"}


@dataclass
class Segment:
    start: int  # 1-based line in the file where this piece starts
    text: str
    kind: str | None
    prompt: Prompt | None
    reason: str = ""  # why it is unrecognised
    notes: list[tuple[int, str]] = field(default_factory=list)  # (file line, message): lines cut
    # the piece as its parser read it while the file was cut (taken by the caller, once): a hand-off,
    # not part of what the segment is
    parsed: Any = field(default=None, repr=False, compare=False)


def _cut_long_lines(lines: list[str]) -> dict[int, str]:
    """Cut lines longer than MAX_LINE in place; {0-based index: message} for each one cut."""
    notes: dict[int, str] = {}
    for i, line in enumerate(lines):
        if len(line) > MAX_LINE:
            notes[i] = f"line of {len(line)} characters cut to its first {MAX_LINE}"
            head = line[:MAX_LINE]
            lines[i] = head if head.strip() else line.lstrip()[:MAX_LINE]
    return notes


# command -> (the registry asked, its size, the kinds): an estate types the same commands on every host
_KINDS_SEEN: dict[str, tuple[dict[str, ModuleType], int, tuple[str, ...]]] = {}


def _kinds_for_command(command: str, registry: dict[str, ModuleType]) -> list[str]:
    seen = _KINDS_SEEN.get(command)
    if seen is not None and seen[0] is registry and seen[1] == len(registry):
        return list(seen[2])
    # "/usr/sbin/lsattr -El sys0" (a full path, as classic nmon's BBBP lines have it) is "lsattr -El sys0"
    head, sep, rest = command.partition(" ")
    bare = head.rsplit("/", 1)[-1] + sep + rest
    kinds = [k for k, patterns in _command_patterns(registry) if any(p.search(bare) for p in patterns)]
    if len(_KINDS_SEEN) > 10_000:  # bounded: every prompt of a large paste may differ
        _KINDS_SEEN.clear()
    _KINDS_SEEN[command] = (registry, len(registry), tuple(kinds))
    return kinds


def _command_patterns(registry: dict[str, ModuleType]) -> list[tuple[str, list[re.Pattern[str]]]]:
    """Each kind's COMMANDS, compiled once per registry (a prompt naming a host or frame is new on
    every host: thousands of look-ups in a large estate)."""
    return _for_registry(_PATTERNS_SEEN, registry, lambda reg: [
        (k, [re.compile(p) for p in getattr(mod, "COMMANDS", [])]) for k, mod in reg.items()])


# id(registry) -> (the registry, its size, what was made of it): made again when a registry changes
_PATTERNS_SEEN: dict[int, tuple[dict[str, ModuleType], int, Any]] = {}
_STARTS_SEEN: dict[int, tuple[dict[str, ModuleType], int, Any]] = {}


def _for_registry(seen: dict[int, tuple[dict[str, ModuleType], int, Any]], registry: dict[str, ModuleType],
                  make: Callable[[dict[str, ModuleType]], Any]) -> Any:
    """``make(registry)``, remembered in ``seen`` while the registry is the same object of the same size."""
    got = seen.get(id(registry))
    if got is not None and got[0] is registry and got[1] == len(registry):
        return got[2]
    value = make(registry)
    if len(seen) > 64:
        seen.clear()
    seen[id(registry)] = (registry, len(registry), value)
    return value


class _Starts:
    """Every parser's STARTS pattern as one alternation (a named group per parser, in registry order):
    one match per line tells the first kind whose pattern matches, as trying them in turn does
    (up to 41 matches per line of a file without prompts before)."""

    _FLAGS = {re.IGNORECASE: "i", re.MULTILINE: "m", re.DOTALL: "s", re.VERBOSE: "x", re.ASCII: "a"}

    def __init__(self, registry: dict[str, ModuleType]) -> None:
        self.kinds = [(k, mod.STARTS) for k, mod in registry.items() if getattr(mod, "STARTS", None) is not None]
        # kinds whose output holds another kind's table as part of itself (prtconf prints lsvg -p's)
        self.embeds = {k: frozenset(getattr(mod, "EMBEDS", ())) for k, mod in registry.items()}
        parts = []
        for n, (_, pat) in enumerate(self.kinds):
            flags = pat.flags & ~re.UNICODE
            letters = "".join(v for f, v in self._FLAGS.items() if flags & f)
            if flags & ~sum(self._FLAGS) or not isinstance(pat.pattern, str):
                parts = []
                break
            parts.append(f"(?P<g{n}>(?{letters}:{pat.pattern}))" if letters else f"(?P<g{n}>{pat.pattern})")
        try:
            self.joined: re.Pattern[str] | None = re.compile("|".join(parts)) if parts else None
        except re.error:  # a pattern that cannot sit inside a group (global inline flags): one at a time
            self.joined = None

    def kind(self, line: str) -> str | None:
        """The first kind whose STARTS pattern matches ``line``, or None."""
        if self.joined is None:
            return next((k for k, pat in self.kinds if pat.match(line)), None)
        m = self.joined.match(line)
        return self.kinds[int(m.lastgroup[1:])][0] if m is not None and m.lastgroup else None


def _starts(registry: dict[str, ModuleType]) -> _Starts:
    return _for_registry(_STARTS_SEEN, registry, _Starts)  # type: ignore[no-any-return]


def _best(text: str, registry: dict[str, ModuleType], among: list[str] | None = None,
          memo: dict[Any, Any] | None = None) -> tuple[str | None, int]:
    """The kind whose detect() scores ``text`` highest (the first of equals), and its score. ``memo``:
    what was found for the same text in this file (cutting at titles and classifying the pieces
    ask about the same text more than once)."""
    key = (text, tuple(among) if among else None)
    if memo is not None and key in memo:
        return memo[key]  # type: ignore[no-any-return]
    best, score = None, 0
    for kind in among or list(registry):
        try:
            s = int(registry[kind].detect(text))
        except Exception:  # a detector must never stop the run
            s = 0
        if s > score:
            best, score = kind, s
    if memo is not None:
        memo[key] = (best, score)
    return best, score


def _cut_prompts(lines: list[str]) -> list[tuple[int, Prompt | None]]:
    """(index, prompt) of each piece's first line, cutting at prompt lines."""
    cuts: list[tuple[int, Prompt | None]] = [(0, None)]
    for i, p in prompt_lines(lines):
        if cuts[-1][0] == i:
            cuts[-1] = (i, p)
        else:
            cuts.append((i, p))
    return cuts


# A line several reports print before their own header (lparstat -H/-m/-E, mpstat): it
# belongs to the output that follows it, so a start line right after it does not cut.
# (powerpc-utils on Linux: the title alone, its pairs on the next line, "type=Shared mode=...")
_SHARED_PREAMBLE = re.compile(r"^\s*(?:System configuration:|System Configuration\s*$|type=\S+ mode=)")
_NAME_LINE = re.compile(r"[A-Za-z][\w.-]{0,30}:[ \t]*$")


def _cut_starts(lines: list[str], lo: int, hi: int, starts: _Starts) -> list[int]:
    """Indexes inside [lo, hi) where prompt-less text switches to another kind's output."""
    cuts = [lo]
    current: str | None = None
    seen_text = False
    only_preamble = True  # the piece so far holds nothing but shared preamble lines
    for i in range(lo, hi):
        line = lines[i].strip()
        if not line:
            continue
        kind = starts.kind(line)
        if kind is not None:
            if kind in starts.embeds.get(current or "", ()):
                kind = current  # part of the output it is in
            if current is not None and kind != current and seen_text and not only_preamble:
                # a "<name>:" line right above a header names what the table is of ("datavg:" above
                # lsvg -l's or lsvg -p's header): it goes with it
                above = i - 1 if i - 1 > cuts[-1] and _NAME_LINE.match(lines[i - 1]) else i
                cuts.append(above)
                only_preamble = True
            current = kind
        seen_text = True
        only_preamble = only_preamble and bool(_SHARED_PREAMBLE.match(line) or _is_title(line))  # "Physical Processor Utilisation:"
    return cuts


# A title a collection script prints above each part of its log ("Firmware level:", "FC info:",
# "NPIV map info:"): short, not indented, a colon and nothing after it.
_TITLE = re.compile(r"^[A-Z][A-Za-z0-9 ()/_.-]{0,40}:$")
TITLE_SCORE = 60  # what follows a title must be this clearly another kind for the title to cut


def _is_title(line: str) -> bool:
    s = line.rstrip()
    return bool(s) and not s[0].isspace() and len(s.split()) <= 5 and bool(_TITLE.match(s))


def _cut_titles(lines: list[str], lo: int, hi: int, registry: dict[str, ModuleType],
                memo: dict[Any, Any] | None = None) -> list[tuple[int, int]]:
    """[lo, hi) cut at title lines, as (start, end) ranges without the titles that cut.

    A title cuts only where the piece's own parser could not read what follows it (a warning
    there, no record from there, or no kind for the whole piece) and what follows is clearly
    another kind: titles
    inside one command's output ("General Statistics:") never cut. A title on the piece's last
    line heads the next piece and is left out.
    """
    titles = [i for i in range(lo + 1, hi) if _is_title(lines[i])]
    if not titles:
        return [(lo, hi)]
    last = hi
    while last > lo and not lines[last - 1].strip():
        last -= 1
    if last - 1 == titles[-1]:
        titles.pop()
        kind, _ = _best("\n".join(lines[lo:last]), registry, memo=memo)
        if kind is not None and kind == _best("\n".join(lines[lo:last - 1]), registry, memo=memo)[0]:
            hi = last - 1  # the title heads what comes next, and its own piece reads the same without it
        if not titles:
            return [(lo, hi)]
    whole = "\n".join(lines[lo:hi])
    kind0, score0 = _best(whole, registry, memo=memo)
    warned: list[int] | None = None
    read: list[int] | None = None  # lines the piece's own records come from (None: its records carry none)
    if kind0 is not None and score0 >= MIN_SCORE:
        try:
            parsed = registry[kind0].parse(whole)
            if memo is not None:  # not parsed again when the piece stays whole
                memo[("parsed", kind0, whole)] = parsed
            warned = [lo + w.line - 1 for w in parsed.warnings]
            lines_of = [r.line for r in parsed.records if isinstance(getattr(r, "line", None), int)]
            read = [lo + n - 1 for n in lines_of] if lines_of else None
        except Exception:  # a parser bug is reported when the piece is parsed for real
            warned = []
    else:
        kind0 = None
    cuts = []
    for j, t in enumerate(titles):
        end = titles[j + 1] if j + 1 < len(titles) else hi
        unread = read is not None and not any(t < n < end for n in read)  # nothing read after this title
        if warned is not None and not unread and not any(t < w < end for w in warned):
            continue
        kind, score = _best("\n".join(lines[t + 1:end]), registry, memo=memo)
        if kind is not None and score >= TITLE_SCORE and kind != kind0:
            cuts.append(t)
    bounds = [lo] + [t + 1 for t in cuts]
    ends = cuts + [hi]
    return [(a, b) for a, b in zip(bounds, ends)]


def split_and_classify(text: str, registry: dict[str, ModuleType] | None = None) -> list[Segment]:
    """The command outputs in ``text``, in order, each with its kind (or why none)."""
    registry = registry if registry is not None else parsers()
    lines = split_lines(strip_ansi(text))
    if (text.startswith(SNAP_RULE) or "\n" + SNAP_RULE in text) and any(
            snap_header(ln) for ln in lines if ln.startswith(SNAP_RULE)):
        # the lines of dots framing a snap's section headers belong to no output (the file's line
        # numbers stay: the line is emptied, not removed)
        lines = ["" if is_snap_rule(ln) else ln for ln in lines]
    dsh = host_spans(lines)
    if dsh is not None:  # "host: line" on every line (xdsh, dsh, pdsh): each host's outputs apart
        spans, rest = dsh
        out = [replace(seg, start=seg.start + sp.first, notes=[(n + sp.first, m) for n, m in seg.notes],
                       prompt=Prompt(seg.prompt.command if seg.prompt else "", host=sp.host,
                                     user=seg.prompt.user if seg.prompt else None))
               for sp in spans for seg in _segments(sp.lines, registry)]
        out += _segments(rest, registry)
        return sorted(out, key=lambda seg: seg.start)
    return _segments(lines, registry)


def _segments(lines: list[str], registry: dict[str, ModuleType]) -> list[Segment]:
    """:func:`split_and_classify` of the lines of a file (its snap rules already emptied)."""
    cut = _cut_long_lines(lines)
    starts = _starts(registry)
    memo: dict[Any, Any] = {}  # detections and parses of the same text, made once for this file
    pieces: list[tuple[int, int, Prompt | None]] = []
    cuts = _cut_prompts(lines)
    lines = without_notes_above(lines, [i for i, p in cuts if p is not None])
    for n, (lo, prompt) in enumerate(cuts):
        hi = cuts[n + 1][0] if n + 1 < len(cuts) else len(lines)
        body_lo = lo + 1 if prompt else lo
        if prompt and _kinds_for_command(prompt.command, registry):
            tail = warned_tail(lines, lo, hi, prompt, starts, registry, memo, _classify)
            pieces.append((lo, tail or hi, prompt))
            if tail is None:
                continue
            lo = body_lo = tail  # another output after it, without a prompt of its own: cut as such
            prompt = None
        sub = _cut_starts(lines, body_lo, hi, starts)
        for m, s in enumerate(sub):
            e = sub[m + 1] if m + 1 < len(sub) else hi
            first = lo if m == 0 else s
            for n, (a, b) in enumerate(_cut_titles(lines, first, e, registry, memo)):
                pieces.append((a, b, prompt if m == 0 and n == 0 else None))
    segments: list[Segment] = []
    for lo, hi, prompt in pieces:
        notes = [(i + 1, cut[i]) for i in sorted(cut) if lo <= i < hi] if cut else []
        body = lines[lo + 1 : hi] if prompt else lines[lo:hi]
        if not any(ln.strip() for ln in body):
            if prompt is None or prompt.program in _SILENT:
                continue
            segments.append(Segment(lo + 1, "\n".join(lines[lo:hi]), None, prompt, "the command printed nothing", notes))
            continue
        seg_text = "\n".join(lines[lo:hi])
        kind, reason = _classify(seg_text, prompt, registry, memo)
        late = late_start(lines, lo, hi, starts, registry, memo, _classify) if kind is None and prompt is None else None
        if late is not None:  # text no parser reads, then an output: two pieces
            head = "\n".join(lines[lo:late])
            segments.append(Segment(lo + 1, head, None, None, _classify(head, None, registry, memo)[1],
                                    [x for x in notes if x[0] <= late]))
            lo, seg_text, notes = late, "\n".join(lines[late:hi]), [x for x in notes if x[0] > late]
            kind, reason = _classify(seg_text, None, registry, memo)
        segments.append(Segment(lo + 1, seg_text, kind, prompt, reason, notes, memo.pop(("parsed", kind, seg_text), None)))
    return segments


def _unreadable(text: str, registry: dict[str, ModuleType]) -> str | None:
    """A parser's word on text that looks like its kind but cannot be read (``unreadable(text)``)."""
    for mod in registry.values():
        fn = getattr(mod, "unreadable", None)
        if fn is None:
            continue
        try:
            why = fn(text)
        except Exception:  # a detector must never stop the run
            why = None
        if why:
            return str(why)
    return None


def _classify(text: str, prompt: Prompt | None, registry: dict[str, ModuleType],
              memo: dict[Any, Any] | None = None) -> tuple[str | None, str]:
    if prompt is not None:
        candidates = _kinds_for_command(prompt.command, registry)
        if candidates:
            # One candidate is the kind whatever its detect() says (no score is asked of it): an
            # estate's prompts name one kind each, nearly always.
            kind = _best(text, registry, candidates, memo)[0] if len(candidates) > 1 else candidates[0]
            why = _unreadable(text, {k: registry[k] for k in candidates})
            return (None, why) if why else ((kind or candidates[0]), "")
        if prompt.program and prompt.program not in _PASS_THROUGH:
            # The prompt names a command no parser reads: its output is not guessed from content.
            return None, f"command '{prompt.program}' is not a supported input kind"
    kind, score = _best(text, registry, memo=memo)
    if kind is not None and score >= MIN_SCORE:
        return kind, ""
    why = _unreadable(text, registry)
    if why:
        return None, why
    if prompt is not None and prompt.program:
        return None, f"command '{prompt.program}' is not a supported input kind"
    if kind is not None:
        return None, f"no supported command output recognised (closest: {kind}, confidence {score}/100)"
    return None, "no supported command output recognised"
