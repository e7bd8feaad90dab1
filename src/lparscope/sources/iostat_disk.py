"""Extended disk statistics: AIX ``iostat -D`` (stanza form) and ``iostat -Dl`` / ``-DRTl`` (long form).

Stanza input (``iostat -D`` / ``-dD``; one block per disk per interval)::

    System configuration: lcpu=8 drives=3 paths=6 vdisks=2

    hdisk2          xfer:  %tm_act      bps      tps      bread      bwrtn
                              61.0    24.6M    388.0       8.2M      16.4M
                    read:      rps  avgserv  minserv  maxserv   timeouts      fails
                             130.0      3.1      0.2     41.7           0          0
                   write:      wps  avgserv  minserv  maxserv   timeouts      fails
                             258.0      1.4      0.4      1.1S          0          0
                   queue:  avgtime  mintime  maxtime  avgwqsz    avgsqsz     sqfull
                               8.8      0.0    120.3      2.0        1.0       97.0

Long input (``iostat -DRTl``; one row per disk, 22 values then the time with ``-T``)::

    Disks:                     xfers                                read ...
    -------------- -------------------------------- ------------------------------------ ...
                     %tm    bps   tps  bread  bwrtn   rps    avg    min    max time fail ...
                     act                                    serv   serv   serv outs      ...
    hdisk2          61.0  24.6M 388.0   8.2M  16.4M 130.0    3.1    0.2   41.7    0    0 ... 97.0 10:14:07

Output: one :class:`DiskIoSample` per disk per interval::

    DiskIoSample(disk="hdisk2", interval=0, tm_act=61.0, bps=24600000.0, tps=388.0, ...,
                 write_maxserv=1100.0, avgwqsz=2.0, avgsqsz=1.0, sqfull=97.0,
                 timestamp=None, line=3, lines={"tm_act": 4, "rps": 6, ...})

and an :class:`IostatConfig` for each "System configuration" line. Byte and count
values with a K/M/G/T suffix are multiplied by powers of 1000 (``4.1K`` = one 4 KiB
I/O); times are milliseconds, an ``S`` suffix means seconds, ``M`` minutes, ``H`` hours.
Text whose whitespace was collapsed (several long-form rows on one line) is read too.
The plain ``iostat`` "Disks: % tm_act Kbps tps Kb_read Kb_wrtn" table is read into the
same record (``tm_act``, ``tps``; ``kbps``/``kb_read``/``kb_wrtn`` in ``extra``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, is_prompt_left_over, leading_prompt, split_lines, to_float, to_int

KIND = "iostat-D"
TITLE = "iostat -D / iostat -Dl"
COMMANDS = [r"^iostat\b.*\s-[A-Za-z]*D"]
STARTS = re.compile(r"^\s*\S+\s+xfer:\s+%tm_act\b")

# Long-form (-l) column order, and the stanza header names per section -> field
LONG_COLUMNS = [
    "tm_act", "bps", "tps", "bread", "bwrtn",
    "rps", "read_avgserv", "read_minserv", "read_maxserv", "read_timeouts", "read_fails",
    "wps", "write_avgserv", "write_minserv", "write_maxserv", "write_timeouts", "write_fails",
    "avgtime", "mintime", "maxtime", "avgwqsz", "avgsqsz", "sqfull",
]
# The summary rows iostat -D prints beside the disks, in their own layouts (not the disks' columns):
# -s "System: <host>" / "Physical" (all disks), -a "Vadapter:" (vscsi client adapters).
SUMMARY_COLUMNS = {
    4: ["kbps", "tps", "kb_read", "kb_wrtn"],
    19: ["kbps", "tps", "bkread", "bkwrtn", "partition_id", "rps", "read_avgserv", "read_minserv", "read_maxserv",
         "wps", "write_avgserv", "write_minserv", "write_maxserv", "avgtime", "mintime", "maxtime",
         "avgwqsz", "avgsqsz", "sqfull"],
}
# their headers: "System: <host>" (-s), "Vadapter:  xfers ...", and the column lines "Kbps tps Kb_read ..."
_SUMMARY_HEADER_RE = re.compile(r"^(?:System:\s*(?P<host>[A-Za-z0-9][\w.-]*)|(?:Vadapter|Adapter):\s+xfers\b.*|Kbps\s+tps\b.*)$")
_SECTION_PREFIX = {"read": "read_", "write": "write_"}
_PREFIXED = {"avgserv", "minserv", "maxserv", "timeouts", "fails"}
_TIME_FIELDS = {"read_avgserv", "read_minserv", "read_maxserv", "write_avgserv", "write_minserv",
                "write_maxserv", "avgtime", "mintime", "maxtime"}

_SECTION_RE = re.compile(r"^\s*(?:(?P<disk>[A-Za-z][\w./-]*)\s+)?(?P<sec>xfer|read|write|queue):\s*(?P<rest>.*)$")
_CONFIG_RE = re.compile(r"^\s*System configuration:\s*(?P<body>.*)$")
_VALUE_RE = re.compile(r"^[-+]?\d+(?:[.,]\d+)?[KMGTSH]?$")
_TIME_RE = re.compile(r"^\d{1,2}:\d{2}:\d{2}$")
_DISK_RE = re.compile(r"^(?!\d)[A-Za-z][\w./-]*$")
_LONG_HEADER_RE = re.compile(r"%tm\s+bps\s+tps\s+bread\s+bwrtn")
_BASIC_HEADER_RE = re.compile(r"^\s*Disks:\s+%\s*tm_act\s+Kbps\s+tps\s+Kb_read\s+Kb_wrtn")
_HEADER_WORDS = {"disk", "disks", "disks:", "xfers", "read", "write", "queue", "time", "act", "ac", "serv",
                 "outs", "wqsz", "sqsz", "qfull", "avg", "min", "max", "fail", "rps", "wps"}


@dataclass
class IostatConfig:
    values: dict[str, str]  # {"lcpu": "8", "drives": "4", "paths": "8", "vdisks": "2"}
    line: int


_ADAPTER_ROW = re.compile(r"^(?:vscsi|fcs|fscsi|sissas|sas|scsi|ide|sata|vfc|usbhc|vhost)\d+$")


@dataclass
class DiskIoSample:
    disk: str
    interval: int  # 0-based report number (the first report is usually since boot)
    line: int
    tm_act: float | None = None  # % of time active
    bps: float | None = None  # bytes/s
    tps: float | None = None
    bread: float | None = None  # bytes/s read
    bwrtn: float | None = None  # bytes/s written
    rps: float | None = None
    read_avgserv: float | None = None  # ms
    read_minserv: float | None = None
    read_maxserv: float | None = None
    read_timeouts: float | None = None
    read_fails: float | None = None
    wps: float | None = None
    write_avgserv: float | None = None  # ms
    write_minserv: float | None = None
    write_maxserv: float | None = None
    write_timeouts: float | None = None
    write_fails: float | None = None
    avgtime: float | None = None  # ms spent in the wait queue
    mintime: float | None = None
    maxtime: float | None = None
    avgwqsz: float | None = None
    avgsqsz: float | None = None
    sqfull: float | None = None  # times the service queue was full
    timestamp: str | None = None  # "03:11:53" with -T
    extra: dict[str, float | None] = field(default_factory=dict)  # columns not listed above
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def scope(self) -> str:
        """``disk``, or ``total`` ("Physical": all disks together) / ``adapter`` (vscsi0, fcs0 ...):
        summary rows iostat prints beside the disks, which are not disks."""
        if self.disk.lower() in ("physical", "total", "all"):
            return "total"
        if _ADAPTER_ROW.match(self.disk):
            return "adapter"
        return "disk"


def number(token: str, is_time: bool = False) -> float | None:
    """``"140.5M"`` -> 140500000.0; with ``is_time``: ``"1.1S"`` -> 1100.0 (ms)."""
    m = re.match(r"^([-+]?\d+(?:[.,]\d+)?)([KMGTSH]?)$", token.strip())
    if not m:
        return None
    num = to_float(m.group(1))
    if num is None:
        return None
    suffix = m.group(2)
    if is_time:
        mult = {"": 1, "S": 1000, "M": 60000, "H": 3600000}.get(suffix)
    else:
        mult = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}.get(suffix)
    return None if mult is None else num * mult


def detect(text: str) -> int:
    lines = [ln for ln in split_lines(text)[:80] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if prompt and prompt.program == "iostat":
        return 95 if any(re.search(p, prompt.command) for p in COMMANDS) else 40
    body = lines[start:]
    sections = {m.group("sec") for m in map(_SECTION_RE.match, body) if m}
    if {"xfer", "queue"} <= sections or ({"xfer", "read"} <= sections):
        return 90
    if any(_LONG_HEADER_RE.search(ln) for ln in body):
        return 90
    if any(_BASIC_HEADER_RE.match(ln) for ln in body):
        return 40
    if any(_CONFIG_RE.match(ln) and "drives=" in ln for ln in body):
        return 20
    return 0


class _State:
    def __init__(self, out: Parsed) -> None:
        self.out = out
        self.interval = 0
        self.seen: set[str] = set()

    def new_sample(self, disk: str, lineno: int) -> DiskIoSample:
        if disk in self.seen:  # a disk seen again starts the next report
            self.interval += 1
            self.seen = set()
        self.seen.add(disk)
        s = DiskIoSample(disk=disk, interval=self.interval, line=lineno)
        self.out.records.append(s)
        return s


def _set(sample: DiskIoSample, name: str, token: str, lineno: int, out: Parsed) -> None:
    if _TIME_RE.match(token):
        sample.timestamp = token
        sample.lines["timestamp"] = lineno
        return
    value = number(token, name in _TIME_FIELDS)
    if value is None and token not in ("-", "--"):
        out.warn(lineno, f"{sample.disk} {name}: cannot read {token!r}")
    if name in DiskIoSample.__dataclass_fields__ and name not in ("disk", "interval", "line", "timestamp"):
        setattr(sample, name, value)
    else:
        sample.extra[name] = value
    sample.lines[name] = lineno


def _field_name(section: str, column: str) -> str:
    col = column.lstrip("%").lower()
    return _SECTION_PREFIX.get(section, "") + col if col in _PREFIXED else col


def _long_row(tokens: list[str], i: int, state: _State, lineno: int) -> int:
    """Read one long-form row starting at tokens[i] (the disk); return the next index."""
    j = i + 1
    while j < len(tokens) and _VALUE_RE.match(tokens[j]):
        j += 1
    values = tokens[i + 1:j]
    sample = state.new_sample(tokens[i], lineno)
    columns = LONG_COLUMNS
    if sample.scope != "disk" and len(values) != len(LONG_COLUMNS):
        # a summary row (Physical, an adapter) in its own layout; one not known is not put in disk columns
        columns = SUMMARY_COLUMNS.get(len(values), [])
        if not columns:
            state.out.warn(lineno, f"{tokens[i]}: summary row of {len(values)} values in a layout not known: not read")
    elif len(values) != len(LONG_COLUMNS):
        state.out.warn(lineno, f"{tokens[i]}: {len(values)} values, expected {len(LONG_COLUMNS)}")
    for name, token in zip(columns, values):
        _set(sample, name, token, lineno, state.out)
    if j < len(tokens) and _TIME_RE.match(tokens[j]):
        _set(sample, "timestamp", tokens[j], lineno, state.out)
        j += 1
    return j


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.host:
        out.hostname = prompt.host
    state = _State(out)
    mode: str | None = None  # "stanza", "long", "basic"
    sample: DiskIoSample | None = None
    pending: tuple[str, list[str]] | None = None  # section and column names awaiting values
    after_tty = False
    for idx in range(start, len(lines)):
        lineno = idx + 1
        line = lines[idx].strip()
        if not line or re.match(r"^-{3,}[-\s]*$", line):
            continue
        m = _CONFIG_RE.match(line)
        if m:
            values = dict(re.findall(r"(?<!\w)(\w+)=(\S+)", m.group("body")))
            out.records.append(IostatConfig(values, lineno))
            continue
        sec = _SECTION_RE.match(line)
        if sec:
            mode = "stanza"
            if sec.group("disk"):
                sample = state.new_sample(sec.group("disk"), lineno)
            elif sample is None:
                out.warn(lineno, f"{sec.group('sec')}: section before any disk name")
                continue
            tokens = sec.group("rest").split()
            names = [t for t in tokens if not _VALUE_RE.match(t) and not _TIME_RE.match(t)]
            inline = tokens[len(names):]
            if inline:  # collapsed text: values on the header line
                for name, token in zip(names + ["time"], inline):
                    _set(sample, _field_name(sec.group("sec"), name), token, lineno, out)
                pending = None
            else:
                pending = (sec.group("sec"), names)
            continue
        summary = _SUMMARY_HEADER_RE.match(line)
        if summary:
            if summary.group("host") and not out.hostname:
                out.hostname = summary.group("host")
            mode = "long" if mode is None else mode
            continue
        if _LONG_HEADER_RE.search(line) or line.startswith("Disks:") or line == "Disk":
            if _BASIC_HEADER_RE.match(line):
                mode = "basic"
            elif mode != "basic" or _LONG_HEADER_RE.search(line):
                mode = "long"
            continue
        tokens = line.split()
        if all(t.lower() in _HEADER_WORDS or t.startswith("%") for t in tokens):
            continue  # second header line of the long form ("act  serv  serv ... qfull")
        if mode == "stanza" and pending and sample is not None and all(
            _VALUE_RE.match(t) or _TIME_RE.match(t) or t in ("-", "--") for t in tokens
        ):
            section, names = pending
            if len(tokens) not in (len(names), len(names) + 1):
                out.warn(lineno, f"{sample.disk} {section}: {len(tokens)} values for {len(names)} columns")
            for name, token in zip(names + ["time"], tokens):
                _set(sample, _field_name(section, name), token, lineno, out)
            pending = None
            continue
        if mode == "basic" and len(tokens) == 6 and _DISK_RE.match(tokens[0]):
            s = state.new_sample(tokens[0], lineno)
            for name, token in zip(["tm_act", "kbps", "tps", "kb_read", "kb_wrtn"], tokens[1:]):
                _set(s, name, token, lineno, out)
            continue
        if line.startswith("tty:"):
            after_tty = True
            continue
        if after_tty and all(_VALUE_RE.match(t) for t in tokens):
            after_tty = False
            continue  # tty / avg-cpu values of plain iostat
        after_tty = False
        if mode in ("long", None) and any(_DISK_RE.match(t) for t in tokens):
            i, read_any = 0, False
            while i < len(tokens):
                t = tokens[i]
                if _DISK_RE.match(t) and i + 1 < len(tokens) and _VALUE_RE.match(tokens[i + 1]) \
                        and t.lower() not in _HEADER_WORDS:
                    i = _long_row(tokens, i, state, lineno)
                    read_any = True
                    continue
                if t.lower() not in _HEADER_WORDS and not t.startswith("%") and not read_any:
                    break
                i += 1
            if read_any:
                mode = "long"
                continue
        if is_prompt_left_over(line) or line in ("#", "$"):
            continue
        out.warn(lineno, f"unexpected line: {line[:60]!r}")
    return out


def disk_config(parsed: Parsed) -> dict[str, int | None]:
    """The last "System configuration" line as integers (lcpu, drives, paths, vdisks)."""
    cfgs = [r for r in parsed.records if isinstance(r, IostatConfig)]
    return {k: to_int(v) for k, v in cfgs[-1].values.items()} if cfgs else {}
