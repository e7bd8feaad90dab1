"""The SEA summary of the community ``lssea`` / ``lsseas`` script on a VIOS (VIOS 3.x / 4.x).

Input (one block per Shared Ethernet Adapter, then tables of its aggregation, its real
ports with their LACP state, and its trunk adapters; the script colours values with
terminal escapes, removed here)::

    running lssea on vios1a | IBM,0278C01A8 | ioslevel 4.1.1.00 | 2.0 20200108 | Tue May  6 10:45:30 HKT 2025
    Virtual ethernet adapters are : en17
    +------------------------------------------------------+
    SEA :  ent29
    ha_mode              : Sharing
    state                : PRIMARY_SH
    number of adapters   : 5
    priority             : 1
    vlans                : 11 12 13
    flags                :  THREAD  LARGESEND
    +------------------------------------------------------+
     ETHERCHANNEL
    adapter phys_adapters        mode       hash_mode       jumbo
    ------- -------------        ----       ---------       -----
    ent16   ent0,ent1            8023ad     src_dst_port    no
     REAL ADAPTERS
    adapter slot hardware_path               link selected_speed running_speed       actor_system      actor_sync  partner_system    partner_port partner_sync
    ------- ---- -------------               ---- -------------- -------------       ------------      ----------  --------------    ------------ ------------
    ent0    C2   U5B61.001.WZS02T0-P0-C2-T0  Up   not_applicable 10_Gbps_Full_Duplex B8-E9-24-E2-A0-A4 IN_SYNC     74-A2-E6-8C-1D-C0 0x0007       IN_SYNC
    ent1    C2   U5B61.001.WZS02T0-P0-C2-T1  Up   not_applicable 10_Gbps_Full_Duplex B8-E9-24-E2-A0-A4 IN_SYNC     00-00-00-00-00-00 0x0000       OUT_OF_SYNC

Output: :class:`LsseaReport` (the VIOS the report names; ``Parsed.hostname`` too), one
:class:`LsseaSea` per SEA (``ha_mode``, ``state``, ``priority``, ``vlans``, ``flags``) and one
:class:`LsseaRow` per table row, its cells by column name::

    LsseaRow(table="etherchannel", sea="ent29", name="ent16", line=16,
             values={"phys_adapters": "ent0,ent1", "mode": "8023ad", "hash_mode": "src_dst_port", "jumbo": "no"})
    LsseaRow(table="real adapters", sea="ent29", name="ent1", line=21, values={..., "partner_system":
             "00-00-00-00-00-00", "partner_sync": "OUT_OF_SYNC"}, lacp=LacpPortState(...))

A real port row with LACP columns also carries them typed (:class:`~._entstat_etherchannel.LacpPortState`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._entstat_etherchannel import LacpParty, LacpPortState
from .base import Parsed, command_matches, output_head, preamble, strip_ansi, to_int

KIND = "lssea"
TITLE = "lssea / lsseas VIOS SEA report"
COMMANDS = [r"^(?:\S*/)?lsseas?(?:V\d+)?(?:\.sh)?\b"]
STARTS = re.compile(r"^\s*running lssea on\s+\S+")

_RUN_RE = re.compile(r"^\s*running lssea on\s+(?P<vios>\S+)(?P<rest>.*)$")
_SEA_RE = re.compile(r"^\s*SEA\s*:\s*(?P<name>ent\d+)\s*$")
_BORDER_RE = re.compile(r"^\s*\+-{5,}\+\s*$")
_DASHES_RE = re.compile(r"^\s*-{3,}(?:\s+-{3,})*\s*$")
_TITLE_RE = re.compile(r"^\s*(?P<title>[A-Z][A-Z ]{3,}[A-Z])\s*$")
_KV_RE = re.compile(r"^\s*(?P<key>[A-Za-z](?:[\w /]*[\w/])?)\s*:\s*(?P<value>(?:.*\S)?)\s*$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass
class LsseaReport:
    """The report's first line and the lines before the first SEA."""

    vios: str
    line: int
    serial: str | None = None
    ioslevel: str | None = None
    other: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class LsseaSea:
    """One ``SEA : entN`` block."""

    name: str
    line: int
    ha_mode: str | None = None
    state: str | None = None
    number_of_adapters: int | None = None
    priority: int | None = None
    vlans: list[int] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    other: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class LsseaRow:
    """One row of a table under an SEA (ETHERCHANNEL, REAL ADAPTERS, VIRTUAL ADAPTERS ...)."""

    table: str  # the table's title, lower-case
    sea: str | None
    name: str  # the first cell: the adapter
    line: int
    values: dict[str, str] = field(default_factory=dict)
    lacp: LacpPortState | None = None


def _clean(line: str) -> str:
    return _CONTROL.sub("", strip_ansi(line)).rstrip()


def detect(text: str) -> int:
    prompt, lines = output_head(text, 60)
    if prompt is not None and command_matches(prompt, COMMANDS):
        return 90
    head = [_clean(ln) for ln in lines]
    if any(_RUN_RE.match(ln) for ln in head):
        return 90
    if any(_SEA_RE.match(ln) for ln in head) and any("ha_mode" in ln for ln in head):
        return 60
    return 0


def _lacp(values: dict[str, str], line: int) -> LacpPortState | None:
    if not any(k in values for k in ("actor_sync", "partner_sync", "partner_system")):
        return None
    lines = {"system": line, "synchronization": line, "port": line}
    actor = LacpParty(system=values.get("actor_system"), synchronization=values.get("actor_sync"), lines=dict(lines))
    partner = LacpParty(system=values.get("partner_system"), port=values.get("partner_port"),
                        synchronization=values.get("partner_sync"), lines=dict(lines))
    return LacpPortState(actor=actor, partner=partner)


class _Reader:
    def __init__(self, out: Parsed) -> None:
        self.out = out
        self.report: LsseaReport | None = None
        self.sea: LsseaSea | None = None
        self.table: str | None = None
        self.columns: list[str] = []

    def feed(self, line: str, lineno: int) -> None:
        text = line.strip()
        if not text or _DASHES_RE.match(line):
            return
        if _BORDER_RE.match(line):
            self.table, self.columns = None, []
            return
        m = _RUN_RE.match(line)
        if m:
            parts = [p.strip() for p in m.group("rest").split("|") if p.strip()]
            self.report = LsseaReport(vios=m.group("vios"), line=lineno)
            for p in parts:
                if p.startswith("IBM,"):
                    self.report.serial = p[4:]
                elif p.lower().startswith("ioslevel"):
                    self.report.ioslevel = p.split(None, 1)[-1]
            self.out.records.append(self.report)
            self.out.hostname = self.out.hostname or m.group("vios")
            self.sea = None
            return
        m = _SEA_RE.match(line)
        if m:
            self.sea = LsseaSea(name=m.group("name"), line=lineno)
            self.out.records.append(self.sea)
            self.table, self.columns = None, []
            return
        m = _TITLE_RE.match(line)
        if m:
            self.table, self.columns = " ".join(m.group("title").lower().split()), []
            return
        if self.table is not None:
            self.read_table(text, lineno)
            return
        kv = _KV_RE.match(line)
        if kv is None:
            self.out.warn(lineno, f"unreadable lssea line: {text[:60]!r}")
            return
        self.keep(kv.group("key").strip(), kv.group("value"), lineno)

    def read_table(self, text: str, lineno: int) -> None:
        cells = text.split()
        if not self.columns:
            if ":" in text:  # "ctl_chan port_vlan_id: 4095" under NO CONTROL CHANNEL
                key, _, value = text.partition(":")
                self.keep(key.strip(), value.strip(), lineno)
                return
            self.columns = [c.lower() for c in cells]
            return
        if len(cells) > len(self.columns):
            self.out.warn(lineno, f"{self.table} row with more cells than columns: {text[:60]!r}")
        values = dict(zip(self.columns[1:], cells[1:]))
        row = LsseaRow(table=self.table or "", sea=self.sea.name if self.sea else None, name=cells[0],
                       line=lineno, values=values)
        if self.table == "real adapters":
            row.lacp = _lacp(values, lineno)
        self.out.records.append(row)

    def keep(self, key: str, value: str, lineno: int) -> None:
        target = self.sea if self.sea is not None else self.report
        if target is None:
            self.out.warn(lineno, f"line before the report's first line: {key[:40]!r}")
            return
        nkey = " ".join(key.lower().split())
        sea = self.sea
        if sea is not None and nkey in ("ha_mode", "state"):
            setattr(sea, nkey, value)
        elif sea is not None and nkey == "number of adapters":
            sea.number_of_adapters = to_int(value)
        elif sea is not None and nkey == "priority":
            sea.priority = to_int(value)
        elif sea is not None and nkey == "vlans":
            sea.vlans = [int(v) for v in value.split() if v.isdigit()]
        elif sea is not None and nkey == "flags":
            sea.flags = value.split()
        else:
            target.other[key] = value
            target.lines["other." + key] = lineno
            return
        sea.lines[nkey.replace(" ", "_")] = lineno


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    reader = _Reader(out)
    for idx in range(pre.body, len(pre.lines)):
        line = _clean(pre.lines[idx])
        try:
            reader.feed(line, idx + 1)
        except Exception as exc:  # never raise on bad input: report the line instead
            out.warn(idx + 1, f"could not read line ({type(exc).__name__}): {line.strip()[:60]!r}")
    if not any(isinstance(r, LsseaSea) for r in out.records):
        out.warn(1, "no 'SEA : entN' block found")
    return out
