"""HMC identity: ``lshmc -V`` (version), ``lshmc -n`` (network), ``lshmc -r`` (remote access).

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
and sets ``Parsed.hostname`` when no prompt names the HMC. The reader lives in
:mod:`lparscope.sources.hmc_util`; this module only gives ``lshmc`` its own kind.
"""

from __future__ import annotations

from . import _hmc_command as hcmd
from . import _hmc_csv as hc
from . import hmc_util
from .base import Parsed

KIND = "lshmc"
TITLE = "lshmc -V / -n / -r"
COMMANDS = [r"^lshmc\b"]
STARTS = None

HmcInfo = hmc_util.HmcInfo


def detect(text: str) -> int:
    return hc.detect_objects(text, COMMANDS, lambda o: (hcmd.infer_resource(o) or "") in hcmd.HMC_RESOURCES)


def parse(text: str) -> Parsed:
    return hmc_util.parse_hmc(text, KIND)
