"""HMC configuration listings: ``lssyscfg -r sys | lpar | prof`` (also ``lssysconn``, ``lssvcevents``).

Input (attribute=value CSV, one object per line; a value holding commas is quoted whole,
a list element holding commas is quoted again with doubled quotes)::

    hscroot@hmc1:~> lssyscfg -r prof -m p9frame1
    name=normal,lpar_name=vios1,lpar_id=1,lpar_env=vioserver,min_mem=4096,desired_mem=8192,max_mem=16384,mem_mode=ded,hpt_ratio=1:64,proc_mode=shared,min_proc_units=0.5,desired_proc_units=1.0,max_proc_units=4.0,min_procs=1,desired_procs=2,max_procs=4,sharing_mode=uncap,uncap_weight=255,"io_slots=21010010/none/1,21010018/none/1","virtual_scsi_adapters=20/server/3/aix1/20/0","virtual_eth_adapters=10/1/1/""100,200""/1/1/ETHERNET0//all/none"

Output: one :class:`HmcObject` per line, attributes kept as text, the managed system
taken from ``-m`` (for ``-r sys``, the system's own ``name``)::

    HmcObject(resource="prof", system="p9frame1", line=2,
              attrs={"name": "normal", "lpar_name": "vios1", "desired_proc_units": "1.0",
                     "virtual_eth_adapters": '10/1/1/"100,200"/1/1/ETHERNET0//all/none', ...})

Typed readers: :func:`as_int` / :func:`as_float` / :func:`as_bool` / :func:`ratio` on
``obj.attrs``, and :func:`adapters` for the slash lists of a profile::

    adapters(obj)["veth"] == [{"slot": 10, "ieee_virtual_eth": True, "pvid": 1, "vlans": [100, 200],
                               "trunk_priority": 1, "is_trunk": True, "is_required": True,
                               "vswitch": "ETHERNET0", ...}]

Also read: the ``-F a,b,c`` value form (names from the command line, ',' or ':'
delimiters, ``--header``), lines pasted without their command (the resource is inferred
from the attribute names), quoted values over several lines, HMC messages
(``HSCL...``, :class:`HmcMessage`), and the ``###command:lshmc -V###`` multi-command dump
(each part read by its command: ``lshmc`` as ``HmcInfo``, ``lslparutil`` as ``UtilSample``).
"""

from __future__ import annotations

import re

from . import _hmc_adapters as ha
from . import _hmc_command as hcmd
from . import _hmc_csv as hc
from . import _hmc_values as hv
from . import hmc_util
from .base import Parsed, command_matches

KIND = "lssyscfg"
TITLE = "lssyscfg -r sys|lpar|prof"
COMMANDS = [r"^lssyscfg\b", r"^lssysconn\b", r"^lssvcevents\b"]
STARTS = None

HmcObject = hv.HmcObject
HmcMessage = hv.HmcMessage
as_int = hv.as_int
as_float = hv.as_float
as_bool = hv.as_bool
ratio = hv.ratio
split_list = hv.split_list
parse_veth_adapters = ha.parse_veth_adapters
parse_vscsi_adapters = ha.parse_vscsi_adapters
parse_vfc_adapters = ha.parse_vfc_adapters
parse_serial_adapters = ha.parse_serial_adapters
parse_io_slots = ha.parse_io_slots

_DUMP_OURS = re.compile(r"^###command:\s*(?:lssyscfg|lshwres|lshmc|lslparutil)\b", re.M)


def detect(text: str) -> int:
    prompt, objs, count = hc.head_objects(text)
    if prompt and command_matches(prompt, COMMANDS):
        return 95
    head = text[:200_000]
    if "###command:" in head and _DUMP_OURS.search(head):  # the substring first: the pattern is tried at every line
        return 90  # the multi-command HMC dump
    if objs and all((hcmd.infer_resource(o) or "") in hcmd.SYSCFG_RESOURCES for o in objs):
        return 95
    if prompt is None and count and not objs and hc.MESSAGE_RE.match(text.strip().split("\n")[0].strip()):
        return 60  # an HMC message printed instead of data
    return 0


def unreadable(text: str) -> str | None:
    """Why text that looks like this kind cannot be read (bare ``-F`` values), for the splitter."""
    return hc.values_without_names(text)


def adapters(obj: HmcObject) -> dict[str, list]:
    """The adapter lists of a profile (``-r prof``), each element typed; missing lists are empty."""
    a = obj.attrs
    return {
        "veth": ha.parse_veth_adapters(a.get("virtual_eth_adapters")),
        "vscsi": ha.parse_vscsi_adapters(a.get("virtual_scsi_adapters")),
        "vfc": ha.parse_vfc_adapters(a.get("virtual_fc_adapters")),
        "serial": ha.parse_serial_adapters(a.get("virtual_serial_adapters")),
        "io_slots": ha.parse_io_slots(a.get("io_slots")),
    }


def objects(parsed: Parsed, resource: str) -> list[HmcObject]:
    """The :class:`HmcObject` records of one resource ("sys", "lpar", "prof", ...)."""
    return [r for r in parsed.records if isinstance(r, HmcObject) and r.resource == resource]


def parse(text: str) -> Parsed:
    return hmc_util.parse_hmc(text, KIND)
