"""Ordered steps per frame and per host.

On the HMC, per frame: DLPAR reductions first (they free the capacity the additions use), then
additions, then other DLPAR settings, then one profile step per partition (the new profile
applies when the partition is next activated from it: a restart). On a host: tunables now,
online chdev changes, one down-change-up cycle per interface, SEA / EtherChannel changes after a
failover to the partner VIOS, and all ``chdev -P`` / boot-time changes batched behind one reboot.
Of a VIOS pair, the second VIOS's disruptive steps wait for the first's, and each starts with a
failover check.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.change import MS
from ..model.estate import Estate
from ..model.frame import Frame
from .model import PlannedChange, Step
from .sequence import direction, sequence
from ..rules.vios.redundancy import sole_clients


def _partner(fr: Frame | None, name: str | None) -> str | None:
    if fr is None or not name:
        return None
    for a, b in fr.vios_pairs:
        if name == a:
            return b
        if name == b:
            return a
    return None


class _Steps:
    def __init__(self, changes: list[PlannedChange]) -> None:
        self.steps: list[Step] = []
        self.by_id = {c.id: c for c in changes}

    def add(self, where: str, frame: str | None, title: str, cs: Iterable[PlannedChange], disruption: str,
            window: bool, after: Iterable[int] = (), checks: Iterable[str] = ()) -> int | None:
        cs = list(cs)
        if not cs:
            return None
        n = len(self.steps) + 1
        for c in cs:
            c.step = n
        self.steps.append(Step(n, where, frame, title, [c.id for c in cs], disruption, window,
                               sorted({a for a in after if a}), list(dict.fromkeys(checks))))
        return n


def _outage(checks: list[str]) -> str:
    """What a step's title adds when the data says it stops client partitions."""
    return " (stops client partitions: see the first check)" if checks and checks[0].startswith("CLIENT OUTAGE") else ""


def _sea_failover(estate: Estate, host: str, objs: Iterable[str]) -> list[str]:
    """How the traffic of the SEAs these changes touch moves to the partner VIOS and back, from each
    SEA's ha_mode as read (an EtherChannel under an SEA fails over with it); an SEA without failover
    has no partner to carry its traffic, and the step then says so first."""
    h = estate.hosts.get(host)
    if h is None:
        return []
    out: list[str] = []
    for name in dict.fromkeys(objs):
        dev = h.devices.get(name)
        if dev is None:
            continue
        sea = dev if dev.cls == "sea" else h.devices.get(dev.parent or "") or next(
            (d for d in h.devices.values() if d.cls == "sea" and d.attr("real_adapter") == name), None)
        if sea is None or sea.cls != "sea" or not sea.attrs:
            continue
        mode = (sea.attr("ha_mode") or "disabled").lower()
        if mode in ("auto", "sharing"):
            line = (f"fail over first: chdev -dev {sea.name} -attr ha_mode=standby (root: chdev -l {sea.name} -a "
                    f"ha_mode=standby); when done, give the traffic back: chdev -dev {sea.name} -attr ha_mode={mode}")
        elif mode == "standby":
            line = f"{sea.name} on {host} is in standby already (ha_mode=standby): its partner carries the traffic"
        else:
            line = (f"CLIENT OUTAGE: {sea.name} on {host} has no SEA failover (ha_mode={mode}): no partner VIOS takes "
                    f"its traffic, the clients it bridges lose the network while it changes")
        if line not in out:
            out.insert(0, line) if line.startswith("CLIENT OUTAGE") else out.append(line)
    return out


def order(changes: list[PlannedChange], estate: Estate,
          fps: dict[str, tuple[Frame | None, object]]) -> list[Step]:
    planned = [c for c in changes if c.status == "planned"]
    st = _Steps(planned)
    vios_windows: dict[str, int] = {}  # VIOS (host or partition name) -> its last disruptive step
    sole: dict[str, list[str]] | None = None  # VIOS -> the clients only it serves (made at the first VIOS step)

    def vios_gate(c: PlannedChange, name: str, stops: bool = True) -> tuple[list[int], list[str]]:
        nonlocal sole
        fr = fps.get(c.id, (None, None))[0]
        partner = _partner(fr, c.lpar or name)
        if not c.change.vios:
            return [], []
        checks = [f"failover check: every client of {name} has an Enabled path and its network through "
                  f"{partner or 'the partner VIOS'} (lspath on the clients; SEA failover state on {partner or 'the partner'})"]
        host = estate.hosts.get(c.host) if not c.change.on_hmc else estate.hosts.get(name)
        alone: list[str] = []
        if stops and host is not None and host.is_vios:
            sole = sole_clients(estate) if sole is None else sole
            alone = sole.get(host.name, [])
        if alone:  # the data says the check above fails: the step stops these clients
            checks.insert(0, f"CLIENT OUTAGE: {name} alone serves the storage of client partition(s) "
                             f"{', '.join(alone)} (VIOS-SINGLE-SERVER): this step stops them; shut them down in "
                             f"the same window, or map their disks through {partner or 'a second VIOS'} first")
        after = [vios_windows[partner]] if partner and partner in vios_windows else []
        return after, checks

    # HMC, per frame; partitions whose frame is not known each on their own (what one frees may be on
    # another frame than what another adds)
    def frame_key(c: PlannedChange) -> tuple[str, str]:
        return (c.frame, "") if c.frame else (MS, c.lpar or c.change.object)

    on_hmc: dict[tuple[str, str], list[PlannedChange]] = {}  # by frame, and by host below: each change looked at once
    on_host: dict[str, list[PlannedChange]] = {}
    for c in planned:
        if c.change.on_hmc:
            on_hmc.setdefault(frame_key(c), []).append(c)
        else:
            on_host.setdefault(c.host, []).append(c)
    for key in sorted(on_hmc, key=lambda k: (k[0] == MS, k)):
        frame, cs = key[0], on_hmc[key]
        alone = f" of {key[1]} (its frame is not in the data)" if key[1] else ""
        dl = [c for c in cs if c.method == "dlpar"]
        # an AME factor lowered beside a memory addition comes after it (alone first, it would shrink the
        # partition's expanded memory in between)
        adding_mem = {c.lpar for c in dl if c.change.attribute == "desired_mem" and direction(c) > 0}
        later = [c for c in dl if c.change.attribute == "mem_expansion" and c.lpar in adding_mem]
        red = st.add("hmc", frame, f"DLPAR reductions{alone} (they free the capacity the additions use)",
                     sequence([c for c in dl if direction(c) < 0 and c not in later], fps), "none", False)
        add = st.add("hmc", frame, f"DLPAR additions{alone}",
                     sequence([c for c in dl if direction(c) > 0 or c in later], fps), "none", False, [red or 0])
        st.add("hmc", frame, f"DLPAR settings{alone}", [c for c in dl if direction(c) == 0], "none", False,
               [red or 0, add or 0])
        by_lpar: dict[str, list[PlannedChange]] = {}
        for c in cs:
            if c.method == "profile":
                by_lpar.setdefault(c.lpar or c.change.object, []).append(c)
        for lpar in sorted(by_lpar, key=lambda n: (not by_lpar[n][0].change.vios, n)):
            pcs = by_lpar[lpar]
            if all(c.catches_up for c in pcs):  # the profile takes what already runs: nothing to restart
                st.add("hmc", frame, f"profile of {lpar}: the values it already runs with (nothing to restart)",
                       sequence(pcs, fps), "none", False, [red or 0, add or 0])
                continue
            after, checks = vios_gate(pcs[0], lpar)
            n = st.add("hmc", frame, f"profile of {lpar}; then shut {lpar} down and activate it from the profile"
                       + _outage(checks), sequence(pcs, fps), "partition restart", True,
                       [red or 0, add or 0, *after], checks)
            if pcs[0].change.vios and n:
                vios_windows[lpar] = n
    # hosts: VIOS first (pairs in order), then the others
    hosts = sorted({c.host for c in planned if not c.change.on_hmc},
                   key=lambda h: (not (estate.hosts.get(h) and estate.hosts[h].is_vios), h))
    for host in hosts:
        cs = on_host.get(host, [])
        st.add(host, None, "tunables, now and at boot", [c for c in cs if c.method == "tunable-now"], "none", False)
        st.add(host, None, "device attributes changed online",
               [c for c in cs if c.method == "chdev-now" and not c.change.failover], "none", False)
        for obj in sorted({c.change.object for c in cs if c.method == "device-cycle" and not c.change.failover}):
            group = [c for c in cs if c.method == "device-cycle" and c.change.object == obj and not c.change.failover]
            st.add(host, None, f"{obj}: interface detached, changed, up again (from the console if it carries "
                               f"your session or the default route)", group, "interface down", True)
        fo = [c for c in cs if c.change.failover]
        if fo:
            after, checks = vios_gate(fo[0], host, stops=False)  # the network fails over; the storage stays
            how = _sea_failover(estate, host, (c.change.object for c in fo))
            checks = ([x for x in how if x.startswith("CLIENT OUTAGE")] + checks
                      + [x for x in how if not x.startswith("CLIENT OUTAGE")])
            n = st.add(host, None, "SEA / EtherChannel changes, after failing the traffic over to the partner VIOS"
                       + _outage(checks), fo, "failover", True, after, checks)
            if n:
                vios_windows[host] = n
        boot = [c for c in cs if c.method in ("chdev-reboot", "tunable-boot") and not c.change.failover]
        if boot:
            after, checks = vios_gate(boot[0], host)
            n = st.add(host, None, f"changes recorded for the next boot (chdev -P, -r); then one reboot of {host}"
                       + _outage(checks), boot, "reboot", True, after, checks)
            if n and boot[0].change.vios:
                vios_windows[host] = n
    return st.steps
