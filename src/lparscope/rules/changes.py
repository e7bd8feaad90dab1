"""The commands a finding proposes, written once for every rule: HMC DLPAR and profile changes
(processor units, virtual processors, memory, weight) and device attribute changes in their root
and padmin forms (the one-line builders ``chdev_root``, ``chdev_padmin``, ``lsattr_root`` live in
``model/commands.py``, below the model's planned changes that print them too).

``MS`` and ``PROFILE`` stand for the managed system and the profile name, which the HMC knows
and a partition's own outputs do not.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..model.commands import chdev_padmin, chdev_root, lsattr_root  # noqa: F401  (rules import them from here)
from ..model.estate import Host
from .engine import Commands

MS = "<managed-system>"  # the HMC name of the frame; the HMC knows it, the LPAR does not
PROFILE = "<profile>"


def round_up(value: float, step: float = 0.05) -> float:
    """Processing units go in hundredths; suggest values on a 0.05 grid."""
    return round(math.ceil(value / step - 1e-9) * step, 2)


def dlpar_resize(lpar: str, resource: str, flag: str, old: float, new: float, profile_attr: str,
                 fmt: str = "{:.2f}") -> tuple[Commands, Commands]:
    """HMC commands that move a partition's processor or memory (``resource`` proc / mem, ``flag``
    --procunits / --procs / -q) from old to new, now by DLPAR and in the profile; and their undo."""
    op, delta = ("a", new - old) if new > old else ("r", old - new)
    back = "r" if op == "a" else "a"
    show = fmt.format

    def commands(direction: str, target: float) -> Commands:
        return Commands(hmc=[
            f"chhwres -m {MS} -r {resource} -o {direction} -p {lpar} {flag} {show(delta)}",
            f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={lpar},{profile_attr}={show(target)}"',
        ])

    return commands(op, new), commands(back, old)


def weight_change(lpar: str, old: int, new: int) -> tuple[Commands, Commands]:
    """HMC commands that set a partition's uncapped weight now and in its profile; and their undo."""
    def commands(weight: int) -> Commands:
        return Commands(hmc=[f"chhwres -m {MS} -r proc -o s -p {lpar} -a uncap_weight={weight}",
                             f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={lpar},uncap_weight={weight}"'])

    return commands(new), commands(old)


def dlpar_units(lpar: str, old: float, new: float) -> tuple[Commands, Commands]:
    """HMC commands that move entitled capacity from old to new, now and in the profile."""
    return dlpar_resize(lpar, "proc", "--procunits", old, new, "desired_proc_units")


def root_commands(host: Host, root: list[str]) -> Commands:
    c = Commands(root=list(root))
    if host.is_vios:
        c.padmin = ["oem_setup_env"] + list(root) + ["exit"]
    return c


def attr_change(host: Host, dev: str, new: Mapping[str, object], old: Mapping[str, object], *, perm: bool = False,
                padmin: bool | None = None, root_notes: Sequence[str] = (),
                padmin_notes: Sequence[str] = ()) -> tuple[Commands, Commands]:
    """Set a device's attributes to ``new`` (the fix) and back to ``old`` (the rollback): the root form
    always, the padmin form on a VIOS (or as ``padmin`` says). Notes follow the fix's command."""
    pad = host.is_vios if padmin is None else padmin
    fix = Commands(root=[chdev_root(dev, new, perm), *root_notes],
                   padmin=[chdev_padmin(dev, new, perm), *padmin_notes] if pad else [])
    undo = Commands(root=[chdev_root(dev, old, perm)], padmin=[chdev_padmin(dev, old, perm)] if pad else [])
    return fix, undo


def chdev_perm(host: Host, dev: str, changes: dict[str, str], note: str = "") -> Commands:
    """A device attribute change written to the ODM for the next boot (root and padmin forms)."""
    cmds = Commands(root=[chdev_root(dev, changes, perm=True), "# -P: applies at the next reboot; or detach what uses "
                                                                 "the adapter (en/SEA/EtherChannel) and run without -P"])
    if host.is_vios:
        cmds.padmin = [chdev_padmin(dev, changes, perm=True),
                       "# -perm: applies at the next VIOS restart (fail the SEA over to the partner VIOS first)"]
    if note:
        cmds.root.append(note)
    return cmds
