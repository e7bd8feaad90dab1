"""The changes a finding proposes, declared once for every rule as structured changes
(:class:`~lparscope.model.change.ProposedChange`: object, attribute, current, target, method, basis),
from which the command texts are derived: HMC DLPAR and profile changes (processor units, virtual
processors, memory, weight), device attribute changes in their root and padmin forms, tunables.
The commands ride on the fix (``Commands.changes``) and :func:`~.engine.finding` files the changes
on the finding, so the text and the structure cannot disagree. The plan stage (``lparscope.plan``)
merges the changes of all findings.

``MS`` and ``PROFILE`` stand for the managed system and the profile name, which the HMC knows
and a partition's own outputs do not.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..model.change import MS, PROFILE, Commands, ProposedChange, command_forms, fmt_value, hmc_filter, hmc_word
from ..model.commands import chdev_padmin, chdev_root, lsattr_root  # noqa: F401  (rules import them from here)
from ..model.estate import Host

__all__ = ["MS", "PROFILE", "hmc_word", "hmc_filter", "round_up", "dlpar_resize", "weight_change", "dlpar_units", "root_commands",
           "chdev_perm", "partition_change", "device_change", "tunable_change", "propose", "pool_device",
           "mempool_size"]


def round_up(value: float, step: float = 0.05) -> float:
    """Processing units go in hundredths; suggest values on a 0.05 grid."""
    return round(math.ceil(value / step - 1e-9) * step, 2)


def dlpar_resize(lpar: Host | str, resource: str, flag: str, old: float, new: float, profile_attr: str,
                 fmt: str = "{:.2f}", basis: str = "heuristic", bound: str = "set") -> tuple[Commands, Commands]:
    """A partition's processor or memory setting (``profile_attr``: desired_proc_units, desired_procs,
    desired_mem) moved from old to new, now by DLPAR and in the profile; and its undo."""
    return propose(partition_change(lpar, profile_attr, old, new, basis=basis, bound=bound))


def weight_change(lpar: Host | str, old: int, new: int, basis: str = "heuristic") -> tuple[Commands, Commands]:
    """A partition's uncapped weight set now and in its profile; and its undo."""
    return propose(partition_change(lpar, "uncap_weight", old, new, basis=basis))


def dlpar_units(lpar: Host | str, old: float, new: float, basis: str = "heuristic", bound: str = "set") -> tuple[Commands, Commands]:
    """Entitled capacity moved from old to new, now and in the profile."""
    return propose(partition_change(lpar, "desired_proc_units", old, new, basis=basis, bound=bound))


def root_commands(host: Host, root: list[str]) -> Commands:
    c = Commands(root=list(root))
    if host.is_vios:
        c.padmin = ["oem_setup_env"] + list(root) + ["exit"]
    return c


def attr_change(host: Host, dev: str, new: Mapping[str, object], old: Mapping[str, object], *, perm: bool = False,
                padmin: bool | None = None, root_notes: Sequence[str] = (),
                padmin_notes: Sequence[str] = ()) -> tuple[Commands, Commands]:
    """Set a device's attributes to ``new`` (the fix) and back to ``old`` (the rollback): the root form
    (``chdev -l``) always, the padmin form (``chdev -dev``) on a VIOS (or as ``padmin`` says). Notes
    follow the fix's command. The changes ride on the fix, as with ``propose``."""
    pad = host.is_vios if padmin is None else padmin
    fix = Commands(root=[chdev_root(dev, new, perm), *root_notes],
                   padmin=[chdev_padmin(dev, new, perm), *padmin_notes] if pad else [])
    undo = Commands(root=[chdev_root(dev, old, perm)], padmin=[chdev_padmin(dev, old, perm)] if pad else [])
    # Each attribute whose old and new values are plain values is a structured change; a placeholder
    # (``<previous>``) stays text only.
    fix.changes = [device_change(host, dev, a, str(old[a]), str(v), method="chdev-reboot" if perm else "chdev-now")
                   for a, v in new.items() if a in old and str(old[a]) != str(v)
                   and _PLAIN.fullmatch(str(v)) and _PLAIN.fullmatch(str(old[a]))]
    return fix, undo


_PLAIN = re.compile(r"[A-Za-z0-9_.:+-]+")


def chdev_perm(host: Host, dev: str, changes: dict[str, str], note: str = "") -> Commands:
    """A device attribute change written to the ODM for the next boot (root and padmin forms).

    The current values are read from the model; a value that is not a plain value (a placeholder
    such as ``<maximum listed by lsattr -Rl>``) stays text only and is not planned."""
    d = host.devices.get(dev)
    declared = [device_change(host, dev, k, d.attr(k) if d is not None else None, v, method="chdev-reboot")
                for k, v in changes.items() if re.fullmatch(r"[A-Za-z0-9_.:+-]+", str(v))]
    root = f"chdev -l {dev} " + " ".join(f"-a {k}={v}" for k, v in changes.items()) + " -P"
    cmds = Commands(root=[root, "# -P: applies at the next reboot; or detach what uses the adapter (en/SEA/"
                                "EtherChannel) and run without -P"])
    if host.is_vios:
        cmds.padmin = [f"chdev -dev {dev} -attr " + " ".join(f"{k}={v}" for k, v in changes.items()) + " -perm",
                       "# -perm: applies at the next VIOS restart (fail the SEA over to the partner VIOS first)"]
    if note:
        cmds.root.append(note)
    if len(declared) == len(changes):
        cmds.changes = declared
    return cmds


def pool_device(ms: str, pool: str, op: str, vios: str, device: str) -> str:
    """Add (``op`` "a") or remove ("r") a VIOS block device of a frame's device pool: a paging space
    device of the shared memory pool (``pool`` "mempool") or a reserved storage device of the
    suspend/resume pool ("rspool"). HMC form."""
    sub = {"mempool": "pgdev", "rspool": "rsdev"}[pool]
    return f"chhwres -r {pool} -m {ms} -o {op} --rsubtype {sub} -p {vios} --device {device}"


def mempool_size(ms: str, mb: int) -> str:
    """The shared memory pool set to ``mb`` MB (within its maximum, from the frame's free memory). HMC form."""
    return f'chhwres -r mempool -m {ms} -o s -a "pool_mem={int(mb)}"'


# --- structured changes (lparscope.model.change): declare once, derive the command texts -------------

def partition_change(host: Host | str, attribute: str, current: Any, target: Any, *, method: str = "dlpar",
                     basis: str = "heuristic", bound: str = "set", note: str = "",
                     prerequisites: Iterable[str] = (), lpar: str | None = None, frame: str | None = None,
                     vios: bool | None = None) -> ProposedChange:
    """A partition setting (HMC attribute name: desired_proc_units, desired_procs, uncap_weight,
    sharing_mode, desired_mem, max_mem, mem_expansion ...), by DLPAR (and the profile) or profile only.
    ``host`` is the host the finding is about; ``lpar`` / ``frame`` the HMC names when the rule knows them
    (a frame rule about a partition seen through the HMC: the plan names it by ``lpar``, not by a join)."""
    name = host if isinstance(host, str) else host.name
    if vios is None:
        vios = False if isinstance(host, str) else host.is_vios
    obj = lpar or (name if isinstance(host, str) else host.lpar_name)
    return ProposedChange("profile" if method == "profile" else "partition", obj, attribute, current, target,
                          method, host=name, basis=basis, bound=bound, note=note,
                          prerequisites=list(prerequisites), frame=frame, vios=vios, hmc_partition=lpar is not None)


def device_change(host: Host, device: str, attribute: str, current: Any, target: Any, *,
                  method: str = "chdev-now", basis: str = "heuristic", note: str = "",
                  prerequisites: Iterable[str] = ()) -> ProposedChange:
    """A device or interface attribute (chdev). On a VIOS an SEA or EtherChannel change needs the
    traffic failed over to the partner VIOS first."""
    dev = host.devices.get(device)
    failover = host.is_vios and dev is not None and dev.cls in ("sea", "etherchannel")
    kind = "interface" if re.fullmatch(r"en\d+|et\d+", device) else "device"
    return ProposedChange(kind, device, attribute, current, target, method, host=host.name, basis=basis,
                          note=note, prerequisites=list(prerequisites), vios=host.is_vios, failover=failover)


def tunable_change(host: Host, command: str, name: str, current: Any, target: Any, *, boot: bool = False,
                   basis: str = "heuristic", note: str = "") -> ProposedChange:
    """A kernel tunable (schedo, vmo, ioo, no, nfso), now and at boot (-p) or at the next boot (-r)."""
    return ProposedChange("tunable", command, name, current, target, "tunable-boot" if boot else "tunable-now",
                          host=host.name, basis=basis, note=note, vios=host.is_vios)


def _undo(c: ProposedChange) -> ProposedChange:
    return replace(c, current=c.target, target=c.current)


def _forms(changes: list[ProposedChange]) -> Commands:
    """Command texts for changes: one chdev per device and method (all its attributes), one
    detach / chdev / up cycle per interface, the HMC and tunable lines of each change."""
    out = Commands()
    done: set[int] = set()
    changes = [c for c in changes if c.target is not None]  # an unknown old value has no undo line
    for i, c in enumerate(changes):
        if i in done:
            continue
        if c.kind in ("device", "interface"):
            group = [j for j, d in enumerate(changes) if j not in done and d.kind == c.kind
                     and d.object == c.object and d.method == c.method]
            done.update(group)
            attrs = [(changes[j].attribute, fmt_value(changes[j].attribute, changes[j].target)) for j in group]
            perm = c.method == "chdev-reboot"
            root = f"chdev -l {c.object} " + " ".join(f"-a {a}={v}" for a, v in attrs) + (" -P" if perm else "")
            if c.method == "device-cycle":
                ifc = re.sub(r"^ent(\d+)$", r"en\1", c.object)
                out.root += [f"chdev -l {ifc} -a state=down", f"chdev -l {ifc} -a state=detach", root,
                             f"chdev -l {ifc} -a state=up"]  # 000 Example 3-33
            else:
                out.root.append(root)
            if c.vios:
                out.padmin.append(f"chdev -dev {c.object} -attr " + " ".join(f"{a}={v}" for a, v in attrs)
                                  + (" -perm" if perm else ""))
            continue
        done.add(i)
        forms = command_forms(c)
        out.root += forms["root"]
        out.padmin += forms["padmin"]
        out.hmc += forms["hmc"]
    return out


def propose(*changes: ProposedChange, fix_notes: Iterable[str] = (), undo_notes: Iterable[str] = (),
            form: str | None = None) -> tuple[Commands, Commands]:
    """Fix and rollback commands derived from ``changes`` (plus note lines, added to ``form`` or to
    the form the changes use); the changes ride on the fix (``finding`` files them on the finding)."""
    chs = [c for c in changes if c is not None]
    fix, undo = _forms(chs), _forms([_undo(c) for c in chs])
    where = form or ("hmc" if fix.hmc else "padmin" if fix.padmin and not fix.root else "root")
    getattr(fix, where).extend(fix_notes)
    getattr(undo, where).extend(undo_notes)
    fix.changes = chs
    return fix, undo
