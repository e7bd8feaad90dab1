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
    for m in parsed.records:
        m._evidence = Evidence(path, offset + m.line)  # type: ignore[attr-defined]
        kind = type(m).__name__
        if kind not in _MAPPING_KEYS:
            continue
        where, fields = _MAPPING_KEYS[kind]
        kept: list = getattr(host, where)
        same = next((i for i, o in enumerate(kept) if all(getattr(o, f) == getattr(m, f) for f in fields)), None)
        if same is None:
            kept.append(m)
        else:
            kept[same] = m  # the last reading of a mapping wins, as for every other record
        if kind != "NetMapping":  # the adapter's class: vhost, vfchost
            host.device(getattr(m, fields[0])).cls = fields[0]
    host.role_reasons.append(f"lsmap output ({path})")
