"""The HMC command line of a section: the program, its ``-r``/``--level``/``-m``/``-F`` options,
and the resource a listing describes (from the command, or guessed from the attributes).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field


@dataclass
class HmcCommand:
    """What a prompt's HMC command line asks for."""

    program: str = ""
    resource: str | None = None  # -r
    level: str | None = None  # --level
    rsubtype: str | None = None  # --rsubtype
    system: str | None = None  # -m
    fields: list[str] | None = None  # -F list (None: attribute=value form; []: -F alone)
    delimiter: str = ","
    header: bool = False  # --header
    filters: dict[str, list[str]] = field(default_factory=dict)  # --filter "lpar_names=a,b" -> {"lpar_names": [a, b]}


# A command line longer than this is split at blanks, without shell quoting: shlex reads a
# character at a time in Python (about 1 s per MB), and a damaged file's marker line
# ("###command:" and megabytes after it) took seconds; no HMC command line a person types or a
# collection script writes comes near it.
SHELL_QUOTING_MAX = 4096


_FIELD_WORD = re.compile(r"^[a-z_][a-z0-9_]*$")  # an attribute name (lpar_env), not an option or a value


def parse_command(command: str) -> HmcCommand:
    try:
        argv = shlex.split(command) if len(command) <= SHELL_QUOTING_MAX else command.split()
    except ValueError:
        argv = command.split()
    out = HmcCommand(program=argv[0].rsplit("/", 1)[-1] if argv else "")
    i = 1
    while i < len(argv):
        a = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if a == "-r" and nxt:
            out.resource, i = nxt, i + 1
        elif a == "--level" and nxt:
            out.level, i = nxt, i + 1
        elif a == "--rsubtype" and nxt:
            out.rsubtype, i = nxt, i + 1
        elif a == "-m" and nxt:
            out.system, i = nxt, i + 1
        elif a == "--header":
            out.header = True
        elif a in ("--filter", "–filter") and nxt:  # (a web page's en dash stands for the two hyphens)
            for part in re.split(r'(?<=")\s*,\s*(?=")|(?<=[^,"]),(?=[a-z_]+=)', nxt):
                key, eq, values = part.strip('"').partition("=")
                if eq:
                    out.filters[key.strip()] = [v.strip() for v in values.split(",") if v.strip()]
            i += 1
        elif a == "-F":
            if nxt is not None and not nxt.startswith("-"):
                m = re.search(r"[^\w]", nxt)
                out.delimiter = m.group() if m else ","
                out.fields = [f for f in nxt.split(out.delimiter) if f]
                i += 1
                # "-F name lpar_env state": the names as separate words, the values printed blank-separated
                words = 0
                while m is None and i + 1 + words < len(argv) and _FIELD_WORD.match(argv[i + 1 + words]):
                    words += 1
                if words:
                    out.fields += argv[i + 1:i + 1 + words]
                    out.delimiter, i = " ", i + words
            else:
                out.fields = []
        i += 1
    return out


_VIO_NAMES = {"eth": "veth", "scsi": "vscsi", "fc": "vfc", "serial": "vserial", "slot": "vslot", "vnic": "vnic"}


def resource_name(cmd: HmcCommand) -> str | None:
    """The record resource for a command: ``lshwres -r proc --level lpar`` -> "proc-lpar"."""
    r = cmd.resource
    if not r:
        return None
    if cmd.program == "lshwres":
        if r in ("proc", "mem"):
            return f"{r}-{cmd.level or 'sys'}"
        if r == "virtualio":
            base = _VIO_NAMES.get(cmd.rsubtype or "", f"virtualio-{cmd.rsubtype or 'unknown'}")
            return f"{base}-sys" if cmd.level == "sys" else base
        if cmd.rsubtype:
            return f"{r}-{cmd.rsubtype}"
        return r
    if cmd.program == "lslparutil":
        return "util-config" if r == "config" else r
    return r


def infer_resource(attrs: dict[str, str]) -> str | None:
    """The resource of an attribute=value line read without its command line."""
    k = attrs.keys()
    if "resource_type" in k and "time" in k:
        return f"util-{attrs['resource_type']}"  # an lslparutil event
    if "type_model" in k and "serial_num" in k:
        return "sys"
    if "type_model_serial_num" in k and ("sp" in k or "sp_phys_loc" in k):
        return "sysconn"
    if "problem_num" in k and "refcode" in k:
        return "svcevent"
    if "lpar_name" in k and ("desired_mem" in k or "desired_procs" in k or "desired_proc_units" in k):
        return "prof"
    if "name" in k and "lpar_env" in k and "lpar_name" not in k:
        return "lpar"
    if "configurable_sys_proc_units" in k or "installed_sys_proc_units" in k:
        return "proc-sys"
    if "curr_avail_pool_proc_units" in k or "configurable_pool_proc_units" in k:
        return "proc-pool"
    if "shared_proc_pool_id" in k and ("max_pool_proc_units" in k or "curr_reserved_pool_proc_units" in k
                                       or "lpar_names" in k):
        return "procpool"
    if "curr_proc_mode" in k or "curr_proc_units" in k or "curr_procs" in k:
        return "proc-lpar"
    if "configurable_sys_mem" in k or "installed_sys_mem" in k:
        return "mem-sys"
    if "curr_mem" in k or "curr_min_mem" in k:
        return "mem-lpar"
    if "slot_num" in k and ("backing_devices" in k or "backing_device_states" in k):
        return "vnic"  # a vNIC has a PVID too: told from a virtual Ethernet adapter by its backing devices
    if "slot_num" in k and "port_vlan_id" in k:
        return "veth"
    if "slot_num" in k and "adapter_type" in k:
        if "wwpns" in k or "topology" in k:
            return "vfc"
        if "supports_hmc" in k or "connect_status" in k:
            return "vserial"
        return "vscsi"  # a vFC server adapter prints no WWPNs either: infer_resources asks the listing
    # SR-IOV (lshwres -r sriov --rsubtype adapter|physport|logport): a logical port names its physical port too
    if "adapter_id" in k and "logical_port_id" in k:
        return "sriov-logport"
    if "adapter_id" in k and ("phys_port_id" in k or "phys_port_loc" in k or "phys_port_type" in k):
        return "sriov-physport"
    if "adapter_max_logical_ports" in k or ("adapter_id" in k and "slot_id" in k and "sriov_status" in k):
        return "sriov-adapter"
    if "curr_pool_mem" in k or "paging_vios_names" in k:
        return "mempool"
    if "device_name" in k and ("paging_vios_name" in k or "paging_vios_id" in k):
        return "mempool-pgdev"
    if "rs_vios_names" in k or "rs_vios_ids" in k:
        return "rspool"
    if "device_name" in k and ("vios_name" in k or "vios_id" in k) and "size" in k:
        return "rspool-rsdev"
    if "curr_max_virtual_slots" in k:
        return "vslot"
    if "drc_index" in k and ("unit_phys_loc" in k or "phys_loc" in k or "drc_name" in k or "description" in k):
        return "io-slot"
    if "version" in k and "base_version" in k:
        return "hmc-version"
    if "hostname" in k and ("ipaddr" in k or "slipipaddr" in k):
        return "hmc-network"
    if "ssh" in k and "remotewebui" in k:
        return "hmc-remote"
    if k == {"vpd"}:
        return "hmc-vpd"
    return None


def _adapter_type_first(attrs: dict[str, str]) -> bool | None:
    """Whether a row prints ``adapter_type`` before ``state``: ``--rsubtype fc`` prints
    ``slot_num,adapter_type,state,is_required``, ``--rsubtype scsi`` ``slot_num,state,is_required,adapter_type``
    (the HMC's own order; None when the row lacks either)."""
    keys = list(attrs)
    if "adapter_type" not in attrs or "state" not in attrs:
        return None
    return keys.index("adapter_type") < keys.index("state")


def infer_resources(rows: list[dict[str, str]], hmc_order: list[bool] | None = None) -> list[str | None]:
    """The resource of each row of one listing read without its command line.

    A virtual FC server adapter prints no WWPNs and no topology, so alone it reads as vSCSI: the
    listing tells. Rows in the HMC's own attribute order (``hmc_order``; not those named by a ``-F``
    list) say it by the place of ``adapter_type``; a row that cannot (or a ``-F`` row) is FC when
    another row of the same listing is (its client WWPNs, or the FC order)."""
    out = [infer_resource(r) for r in rows]
    ordered = hmc_order if hmc_order is not None else [True] * len(rows)
    adapters = [i for i, r in enumerate(out) if r in ("vscsi", "vfc")]
    own = {i: _adapter_type_first(rows[i]) if ordered[i] else None for i in adapters}
    listing_fc = any(out[i] == "vfc" or own[i] for i in adapters)
    for i in adapters:
        if out[i] == "vscsi" and (own[i] or (own[i] is None and listing_fc)):
            out[i] = "vfc"
    return out


SYSCFG_RESOURCES = frozenset({"sys", "lpar", "prof", "sysprof", "frame", "sysconn", "svcevent"})
HMC_RESOURCES = frozenset({"hmc-version", "hmc-network", "hmc-remote", "hmc-vpd"})
HWRES_RESOURCES = frozenset({"proc-sys", "proc-lpar", "proc-pool", "procpool", "mem-sys", "mem-lpar", "veth",
                             "vscsi", "vfc", "vserial", "vslot", "io-slot", "vnic",
                             "mempool", "mempool-pgdev", "rspool", "rspool-rsdev",
                             "sriov-adapter", "sriov-physport", "sriov-logport"})

# Attribute names lparscope reads in HMC listings: a first line of these (and other names) alone is the
# field-name line of ``-F ... --header`` output, even when the command line was not kept.
KNOWN_ATTRS = frozenset("""
name lpar_name lpar_id lpar_env state lpar_state os_version rmc_state rmc_ipaddr curr_profile default_profile
type_model serial_num type_model_serial_num uuid description config_id
curr_proc_mode curr_proc_units curr_procs curr_sharing_mode curr_uncap_weight curr_shared_proc_pool_id
curr_shared_proc_pool_name curr_min_proc_units curr_max_proc_units curr_min_procs curr_max_procs
configurable_sys_proc_units installed_sys_proc_units curr_avail_sys_proc_units shared_proc_pool_id
max_pool_proc_units curr_reserved_pool_proc_units lpar_names mem_mode curr_mem curr_min_mem curr_max_mem
configurable_sys_mem installed_sys_mem curr_avail_sys_mem sys_firmware_mem curr_hpt_ratio default_hpt_ratios
slot_num adapter_type remote_lpar_id remote_lpar_name remote_slot_num wwpns topology is_required
port_vlan_id addl_vlan_ids vswitch is_trunk trunk_priority ieee_virtual_eth mac_addr backing_devices
drc_index drc_name phys_loc unit_phys_loc bus_id iop io_pool_ids
adapter_id slot_id config_state functional_state phys_ports logical_ports adapter_max_logical_ports sriov_status
phys_port_id phys_port_type phys_port_loc phys_port_label config_logical_ports phys_port_max_logical_ports
logical_port_id logical_port_type location_code capacity max_capacity
time event_type resource_type refcode
""".split())
