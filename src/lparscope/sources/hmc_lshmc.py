"""HMC identity: ``lshmc -V`` (version), ``lshmc -n`` (network), ``lshmc -r`` (remote access), ``lshmc -v`` (VPD).

Input (``lshmc -V``: one quoted value spread over several lines)::

    hscroot@hmc1:~> lshmc -V
    "version= Version: 10
     Release: 3
     Service Pack: 1060
    HMC Build level 2406041953
    ","base_version=V10R3
    "

Output: one :class:`~lparscope.sources.hmc_util.HmcInfo` per object::

    HmcInfo(what="version", attrs={"version": "10", "release": "3", "service_pack": "1060",
            "build_level": "2406041953", "base_version": "V10R3", ...}, line=2)

``lshmc -n`` gives ``HmcInfo(what="network", attrs={"hostname": "hmc1", "ipaddr": "...", ...})``
and sets ``Parsed.hostname`` when no prompt names the HMC.

``lshmc -v`` (vital product data: ``*XX value`` keywords in blocks, quoted or not)::

    "vpd=*FC ????????
    *VC 20.0
    *N2 Tue Nov 18 09:12:44 CET 2025
    *FC ????????
    *DS Hardware Management Console
    *TM 7063-CR2
    *SE 21DB4E0
    ...
    *DS Platform Firmware
    *RM V10R3.1061.0
    "

gives every keyword as a field, each with its line (a name seen in an earlier block is
prefixed with the block's ``*DS``)::

    HmcInfo(what="vpd", attrs={"vpd_version": "20.0", "vpd_date": "Tue Nov 18 ...",
            "description": "Hardware Management Console", "type_model": "7063-CR2",
            "machine_serial": "21DB4E0", "manufacturer": "IBM", "part_number": "N/A",
            "size": "33457389568", "os": "Embedded Operating Systems", "network_address": "10.20.1.7",
            "platform_firmware_description": "Platform Firmware", "firmware_release": "V10R3.1061.0",
            "vpd": "<the raw text>"}, lines={"type_model": 7, ...}) The reader lives in
:mod:`lparscope.sources.hmc_util`; this module only gives ``lshmc`` its own kind.
"""

from __future__ import annotations

from . import _hmc_command as hcmd
from . import _hmc_csv as hc
from . import hmc_util
from .base import Parsed

KIND = "lshmc"
TITLE = "lshmc -V / -n / -r / -v"
COMMANDS = [r"^lshmc\b"]
STARTS = None

HmcInfo = hmc_util.HmcInfo


def detect(text: str) -> int:
    return hc.detect_objects(text, COMMANDS, lambda o: (hcmd.infer_resource(o) or "") in hcmd.HMC_RESOURCES)


def parse(text: str) -> Parsed:
    return hmc_util.parse_hmc(text, KIND)
