"""What :func:`lparscope.nmon.read_nmon` returns: one recording, its typed tables.

A section of an nmon file such as::

    DISKBUSY,Disk %Busy aixlpar,hdisk6,hdisk2
    ZZZZ,T0001,17:28:10,10-FEB-2016
    DISKBUSY,T0001,0.0,0.2
    ZZZZ,T0002,17:33:10,10-FEB-2016
    DISKBUSY,T0002,1.5,0.3

becomes ``NmonTable(name="DISKBUSY", title="Disk %Busy aixlpar", columns=["hdisk6", "hdisk2"],
snapshots=[1, 2], times=[17:28:10, 17:33:10], values=[[0.0, 0.2], [1.5, 0.3]])``.

Times: nmon writes wall-clock times without a zone. With ``tz=None`` the times are kept
naive (the recording host's local time) and ``NmonRecording.tz`` is ``"local naive"``.
With ``tz="Europe/Paris"`` (an IANA name) ``NmonRecording.times`` holds aware datetimes in
that zone and every ``NmonTable.times`` array holds the same instants in UTC
(``datetime64`` has no zone); ``NmonRecording.tz`` is then the name given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

NAIVE = "local naive"


@dataclass
class NmonTable:
    """One numeric section: one row per snapshot (per process for TOP), one column per field.

    ``values`` is float64 (rows x columns), NaN where a value is missing or was not a number.
    ``snapshots`` holds each row's snapshot number (the ``T0042`` of the file -> 42) and
    ``times`` its time (``datetime64[s]``, NaT when the file has no ZZZZ line for it).
    Text columns (TOP ``Command``/``WLMclass``, UARG ``FullCommand``...) are in ``text``,
    not in ``values``. ``lines`` holds each row's 1-based line number in the file.
    The tables with a row per snapshot share one read-only ``snapshots`` and one ``times`` array.
    """

    name: str
    title: str
    columns: list[str]
    snapshots: np.ndarray  # int64, one per row
    times: np.ndarray  # datetime64[s], one per row
    values: np.ndarray  # float64, rows x len(columns)
    first_line: int = 0  # 1-based line of the section's header (or first row when it has none)
    lines: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    text: dict[str, np.ndarray] = field(default_factory=dict)  # column -> array of str, one per row
    # Rows of recordings joined into one (``nmon.join``): the files they were read from, and the
    # index in ``sources`` of each row's file. Empty for a table read from one file.
    sources: tuple[str, ...] = ()
    source_index: np.ndarray | None = None

    def source_of(self, row: int, default: str) -> str:
        """The file row ``row`` was read from: ``default`` (the recording's file) unless recordings were joined."""
        if self.source_index is None or not 0 <= row < len(self.source_index):
            return default
        return self.sources[int(self.source_index[row])]

    def row_in_source(self, row: int) -> int:
        """The 0-based place of row ``row`` among the rows read from its own file (joined rows are
        numbered on from the parts before them; a citation counts within the file it names)."""
        if self.source_index is None or not 0 <= row < len(self.source_index):
            return row
        return row - int(np.searchsorted(self.source_index, self.source_index[row], side="left"))

    @property
    def timestamps(self) -> np.ndarray:
        """Alias of ``times``."""
        return self.times

    def __len__(self) -> int:
        return int(self.values.shape[0])

    def column(self, name: str) -> np.ndarray:
        """The values of one column (a text column gives its strings); KeyError when absent."""
        try:
            return self.values[:, self.columns.index(name)]
        except ValueError:
            pass
        if name in self.text:
            return self.text[name]
        lowered = [c.lower() for c in self.columns]
        if name.lower() in lowered:
            return self.values[:, lowered.index(name.lower())]
        raise KeyError(f"{self.name} has no column {name!r} (columns: {', '.join(self.columns[:12])}...)")

    def __repr__(self) -> str:
        return (f"NmonTable({self.name!r}, rows={len(self)}, columns={len(self.columns)}"
                f"{', text=' + str(list(self.text)) if self.text else ''})")


@dataclass
class NmonRecording:
    """One nmon file: header, configuration, snapshot times and every numeric section."""

    host: str | None = None
    header: dict[str, str] = field(default_factory=dict)
    header_lines: dict[str, int] = field(default_factory=dict)  # AAA key -> its file line
    tz: str = NAIVE
    times: Mapping[str, datetime] = field(default_factory=dict)  # "T0001" -> time of that snapshot
    tables: dict[str, NmonTable] = field(default_factory=dict)
    config: list[tuple[int, str]] = field(default_factory=list)  # BBB* lines: (line, text)
    bbbp_outputs: list[tuple[str, int, str]] = field(default_factory=list)  # (command, first line, output)
    warnings: list[tuple[int, str]] = field(default_factory=list)  # (line, message)
    # njmon recordings (nmon.njmon): the last snapshot's config, partition_type and server sections, and its line
    partition: dict[str, Any] | None = None
    bytes_read: int = 0
    lines: int = 0

    @property
    def kind(self) -> str:
        """The input kind: "njmon" for an njmon recording (JSON), "nmon" for every other."""
        return "njmon" if self.header.get("progname") == "njmon" else "nmon"

    @property
    def snapshots(self) -> int:
        """Number of distinct snapshots (ZZZZ lines) read."""
        return len(self.times)

    @property
    def oslevel(self) -> str | None:
        """The AIX level the header gives, in ``oslevel -r`` / ``-s`` form: ``AAA,AIX,6.1.6.4`` with
        ``AAA,TL,06`` (or the third part of the AIX level) -> "6100-06"; njmon's aix_version 7.1,
        aix_technology_level 5, aix_service_pack 3 -> "7100-05-03". None when the header does not
        tell the release and TL (a Linux recording, a VIOS's: its level is its ioslevel)."""
        return _header_facts(self.header)[0]

    @property
    def processor(self) -> str | None:
        """The processor implementation the header gives: ``AAA,hardware,Architecture PowerPC
        Implementation POWER7 64 bit`` (also ``POWER7_COMPAT_mode``, ``POWER7_in_P7_mode``) -> "POWER7";
        njmon's processorFamily or cpus_description (``PowerPC_POWER8``) -> "POWER8". As AIX reports
        it: in a compatibility mode, the mode's generation. None when not given (``unknown``)."""
        return _header_facts(self.header)[1]

    @property
    def facts_lines(self) -> dict[str, int]:
        """The file line of each header fact given (``oslevel``, ``processor``), for evidence."""
        _, _, keys = _header_facts(self.header)
        return {fact: self.header_lines.get(key, 1) for fact, key in keys.items()}

    def __repr__(self) -> str:
        return (f"NmonRecording(host={self.host!r}, snapshots={self.snapshots}, tables={len(self.tables)}, "
                f"warnings={len(self.warnings)}, bytes_read={self.bytes_read})")


_RELEASE = re.compile(r"^\s*(\d)\.(\d)(?:\.(\d+))?")
_POWER = re.compile(r"\bPOWER(\d+)(\+)?", re.I)


def _number(text: str | None) -> int | None:
    m = re.fullmatch(r"\s*(\d{1,3})(?:\.0*)?\s*", text or "")
    return int(m.group(1)) if m else None


def _header_facts(header: Mapping[str, str]) -> tuple[str | None, str | None, dict[str, str]]:
    """(oslevel, processor, fact -> the header key it was read from), see the properties."""
    keys: dict[str, str] = {}
    level = None
    if "VIOS" not in header and "ioslevel" not in header:
        njmon = "aix_version" in header
        m = _RELEASE.match(header.get("aix_version" if njmon else "AIX", ""))
        if m:
            tl = _number(header.get("aix_technology_level" if njmon else "TL"))
            tl = tl if tl is not None or njmon or m.group(3) is None else int(m.group(3))
            sp = _number(header.get("aix_service_pack")) if njmon else None
            if tl is not None:
                level = f"{m.group(1)}{m.group(2)}00-{tl:02d}" + (f"-{sp:02d}" if sp is not None else "")
                keys["oslevel"] = "aix_version" if njmon else "AIX"
    processor = None
    for key in ("hardware", "processorFamily", "cpus_description"):
        text = header.get(key, "")
        if key == "hardware":
            text = text.partition("Implementation")[2]
        p = _POWER.search(text)
        if p:
            processor, keys["processor"] = f"POWER{p.group(1)}{p.group(2) or ''}", key
            break
    return level, processor, keys
