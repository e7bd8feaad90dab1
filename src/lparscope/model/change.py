"""A proposed change: one setting of one object of the estate, from its current value to a target.

Rules attach these to their findings (``Finding.changes``); the plan stage (``lparscope.plan``)
merges them into one target per (object, attribute), checks them against the frame and orders
them; the fix scripts are written from the plan. The command texts a finding shows are derived
from the same change (:func:`command_forms`), so text and structure cannot disagree.

Partition settings use the HMC attribute names (shared with ``lparscope whatif``):
``desired_proc_units`` (EC), ``desired_procs`` (VP), ``uncap_weight``, ``sharing_mode``
(cap / uncap), ``desired_mem``, ``max_mem`` (MB), ``shared_proc_pool_id``; plus
``mem_expansion`` (AME factor), ``max_proc_units`` and ``max_procs`` for profile maxima.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .commands import chdev_padmin, chdev_root

#: What a change is made to.
KINDS = ("frame", "pool", "partition", "profile", "device", "interface", "tunable")

#: How a change is made, and what it costs.
METHODS: dict[str, str] = {
    "dlpar": "DLPAR now, and the same value written to the profile",
    "profile": "profile change, takes effect at the next activation from the profile (partition restart)",
    "chdev-now": "chdev now (the attribute can change while the device is in use)",
    "chdev-reboot": "chdev -P, takes effect at the next reboot",
    "device-cycle": "interface detached, attribute changed, interface up again",
    "tunable-now": "tunable now and at every boot (-p)",
    "tunable-boot": "tunable at the next boot (-r, then bosboot)",
}

#: Disruption each method causes (what the operator must plan for).
DISRUPTION = {
    "dlpar": "none",
    "profile": "partition restart",
    "chdev-now": "none",
    "chdev-reboot": "reboot",
    "device-cycle": "interface down",
    "tunable-now": "none",
    "tunable-boot": "reboot",
}

#: Precedence of a proposal's basis, strongest first (see lparscope.plan.merge).
BASES = ("limit", "measured", "heuristic")
#: ``set``: the target itself; ``min`` / ``max``: a bound the final value must respect.
BOUNDS = ("set", "min", "max")

#: Attributes set on the HMC (partition or profile).
HMC_KINDS = ("frame", "pool", "partition", "profile")
#: Tunable commands a change may name as its object.
TUNABLE_COMMANDS = ("schedo", "vmo", "ioo", "no", "nfso")

#: Names that may reach a command: device, host, partition, profile and frame names.
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")  # a leading digit is a real partition name (34_PROD_1)
#: HMC object names (partition, profile, managed system) that may reach a command quoted: the HMC takes
#: spaces and brackets in them ("app server 1", "web(2)"); none of these characters means anything
#: inside double or single quotes, and none is the HMC's own separator (comma, equals sign, quote).
HMC_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9 _.()#@+-]*[A-Za-z0-9_.()#@+-])?$")
#: Values that may reach a command unquoted: numbers, hex numbers and plain words.
SAFE_VALUE = re.compile(r"^[A-Za-z0-9_.:+-]+$")


#: A managed system named by machine type, model and serial (model/mtms.py), as HMC commands take it.
MTMS_NAME = re.compile(r"^[0-9A-Z]{4}-[0-9A-Z]{3}\*[0-9A-Z]{5,12}$")


def hmc_word(name: str) -> str:
    """An HMC object name as one shell word: as it is when plain; a managed system named by type,
    model and serial in single quotes (``'9009-42A*7812C4X'``: the ``*`` is a pattern to a shell);
    any other name :data:`HMC_NAME` accepts in double quotes (``-p "app server 1"``); a placeholder
    (``<managed-system>``) as it is."""
    if MTMS_NAME.match(name):
        return f"'{name}'"
    return name if SAFE_NAME.match(name) or not HMC_NAME.match(name) else f'"{name}"'


def hmc_filter(key: str, name: str) -> str:
    """``--filter`` of an HMC listing by one name (``lpar_names``), quoted when the name needs it."""
    return f'"{key}={name}"' if hmc_word(name) != name else f"{key}={name}"


MS = "<managed-system>"
PROFILE = "<profile>"


# Partition attributes changed by DLPAR: (chhwres resource, flag or -a, format).
DLPAR_ATTRS = {
    "desired_proc_units": ("proc", "--procunits", "{:.2f}"),
    "desired_procs": ("proc", "--procs", "{:d}"),
    "desired_mem": ("mem", "-q", "{:d}"),
    "uncap_weight": ("proc", "uncap_weight", "{:d}"),
    "mem_expansion": ("mem", "mem_expansion", "{:.2f}"),
}
# Running value of each profile attribute in lshwres --level lpar output.
RUNNING_FIELD = {
    "desired_proc_units": "curr_proc_units", "desired_procs": "curr_procs", "desired_mem": "curr_mem",
    "uncap_weight": "curr_uncap_weight", "mem_expansion": "curr_mem_expansion",
    "sharing_mode": "curr_sharing_mode", "max_mem": "curr_max_mem", "max_proc_units": "curr_max_proc_units",
    "max_procs": "curr_max_procs", "shared_proc_pool_id": "curr_shared_proc_pool_id",
}


@dataclass(slots=True)  # many instances: no per-instance dict
class ProposedChange:
    """One setting a finding wants changed.

    ``object`` is the partition name (partition / profile kinds, as the HMC names it), the device
    or interface name, the pool id, or the tunable command (``schedo``) with the tunable as
    ``attribute``. ``host`` is the host whose finding proposed it (where device and tunable
    changes are made). ``basis`` ranks it against other proposals for the same setting; ``bound``
    makes it a limit (``min`` / ``max``) rather than a target.
    """

    kind: str
    object: str
    attribute: str
    current: Any
    target: Any
    method: str
    host: str = ""
    basis: str = "heuristic"
    bound: str = "set"
    prerequisites: list[str] = field(default_factory=list)
    note: str = ""
    frame: str | None = None  # managed system name, when the rule knows it
    vios: bool = False  # made on a VIOS (pair sequencing, failover check)
    failover: bool = False  # an SEA / EtherChannel change: the partner VIOS must carry the traffic
    # True: a frame rule named the partition as the HMC shows it (``object`` is a frame partition name);
    # False: a host's change, named on the HMC only through the host's evidence-backed join (plan/names.py)
    hmc_partition: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown change kind {self.kind!r}")
        if self.method not in METHODS:
            raise ValueError(f"unknown change method {self.method!r}")
        if self.basis not in BASES:
            raise ValueError(f"unknown change basis {self.basis!r}")
        if self.bound not in BOUNDS:
            raise ValueError(f"unknown change bound {self.bound!r}")

    @property
    def disruption(self) -> str:
        return DISRUPTION[self.method]

    @property
    def on_hmc(self) -> bool:
        return self.kind in HMC_KINDS

    def key(self) -> tuple[str, str, str, str]:
        """What one target is kept for: partition and profile settings of one partition are one."""
        if self.on_hmc:
            return ("hmc", self.frame or "", self.object, self.attribute)
        return (self.host, "tunable" if self.kind == "tunable" else "device", self.object, self.attribute)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "object": self.object, "attribute": self.attribute,
                "current": _plain(self.current), "target": _plain(self.target), "method": self.method,
                "host": self.host, "basis": self.basis, "bound": self.bound,
                "disruption": self.disruption, "prerequisites": list(self.prerequisites), "note": self.note}


def _plain(v: Any) -> Any:
    return v if v is None or isinstance(v, (int, float, str, bool)) else str(v)


def fmt_value(attribute: str, value: Any) -> str:
    """A value as a command takes it (processing units with two decimals, MB and counts as integers)."""
    if value is None:
        return ""
    if attribute in ("desired_proc_units", "max_proc_units", "min_proc_units", "mem_expansion"):
        return f"{float(value):.2f}"
    if attribute in ("desired_procs", "max_procs", "min_procs", "desired_mem", "max_mem", "min_mem",
                     "uncap_weight", "shared_proc_pool_id"):
        return str(int(round(float(value))))
    return str(value)


def _is_number(v: Any) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def command_forms(c: ProposedChange, frame: str | None = None, profile: str | None = None,
                  target: Any = None) -> dict[str, list[str]]:
    """The command texts (root / padmin / hmc) that set ``c`` to ``target`` (default: its target).

    Shown in findings and reports; the fix scripts run the same change through checked,
    quoted helpers instead of these texts.
    """
    value = c.target if target is None else target
    ms, prof = hmc_word(frame or c.frame or MS), profile or PROFILE
    out: dict[str, list[str]] = {"root": [], "padmin": [], "hmc": []}
    v = fmt_value(c.attribute, value)
    if c.on_hmc:
        prof_cmd = f'chsyscfg -r prof -m {ms} -i "name={prof},lpar_name={c.object},{c.attribute}={v}"'
        if c.method == "dlpar" and c.attribute in DLPAR_ATTRS:
            res, flag, _f = DLPAR_ATTRS[c.attribute]
            if flag.startswith("-") and _is_number(c.current) and _is_number(value):
                delta = float(value) - float(c.current)
                op = "a" if delta > 0 else "r"
                amount = fmt_value(c.attribute, abs(delta))
                out["hmc"].append(f"chhwres -m {ms} -r {res} -o {op} -p {hmc_word(c.object)} {flag} {amount}")
            else:
                out["hmc"].append(f"chhwres -m {ms} -r {res} -o s -p {hmc_word(c.object)} -a {c.attribute}={v}")
        out["hmc"].append(prof_cmd)
        return out
    if c.kind == "tunable":
        flag = "-r" if c.method == "tunable-boot" else "-p"
        cmd = f"{c.object} {flag} -o {c.attribute}={v}"
        out["root"].append(cmd)
        if c.vios:
            out["padmin"] += ["oem_setup_env", cmd, "exit"]
        return out
    perm = c.method == "chdev-reboot"
    out["root"].append(chdev_root(c.object, {c.attribute: v}, perm))
    if c.vios:
        out["padmin"].append(chdev_padmin(c.object, {c.attribute: v}, perm))
    return out


@dataclass(slots=True)  # many instances: no per-instance dict
class Commands:
    """The same change in the forms an administrator types it (a finding's fix or rollback)."""

    root: list[str] = field(default_factory=list)  # AIX root shell (also VIOS after oem_setup_env)
    padmin: list[str] = field(default_factory=list)  # VIOS restricted shell
    hmc: list[str] = field(default_factory=list)  # HMC CLI (profiles, DLPAR)
    # the structured changes these commands make (rules/changes.py declares them; not rendered)
    changes: list[ProposedChange] = field(default_factory=list, repr=False, compare=False)

    def to_dict(self) -> dict[str, list[str]]:
        return {"root": list(self.root), "padmin": list(self.padmin), "hmc": list(self.hmc)}

    def __bool__(self) -> bool:
        return bool(self.root or self.padmin or self.hmc)
