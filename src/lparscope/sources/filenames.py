"""File names as a last resort: the command, its flags, the device and the host a file's name tells.

People save outputs one per file and name the file after what produced it; the content then
holds only the output (no prompt, no command line)::

    lsattr_-El_ent6.txt       -> command "lsattr -El ent6"
    aix1_vmstat_v.txt         -> host "aix1", command "vmstat -v"
    aix1.lsattr.ent0          -> host "aix1", command "lsattr -El ent0"
    vios2-entstat-d-ent8.out  -> host "vios2", command "entstat -d ent8"
    012_lparstat_i.txt        -> command "lparstat -i" (a leading number orders files; it is no host)
    lnx1_lparcfg.txt          -> host "lnx1", command "cat /proc/ppc64/lparcfg" (a file copied, not a command)

Separators are ``_``, ``.``, ``-`` and spaces. The first word that is a known AIX / VIOS / HMC
command starts the command; what comes before it is the host (unless it is only a number);
short letter groups after it are flags, the rest arguments. The content always wins: the
hint is used only when no command line is found in the file, and only when the content does
not say it is another kind (see :func:`classify_with_hint`).

Files that are not command output by their nature (documents, YAML, scripts, images) are
named by :func:`not_command_output`; they are reported unrecognised and create no host.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import ModuleType

from .base import KNOWN_COMMANDS
from .detect import Segment, _kinds_for_command, split_and_classify

_TEXT_EXT = re.compile(r"\.(?:txt|out|log|lst|list|dat|output|text|cmd)$", re.I)
_TOKEN = re.compile(r"[^_.\s-]+")
_DEVICE = re.compile(r"^[A-Za-z]+\d+$")
# Commands whose file-name hint is not worth a prompt (viewers, shells, pagers).
_NOT_HINTS = {"cat", "echo", "exit", "more", "less", "pg", "sudo", "su", "cd", "clear", "hostname", "uname", "nmon",
              "oem_setup_env", "ftp", "ping", "mount", "ioscli", "cluster", "lu", "pv", "tier", "failgrp"}
# Flags a command is always run with when the name gives only a device ("aix1.lsattr.ent0").
# Whole-word flags of AIX / VIOS / HMC commands, written without their dash in file names.
_WORD_FLAGS = {"all": "-all", "npiv": "-npiv", "net": "-net", "vadapter": "-vadapter", "plc": "-plc", "dev": "-dev",
               "attr": "-attr", "type": "-type", "field": "-field", "fmt": "-fmt", "vtd": "-vtd", "slots": "-slots",
               "virtual": "-virtual",
               "level": "--level", "rsubtype": "--rsubtype", "filter": "--filter"}
# Flags whose next word is their value ("lshwres_r_mem_level_sys": "-r mem --level sys").
_HMC_COMMANDS = {"lssyscfg", "lshwres", "lslparutil", "lshmc", "lssvcevents", "lssysconn"}
_FIELD_LIST = re.compile(r"[A-Za-z_][\w]*(?:[,:][A-Za-z_]\w*)+|[A-Za-z_]\w*")
_VALUE_FLAGS = {"-r", "-m", "-p", "-t", "-F", "-l", "-a", "-c", "--level", "--rsubtype", "--filter"}
# AIX device names a file name may carry ("glpi_aix-6.1a_mem0.txt", "sample.ent4.ent0.txt").
_DEVICE_NAME = re.compile(r"^(?:ent|en|et|hdisk|fcs|fscsi|mem|sys|proc|vscsi|vhost|vfchost|inet|iscsi|rmt|cd|lo|sfwcomm|L2cache)\d+$")
# Kinds whose output needs a device its content may not name, and the command that names it.
_DEVICE_COMMANDS = {"lsattr": "lsattr -El {}", "entstat": "entstat -d {}", "fcstat": "fcstat {}"}
_DEFAULT_FLAGS = {"lsattr": "-El", "entstat": "-d", "fcstat": "", "lsmcode": "-c"}
# Files named after what they copy rather than a command ("lnx1_lparcfg.txt"): the command that prints it
_FILE_WORDS = {"lparcfg": "cat /proc/ppc64/lparcfg"}

_NOT_OUTPUT_EXT = {
    "md": "markdown document", "markdown": "markdown document", "rst": "reStructuredText document",
    "yml": "YAML file", "yaml": "YAML file", "toml": "TOML file", "ini": "settings file",
    "sh": "shell script", "ksh": "shell script", "bash": "shell script", "py": "Python script",
    "pl": "Perl script", "rb": "Ruby script", "ps1": "PowerShell script", "bat": "batch script",
    "png": "image", "jpg": "image", "jpeg": "image", "gif": "image", "svg": "image", "bmp": "image",
    "webp": "image", "ico": "image", "pdf": "PDF document", "doc": "Word document", "docx": "Word document",
    "html": "HTML page", "htm": "HTML page", "css": "stylesheet", "js": "JavaScript",
}


@dataclass(frozen=True)
class NameHint:
    command: str | None  # e.g. "lsattr -El ent6"
    host: str | None

    def describe(self) -> str:
        parts = []
        if self.command:
            parts.append(f"command '{self.command}'")
        if self.host:
            parts.append(f"host '{self.host}'")
        return "read from the file name: " + ", ".join(parts) if parts else ""


# Folder names that tell what a folder holds, not whose outputs they are ("files", "logs", a
# command's name): a file right inside one is not filed under a host of that name
_GENERIC_FOLDERS = frozenset(
    """files file tmp temp data output outputs out logs log collect collection collected inputs input
    samples sample test tests fixtures examples downloads desktop shared corpus other misc text txt
    proc ppc64 powerpc aix linux vios lpar lpars hosts servers nmon""".split())
# (proc/ppc64: a copy of /proc/ppc64/lparcfg in a sosreport; aix, linux, vios, nmon ...: what kind of
# system or data a folder of several hosts' files holds: one host of that name would merge them)


def names_a_host(folder: str) -> bool:
    """Whether a folder's name can be the host of the files in it."""
    low = folder.lower()
    return bool(folder) and low not in _GENERIC_FOLDERS and low not in KNOWN_COMMANDS


def base_name(display: str) -> str:
    """The file's own name, without folders or the bundle it sits in."""
    return re.split(r"[/\\!]", display)[-1]


def not_command_output(display: str, text: str = "") -> str | None:
    """Why a file is not command output (by its extension or a script's ``#!`` line), or None."""
    name = base_name(display)
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if ext in _NOT_OUTPUT_EXT:
        return _NOT_OUTPUT_EXT[ext]
    if text.startswith("#!/") and re.match(r"#!/\S*(?:sh|ksh|bash|perl|python\d?|env\s+\w+)\b", text):
        return "script"
    return None


def name_hint(display: str) -> NameHint:
    """What the file name tells (see the module doc); fields are None when it tells nothing."""
    stem = base_name(display)
    while _TEXT_EXT.search(stem):
        stem = _TEXT_EXT.sub("", stem)
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(stem)]
    for i, (tok, pos) in enumerate(tokens):
        if tok in _FILE_WORDS:
            host = stem[:pos].strip("_.- ")
            return NameHint(_FILE_WORDS[tok], None if not host or re.fullmatch(r"[\d_.\- ]+", host) else host)
        if tok not in KNOWN_COMMANDS or tok in _NOT_HINTS:
            continue
        host = stem[:pos].strip("_.- ")
        if not host or re.fullmatch(r"[\d_.\- ]+", host) or tok in _HMC_COMMANDS:
            # HMC outputs belong to frames, not hosts: a prefix there names an HMC or a system.
            host = None
        args: list[str] = []
        skip_to = 0
        for arg, apos in tokens[i + 1:]:
            if apos < skip_to:
                continue
            dashed = apos > 0 and stem[apos - 1] == "-" and (apos < 2 or stem[apos - 2] in "_. ")
            if args and args[-1] == "-F" and not dashed:
                # An HMC -F field list keeps its underscores: "..._-F_name,lpar_id,state.txt".
                fields = _FIELD_LIST.match(stem, apos)
                args.append(fields.group(0) if fields else arg)
                skip_to = fields.end() if fields else 0
            elif args and args[-1] in _VALUE_FLAGS and not dashed:
                args.append(arg)
            elif arg in _WORD_FLAGS:
                args.append(_WORD_FLAGS[arg])
            elif dashed or (arg.isalpha() and len(arg) <= 3 and not _DEVICE.match(arg)):
                args.append("-" + arg)
            else:
                args.append(arg)
        if tok in _DEFAULT_FLAGS and not any(a.startswith("-") for a in args) and any(_DEVICE.match(a) for a in args):
            args.insert(0, _DEFAULT_FLAGS[tok])
        command = " ".join([tok] + [a for a in args if a])
        return NameHint(command, host)
    return NameHint(None, None)


def classify_with_hint(text: str, display: str, registry: dict[str, ModuleType]) -> tuple[list[Segment], NameHint | None, int]:
    """Segments of ``text``; when the content names no command, the file name's command may.

    Returns the segments, the hint that was used (or None) and the number of lines put in
    front of the text (1 when a command line from the name was added, else 0): segment
    starts count that line, so callers subtract it to point evidence at the real file line.
    """
    segments = split_and_classify(text, registry)
    hint = name_hint(display)
    host_only = NameHint(None, hint.host) if hint.host else None
    if any(s.prompt is not None and s.prompt.command for s in segments):
        return segments, host_only, 0  # the content has command lines: they win
    if hint.command is None:
        devices = [t for t in _TOKEN.findall(base_name(display)) if _DEVICE_NAME.match(t)]
        kinds = [s.kind for s in segments]
        if devices and len(kinds) == 1 and kinds[0] in _DEVICE_COMMANDS:
            # The content is clearly this kind but names no device: the name's (last) device names it.
            # Parsers that read the device from the content keep theirs (content wins).
            hint = NameHint(_DEVICE_COMMANDS[kinds[0]].format(devices[-1]), hint.host)
            return split_and_classify(f"# {hint.command}\n{text}", registry), hint, 1
        return segments, host_only, 0
    candidates = _kinds_for_command(hint.command, registry)
    content_kinds = {s.kind for s in segments if s.kind is not None}
    if not candidates or len(segments) > 1 and content_kinds or content_kinds - set(candidates):
        # The name's command is read by no parser, or the content says it is something else.
        return segments, host_only, 0
    return split_and_classify(f"# {hint.command}\n{text}", registry), hint, 1
