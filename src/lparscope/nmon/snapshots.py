"""Snapshot times: the ZZZZ lines of an nmon file, read in one batch.

``ZZZZ,T0042,17:28:10,10-FEB-2016`` gives snapshot 42 its wall-clock time. A long recording
has tens of thousands of them but only a few distinct dates, so each date is parsed once
(cached) and each time of day by slicing ``hh:mm:ss``; the times are kept as seconds in an
int64 array and become ``datetime64`` / ``datetime`` values in bulk (no regex and no
``datetime`` per line). Other spellings (``10:24.25``, ISO dates) take the general path.

Classic nmon (nmon for AIX 5.x/6.x, old Linux nmon) may write the time alone
(``ZZZZ,T0001,23:50:03``): the day then comes from the header (``AAA,date,11-FEB-09``) and moves
on by one each time the clock goes back past midnight (from the header's ``AAA,time`` on, so a
recording started at 23:58 whose first snapshot is at 00:08 is dated the next day). A step back
of up to two hours (a clock put back, daylight saving time ends) stays on the same day. Dates
are read as ``10-FEB-2016`` / ``10-Feb-16``, ``2016-02-10``, ``2016/02/10``, ``20160210``,
``10 FEB 2016``, ``FEB 10 2016`` and ``10/02/2016`` when the order of day and month is not in
doubt (a day above 12); a two-digit year is 19xx from 70 on, else 20xx.

A numeric date whose day and month cannot be told apart (``AAA,date,03/04/11``) is read with the
help of the file name when it carries nmon's ``_YYMMDD_HHMM`` (``host_110304_0000.nmon``) and that
agrees with exactly one reading (day/month or month/day); the order found reads the ZZZZ dates too.

Tolerance (each a capped warning with its line): no snapshot number, an unreadable time,
a snapshot seen again (the last one is kept), a snapshot out of order (rows are sorted),
times without a date in a file whose header has none either, or one that cannot be read or is
ambiguous (one warning quoting it, times unknown), a snapshot whose time goes back from the one
before it (one warning per recording, at the first such ZZZZ line; the order is kept).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo

import numpy as np

T_RE = re.compile(r"^T(\d{1,15})$")  # a snapshot number; more digits would not fit an int64
_HMS_RE = re.compile(r"^(\d{1,2})[:.](\d{2})[:.](\d{2})")
_DMY_RE = re.compile(r"^(\d{1,2})[- ]([A-Za-z]{3})[A-Za-z]*[- ,]+(\d{2}|\d{4})$")
_MDY_RE = re.compile(r"^([A-Za-z]{3})[A-Za-z]*[- ]+(\d{1,2}),?[- ]+(\d{4})$")
_YMD_RE = re.compile(r"^(\d{4})[-/.]?(\d{2})[-/.]?(\d{2})$")
_NUM_RE = re.compile(r"^(\d{1,2})[/.](\d{1,2})[/.](\d{2}|\d{4})$")
_NAME_DATE_RE = re.compile(r"_(\d{2})(\d{2})(\d{2})_\d{4}(?!\d)")  # nmon's file name: host_YYMMDD_HHMM.nmon
_MONTHS = {m: i + 1 for i, m in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split())}
_EPOCH_DAY = datetime(1970, 1, 1).toordinal()
_CLOCK_BACK = 2 * 3600  # a step back of at most this many seconds is a clock change, not a new day


def _year(text: str) -> int:
    year = int(text)
    if year < 100:
        year += 1900 if year >= 70 else 2000
    return year


def _day(date: str, order: str | None = None) -> int | None:
    """'10-FEB-2016' (or another spelling, see the module) -> days since 1970-01-01; None when not a date.

    ``order`` ("dmy" or "mdy") reads a numeric date whose day and month cannot be told apart."""
    date = date.strip()
    try:
        d = _DMY_RE.match(date)
        if d:
            ymd = (_year(d.group(3)), _MONTHS[d.group(2).upper()], int(d.group(1)))
        elif (d := _MDY_RE.match(date)) is not None:
            ymd = (int(d.group(3)), _MONTHS[d.group(1).upper()], int(d.group(2)))
        elif (d := _YMD_RE.match(date)) is not None:
            ymd = (int(d.group(1)), int(d.group(2)), int(d.group(3)))
        elif (d := _NUM_RE.match(date)) is not None:
            a, b = int(d.group(1)), int(d.group(2))
            if a <= 12 and b <= 12 and a != b and order not in ("dmy", "mdy"):
                return None  # 03/04/2009: day and month cannot be told apart
            day, month = (a, b) if a > 12 or a == b or (b <= 12 and order == "dmy") else (b, a)
            ymd = (_year(d.group(3)), month, day)
        else:
            return None
        return datetime(*ymd).toordinal() - _EPOCH_DAY
    except (KeyError, ValueError):
        return None


def _ambiguous(date: str) -> bool:
    """A numeric date such as '03/04/11' whose day and month cannot be told apart."""
    m = _NUM_RE.match(date.strip())
    return bool(m) and int(m.group(1)) <= 12 and int(m.group(2)) <= 12 and m.group(1) != m.group(2) \
        and _day(date, "dmy") is not None and _day(date, "mdy") is not None


def date_order(date: str, name: str | None) -> str | None:
    """"dmy" or "mdy": the reading of the ambiguous numeric ``date`` that the file name's nmon date
    (``_YYMMDD_HHMM``) agrees with, when exactly one does; None otherwise."""
    m = _NAME_DATE_RE.search(name or "")
    if not m or not _ambiguous(date):
        return None
    try:
        named = datetime(2000 + int(m.group(1)) if int(m.group(1)) < 70 else 1900 + int(m.group(1)),
                         int(m.group(2)), int(m.group(3))).toordinal() - _EPOCH_DAY
    except ValueError:
        return None
    agree = [o for o in ("dmy", "mdy") if _day(date, o) == named]
    return agree[0] if len(agree) == 1 else None


def _seconds_of_day(hms: str) -> int | None:
    """'17:28:10' -> 62890 (also '17.28.10' and a trailing fraction); None when not a time."""
    if len(hms) == 8 and hms.isascii() and hms[2] == ":" and hms[5] == ":" and hms[:2].isdigit() and hms[3:5].isdigit() \
            and hms[6:].isdigit():
        h, m, s = int(hms[:2]), int(hms[3:5]), int(hms[6:])
    else:
        t = _HMS_RE.match(hms)
        if not t:
            return None
        h, m, s = int(t.group(1)), int(t.group(2)), int(t.group(3))
    if h > 23 or m > 59 or s > 59:
        return None
    return h * 3600 + m * 60 + s


@dataclass
class ReadLines:
    """ZZZZ lines of the usual form ``ZZZZ,Tnnnn,hh:mm:ss,date`` already split by the native core:
    per line its number, snapshot, digits of the ``Tnnnn`` field, seconds of the day (a valid
    time) and date (index into ``date_names``), in file order."""

    lines: np.ndarray
    snaps: np.ndarray
    digits: np.ndarray
    sods: np.ndarray
    dates: np.ndarray
    date_names: list[str]

    def tokens(self) -> list[str]:
        # "T" and the number with its leading zeros as written (snapshot numbers are never negative)
        return ["T" + str(s).zfill(d) for s, d in zip(self.snaps.tolist(), self.digits.tolist())]

    def as_pending(self) -> list[tuple[int, list[str]]]:
        """The same lines as the text route gives them (fields exactly as written)."""
        hms = [f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}" for s in self.sods.tolist()]
        names = self.date_names
        return [(line, ["ZZZZ", t, h, names[d]])
                for line, t, h, d in zip(self.lines.tolist(), self.tokens(), hms, self.dates.tolist())]


class Snapshots:
    """The ZZZZ lines of one file, in file order; :meth:`resolve` turns them into times."""

    def __init__(self) -> None:
        self.pending: list[tuple[int, list[str]]] = []  # (line, fields) of each ZZZZ line
        self.read: ReadLines | None = None  # lines already split (native core)

    def add(self, line: int, parts: list[str]) -> None:
        self.pending.append((line, parts))

    def add_read(self, read: ReadLines) -> None:
        """Lines of the usual form, already split; merged with the others by line number."""
        self.read = read

    def _in_bulk(self, zone: tzinfo | None, order: str | None) -> tuple[dict[str, datetime], np.ndarray, np.ndarray] | None:
        """The times without a loop per line, when every ZZZZ line has the usual form, every date
        reads and the snapshots and their times increase (nothing to warn about); None otherwise."""
        read = self.read
        if read is None or self.pending or not len(read.snaps):
            return None
        day_of = [_day(d, order) for d in read.date_names]
        if any(d is None for d in day_of) or not bool((np.diff(read.snaps) > 0).all()):
            return None
        secs = np.array(day_of, np.int64)[read.dates] * 86400 + read.sods.astype(np.int64)
        if bool((np.diff(secs) < 0).any()):
            return None  # a time goes back: warned by the general path
        if zone is None:  # the times by token are made when first read (the tables need only the array)
            return TimesByToken(read, secs), read.snaps.astype(np.int64), secs.astype("datetime64[s]")
        return _times(read.tokens(), secs, read.snaps.astype(np.int64), secs, zone)

    def resolve(self, warn: Callable[..., None], zone: tzinfo | None, header: dict[str, str] | None = None,
                name: str | None = None) -> tuple[Mapping[str, datetime], np.ndarray, np.ndarray]:
        """(times by token "T0001", sorted snapshot numbers, their times as UTC-or-naive datetime64[s]).

        ``header`` (the AAA fields) gives the day of ZZZZ lines that carry only a time; ``name`` (the
        file's name) the order of day and month of an ambiguous ``AAA,date``.
        """
        header = header or {}
        hdate = header.get("date", "").strip()
        dmy = date_order(hdate, name)
        fast = self._in_bulk(zone, dmy)
        if fast is not None:
            self.read = None
            return fast
        if self.read is not None:  # merged with the text route's lines, in file order
            self.pending = sorted(self.pending + self.read.as_pending(), key=lambda p: p[0])
            self.read = None
        days: dict[str, int | None] = {}
        seen_line: dict[int, int] = {}  # snapshot -> line of its (last) ZZZZ
        secs: dict[int, int] = {}  # snapshot -> local seconds since the epoch
        order: dict[str, int] = {}  # token -> snapshot, in first-seen order (as a dict keeps it)
        last = -1
        day_now = _day(hdate, dmy)  # the day of the last time read (for times without a date)
        sod_now = _seconds_of_day(header.get("time", "").strip()) if day_now is not None else None
        undated = 0
        for line, parts in self.pending:
            token = parts[1].strip() if len(parts) > 1 else ""
            m = T_RE.match(token)
            if not m:
                warn(line, "ZZZZ line without a snapshot number (T and at most 15 digits)", kind="zzzz")
                continue
            snap = int(m.group(1))
            hms = parts[2].strip() if len(parts) > 2 else ""
            date = parts[3].strip() if len(parts) > 3 else ""
            sod = _seconds_of_day(hms)
            if not date and sod is not None:  # classic nmon: the time alone
                if day_now is None:
                    undated += 1
                    if undated == 1:
                        warn(line, f"ZZZZ {token}: the time has no date and " + _no_day(hdate, name)
                             + ": snapshot times unknown")
                    continue
                if sod_now is not None and sod < sod_now - _CLOCK_BACK:
                    day_now += 1  # past midnight
                day = day_now
            else:
                day = days[date] if date in days else days.setdefault(date, _day(date, dmy))
            if day is None or sod is None:
                warn(line, f"ZZZZ {token}: unreadable time {','.join(parts[2:4])!r}", kind="zzzz")
                continue
            day_now, sod_now = day, sod
            if snap in seen_line:
                warn(line, f"snapshot {token} appears again (first at line {seen_line[snap]}): "
                           "the last one is kept", kind="dupsnap")
            elif snap < last:
                warn(line, f"snapshot {token} is out of order (after T{last:04d}): rows are sorted by snapshot",
                     kind="ordersnap")
            last = max(last, snap)
            secs[snap] = day * 86400 + sod
            seen_line[snap] = line
            order[token] = snap
        self.pending = []
        keys = np.array(sorted(secs), np.int64)
        tokens = list(order)
        key_secs = np.array([secs[k] for k in keys.tolist()], np.int64)
        back = np.flatnonzero(np.diff(key_secs) < 0)
        if len(back):  # once per recording, at the first snapshot whose time goes back
            i = int(back[0]) + 1
            token_of = {s: t for t, s in order.items()}
            warn(seen_line[int(keys[i])], f"ZZZZ {token_of[int(keys[i])]}: time {_shown(int(key_secs[i]))} goes back "
                                          f"from {token_of[int(keys[i - 1])]}'s {_shown(int(key_secs[i - 1]))} "
                                          "(snapshots kept in their order)")
        return _times(tokens, np.array([secs[order[t]] for t in tokens], np.int64), keys, key_secs, zone)


def _shown(local_secs: int) -> str:
    return (datetime(1970, 1, 1) + timedelta(seconds=local_secs)).strftime("%Y-%m-%d %H:%M:%S")


def _no_day(hdate: str, name: str | None) -> str:
    """Why the header gives no day, for the warning about time-only ZZZZ lines."""
    if not hdate:
        return "the header has no AAA,date"
    if _ambiguous(hdate):
        told = "the file name does not settle it" if _NAME_DATE_RE.search(name or "") else \
            "no file name of the form host_YYMMDD_HHMM settles it"
        return f"the header's AAA,date {hdate!r} is ambiguous (day/month or month/day; {told})"
    return f"the header's AAA,date {hdate!r} cannot be read as a date"


class LazyTimes(Mapping[str, datetime]):
    """Snapshot times by token ("T0001" -> datetime), made by ``_make`` on first use; ``_count``
    tells how many without making them."""

    _made: dict[str, datetime] | None = None

    def _make(self) -> dict[str, datetime]:
        raise NotImplementedError

    def _count(self) -> int:
        raise NotImplementedError

    def _all(self) -> dict[str, datetime]:
        if self._made is None:
            self._made = self._make()
        return self._made

    def __getitem__(self, token: str) -> datetime:
        return self._all()[token]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return self._count() if self._made is None else len(self._made)

    def __repr__(self) -> str:
        return repr(self._all())


class TimesByToken(LazyTimes):
    """A recording's time of each snapshot token ("T0001" -> naive datetime), made on first use:
    a long recording has 45,000 of them, a twentieth of its reading time, which the tables (times
    as one datetime64 array) and the analysis never need."""

    def __init__(self, read: ReadLines, secs: np.ndarray) -> None:
        self._read: ReadLines | None = read
        self._secs = secs

    def _make(self) -> dict[str, datetime]:
        assert self._read is not None
        made = dict(zip(self._read.tokens(), self._secs.astype("datetime64[s]").astype(object).tolist()))
        self._read = None
        return made

    def _count(self) -> int:
        return len(self._secs)  # one token per line: snapshots increase


def _times(tokens: list[str], token_secs: np.ndarray, keys: np.ndarray, key_secs: np.ndarray, zone: tzinfo | None
           ) -> tuple[dict[str, datetime], np.ndarray, np.ndarray]:
    """(times by token, snapshot numbers, their times) from local seconds since the epoch."""
    naive = token_secs.astype("datetime64[s]").astype(object).tolist()
    if zone is None:
        return dict(zip(tokens, naive)), keys, key_secs.astype("datetime64[s]")
    aware = [d.replace(tzinfo=zone) for d in naive]
    by_key = dict(zip(keys.tolist(), key_secs.tolist()))
    utc_of = {s: a.astimezone(timezone.utc).replace(tzinfo=None) for s, a in zip(token_secs.tolist(), aware)}
    utc = np.array([utc_of[by_key[k]] for k in keys.tolist()], dtype="datetime64[s]")
    return dict(zip(tokens, aware)), keys, utc
