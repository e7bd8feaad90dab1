"""VIOS pairs, one definition for every rule: two VIOS of the same frame that serve a common client.

Two views give pairs. The VIOS's own ``lsmap`` outputs (:func:`lsmap_pairs`): two VIOS whose server
adapters name a common client partition ID on the same frame (the frame read from the adapter's
location code ``U<type>.<model>.<serial>-V<n>-C<slot>``). The HMC's frame view
(``Frame.vios_pairs``, built in ``model/frame.py``): HMC slot pairs or lsmap client ids of the
frame's VIOS. :func:`partners` joins both, by host name.
"""

from __future__ import annotations

import re
from typing import Any

from .estate import Estate, Host

_FRAME = re.compile(r"^U(?P<frame>[^-\s]+)-V\d+")

Client = tuple[str | None, int]  # (frame, client partition id)


def frame_of(physloc: str | None) -> str | None:
    """Machine type.model.serial from a virtual adapter location code, or None."""
    m = _FRAME.match(physloc or "")
    return m.group("frame") if m else None


def adapters(host: Host) -> set[Client]:
    """Every client a server adapter of this VIOS points at, mapped or not."""
    return {(frame_of(m.physloc), m.client_id) for m in [*host.vscsi_mappings, *host.npiv_mappings] if m.client_id}


def same_frame(a: Client, b: Client) -> bool:
    return a[1] == b[1] and (a[0] == b[0] or a[0] is None or b[0] is None)


def lsmap_pairs(estate: Estate) -> list[tuple[Host, Host, list[Client]]]:
    """VIOS pairs from lsmap: two VIOS whose server adapters name a common client partition."""
    vios = sorted(estate.vios, key=lambda h: h.name)
    ads = [adapters(h) for h in vios]
    out = []
    for i, j in _candidates(ads):
        common = sorted({x for x in ads[i] for y in ads[j] if same_frame(x, y)}, key=lambda c: (c[0] or "", c[1]))
        if common:
            out.append((vios[i], vios[j], common))
    return out


def _candidates(ads: list[set[Client]]) -> list[tuple[int, int]]:
    """The (i, j), i < j, of VIOS that may share a client: the same client id on the same frame, or on a
    frame one of them does not know. Grouped by client id and frame, so a thousand VIOS on their own
    frames are not compared two by two."""
    by_id: dict[int, dict[str | None, set[int]]] = {}
    for i, ca in enumerate(ads):
        for frame, cid in ca:
            by_id.setdefault(cid, {}).setdefault(frame, set()).add(i)
    pairs: set[tuple[int, int]] = set()
    for frames in by_id.values():
        unknown = frames.get(None, set())
        for frame, members in frames.items():
            group = sorted(members | unknown) if frame is not None else sorted(set().union(*frames.values()))
            pairs.update((a, b) for n, a in enumerate(group) for b in group[n + 1:])
    return sorted(pairs)


def partners(estate: Estate) -> dict[str, set[str]]:
    """Each VIOS's partners by name (the host's name when joined, else the HMC's partition name):
    lsmap pairs and the frames' VIOS pairs together."""
    out: dict[str, set[str]] = {}

    def add(a: str, b: str) -> None:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)

    for a, b, _common in lsmap_pairs(estate):
        add(a.name, b.name)
    for fr in estate.frames.values():
        parts: dict[str, Any] = fr.partitions
        for x, y in fr.vios_pairs:
            add(parts[x].label, parts[y].label)
    return out
