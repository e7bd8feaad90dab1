"""NPIV path redundancy per client: a client's virtual FC adapters that land on the same physical
port, or on the same VIOS, give it no second path (000 §3.5.3, §3.6.3; rules-catalogue VIOS-01).

A client with one virtual FC adapter served by one VIOS is VIOS-SINGLE-SERVER's case; this rule
takes the clients that have two or more adapters, which were meant to be redundant. The VIOS side
(``lsmap -all -npiv``: client id, physical port) says where each adapter lands; the HMC's vFC slot
data says it for clients whose VIOS outputs were not collected.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Estate, Evidence
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from ..vios.redundancy import Client, client_names, frame_of, mapping_evidence

S = "000_31a80e54567cd02b.txt §3.5.3, §3.6.3; rules-catalogue VIOS-01"


def npiv_landings(estate: Estate) -> dict[Client, list[tuple[str, str | None, Any]]]:
    """Per client (frame, partition id): (VIOS, physical port, mapping) of each of its vFC adapters
    mapped to a port, from the VIOS's lsmap -npiv."""
    out: dict[Client, list[tuple[str, str | None, Any]]] = {}
    for v in sorted(estate.vios, key=lambda h: h.name):
        seen: set[tuple[Any, ...]] = set()  # the same lsmap read twice (two copies of one output) is one adapter
        for m in v.npiv_mappings:
            key = (m.vfchost, m.client_id, m.fc_name, m.physloc)
            if m.fc_name and m.client_id and key not in seen:
                seen.add(key)
                out.setdefault((frame_of(m.physloc), m.client_id), []).append((v.name, m.fc_name, m))
    return out


def _hmc_landings(estate: Estate, known: set[int]) -> list[tuple[Any, Any, list[tuple[str, str | None, Any]]]]:
    """Clients only the HMC shows: (frame, client partition, [(VIOS, port, slot)]) of its vFC client adapters."""
    out = []
    for fr in sorted(estate.frames.values(), key=lambda f: f.name):
        for c in fr.clients:
            if c.id in known or not c.running_now:
                continue
            lands = []
            for s in c.vfc:
                if s.adapter_type != "client":
                    continue
                v = fr.partitions.get(s.remote_name or "") or fr.by_id(s.remote_id)
                if v is None:
                    continue
                server = next((x for x in v.vfc if x.adapter_type == "server" and x.slot == s.remote_slot), None)
                lands.append((v.name, server.port if server is not None else None, s))
            if len(lands) >= 2:
                out.append((fr, c, lands))
    return out


@rule(
    id="STO-NPIV-NO-REDUNDANCY",
    title="A client's virtual FC adapters share one physical port or one VIOS",
    severity="warning",
    category="storage",
    source=S,
    rationale="""A client partition gets a second path to its SAN disks from a second virtual FC adapter only
    when that adapter lands on another physical port, on the other VIOS of the pair (and, by zoning, on the
    other fabric). Two adapters mapped to the same physical port fail together with the port, its cable or
    its switch; two adapters on the same VIOS stop together when that VIOS is updated or fails (000
    §3.5.3). One finding per client. When no other VIOS's lsmap -npiv output is in the data the VIOS case
    is informational: the partner may simply not have been collected.""",
    scope="estate",
)
def npiv_no_redundancy(estate: Estate, cfg: Config) -> Iterator[Finding]:
    lands = npiv_landings(estate)
    # the frames (adapter location codes) each VIOS with lsmap -npiv output in the data serves
    frames_of: dict[str, set] = {}
    for ls in lands.values():
        for v, _, m in ls:
            frames_of.setdefault(v, set()).add(frame_of(getattr(m, "physloc", None)))
    for client, ls in sorted(lands.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        if len(ls) < 2 or len({v for v, _, _ in ls}) > 1:
            continue
        names = client_names(estate, estate.hosts[ls[0][0]], [client], [m for _, _, m in ls])
        who = names.get(client[1])
        # a partner is known only from another VIOS's data of the same frame (a frame not told may be any)
        partner = any(v != ls[0][0] and (client[0] is None or None in fs or client[0] in fs) for v, fs in frames_of.items())
        yield _finding(who or ls[0][0], f"client {client[1]}" + (f" ({who})" if who else ""), ls,
                       [mapping_evidence(m) for _, _, m in ls], partner_known=partner)
    known = {c[1] for c in lands}
    for fr, c, hl in _hmc_landings(estate, known):
        ports = {p for _, p, _ in hl}
        if len({v for v, _, _ in hl}) > 1 or (len(fr.vios) < 2 and (len(ports) > 1 or None in ports)):
            continue  # redundant; or a frame with one VIOS, which FRAME-SINGLE-VIOS reports, and no shared port
        yield _finding(c.label, f"client {c.id} ({c.name}) on {fr.name}", hl, [s.evidence for _, _, s in hl],
                       partner_known=True)  # the HMC lists every VIOS of the frame


def _finding(host: str, who: str, ls: list[tuple[str, str | None, Any]], evidence: list[Evidence | None],
             partner_known: bool) -> Finding:
    vios = ls[0][0]
    ports = {p for _, p, _ in ls}
    same_port = len(ports) == 1 and None not in ports
    where = f"the same physical port {vios} {ls[0][1]}" if same_port else f"the same VIOS {vios}"
    adapters = ", ".join(getattr(x, "vfchost", None) or f"slot {getattr(x, 'slot', '?')}" for _, _, x in ls)
    first = getattr(ls[-1][2], "vfchost", None) or "<vfchost>"
    padmin = ["lsnports   # NPIV-capable ports (fabric=1) and their free slots",
              "# the client loses this path while it is remapped: check on the client (lspath) that another path is Enabled"]
    undo_padmin = []
    if same_port:
        padmin += [f"vfcmap -vadapter {first} -fcp", f"vfcmap -vadapter {first} -fcp <a port of {vios} on the other fabric>"]
        undo_padmin += [f"vfcmap -vadapter {first} -fcp", f"vfcmap -vadapter {first} -fcp {ls[-1][1]}"]
    hmc = ["# better: serve the second adapter from the partner VIOS (another port, the other fabric):",
           "chhwres -r virtualio --rsubtype fc -m <managed-system> -o a -p <partner-vios> -s <slot> "
           '-a "adapter_type=server,remote_lpar_name=<client>,remote_slot_num=<client slot>"',
           "# then on the partner VIOS: vfcmap -vadapter <new vfchost> -fcp <port>; zone and mask the client WWPNs"]
    note = "" if partner_known or same_port else (" No other VIOS's lsmap -npiv output is in the data: add the partner "
                                                  "VIOS's output to confirm.")
    effect = ("they give it no path redundancy" if same_port else
              f"a port can fail without cutting it off, but not {vios}: an update or a fault of it stops every path")
    return finding(npiv_no_redundancy, host, who,
                   f"NPIV {who}: its {len(ls)} virtual FC adapters ({adapters}) all land on {where}; {effect}.{note}",
                   evidence=evidence, fix=Commands(padmin=padmin, hmc=hmc),
                   rollback=Commands(padmin=undo_padmin or ["# nothing was changed on this VIOS"],
                                     hmc=["chhwres -r virtualio --rsubtype fc -m <managed-system> -o r -p <partner-vios> -s <slot>"]),
                   disruption=["dlpar"], severity=None if partner_known or same_port else "info",
                   values={"current": f"{len(ls)} adapters on {where}",
                           "suggested": "one adapter per VIOS, on different ports and fabrics"})
