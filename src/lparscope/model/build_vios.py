"""Appliers for the VIOS's virtual device mappings (``lsmap``: vSCSI, NPIV, virtual Ethernet).

Registered with :func:`lparscope.model.appliers.applies`; imported by ``build`` itself.
"""

from __future__ import annotations

from ..sources.base import Parsed
from .appliers import applies as _applies
from .estate import Evidence, Host


_MAPPING_KEYS = {"VscsiMapping": ("vscsi_mappings", ("vhost", "physloc", "vtd")),  # a mapping read again is replaced
                 "NpivMapping": ("npiv_mappings", ("vfchost", "physloc")),
                 "NetMapping": ("net_mappings", ("svea", "physloc", "sea"))}


@_applies("lsmap")
def _lsmap(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    # per kind, the position of each mapping already kept, by its identity (made once per output:
    # a VIOS with thousands of mappings is not searched once per mapping)
    where_is: dict[str, dict[tuple, int]] = {}
    for m in parsed.records:
        m._evidence = Evidence(path, offset + m.line)  # type: ignore[attr-defined]
        kind = type(m).__name__
        if kind not in _MAPPING_KEYS:
            continue
        where, fields = _MAPPING_KEYS[kind]
        kept: list = getattr(host, where)
        if kind not in where_is:
            where_is[kind] = {tuple(getattr(o, f) for f in fields): i for i, o in enumerate(kept)}
        index = where_is[kind]
        key = tuple(getattr(m, f) for f in fields)
        if key in index:
            kept[index[key]] = m  # the last reading of a mapping wins, as for every other record
        else:
            index[key] = len(kept)
            kept.append(m)
        if kind != "NetMapping":  # the adapter's class: vhost, vfchost
            host.device(getattr(m, fields[0])).cls = fields[0]
    host.role_reasons.append(f"lsmap output ({path})")
