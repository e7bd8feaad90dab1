"""Fix scripts written from the plan: one ksh script per host, one sh script for the HMC.

lparscope never runs them. Each change has a stable id (``aix1.hdisk0.queue_depth``,
``aix1.desired_proc_units``). Run without arguments, a script prints the changes and their
commands; ``--apply ID[,ID]`` makes only the changes named: each reads the current value first
(already in place: skipped), logs it, adds its undo to a rollback script built from the captured
values, makes the change, reads it back, and the run stops at the first failure. Host scripts
refuse to detach or change the mode of the interface that carries the session's address or the
default route, and refuse SEA / EtherChannel changes on a VIOS without ``--failover-done``.

``write_fix_scripts(plan, path)`` names the files from ``path`` (see docs/plan.md):
``fix.ksh`` -> ``fix-<host>.ksh`` per host, ``fix-hmc.sh``, and ``fix.ksh`` itself as an index
that prints which script goes where.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..model.change import SAFE_NAME, SAFE_VALUE
from .fixscript_hmc import render_hmc_script
from .fixscript_lib import HOST_LIB, HOST_MAIN_END, HOST_MAIN_START, change_comments, comment, q


def interface_of(device: str) -> str:
    """The IP interface on top of an Ethernet device: entN -> enN (enN, etN: itself)."""
    m = re.fullmatch(r"ent(\d+)", device)
    return f"en{m.group(1)}" if m else device


def host_call(c: dict[str, Any]) -> tuple[str, str]:
    """(type, interface) of the host-script call that makes change ``c``."""
    method, obj = c["method"], c["object"]
    if c["kind"] == "tunable":
        return ("tunboot" if method == "tunable-boot" else "tun"), ""
    if c.get("failover"):
        return "sea", interface_of(obj)
    if method == "chdev-reboot":
        return "devboot", ""
    if method == "device-cycle":
        return "cycle", interface_of(obj)
    return "dev", interface_of(obj) if obj.startswith(("en", "et")) else ""


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))
    return str(v)


def _plain(c: dict[str, Any]) -> bool:
    words = [c["host"], c["object"], c["attribute"]]
    return all(SAFE_NAME.match(str(w)) for w in words) and bool(SAFE_VALUE.match(_fmt(c["target"])))


def host_changes(plan: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The planned host-side changes (device, interface, tunable) by host, in step order."""
    out: dict[str, list[dict[str, Any]]] = {}
    for c in plan.get("changes", []):
        if c["status"] == "planned" and c["kind"] in ("device", "interface", "tunable") and _plain(c):
            out.setdefault(c["host"], []).append(c)
    for cs in out.values():
        cs.sort(key=lambda c: (c.get("step") or 0, c["object"], c["attribute"]))
    return out


def render_host_script(plan: dict[str, Any], host: str, now: datetime | None = None) -> str:
    """The ksh script for one host."""
    if not SAFE_NAME.match(host):
        raise ValueError(f"host name {host!r} is not a plain name")
    when = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    cs = host_changes(plan).get(host, [])
    steps = {s["number"]: s for s in plan.get("steps", [])}
    out = ["#!/usr/bin/ksh",
           f"# lparscope {__version__} plan script for host {host}, written {when}.",
           "# Review every change before you apply it. Run without arguments to see the changes;",
           "# run with --apply ID[,ID] to make only those (see --help). A VIOS: run it as root",
           "# (oem_setup_env). Each applied change is logged with its old value, and a rollback",
           "# script is written from the values captured.",
           "#", "# Changes:"]
    for c in cs:
        step = steps.get(c.get("step") or 0)
        out += change_comments(c, f"{c['object']} {c['attribute']} {c['current']} -> {_fmt(c['target'])} "
                                  f"({c['method']}, disruption: {c['disruption']}"
                                  + (f", step {step['number']}: {step['title']}" if step else "") + ")")
    if not cs:
        out.append("#   (none)")
    out.append("")
    out.append(f"SCRIPT_HOST={q(host)}")
    out.append("KNOWN_IDS=" + q(" ".join(c["id"] for c in cs)))
    out.append(HOST_LIB)
    out.append(HOST_MAIN_START)
    last_step = None
    for c in cs:
        if c.get("step") != last_step:
            last_step = c.get("step")
            step = steps.get(last_step or 0)
            if step:
                out.append(comment(f"step {step['number']}: {step['title']}"
                                    + (" (maintenance window)" if step["maintenance_window"] else "")))
                for chk in step.get("checks", []):
                    out.append(comment(f"check first: {chk}"))
        kind, ifc = host_call(c)
        words = [c["id"], kind, c["object"], c["attribute"], _fmt(c["target"]), ifc]
        out.append("change " + " ".join(q(w) for w in words))
    reboot = [s for s in plan.get("steps", []) if s["where"] == host and s["disruption"] == "reboot"]
    if reboot:
        out.append('[ "$PRINT_ONLY" = no ] && log ' + q(f"changes recorded with -P / -r apply at the next reboot of "
                                                          f"{host}: plan it (step {reboot[0]['number']})"))
    out.append(HOST_MAIN_END)
    advice = [a for a in plan.get("advice", []) if a["host"] == host]
    if advice:
        out.append("# Advice that is not a settable value (not run by this script; see the report):")
        for a in advice:
            out.append(comment(f"[{a['severity'].upper()}] {a['rule_id']} {a['subject']}"))
            for form in ("root", "padmin", "hmc"):
                for cmd in a["fix"].get(form, []):
                    out.append(comment(f"    {form}: {cmd}"))
    return "\n".join(out) + "\n"


def render_index(plan: dict[str, Any], files: dict[str, str]) -> str:
    """The script written at the given path: prints the plan and which script goes where."""
    lines = [plan.get("summary", "")]
    for s in plan.get("steps", []):
        where = f"HMC ({s['frame']})" if s["where"] == "hmc" else s["where"]
        lines.append(f"step {s['number']} on {where}: {s['title']} [{', '.join(s['changes'])}]"
                     + (f" after step {', '.join(str(a) for a in s['after'])}" if s["after"] else ""))
    for what, name in files.items():
        lines.append(f"{what}: {name}")
    body = "\n".join("printf '%s\\n' " + q(" ".join(str(x).split())) for x in lines)
    return ("#!/usr/bin/ksh\n# lparscope plan index: prints the plan's steps and the script for each host.\n"
            "# It changes nothing. Copy each host's script to that host; run the HMC script where ssh reaches the HMC.\n"
            + body + "\n")


def script_paths(path: Path, hosts: list[str]) -> dict[str, Path]:
    """Files written for ``--fix-script PATH``: PATH (index), <stem>-<host>.ksh and <stem>-hmc.sh beside it
    (<stem>: PATH's name without its extension)."""
    base = path / "fix.ksh" if path.is_dir() else path
    stem, parent = base.stem, base.parent
    out = {"index": base, "hmc": parent / f"{stem}-hmc.sh"}
    for h in hosts:
        out[h] = parent / f"{stem}-{h}.ksh"
    return out


def render_fix_scripts(plan: dict[str, Any], path: Path, now: datetime | None = None) -> dict[Path, str]:
    """Every script for ``--fix-script PATH``, by file."""
    hosts = sorted(h for h in host_changes(plan) if SAFE_NAME.match(h))
    paths = script_paths(path, hosts)
    out: dict[Path, str] = {}
    for h in hosts:
        out[paths[h]] = render_host_script(plan, h, now)
    out[paths["hmc"]] = render_hmc_script(plan, now)
    files = {f"host {h}": paths[h].name for h in hosts}
    files["HMC (sh, over ssh)"] = paths["hmc"].name
    out[paths["index"]] = render_index(plan, files)
    return out
