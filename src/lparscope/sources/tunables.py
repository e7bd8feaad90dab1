"""Kernel tunables: ``schedo`` / ``vmo`` / ``ioo`` / ``no`` / ``nfso`` with ``-a``, ``-o``, ``-L``, ``-F -L``, ``-x``.

Input (``-L`` table; long names wrap onto their own line, dependencies follow
indented, ``-F`` adds a ``##Restricted tunables`` part)::

    # schedo -F -L
    NAME                      CUR    DEF    BOOT   MIN    MAX    UNIT           TYPE
         DEPENDENCIES
    --------------------------------------------------------------------------------
    vpm_fold_policy           1      1      1      0      15                       D
    --------------------------------------------------------------------------------
    vpm_throughput_core_threshold
                              1      1      1      0      1K     cores             D
    --------------------------------------------------------------------------------
    ##Restricted tunables
    fast_locks                0             0                    boolean           d

Output: one :class:`Tunable` per row::

    Tunable(command="schedo", name="vpm_fold_policy", current="1", default="1", boot="1",
            minimum="0", maximum="15", unit="", type="D", restricted=False, line=5)
    Tunable(command="schedo", name="fast_locks", current="0", default="", boot="0",
            minimum="", maximum="", unit="boolean", type="d", restricted=True, line=11)

Also read: ``name = value`` lines (``-a`` and ``-o name``), ``-x`` comma rows,
nmon-derived tables whose separators read ``n-----``, ``n/a`` values, ``no -F -L``
section titles, and prompts inside the text (``$ oem_setup_env`` then
``# schedo -o vpm_fold_policy``). Without a prompt the command is inferred from
well-known tunable names. Values stay raw strings; :func:`to_number` and the
``*_int`` properties read the ``K``/``M``/``G`` suffixes and ``4G-1`` forms.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from .base import preamble, Parsed, is_bare_prompt, leading_prompt, parse_prompt, split_lines, strip_ansi

KIND = "tunables"
TITLE = "schedo / vmo / ioo / no / nfso (-a, -o, -L, -F -L)"
COMMANDS = [r"^(?:schedo|vmo|ioo|no|nfso)\b"]
STARTS = re.compile(r"^NAME\s+CUR\s+DEF\s+BOOT\s+MIN\s+MAX\s+UNIT\s+TYPE\s*$")

# a prompt with no command: "$", "root@aix1:/ #"
_PROGRAMS = ("schedo", "vmo", "ioo", "no", "nfso")
_HEADER = STARTS
_SEPARATOR = re.compile(r"^\s*n?-{8,}\s*$")
_ASSIGN = re.compile(r"^\s*(?P<name>[A-Za-z_%][\w%.]*)\s*=\s*(?P<value>(?:.*\S)?)\s*$")
# The start of a "name=value" pair of an HMC comma-separated listing: two on a line make it one
_HMC_PAIR = re.compile(r'(?:^\s*|,)"?\d*[A-Za-z_][\w.]*=')
_LEGEND = re.compile(r"^\s{2,}[A-Za-z] = [A-Z][\w-]*:|^n/a means |^(Parameter types|Value conventions):")
_TYPE = re.compile(r"^[SDBRCMId]$")
_VALUE = re.compile(r"^(?:n/a|[-+]?\d+(?:\.\d+)?[KMGTPE]?(?:[-+]\d+)?|0x[0-9a-fA-F]+|\{.*\})$")
_SUFFIX = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50, "E": 2**60}

# Well-known names (exact) and prefixes, for text pasted without its command line.
_EXACT = {
    "schedo": "smt_snooze_delay smt_tertiary_snooze_delay affinity_lim big_tick_size ded_cpu_donate_thresh "
    "fixed_pri_global force_grq maxspin pacefork proc_disk_stats timeslice %usDelta allowMCMmigrate "
    "hotlocks_enable idle_migration_barrier",
    "vmo": "minfree maxfree maxpin% maxpin lru_file_repage minperm% maxperm% maxclient% strict_maxperm "
    "strict_maxclient esid_allocator memory_affinity page_steal_method npswarn npskill nokilluid "
    "v_pinshm lru_poll_interval relalias_percentage",
    "ioo": "numfsbufs pv_min_pbuf lvm_bufcnt maxpgahead minpgahead maxrandwrt sync_release_ilock "
    "hd_pbuf_cnt pd_npages j2_maxPageReadAhead j2_minPageReadAhead",
    "no": "rfc1323 use_isno sb_max thewall bcastping fasttimo somaxconn sack ipforwarding ipqmaxlen "
    "bsd_loglevel init_high_wat arpqsize arpt_killc arptab_bsiz arptab_nb delayack delayackports "
    "directed_broadcast hstcp icmpaddressmask ie5_old_multicast_mapping",
    "nfso": "portcheck client_delegation server_delegation utf8_validation",
}
_PREFIXES = [
    ("nfso", ("nfs_", "nfs4_")),
    ("schedo", ("vpm_", "sched_", "tb_", "krlock_", "shed_", "sidle_")),
    ("vmo", ("lgpg_", "ame_", "ams_", "enhanced_affinity_", "vmm_", "kernel_heap_", "lru_")),
    ("ioo", ("j2_", "aio_", "posix_aio_", "jfs_", "iodone_", "pcibus_")),
    ("no", ("tcp_", "udp_", "ip6", "ipsrc", "ipsend", "ipignore", "nbc_", "rto_", "arp", "ndp", "dgd_",
            "icmp6_", "sodebug", "route_", "net_", "so_", "ifsize", "inet_")),
]
_EXACT_MAP = {name: cmd for cmd, names in _EXACT.items() for name in names.split()}


@dataclass(slots=True)  # many instances: no per-instance dict
class Tunable:
    command: str | None  # schedo, vmo, ioo, no, nfso (None when it cannot be told)
    name: str
    current: str
    default: str | None = None
    boot: str | None = None
    minimum: str | None = None
    maximum: str | None = None
    unit: str | None = None
    type: str | None = None  # S D B R C M I d (see the -L legend)
    restricted: bool = False
    line: int = 0
    dependencies: list[str] = field(default_factory=list)

    @property
    def current_int(self) -> int | None:
        return to_number(self.current)

    @property
    def default_int(self) -> int | None:
        return to_number(self.default)

    @property
    def boot_int(self) -> int | None:
        return to_number(self.boot)

    @property
    def minimum_int(self) -> int | None:
        return to_number(self.minimum)

    @property
    def maximum_int(self) -> int | None:
        return to_number(self.maximum)


def to_number(text: str | None) -> int | None:
    """Integer from a tunable value: ``16K``, ``4G-1``, ``32K+1``, ``-1``, ``0x10``; None for ``n/a``/blank."""
    if text is None:
        return None
    t = text.strip()
    m = re.match(r"^([-+]?\d+)([KMGTPE]?)([-+]\d+)?$", t)
    if m:
        return int(m.group(1)) * _SUFFIX.get(m.group(2), 1) + int(m.group(3) or 0)
    if re.match(r"^0x[0-9a-fA-F]+$", t):
        return int(t, 16)
    return None


def guess_command(name: str) -> str | None:
    """The command that owns a well-known tunable name, or None."""
    if name in _EXACT_MAP:
        return _EXACT_MAP[name]
    for cmd, prefixes in _PREFIXES:
        if name.startswith(prefixes):
            return cmd
    return None


def _program(command: str) -> str | None:
    prog = command.split()[0].rsplit("/", 1)[-1] if command.split() else ""
    return prog if prog in _PROGRAMS else None


def detect(text: str) -> int:
    lines = [ln for ln in split_lines(strip_ansi(text))[:80] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if any(p and _program(p.command) for p in map(parse_prompt, lines[:4])):
        return 95
    body = lines[start:]
    if any(_HEADER.match(ln.strip()) for ln in body[:6]):
        return 95
    # An HMC listing (lshwres, lsmemopt ...: "lpar_name=a,lpar_id=1,curr_lpar_score=none") is no tunable
    assigns = [m for m in (_ASSIGN.match(ln) for ln in body if len(_HMC_PAIR.findall(ln)) < 2) if m]
    if assigns and len(assigns) >= 0.8 * len(body):
        known = sum(1 for m in assigns if guess_command(m.group("name")))
        if known:
            return 85 if known >= 2 else 60
        # names no tunable command owns: only in the commands' own "name = value" form (lparcfg's
        # "partition_id=2", a sysfs or config dump, are not tunables)
        spaced = sum(1 for m in assigns if " = " in m.group(0))
        return 30 if spaced >= 0.8 * len(assigns) else 0
    return 0


def _columns(header: str) -> list[int]:
    return [m.start() for m in re.finditer(r"\S+", header)]


def _split_row(raw: str, cols: list[int] | None) -> list[str] | None:
    """[cur, def, boot, min, max, unit, type] from the part of a -L row after the name."""
    tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", raw)]
    if not tokens:
        return None
    typ = ""
    if _TYPE.match(tokens[-1][1]):
        typ = tokens.pop()[1]
    if len(tokens) >= 5 and all(_VALUE.match(t) for _, t in tokens[:5]):
        return [t for _, t in tokens[:5]] + [" ".join(t for _, t in tokens[5:]), typ]
    if not cols or len(cols) < 7:
        return None
    # blanks in the value columns (deprecated tunables): place tokens by column
    fields = [""] * 6
    for pos, tok in tokens:
        idx = max((i for i in range(6) if cols[i + 1] <= pos + 1), default=-1)
        if idx < 0 or idx < 5 and not _VALUE.match(tok):
            return None
        fields[idx] = f"{fields[idx]} {tok}".strip()
    return fields + [typ]


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    command = _program(prompt.command) if prompt else None
    if prompt and prompt.host:
        out.hostname = prompt.host
    restricted = False
    cols: list[int] | None = None
    pending: tuple[str, int] | None = None  # a long name waiting for its values line
    last: Tunable | None = None
    in_legend = False
    from_prompt: set[int] = set()  # ids of records whose command came from a prompt
    for idx in range(start, len(lines)):
        raw = lines[idx].rstrip()
        lineno = idx + 1
        stripped = raw.strip()
        if not stripped or is_bare_prompt(stripped):
            continue
        p = parse_prompt(raw) if raw.lstrip()[:1] in "#$>" or "@" in raw else None
        if p:
            prog = _program(p.command)
            if prog:
                command = prog
            elif p.program not in ("oem_setup_env", "exit", "su", "sudo"):
                command = None
            restricted, pending, last, in_legend = False, None, None, False
            continue
        if _HEADER.match(stripped):
            cols, restricted, in_legend = _columns(raw), False, False
            continue
        if stripped == "DEPENDENCIES" or _SEPARATOR.match(raw):
            continue
        if stripped.startswith("##") and "restricted" in stripped.lower():
            restricted = True
            continue
        if _LEGEND.search(raw):
            in_legend = True
            continue
        if in_legend or re.match(r"^[A-Z][\w/ ]* (Tunable )?Parameters$", stripped):
            continue
        m = _ASSIGN.match(raw)
        if m:
            rec = Tunable(command, m.group("name"), m.group("value"), restricted=restricted, line=lineno)
            out.records.append(rec)
            if command:
                from_prompt.add(id(rec))
            last = None
            continue
        if "," in stripped and " " not in stripped and stripped.count(",") >= 7:  # -x form
            f = stripped.split(",")
            rec = Tunable(command, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], restricted, lineno)
            out.records.append(rec)
            if command:
                from_prompt.add(id(rec))
            continue
        indented = raw[:1].isspace()
        tokens = stripped.split()
        if not indented and len(tokens) == 1:
            pending, last = (tokens[0], lineno), None
            continue
        if indented and len(tokens) == 1 and pending is None:
            if last is not None:
                last.dependencies.append(tokens[0])
            else:
                out.warn(lineno, f"dependency without a tunable: {stripped[:60]!r}")
            continue
        if indented and pending is not None:
            name, name_line = pending
            row = _split_row(raw, cols)
        elif pending is not None and _VALUE.match(tokens[0]) and not tokens[0][:1].isalpha():
            name, name_line = pending  # the values line of a wrapped name, its indent lost in a paste
            row = _split_row(raw, None)
        elif not indented:
            name, name_line = tokens[0], lineno
            row = _split_row(" " * len(name) + raw[len(name):], cols)
        else:
            row = None
            name, name_line = "", lineno
        pending = None
        if row is None:
            out.warn(lineno, f"not a tunable row: {stripped[:60]!r}")
            last = None
            continue
        cur, dflt, boot, lo, hi, unit, typ = row
        last = Tunable(command, name, cur, dflt, boot, lo, hi, unit, typ or None, restricted, name_line)
        out.records.append(last)
        if command:
            from_prompt.add(id(last))
    if pending is not None:
        out.warn(pending[1], f"tunable name without values: {pending[0]!r}")
    _infer_commands(out.records, from_prompt)
    return out


def _infer_commands(records: list[Tunable], from_prompt: set[int]) -> None:
    """One output comes from one command: give unprompted rows the most common guess."""
    loose = [r for r in records if id(r) not in from_prompt]
    guesses = Counter(g for g in (guess_command(r.name) for r in loose) if g)
    if not guesses:
        return
    best = guesses.most_common(1)[0][0]
    for r in loose:
        r.command = best
