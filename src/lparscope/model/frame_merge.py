"""Which managed system each HMC record belongs to, when its command line did not name it (``-m``).

A record that names its system (``-m``, a ``name`` field of ``lssyscfg -r sys``, an HMC Scanner
row) goes to that system. The others are grouped per file and the groups are merged only on
evidence (:func:`assign_systems`):

- the frame serial the records carry (``serial_num``) is the serial of a named system, or of
  another group;
- the groups come from the same HMC host (and, between unnamed groups, the same folder) and their
  partitions agree: at least two partitions with the same name and id in both, or every partition
  of one is in the other with the same id; and no partition name with two ids, no id with two names,
  in the merged set. A file whose own partitions contradict (several systems in one file) is
  merged with nothing, nor is a set of groups that would join two named systems.

Records of an HMC host that names no system at all stay on one unnamed frame per host (as before);
records that no evidence places stay on an unnamed frame of their own file. Each merge is noted
(``Frame.merged``: why these files are one frame).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from .frame import opt_int, opt_str
from .frame_records import HmcItem, record_attrs, record_kind

UNNAMED = "unnamed system"
Pairs = set[tuple[str, int]]


def item_pairs(it: HmcItem) -> set[tuple[str, int]]:
    """The (partition name, id) pairs an lpar-level record is about (each that gives both): a table
    of lslparutil events gives those of its rows."""
    rec = it.rec
    if record_kind(rec) != "UtilTable":
        pair = item_pair(it)
        return {pair} if pair else set()
    names = rec.columns.get("lpar_name")
    if names is None:
        return set()
    out = set()
    for name, pid in set(zip(names, rec.lpar_id)):
        name, pid = opt_str(name), opt_int(pid)
        if name and pid is not None:
            out.add((name, pid))
    return out


def item_pair(it: HmcItem) -> tuple[str, int] | None:
    """The (partition name, id) an lpar-level record is about, when it gives both."""
    rec = it.rec
    kind = record_kind(rec)
    if kind == "UtilSample":
        name, pid = opt_str(getattr(rec, "lpar_name", None)), opt_int(getattr(rec, "lpar_id", None))
    elif kind == "HmcObject":
        a = record_attrs(rec)
        res = getattr(rec, "resource", None)
        if res == "sys":
            return None
        name = opt_str(a.get("name")) if res == "lpar" else opt_str(a.get("lpar_name"))
        pid = opt_int(a.get("lpar_id"))
    else:
        return None
    return (name, pid) if name and pid is not None else None


def contradictions(pairs: Pairs) -> list[str]:
    """A name with two ids or an id with two names."""
    ids: dict[str, set[int]] = {}
    names: dict[int, set[str]] = {}
    for n, i in pairs:
        ids.setdefault(n, set()).add(i)
        names.setdefault(i, set()).add(n)
    out = [f"partition {n} has ids {', '.join(map(str, sorted(v)))}" for n, v in sorted(ids.items()) if len(v) > 1]
    out += [f"id {i} is partitions {', '.join(sorted(v))}" for i, v in sorted(names.items()) if len(v) > 1]
    return out


class _Group:
    def __init__(self, key: str, named: bool, hmc: str, folder: str | None):
        self.key, self.named, self.hmc, self.folder = key, named, hmc, folder
        self.pairs: Pairs = set()
        self.serials: set[str] = set()
        self.paths: set[str] = set()


def _agree(a: _Group, b: _Group) -> str | None:
    """Why two groups are one system (None: no evidence, or a contradiction)."""
    if a.named and b.named:
        return None
    common_serial = sorted(a.serials & b.serials)
    if common_serial:
        return f"the same frame serial {common_serial[0]}"
    if a.hmc != b.hmc or not a.pairs or not b.pairs:
        return None
    if not a.named and not b.named and a.folder != b.folder:
        return None
    if contradictions(a.pairs | b.pairs):
        return None
    common = a.pairs & b.pairs
    if len(common) >= 2 or (common and (a.pairs <= b.pairs or b.pairs <= a.pairs)):
        shown = ", ".join(f"{n} (id {i})" for n, i in sorted(common, key=lambda p: p[1])[:6])
        more = f" and {len(common) - 6} more" if len(common) > 6 else ""
        return f"the same partitions with the same ids ({shown}{more}) and none contradicting"
    return None


def assign_systems(items: list[HmcItem], system_of: Callable[[Any], str | None]
                   ) -> tuple[dict[int, str], dict[str, list[str]]]:
    """Frame name for each item (by id()), and for each frame built from several groups why."""
    named_by_host: dict[str, set[str]] = {}
    for it in items:
        s = system_of(it.rec)
        if s:
            named_by_host.setdefault(it.host.name, set()).add(s)
    out: dict[int, str] = {}
    groups: dict[str, _Group] = {}
    where = _unnamed_files(items, system_of, named_by_host)
    for it in items:
        s = system_of(it.rec)
        how = where.get(it.src.path, "file") if not s else ""
        if not s and how not in ("host", "file"):
            s = how  # the one system the host's other outputs name, which this file does not contradict
        if s:
            key, named, folder = s, True, None
        elif how == "host":
            key, named, folder = f"{UNNAMED} ({it.host.name})", False, None
        else:
            key, named, folder = f"{UNNAMED} ({it.src.path})", False, posixpath.dirname(it.src.path.replace("\\", "/"))
        out[id(it)] = key
        g = groups.setdefault(key, _Group(key, named, it.host.name, folder))
        g.paths.add(it.src.path)
        g.pairs.update(item_pairs(it))
        serial = opt_str(record_attrs(it.rec).get("serial_num")) if record_kind(it.rec) == "HmcObject" else None
        if serial:
            g.serials.add(serial.upper())
    target, notes = _merge(groups)
    return {k: target.get(v, v) for k, v in out.items()}, notes


def _unnamed_files(items: list[HmcItem], system_of: Callable[[Any], str | None],
                   named_by_host: dict[str, set[str]]) -> dict[str, str]:
    """Where the records naming no system go, file by file (a file's go together, in input order): the
    one system the host's other outputs name, else the host's one unnamed frame ("host"), unless the
    file's partitions contradict those already there (an id with another name, a name with another
    id: another system), when the file keeps a frame of its own ("file"); several systems named: "file"."""
    mine: dict[str, set[tuple[str, int]]] = {}
    named: dict[str, set[tuple[str, int]]] = {}
    for it in items:
        s = system_of(it.rec)
        (named.setdefault(s, set()) if s else mine.setdefault(it.src.path, set())).update(item_pairs(it))
    out: dict[str, str] = {}
    taken: dict[str, set[tuple[str, int]]] = {}  # per host, the partitions of its unnamed frame so far
    for it in items:
        path = it.src.path
        if path in out or path not in mine:
            continue
        known = named_by_host.get(it.host.name, set())
        if len(known) == 1:
            only = next(iter(known))
            out[path] = "file" if contradictions(named.get(only, set()) | mine[path]) else only
        elif not known and not contradictions(taken.get(it.host.name, set()) | mine[path]):
            out[path] = "host"
            taken.setdefault(it.host.name, set()).update(mine[path])
        else:
            out[path] = "file"
    return out


def _merge(groups: dict[str, _Group]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Connected groups that agree, when the whole set still agrees: old key -> new key, notes."""
    # a file whose own partitions contradict holds several systems: it joins nothing
    usable = [g for g in groups.values() if g.named or not contradictions(g.pairs)]
    usable = [g for g in usable if g.named or g.folder is not None]  # per-host frames keep their rule
    edges: dict[str, list[tuple[str, str]]] = {g.key: [] for g in usable}
    for i, a in enumerate(usable):
        for b in usable[i + 1:]:
            why = _agree(a, b)
            if why:
                edges[a.key].append((b.key, why))
                edges[b.key].append((a.key, why))
    seen: set[str] = set()
    target: dict[str, str] = {}
    notes: dict[str, list[str]] = {}
    for g in usable:
        if g.key in seen or not edges[g.key]:
            continue
        comp: list[str] = []
        whys: list[tuple[str, str, str]] = []  # the edges each group was reached by: one reason per merge
        stack: list[tuple[str, str | None, str]] = [(g.key, None, "")]
        while stack:
            k, via, why = stack.pop()
            if k in seen:
                continue
            seen.add(k)
            comp.append(k)
            if via is not None:
                whys.append((via, k, why))
            stack.extend((other, k, w) for other, w in edges[k] if other not in seen)
        named = [k for k in comp if groups[k].named]
        pairs: Pairs = set().union(*(groups[k].pairs for k in comp))
        if len(named) > 1 or contradictions(pairs):
            continue  # the evidence points two ways: every group stays apart
        paths = sorted(p for k in comp for p in groups[k].paths)
        new = named[0] if named else f"{UNNAMED} ({paths[0]} and {len(paths) - 1} more files)"
        for k in comp:
            target[k] = new
        notes[new] = [f"{_files(groups[a])} and {_files(groups[b])}: {why}" for a, b, why in whys]
    return target, notes


def _files(g: _Group) -> str:
    return f"system {g.key}" if g.named else ", ".join(sorted(g.paths))
