"""What a reader looks at first: the top actions and the roll-ups, computed once from the report dict.

Pure functions over the JSON report (docs/report-schema.md); the terminal and the HTML page use them.
Everything here is linear in the number of findings (one pass to count, one sort), so a 1,000-host
estate costs a few milliseconds.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any, Iterable

SEVERITIES: tuple[str, ...] = ("critical", "warning", "info")
_RANK = {s: n for n, s in enumerate(SEVERITIES)}

# Programs that only look (a command line starting with one of them changes nothing).
_READ_ONLY = frozenset({
    "lsattr", "lsdev", "lslpp", "netstat", "entstat", "lsps", "svmon", "ioslevel", "lsnports", "lspath",
    "iperf", "iperf3", "echo", "seastat", "oem_setup_env", "exit", "cfgdev", "kdb", "lsmap", "lparstat",
    "vmstat", "iostat", "fcstat", "lsmpio", "lvmo -a", "ping", "./netlatency.sh", "lssyscfg", "lshwres",
    "oslevel", "lsfs", "df", "errpt", "amepat", "topas", "nmon", "sar", "mpstat", "prtconf", "lscfg",
    "pcmpath query", "datapath query",
})
# Steps that take something down before the change itself: never the line a summary shows.
_PREPARATORY = re.compile(r"state=(down|detach)|\brmdev\b|\bumount\b|varyoffvg")


def command_forms(finding: dict[str, Any], role: str | None = None) -> list[str]:
    """The finding's fix commands, the form for the host's role first (padmin on a VIOS)."""
    fix = finding.get("fix") or {}
    order = ("padmin", "hmc", "root") if role == "vios" else ("root", "hmc", "padmin")
    return [str(c) for k in order for c in fix.get(k) or []]


def main_command(finding: dict[str, Any], role: str | None = None) -> str | None:
    """The command that makes the change (not a check, not a comment, not a preparatory step);
    a preparatory step only when the fix has nothing else. One pass, stops at the first answer."""
    fix = finding.get("fix") or {}
    first = None
    for key in (("padmin", "hmc", "root") if role == "vios" else ("root", "hmc", "padmin")):
        for c in fix.get(key) or ():
            line = c.strip()
            if not line or line[0] == "#":
                continue
            words = line.split(None, 2)
            if words[0] in _READ_ONLY or " ".join(words[:2]) in _READ_ONLY:
                continue
            cmd = line.split("   #")[0].strip()
            if _PREPARATORY.search(line) is None:
                return cmd
            if first is None:
                first = cmd
    return first


def change_text(finding: dict[str, Any]) -> str:
    """``current -> suggested`` from the finding's values, or ''."""
    v = finding.get("values") or {}
    cur, sug = v.get("current"), v.get("suggested")
    if cur and sug:
        return f"{cur} -> {sug}"
    return str(sug or "")


def top_actions(report: dict[str, Any], limit: int = 10,
                findings: Iterable[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The ``limit`` changes that matter most: by severity, then how many rules ask for the same
    change, then how much evidence backs it. Findings proposing the same command on the same host
    are one action (their rule ids are listed together). Findings without a change come last.
    The same action on several hosts (same rules, subject, title, change and disruption) is one
    entry: ``hosts`` lists them all (``host`` is the first); its ``command`` has the host's name as
    ``<host>`` when that makes the hosts' commands one, else it is ``command_host``'s own."""
    roles = {h.get("name"): h.get("role") for h in report.get("hosts") or []}
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    order: list[tuple[str, str]] = []
    for n, f in enumerate(findings if findings is not None else report.get("findings") or []):
        host = str(f.get("host") or "")
        cmd = main_command(f, roles.get(host))
        key = (host, cmd) if cmd else (host, f"#{n}")
        g = groups.get(key)
        if g is None:
            groups[key] = g = {"finding": f, "host": host, "command": cmd, "rules": [], "evidence": 0,
                               "severity": f.get("severity") or "info", "first": n}
            order.append(key)
        g["rules"].append(str(f.get("rule_id") or ""))
        g["evidence"] += len(f.get("evidence") or [])
        if _RANK.get(f.get("severity"), 9) < _RANK.get(g["severity"], 9):
            g["severity"], g["finding"] = f.get("severity"), f
    ranked = sorted((groups[k] for k in order), key=lambda g: (
        _RANK.get(g["severity"], 9), g["command"] is None, -len(g["rules"]), -g["evidence"], g["first"]))
    out: list[dict[str, Any]] = []
    alike: dict[tuple[Any, ...], dict[str, Any]] = {}  # the same action on other hosts joins the first
    commands: dict[int, set[str | None]] = {}
    for g in ranked:
        f = g["finding"]
        rules = list(dict.fromkeys(g["rules"]))
        key = (g["severity"], tuple(rules), f.get("subject") or "", f.get("title") or "", change_text(f),
               tuple(f.get("disruption") or ()), g["command"] is None)
        if key in alike:
            alike[key]["hosts"].append(g["host"])
            alike[key]["evidence"] += g["evidence"]
            commands[id(alike[key])].add(_hostless(g["command"], g["host"]))
            continue
        if len(out) == limit:
            continue  # keep reading: a later host may still join one of the actions kept
        alike[key] = {"severity": g["severity"], "host": g["host"], "hosts": [g["host"]],
                      "subject": f.get("subject") or "", "title": f.get("title") or "", "rules": rules,
                      "change": change_text(f), "command": g["command"], "command_host": g["host"],
                      "disruption": list(f.get("disruption") or []), "evidence": g["evidence"]}
        commands[id(alike[key])] = {_hostless(g["command"], g["host"])}
        out.append(alike[key])
    for a in out:
        if len(a["hosts"]) > 1:
            a["hosts"].sort(key=natural_key)
            if len(commands[id(a)]) == 1:  # one command but for the host's name
                a["command"], a["command_host"] = next(iter(commands[id(a)])), None
    return out


def _hostless(command: str | None, host: str) -> str | None:
    """The command with the host's own name as ``<host>`` (the same change on another host)."""
    if not command or not host:
        return command
    return re.sub(rf"(?<![\w.-]){re.escape(host)}(?![\w.-])", "<host>", command)


def natural_key(text: Any) -> tuple[Any, ...]:
    """Sort key putting aix2 before aix10 (digits compared as numbers)."""
    return tuple(int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", str(text)))


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 host`` / ``2 hosts`` (``many`` when the plural is not ``one`` + s)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def short_label(label: str, width: int = 50) -> str:
    """A long frame or host label cut for a terminal column: paths as their file names, then the
    middle elided, keeping the start and the end that tells similar labels apart."""
    text = re.sub(r"(?:[^\s()]*/)+([^\s/()]+)", r"\1", str(label))
    if len(text) <= width:
        return text
    tail = max(8, width // 2)
    return text[:width - tail - 3] + "..." + text[-tail:]


def host_frames(report: dict[str, Any]) -> dict[str, str]:
    """host name -> the frame it was joined to (from the frame section)."""
    out: dict[str, str] = {}
    for fr in report.get("frames") or []:
        for h in (fr.get("summary") or {}).get("joined_hosts") or []:
            out.setdefault(h, fr.get("name") or "")
        for p in fr.get("partitions") or []:
            if p.get("host"):
                out.setdefault(p["host"], fr.get("name") or "")
            out.setdefault(p.get("name") or "", fr.get("name") or "")
    return out


def select(report: dict[str, Any], severities: Iterable[str] | None = None, hosts: Iterable[str] | None = None,
           areas: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Findings kept by the filters (None or empty = no filter; host and area match case-blind)."""
    sev = {s.lower() for s in severities or []}
    hs = {h.lower() for h in hosts or []}
    ar = {a.lower() for a in areas or []}
    return [f for f in report.get("findings") or []
            if (not sev or str(f.get("severity")).lower() in sev)
            and (not hs or str(f.get("host")).lower() in hs)
            and (not ar or str(f.get("category")).lower() in ar)]


def counts(findings: Iterable[dict[str, Any]]) -> dict[str, int]:
    c = Counter(f.get("severity") for f in findings)
    return {s: c.get(s, 0) for s in SEVERITIES}


def by_rule(findings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per rule: severity, findings, hosts; worst and most frequent first."""
    rows: dict[str, dict[str, Any]] = {}
    for f in findings:
        r = rows.setdefault(f.get("rule_id") or "", {"rule_id": f.get("rule_id") or "", "title": f.get("title") or "",
                                                     "severity": f.get("severity") or "info", "findings": 0,
                                                     "hosts": set()})
        r["findings"] += 1
        r["hosts"].add(f.get("host"))
        if _RANK.get(f.get("severity"), 9) < _RANK.get(r["severity"], 9):
            r["severity"] = f.get("severity")
    out = [{**r, "hosts": len(r["hosts"])} for r in rows.values()]
    out.sort(key=lambda r: (_RANK.get(r["severity"], 9), -r["findings"], r["rule_id"]))
    return out


def by_frame(report: dict[str, Any], findings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per frame (and one for hosts joined to none): hosts and findings by severity, the
    frame's own findings (reported on the frame's name) with it; most critical, then most warnings,
    then most info first, then by name."""
    frames = host_frames(report)
    hosts_of: dict[str, set[str]] = defaultdict(set)
    for h in report.get("hosts") or []:
        hosts_of[frames.get(h.get("name") or "", "")].add(h.get("name") or "")
    for fr in report.get("frames") or []:
        hosts_of.setdefault(fr.get("name") or "", set())
    own = {name: name for name in hosts_of if name}  # a finding on a frame names the frame as its host
    sev: dict[str, Counter] = defaultdict(Counter)
    for f in findings:
        host = str(f.get("host") or "")
        sev[frames.get(host) or own.get(host, "")][f.get("severity")] += 1
    out = []
    for name in set(hosts_of) | set(sev):
        out.append({"frame": name or "(no frame data)", "hosts": len(hosts_of.get(name, ())),
                    **{s: sev[name].get(s, 0) for s in SEVERITIES}})
    out.sort(key=lambda r: (*(-r[s] for s in SEVERITIES), r["frame"] == "(no frame data)", natural_key(r["frame"])))
    return out


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\([^)]*\)|\b\d+(\.\d+)?\b")


def unrecognised_reasons(report: dict[str, Any]) -> list[tuple[str, int]]:
    """Unrecognised inputs grouped by their reason (names and numbers folded), most frequent first."""
    c: Counter = Counter()
    for i in report.get("inputs") or []:
        if i.get("status") == "unrecognised":
            reason = _QUOTED.sub("…", str(i.get("reason") or "no reason given")).strip()
            c[re.sub(r"\s+", " ", reason)] += 1
    return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
