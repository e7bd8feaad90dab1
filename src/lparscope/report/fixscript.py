"""The fix script: a commented ksh script, one guarded section per host.

lparscope never runs it. By default the script only prints what it would do;
``APPLY=yes ./fix.ksh`` runs the commands, and only on the host each section is for.
HMC commands are written as comments: they are typed on the HMC, not on the partition.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from .. import __version__


def _q(text: str) -> str:
    """Single-quote a string for ksh (names and values come from untrusted input)."""
    return "'" + str(text).replace("'", "'\\''") + "'"


def _comment(text: str) -> str:
    return "# " + " ".join(str(text).split())


_HEADER = """#!/usr/bin/ksh
# lparscope {version} fix script, written {when}.
# Review every change before you apply it. Nothing here has been run.
# Each host's section runs only on that host (hostname check). By default commands are
# only printed; run with APPLY=yes to execute them:   APPLY=yes ksh ./this-script
# VIOS sections use root commands: run them after oem_setup_env (padmin forms are shown
# in the comments). HMC commands are shown as comments: type them on the HMC.

run() {{
    printf '+ %s\n' "$1"
    if [ "${{APPLY:-no}}" = yes ]; then
        eval "$1" || printf 'lparscope: command failed: %s\n' "$1" >&2
    fi
}}

HOST=$(hostname -s 2>/dev/null || hostname)
"""


def render_fix_script(report: dict[str, Any], now: datetime | None = None) -> str:
    """The script text for the findings in a report dict (docs/report-schema.md)."""
    when = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    out = [_HEADER.format(version=__version__, when=when)]
    by_host: dict[str, list[dict[str, Any]]] = {}
    for f in report.get("findings", []):
        by_host.setdefault(f["host"], []).append(f)
    for host in sorted(by_host):
        out.append("")
        out.append("#" + "=" * 78)
        out.append(_comment(f"host {host}: {len(by_host[host])} finding(s)"))
        out.append("#" + "=" * 78)
        out.append(f"if [ \"$HOST\" = {_q(host)} ]; then")
        for f in by_host[host]:
            out.append("")
            out.append("    " + _comment(f"[{f['severity'].upper()}] {f['rule_id']}: {f['title']}"))
            out.append("    " + _comment(f"{f['subject']}: {f['message']}"))
            out.append("    " + _comment(f"source: {f['source']}"))
            if f.get("disruption"):
                out.append("    " + _comment("needs: " + ", ".join(f["disruption"])))
            fix, undo = f.get("fix", {}), f.get("rollback", {})
            for cmd in fix.get("hmc", []):
                out.append("    " + _comment(f"HMC: {cmd}"))
            for cmd in fix.get("padmin", []):
                out.append("    " + _comment(f"padmin: {cmd}"))
            roots = fix.get("root", [])
            if not roots and not fix.get("hmc") and not fix.get("padmin"):
                out.append("    # (no command: see the report)")
            for cmd in roots:
                out.append("    " + (_comment(cmd.lstrip("# ")) if cmd.startswith("#") else f"run {_q(cmd)}"))
            for form in ("root", "padmin", "hmc"):
                for cmd in undo.get(form, []):
                    out.append("    " + _comment(f"rollback ({form}): {cmd.lstrip('# ')}"))
        out.append("    :")
        out.append("fi")
    if not by_host:
        out.append("# no findings: nothing to change")
    return "\n".join(out) + "\n"
