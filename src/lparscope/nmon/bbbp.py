"""The command outputs nmon embeds in its BBBP lines, as clean text per command.

topas_nmon / nmon run configuration commands at start (and some again at the end, as
``ending <command>``) and store each output line as a quoted CSV field::

    BBBP,113,lparstat -i
    BBBP,114,lparstat -i,"Node Name                                  : aixlpar"
    BBBP,119,lparstat -i,"Entitled Capacity                          : 1.30"
    BBBP,283,vmo -F -L
    BBBP,286,vmo -F -L,"n-------------------------------------------------------------------------------"

:func:`bbbp_outputs` gives ``[("lparstat -i", 314, "Node Name  : aixlpar\\n...")]``: the command,
the file line of its first output line, and the output with nmon's quoting removed, one output
line per text line (so output line k sits at file line ``first + k - 1``).

nmon puts a letter in place of a line's first character when a spreadsheet would take it for a
formula: ``+`` -> ``p``, ``*`` -> ``m``, ``-`` -> ``n``, ``/`` -> ``d``, ``=`` -> ``e`` (nmon's
BBBP writer, AIX and Linux alike; the corpus recordings show each). The letter cannot be told
from a line that began with it, so it is put back only where the line could not have: ``n``
before ``-`` and ``e`` before ``=`` (rules of dashes or equal signs), ``p`` and ``m`` alone or
before a blank (lsconf's ``+ sys0`` / ``* vio0`` device marks, ``* `` comment lines) and ``p/``
(lsconf's ``+/-`` legend), ``d`` starting a first word that is a path (``ddev/hd4`` of df and
lsfs) or whose ``/`` form is another word of the line (df's ``dproc ... /proc``, nfsstat -m's
``da02 from /a02:server``). Other lines are left as written.

``ending <command>``: the command run again when the recording ended (:func:`command_of`).

Classic nmon (v8 for AIX 5.x) names its commands bare: ``BBBP,003,lsattr`` then
``BBBP,008,lsattr,capped          true  Partition is capped  False``. A bare ``lsattr`` whose
lines are sys0's attributes (at least three of :data:`SYS0_ATTRIBUTES` start its lines) is named
``lsattr -El sys0``, so it is read as that output is; another bare ``lsattr`` keeps its name.
"""

from __future__ import annotations


# Attributes of sys0 (lsattr -El sys0) that no other device has.
SYS0_ATTRIBUTES = frozenset({
    "SW_dist_intr", "autorestart", "boottype", "capacity_inc", "capped", "conslogin", "cpuguard", "dedicated",
    "ent_capacity", "frequency", "fullcore", "fwversion", "id_to_partition", "id_to_system", "iostat", "keylock",
    "log_pg_dealloc", "max_capacity", "max_logname", "maxbuf", "maxmbuf", "maxpout", "maxuproc", "min_capacity",
    "minpout", "modelname", "ncargs", "nfs4_acl_compat", "pre430core", "pre520tune", "realmem", "rtasversion",
    "sed_config", "systemid", "variable_weight", "chown_restrict", "clouddev", "enhanced_RBAC", "ghostdev",
    "os_uuid", "sys_capacity"})


def _named(command: str, body: list[str]) -> str:
    """The command an output is of: a bare ``lsattr`` of sys0's attributes is ``lsattr -El sys0``."""
    bare = command_of(command)
    if bare != "lsattr":
        return command
    hits = sum(1 for t in body if t.split(None, 1)[:1] and t.split(None, 1)[0] in SYS0_ATTRIBUTES)
    if hits < 3:
        return command
    return "lsattr -El sys0" if bare == command else "ending lsattr -El sys0"


def _restored(t: str) -> str:
    """``t`` with the first character nmon replaced put back, where the line shows it (module docstring)."""
    first, second = t[:1], t[1:2]
    if (first, second) in (("n", "-"), ("e", "=")):
        return ("-" if first == "n" else "=") + t[1:]
    if (first in ("p", "m") and second in ("", " ", "\t")) or (first, second) == ("p", "/"):
        return ("+" if first == "p" else "*") + t[1:]
    if first == "d" and second not in ("", " ", "\t", "/"):
        words = t.split()
        path = "/" + words[0][1:]
        if "/" in words[0] or any(w == path or w.startswith(path + ":") for w in words[1:]):
            return "/" + t[1:]
    return t


def _clean(text: str) -> str:
    t = text.rstrip("\r")
    quoted = t.rstrip()  # blanks after the closing quote (a transfer or an editor added them)
    if len(quoted) >= 2 and quoted[0] == '"' and quoted[-1] == '"':
        t = quoted[1:-1]
    elif t.startswith('"'):
        t = t[1:]
    return _restored(t)


def command_of(name: str) -> str:
    """The command a BBBP output is of: ``ending vmstat -v`` (nmon runs some commands again when the
    recording ends) is an output of ``vmstat -v``; nmon for Linux names a file it copies by its path
    (``/proc/ppc64/lparcfg``: it ran ``cat /proc/ppc64/lparcfg``)."""
    words = name.split(None, 1)
    if len(words) == 1 and name.startswith(("/proc/", "/etc/", "/sys/")):
        return f"cat {name}"
    return words[1] if len(words) == 2 and words[0] == "ending" else name


def bbbp_outputs(lines: list[tuple[int, str]]) -> list[tuple[str, int, str]]:
    """(command, first output line, output text) per command, from (line number, BBBP line) pairs."""
    out: list[tuple[str, int, str]] = []
    command: str | None = None
    first = 0
    body: list[str] = []

    def flush() -> None:
        if command is not None:
            out.append((_named(command, body), first, "\n".join(body)))

    for line_no, raw in lines:
        parts = raw.split(",", 3)
        if len(parts) < 3 or parts[0] != "BBBP":
            continue
        cmd = parts[2].strip()
        if len(parts) == 3:  # "BBBP,113,lparstat -i": a new command starts
            flush()
            command, first, body = cmd, line_no + 1, []
            continue
        if cmd != command:  # output without its opening line
            flush()
            command, first, body = cmd, line_no, []
        body.append(_clean(parts[3]))
    flush()
    return out
