"""The commands a finding proposes, written once for every rule: HMC DLPAR and profile changes
(processor units, virtual processors, memory, weight) and device attribute changes in their root
and padmin forms.

``MS`` and ``PROFILE`` stand for the managed system and the profile name, which the HMC knows
and a partition's own outputs do not.
"""

from __future__ import annotations

import math

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


def chdev_perm(host: Host, dev: str, changes: dict[str, str], note: str = "") -> Commands:
    """A device attribute change written to the ODM for the next boot (root and padmin forms)."""
    root = f"chdev -l {dev} " + " ".join(f"-a {k}={v}" for k, v in changes.items()) + " -P"
    cmds = Commands(root=[root, "# -P: applies at the next reboot; or detach what uses the adapter (en/SEA/"
                                "EtherChannel) and run without -P"])
    if host.is_vios:
        cmds.padmin = [f"chdev -dev {dev} -attr " + " ".join(f"{k}={v}" for k, v in changes.items()) + " -perm",
                       "# -perm: applies at the next VIOS restart (fail the SEA over to the partner VIOS first)"]
    if note:
        cmds.root.append(note)
    return cmds
