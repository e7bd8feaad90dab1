"""Table assembly: the sections' values, columns and snapshot times become :class:`NmonTable` objects.

Columns come from the header lines (devices added mid-file: header epochs merged, earlier rows
NaN), rows repeating a snapshot keep the last one, rows out of order are sorted, each row gets
the time of its snapshot (NaT without a ZZZZ line), UARG lines become their own table.
"""

from __future__ import annotations

import numpy as np

from .bbbp import bbbp_outputs
from .model import NmonTable
from . import state as limits
from .state import TEXT_COLUMNS, T_RE, WARN_CAP, ReaderState, Section


class Tables(ReaderState):
    """The table half of the reader: :meth:`finish` fills ``rec.tables``."""

    def finish(self) -> None:
        rec = self.rec
        rec.times, snap_keys, snap_vals = self.snapshots.resolve(self.warn, self.zone, rec.header, self.file_name)
        # shared, read-only, by every table with a row per snapshot (most of them)
        snap_keys.flags.writeable = snap_vals.flags.writeable = False
        # Tables in the order of the file (a section's header, or its first row without one).
        for sec in sorted(self.by_id, key=lambda s: (s.first_line or s.first_row or 1 << 62, s.sid)):
            self.on_time()
            table = self._table(sec, snap_keys, snap_vals)
            if table is not None:
                rec.tables[sec.name] = table
        if self.uarg:
            rec.tables["UARG"] = self._uarg_table(snap_keys, snap_vals)
        rec.bbbp_outputs = bbbp_outputs(self.bbbp)
        for kind, n in sorted(self.counts.items()):
            if n > WARN_CAP:
                rec.warnings.append((0, f"{n - WARN_CAP} more warnings like the above ({kind.split(':')[0]}"
                                        f"{' in ' + kind.split(':', 1)[1] if ':' in kind else ''}) not listed"))
        rec.warnings.sort(key=lambda w: w[0])

    def _columns(self, sec: Section, rows_epoch: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Named columns for the field-space values, merging header epochs (devices added mid-file)."""
        assert sec.values is not None
        names_per_epoch: dict[int, list[str | None]] = {}
        if not len(rows_epoch):
            used: list[int] = []
        elif rows_epoch[0] == rows_epoch[-1]:  # rows are in file order, so epochs never decrease
            used = [int(rows_epoch[0])]
        else:
            used = np.unique(rows_epoch).tolist()
        for e in used:
            hdr = sec.headers[e].fields if e >= 0 else []
            names_per_epoch[e] = [(hdr[f] if f < len(hdr) and hdr[f] else None) for f in sec.value_fields]
        if not used:
            hdr = sec.headers[-1].fields if sec.headers else []
            names = [(hdr[f] if f < len(hdr) and hdr[f] else f"col{f - 1}") for f in sec.value_fields]
            return _dedupe(names), sec.values
        if len(used) == 1:
            names = [n or f"col{f - 1}" for n, f in zip(names_per_epoch[used[0]], sec.value_fields)]
            return _dedupe(names), sec.values
        # Rows are in file order, so each epoch's rows are one run; a name is looked up, never searched.
        merged: list[str] = []
        where: dict[str, int] = {}
        plan: list[tuple[int, int, list[int], list[int]]] = []
        widths = sec.row_fields if sec.row_fields is not None else np.full(sec.rows, 1 << 30)
        starts = np.searchsorted(rows_epoch, used, side="left").tolist()
        ends = np.searchsorted(rows_epoch, used, side="right").tolist()
        dropped, dropped_at = 0, 0
        # At most MAX_FIELDS columns, and values within what is left of the recording's budget or twice
        # what the rows already hold (a long recording of a wide section whose devices change stays
        # whole; a header renamed on every row does not multiply the table, nor do many such sections).
        most = min(limits.MAX_FIELDS, max(self.padding_left // max(sec.rows, 1), 2 * sec.width))
        for e, lo, hi in zip(used, starts, ends):
            maxw = int(widths[lo:hi].max()) if hi > lo else 0
            src, dst = [], []
            for j, (n, f) in enumerate(zip(names_per_epoch[e], sec.value_fields)):
                if n is None and f >= maxw:
                    continue  # no name and no value in this epoch
                name = n or f"col{f - 1}"
                k = where.get(name)
                if k is None:
                    # damaged files change their header on every row: the table stays within bounds
                    if len(merged) >= most:
                        dropped += 1
                        dropped_at = dropped_at or (sec.headers[e].line if e >= 0 else sec.first_row)
                        continue
                    k = where[name] = len(merged)
                    merged.append(name)
                src.append(j)
                dst.append(k)
            plan.append((lo, hi, src, dst))
        if dropped:
            self.warn(dropped_at, f"{sec.name}: {dropped:,} more columns named by header lines from here on are not kept "
                                  f"(the table holds {len(merged):,}, the most one section may)", kind=f"cells:{sec.name}")
        self.padding_left -= min(self.padding_left, sec.rows * max(0, len(merged) - 2 * sec.width))
        out = np.full((sec.rows, len(merged)), np.nan)
        for lo, hi, src, dst in plan:
            if src and hi > lo:
                out[lo:hi, dst] = sec.values[lo:hi, src]
        return merged, out

    def _table(self, sec: Section, snap_keys: np.ndarray, snap_vals: np.ndarray) -> NmonTable | None:
        lines, snaps = _joined(sec.line_parts), _joined(sec.snap_parts)
        sec.line_parts = sec.snap_parts = []
        if sec.rows == 0 and not sec.headers:
            return None
        assert sec.values is not None
        epoch = _epochs([h.line for h in sec.headers], lines)
        self._joined_names(sec, epoch)
        self._check_widths(sec, lines, epoch)
        columns, values = self._columns(sec, epoch)
        text = {(sec.headers[-1].fields[f] if sec.headers and f < len(sec.headers[-1].fields) else f"col{f - 1}"): arr
                for f, arr in sec.text.items()}
        # the usual section: a row per snapshot, in order (snap_keys are sorted and distinct)
        usual = len(snaps) == len(snap_keys) and np.array_equal(snaps, snap_keys)
        if sec.top:
            columns = [c.lstrip("+") for c in columns]
        elif not usual and len(snaps) > 1 and not bool((np.diff(snaps) > 0).all()):
            keep = self._dedupe_rows(sec, lines, snaps)
            lines, snaps, values = lines[keep], snaps[keep], values[keep]
            text = {k: v[keep] for k, v in text.items()}
            usual = len(snaps) == len(snap_keys) and np.array_equal(snaps, snap_keys)
        if usual:
            snaps, times = snap_keys, snap_vals
        elif len(snaps) and len(snap_keys) and _within_run(snap_keys, snaps):
            times = snap_vals[snaps - snap_keys[0]]  # every row's snapshot has its ZZZZ time
        elif len(snaps) and len(snap_keys):
            idx = _positions(snap_keys, snaps)
            found = snap_keys[idx] == snaps
            times = np.where(found, snap_vals[idx], np.datetime64("NaT"))
            missing = int((~found).sum())
            if missing:
                self.warn(int(lines[np.flatnonzero(~found)[0]]),
                          f"{sec.name}: {missing} rows whose snapshot has no ZZZZ time line (time NaT)",
                          kind=f"notime:{sec.name}")
        else:
            times = np.full(len(snaps), np.datetime64("NaT"), dtype="datetime64[s]")
        title = sec.title or (sec.headers[-1].fields[1] if sec.headers and len(sec.headers[-1].fields) > 1 else "")
        return NmonTable(sec.name, title, columns, snaps, times.astype("datetime64[s]", copy=False), values,
                         sec.first_line or sec.first_row, lines, text)

    def _joined_names(self, sec: Section, epoch: np.ndarray) -> None:
        """A header with fewer names than every row under it has values, whose first name joins several
        names with spaces (nmon v8: ``MEM,Memory h,Real Free Virtual free Real free(MB),Virtual free(MB),...``
        over six values): its names name the last values (aligned right), the first values get generic
        names, and the header line is named in a warning."""
        if sec.top or sec.row_fields is None or not len(epoch):
            return
        for e, hdr in enumerate(sec.headers):
            widths = sec.row_fields[epoch == e]
            if not len(widths) or widths.min() != widths.max() or int(widths[0]) <= len(hdr.fields) \
                    or len(hdr.fields) < 3:
                continue
            missing = int(widths[0]) - len(hdr.fields)
            first, others = hdr.fields[2].split(), [f.split() for f in hdr.fields[3:]]
            if len(first) < missing + 1 or len(first) <= max((len(o) for o in others), default=1):
                continue
            hdr.fields = hdr.fields[:2] + [""] * missing + hdr.fields[2:]
            self.warn(hdr.line, f"{sec.name}: the header names {len(others) + 1} columns for {len(others) + 1 + missing} "
                                f"values and its first name {' '.join(first)[:60]!r} joins several names: its names are "
                                f"read from the right (the last name names the last value), the first {missing} "
                                "values get generic column names", kind=f"width:{sec.name}")

    def _check_widths(self, sec: Section, lines: np.ndarray, epoch: np.ndarray) -> None:
        if not sec.headers or sec.row_fields is None or not len(lines) or sec.top:
            return
        have = sec.row_fields
        if len(sec.headers) == 1 and have.min() == have.max() == len(sec.headers[0].fields):
            return  # every row as wide as the one header line
        expected = np.array([len(h.fields) for h in sec.headers], np.int64)[np.maximum(epoch, 0)]
        have = have.astype(np.int64)
        for what, mask in (("more", have > expected), ("fewer", have < expected)):
            bad = np.flatnonzero(mask & (epoch >= 0))
            if len(bad):
                r = int(bad[0])
                self.warn(int(lines[r]), f"{sec.name}: {len(bad)} rows have {what} values ({have[r] - 2}) than "
                                         f"the header line {sec.headers[int(epoch[r])].line} names "
                                         f"({expected[r] - 2}); missing values are NaN, extra ones get "
                                         "generic column names", kind=f"width:{sec.name}")

    def _dedupe_rows(self, sec: Section, lines: np.ndarray, snaps: np.ndarray) -> np.ndarray:
        order = np.argsort(snaps, kind="stable")
        s = snaps[order]
        last = np.ones(len(s), bool)
        last[:-1] = s[1:] != s[:-1]
        dropped = np.flatnonzero(~last)
        if len(dropped):
            again = int(lines[order[dropped[0] + 1]])
            self.warn(again, f"{sec.name}: {len(dropped)} rows repeat a snapshot already read (first: "
                             f"T{int(s[dropped[0]]):04d}, also at line {int(lines[order[dropped[0]]])}); "
                             "the last row of each snapshot is kept", kind=f"duprow:{sec.name}")
        if bool((np.diff(snaps) < 0).any()):
            r = int(np.flatnonzero(np.diff(snaps) < 0)[0]) + 1
            self.warn(int(lines[r]), f"{sec.name}: rows out of snapshot order; sorted by snapshot",
                      kind=f"order:{sec.name}")
        return order[last]

    def _uarg_table(self, snap_keys: np.ndarray, snap_vals: np.ndarray) -> NmonTable:
        hdr = self.uarg_header.fields if self.uarg_header else ["UARG", "+Time", "PID", "PPID", "COMM", "THCOUNT",
                                                               "USER", "GROUP", "FullCommand"]
        names = hdr[2:]
        numeric = [i for i, n in enumerate(names) if n.lower() not in TEXT_COLUMNS]
        textual = [i for i, n in enumerate(names) if n.lower() in TEXT_COLUMNS]
        vals = np.full((len(self.uarg), len(numeric)), np.nan)
        text = {names[i]: np.full(len(self.uarg), "", dtype=object) for i in textual}
        snaps = np.zeros(len(self.uarg), np.int64)
        lines = np.zeros(len(self.uarg), np.int64)
        for r, (line, parts) in enumerate(self.uarg):
            m = T_RE.match(parts[1].strip())
            snaps[r] = int(m.group(1)) if m else -1
            lines[r] = line
            fields = parts[2:len(names) + 1] + [",".join(parts[len(names) + 1:])]
            for j, i in enumerate(numeric):
                try:
                    vals[r, j] = float(fields[i])
                except (ValueError, IndexError):
                    pass
            for i in textual:
                text[names[i]][r] = fields[i].strip() if i < len(fields) else ""
        idx = np.clip(np.searchsorted(snap_keys, snaps), 0, max(len(snap_keys) - 1, 0))
        times = (np.where(snap_keys[idx] == snaps, snap_vals[idx], np.datetime64("NaT")) if len(snap_keys)
                 else np.full(len(snaps), np.datetime64("NaT")))
        return NmonTable("UARG", "Process arguments", [names[i] for i in numeric], snaps,
                         times.astype("datetime64[s]"), vals, int(lines[0]), lines, text)


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """One int64 array of the parts (the part itself when it is the only one and owns its data)."""
    if len(parts) == 1 and not isinstance(parts[0].base, np.ndarray):
        return parts[0].astype(np.int64, copy=False)
    return np.concatenate(parts).astype(np.int64, copy=False) if parts else np.zeros(0, np.int64)


def _dedupe(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if n in seen:
            seen[n] += 1
            out.append(f"{n}#{seen[n]}")
        else:
            seen[n] = 1
            out.append(n)
    return out


def _epochs(header_lines: list[int], lines: np.ndarray) -> np.ndarray:
    """Per row, the index of the last header line above it (-1: none): its column names' epoch."""
    if not header_lines:
        return np.full(len(lines), -1, np.int64)
    if len(header_lines) == 1:  # the usual section: one comparison per row instead of a binary search
        if not len(lines) or lines.min() > header_lines[0]:
            return np.zeros(len(lines), np.int64)  # every row is under the header
        return (lines > header_lines[0]).astype(np.int64) - 1
    return np.searchsorted(np.array(header_lines, np.int64), lines) - 1


def _within_run(keys: np.ndarray, wanted: np.ndarray) -> bool:
    """True when the sorted distinct snapshot numbers ``keys`` run without a gap (k, k+1 ... m, as
    a recording's ZZZZ lines usually do) and every number in ``wanted`` is one of them."""
    first, last = int(keys[0]), int(keys[-1])
    return last - first == len(keys) - 1 and int(wanted.min()) >= first and int(wanted.max()) <= last


def _positions(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """``searchsorted(keys, wanted)`` clipped to a valid index, for the sorted distinct snapshot numbers
    ``keys``: a direct lookup when they are dense (they usually run 1..n), else a binary search."""
    last = len(keys) - 1
    if len(keys) and int(keys[0]) >= 0 and int(keys[-1]) <= 4 * len(keys) + 4096 and int(wanted.min()) >= 0:
        top = int(keys[-1])
        below = np.zeros(top + 2, np.int64)
        below[keys + 1] = 1
        slot = np.cumsum(below)  # slot[v]: how many keys are below v, for v in 0..top + 1
        return np.minimum(slot[np.minimum(wanted, top + 1)], last)
    return np.clip(np.searchsorted(keys, wanted), 0, last)
