"""VIOS mappings: ``lsmap -all`` (vSCSI), ``lsmap -all -npiv``, ``lsmap -all -net``, ``-vnic`` and ``-fmt :``.

Input (vSCSI; one block per server adapter, one VTD paragraph per mapped device)::

    $ lsmap -all
    SVSA            Physloc                                      Client Partition ID
    --------------- -------------------------------------------- ------------------
    vhost0          U8408.E8E.21AB34C-V1-C11                     0x00000005

    VTD                   lpar5_rootvg
    Status                Available
    LUN                   0x8100000000000000
    Backing device        hdisk4
    Physloc               U78CD.001.FZH1234-P1-C6-T1-W500507680B21A0D1-L0
    Mirrored              false

Output::

    VscsiMapping(vhost="vhost0", physloc="U8408.E8E.21AB34C-V1-C11", client_id=5,
                 vtd="lpar5_rootvg", status="Available", lun="0x8100000000000000",
                 backing_device="hdisk4", backing_physloc="U78CD...-L0", mirrored=False, line=6)

A vhost without devices ("NO VIRTUAL TARGET DEVICE FOUND") gives one mapping with
``vtd=None``. NPIV blocks (``Name Physloc ClntID ClntName ClntOS`` then ``Status:``,
``FC name:``, ``Ports logged in:``, ``Flags:``, ``VFC client name:``) give
:class:`NpivMapping`, network blocks (``SVEA Physloc`` then ``SEA``/``Backing device``)
:class:`NetMapping`, vNIC blocks :class:`VnicMapping`. ``-fmt :`` rows are read for the
default field order; dumps whose lines carry a ``command| |`` prefix are unwrapped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._lsmap_fields import default_layout, layout
from .base import preamble, Parsed, is_bare_prompt, leading_prompt, split_lines, strip_ansi, to_int

KIND = "lsmap"
TITLE = "lsmap -all / -npiv / -net / -vnic"
COMMANDS = [r"^lsmap\b"]
STARTS = re.compile(r"^\s*(?:SVSA\s+Physloc\s+Client\s+Partition\s+ID|SVEA\s+Physloc|Name\s+Physloc\s+ClntID\s+ClntName\s+ClntOS)\s*$")


@dataclass
class VscsiMapping:
    vhost: str
    physloc: str | None
    client_id: int | None  # from hex 0x00000005
    vtd: str | None  # None: no virtual target device on this vhost
    status: str | None = None
    lun: str | None = None
    backing_device: str | None = None
    backing_physloc: str | None = None
    mirrored: bool | None = None
    line: int = 0


@dataclass
class NpivMapping:
    vfchost: str
    physloc: str | None
    client_id: int | None
    client_name: str | None = None
    client_os: str | None = None
    status: str | None = None  # LOGGED_IN, NOT_LOGGED_IN
    fc_name: str | None = None  # the physical port, fcsN
    fc_loc: str | None = None
    ports_logged_in: int | None = None
    flags: str | None = None
    vfc_client_name: str | None = None
    vfc_client_drc: str | None = None
    line: int = 0


@dataclass
class NetMapping:
    svea: str
    physloc: str | None
    sea: str | None = None  # None: NO SHARED ETHERNET ADAPTER FOUND
    backing_device: str | None = None
    status: str | None = None
    backing_physloc: str | None = None
    line: int = 0


@dataclass
class VnicMapping:
    vnicserver: str
    physloc: str | None
    client_id: int | None
    client_name: str | None = None
    client_os: str | None = None
    backing_device: str | None = None
    status: str | None = None
    backing_physloc: str | None = None
    client_device_name: str | None = None
    client_device_physloc: str | None = None
    line: int = 0


# a prompt with no command: "$", "root@aix1:/ #"
_DASHES = re.compile(r"^[\s\-\u2010-\u2015]+$")
_PREFIXED = re.compile(r"^(?P<cmd>[^|]*)\| \|(?P<rest>.*)$")
_FMT_ROW = re.compile(r"^[A-Za-z][\w.-]*:\S*:")
_FOREIGN_HEAD = re.compile(r"^name\s+status\s+description$")
_HEAD_VSCSI = re.compile(r"^SVSA\s+Physloc\s+Client\s+Partition\s+ID$")
_HEAD_NET = re.compile(r"^SVEA\s+Physloc$")
_HEAD_NAME = re.compile(r"^Name\s+Physloc\s+ClntID\s+ClntName\s+ClntOS$")
_ADAPTER_ROW = re.compile(r"^(?P<name>[A-Za-z][\w.-]*)\s+(?P<loc>U\S+)?(?:\s+(?P<rest>(?:.*\S)?))?\s*$")
_VSCSI_KEYS = re.compile(r"^(?P<key>VTD|Status|LUN|Backing device|Physloc|Mirrored)\b\s*(?P<value>.*)$")
_NET_KEYS = re.compile(r"^(?P<key>SEA|Backing device|Status|Physloc)\b\s*(?P<value>.*)$")
_COLON_KEYS = re.compile(
    r"(?P<key>Status|FC name|FC loc code|Ports logged in|Flags|VFC client name|VFC client DRC|Backing device"
    r"|Physloc|Client device name|Client device physloc):(?P<value>\S*)"
)
_NPIV_ATTR = {"Status": "status", "FC name": "fc_name", "FC loc code": "fc_loc", "Flags": "flags",
              "VFC client name": "vfc_client_name", "VFC client DRC": "vfc_client_drc"}
_VNIC_ATTR = {"Backing device": "backing_device", "Status": "status", "Physloc": "backing_physloc",
              "Client device name": "client_device_name", "Client device physloc": "client_device_physloc"}
_VSCSI_ATTR = {"Status": "status", "LUN": "lun", "Backing device": "backing_device", "Physloc": "backing_physloc"}


def detect(text: str) -> int:
    lines = [ln for ln in split_lines(strip_ansi(text))[:80] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if prompt and prompt.program == "lsmap":
        return 95
    body = [_unwrap(ln)[0] for ln in lines[start:]]
    if any(STARTS.match(ln) for ln in body[:5]):
        return 95
    if any(STARTS.match(ln) for ln in body):
        return 70
    if sum(1 for ln in body if re.match(r"^(?:vhost|vfchost)\d+:", ln)) >= max(1, len(body) // 2):
        return 80
    return 0


def _unwrap(line: str) -> tuple[str, str | None]:
    """Strip a ``command| |`` dump prefix; return the line and the prefix command."""
    m = _PREFIXED.match(line)
    return (m.group("rest"), m.group("cmd").strip()) if m else (line, None)


def _blank(value: str | None) -> str | None:
    v = (value or "").strip()
    return v or None


def _bool(value: str | None) -> bool | None:
    v = (value or "").strip().lower()
    return True if v == "true" else False if v == "false" else None


def _fmt_row(fields: list[str], lineno: int, flags: str, out: Parsed,
             custom: list[tuple[list[str | None], int]]) -> None:
    f = [_blank(x) for x in fields]
    name = f[0] or ""
    npiv = name.startswith("vfchost") or "-npiv" in flags
    net = "-net" in flags or (not npiv and not name.startswith("vhost") and re.match(r"^ent\d+$", name))
    if npiv:
        if len(f) != 12:
            custom.append((f, lineno))  # a -field list of its own: told from all such rows (_npiv_custom)
            return
        out.records.append(_npiv(dict(zip(default_layout(), f)), lineno))
    elif net:
        f += [None] * (6 - len(f))
        out.records.append(NetMapping(name, f[1], f[2], f[3], f[4], f[5], lineno))
    else:
        width = 6 if (len(f) - 3) % 6 == 0 else 5 if (len(f) - 3) % 5 == 0 else 0
        if len(f) < 3 or not width:
            out.warn(lineno, f"vscsi -fmt row with {len(f)} fields")
            return
        groups = [f[i:i + width] for i in range(3, len(f), width)]
        real = [g for g in groups if any(g)]
        for g in real or [[None] * width]:
            mirrored = _bool(g[5]) if width == 6 else None
            out.records.append(VscsiMapping(name, f[1], to_int(f[2]), g[0], g[1], g[2], g[3], g[4], mirrored, lineno))


def _npiv(v: dict[str | None, str | None], lineno: int) -> NpivMapping:
    return NpivMapping(v.get("name") or "", v.get("physloc"), to_int(v.get("clntid")), v.get("clntname"),
                       v.get("clntos"), v.get("status"), v.get("fc"), v.get("fcphysloc"), to_int(v.get("ports")),
                       v.get("flags"), v.get("vfcclient"), v.get("vfcclientdrc"), lineno)


def _npiv_custom(rows: list[tuple[list[str | None], int]], out: Parsed) -> None:
    """NPIV -fmt rows of another field count: read when their values tell each field (_lsmap_fields)."""
    if not rows:
        return
    fields = layout([f for f, _ in rows])
    if fields is None:
        for f, lineno in rows:
            out.warn(lineno, f"npiv -fmt row with {len(f)} fields, expected 12 (default -field order); "
                             f"the fields could not be told from the values")
        return
    for f, lineno in rows:
        out.records.append(_npiv(dict(zip(fields, f)), lineno))
    named = ", ".join(f"{k + 1}={n}" for k, n in enumerate(fields) if n)
    out.warn(rows[0][1], f"npiv -fmt rows with {len(rows[0][0])} fields (a -field list of their own): fields told from "
                         f"their values: {named}" + ("; blank in every row: " + ", ".join(
                             str(k + 1) for k, n in enumerate(fields) if n is None) if None in fields else ""))


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    raw_lines, prompt, start = pre.lines, pre.prompt, pre.body
    flags = prompt.command if prompt else ""
    if prompt:
        out.hostname = prompt.host
    mode: str | None = None  # vscsi, net, name (npiv or vnic)
    adapter: VscsiMapping | NpivMapping | NetMapping | VnicMapping | None = None
    vhost_has_vtd = False
    vtd: VscsiMapping | None = None
    foreign_from: int | None = None
    custom: list[tuple[list[str | None], int]] = []  # NPIV -fmt rows not in the default field order

    def close_vhost() -> None:
        if isinstance(adapter, VscsiMapping) and not vhost_has_vtd:
            out.records.append(adapter)

    for idx in range(start, len(raw_lines)):
        lineno = idx + 1
        line, pcmd = _unwrap(raw_lines[idx])
        if pcmd is not None and not pcmd.startswith("lsmap"):
            if pcmd.startswith("uname -n") and line.strip():
                out.hostname = line.strip()
            continue
        if pcmd:
            flags = pcmd
        s = line.strip()
        if not s or _DASHES.match(s) or is_bare_prompt(s):
            continue
        if _FOREIGN_HEAD.match(s):  # another command's table pasted after the mappings
            close_vhost()
            mode, adapter, vtd, vhost_has_vtd = None, None, None, True
        if mode is None and not (_HEAD_VSCSI.match(s) or _HEAD_NET.match(s) or _HEAD_NAME.match(s)
                                 or _FMT_ROW.match(s)):
            if foreign_from is None:
                foreign_from = lineno
                out.warn(lineno, f"not lsmap output, skipped up to the next lsmap header: {s[:60]!r}")
            continue
        foreign_from = None
        if _HEAD_VSCSI.match(s) or _HEAD_NET.match(s) or _HEAD_NAME.match(s):
            close_vhost()
            mode = "vscsi" if s.startswith("SVSA") else "net" if s.startswith("SVEA") else "name"
            adapter, vtd, vhost_has_vtd = None, None, False
            continue
        if _FMT_ROW.match(s):
            _fmt_row(s.split(":"), lineno, flags, out, custom)
            continue
        if adapter is None and mode is not None:
            m = _ADAPTER_ROW.match(s)
            if not m:
                out.warn(lineno, f"expected an adapter row: {s[:60]!r}")
                continue
            name, loc, rest = m.group("name"), m.group("loc"), (m.group("rest") or "").split()
            if mode == "vscsi":
                adapter = VscsiMapping(name, loc, to_int(rest[0]) if rest else None, None, line=lineno)
            elif mode == "net":
                adapter = NetMapping(name, loc, line=lineno)
                out.records.append(adapter)
            else:
                cid = to_int(rest[0]) if rest else None
                cname = rest[1] if len(rest) > 1 else None
                cos = rest[2] if len(rest) > 2 else None
                cls = VnicMapping if name.startswith("vnicserver") else NpivMapping
                adapter = cls(name, loc, cid, cname, cos, line=lineno)
                out.records.append(adapter)
            continue
        if isinstance(adapter, VscsiMapping):
            if "NO VIRTUAL TARGET DEVICE FOUND" in s:
                continue
            m = _VSCSI_KEYS.match(s)
            if not m:
                out.warn(lineno, f"not a vSCSI field: {s[:60]!r}")
                continue
            key, value = m.group("key"), _blank(m.group("value"))
            if key == "VTD":
                vtd = VscsiMapping(adapter.vhost, adapter.physloc, adapter.client_id, value, line=lineno)
                out.records.append(vtd)
                vhost_has_vtd = True
            elif vtd is None:
                out.warn(lineno, f"{key} before any VTD line")
            elif key == "Mirrored":
                vtd.mirrored = _bool(value)
            else:
                setattr(vtd, _VSCSI_ATTR[key], value)
            continue
        if isinstance(adapter, NetMapping):
            m = _NET_KEYS.match(s)
            if not m:
                out.warn(lineno, f"not a network mapping field: {s[:60]!r}")
                continue
            key, value = m.group("key"), _blank(m.group("value"))
            if key == "SEA":
                adapter.sea = None if value and value.startswith("NO SHARED") else value
            else:
                setattr(adapter, {"Backing device": "backing_device", "Status": "status",
                                  "Physloc": "backing_physloc"}[key], value)
            continue
        if isinstance(adapter, (NpivMapping, VnicMapping)):
            pairs = list(_COLON_KEYS.finditer(s))
            if not pairs:
                out.warn(lineno, f"not a mapping field: {s[:60]!r}")
                continue
            table = _NPIV_ATTR if isinstance(adapter, NpivMapping) else _VNIC_ATTR
            for m in pairs:
                key, value = m.group("key"), _blank(m.group("value"))
                if key == "Ports logged in" and isinstance(adapter, NpivMapping):
                    adapter.ports_logged_in = to_int(value)
                elif key in table:
                    setattr(adapter, table[key], value)
            continue
        out.warn(lineno, f"outside any lsmap block: {s[:60]!r}")  # pragma: no cover - mode is set here
    close_vhost()
    _npiv_custom(custom, out)
    return out
