"""How frame rules read the HMC's view: the frames of the estate, their running partitions, the
managed system name and the chsyscfg command for a profile.
"""

from __future__ import annotations

from typing import Any

from ...model.estate import Estate, Evidence
from ...model.frame import Frame, FramePartition
from ..changes import hmc_word
from ..config import Config

S000 = "000_31a80e54567cd02b.txt"


def frames(estate: Estate) -> list[Frame]:
    """Frames to judge: those whose partition ids are unique (an unnamed frame whose ids repeat mixes
    several systems' data, e.g. profiles of many systems pasted without -m, and is not judged as one)."""
    out = []
    for f in (estate.frames or {}).values():
        if not isinstance(f, Frame):
            continue
        ids = [p.id for p in f.partitions.values() if p.id is not None]
        if len(ids) != len(set(ids)):
            continue
        out.append(f)
    return sorted(out, key=lambda f: f.name)


def ms(fr: Frame) -> str:
    """The managed system's name as an HMC command's ``-m`` word (quoted when it holds a space; a
    placeholder when the data did not name it)."""
    return hmc_word(fr.name) if fr.named else "<managed-system>"


def partition_option(p: FramePartition) -> str:
    """How chhwres names a partition: by id when the data gives it (a name known only as lparN is not its own)."""
    return f"--id {p.id}" if p.id is not None else f"-p {hmc_word(p.name)}"


def prof_cmd(fr: Frame, p: FramePartition, **attrs: Any) -> str:
    kv = ",".join(f"{k}={v}" for k, v in attrs.items())
    return f'chsyscfg -r prof -m {ms(fr)} -i "name={p.profile_name or "<profile>"},lpar_name={p.name},{kv}"'


def frame_ev(fr: Frame, *names: str) -> list[Evidence]:
    return fr.ev(*names)


def running(fr: Frame) -> list[FramePartition]:
    return [p for p in fr.partitions.values() if p.running_now]


def host_rule_flags(estate: Estate, cfg: Config) -> set[str]:
    """VIOS the host-level VIOS-WEIGHT-NOT-HIGHEST already reports (from the hosts' own lparstat -i)."""
    try:
        from ..vios.processor import vios_weight
    except ImportError:  # pragma: no cover
        return set()
    if not cfg.enabled("VIOS-WEIGHT-NOT-HIGHEST"):
        return set()
    return {f.host for f in vios_weight(estate, cfg)}
