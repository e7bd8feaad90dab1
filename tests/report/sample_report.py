"""A realistic report dict (docs/report-schema.md) for the renderer tests.

Three hosts (a VIOS, two AIX LPARs), findings of every severity, and hostile strings
in the places that come from input files: host names, attribute values, excerpts,
messages and warnings.
"""

from __future__ import annotations

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
TEMPLATE = "x{{7*7}}y"
NON_ASCII = "Zürich-Ωmega-日本"

HOSTILE_HOST = f"aix2{IMG}"


def sample_report() -> dict:
    """Return a fresh report dict; callers may mutate it."""
    return {
        "schema": "lparscope.report/1",
        "lparscope_version": "0.1.0",
        "generated_at": "2026-11-22T10:00:00+00:00",
        "summary": {
            "hosts": 3,
            "findings": {"critical": 2, "warning": 2, "info": 1},
            "files": {"parsed": 5, "partly": 1, "unrecognised": 1},
        },
        "inputs": [
            {"path": "vios1/entstat_ent8.txt", "line": 1, "kind": "entstat", "host": "vios1",
             "status": "parsed", "reason": "", "warnings": []},
            {"path": "vios1/lsmap_all_npiv.txt", "line": 1, "kind": "lsmap_npiv", "host": "vios1",
             "status": "partly", "reason": "",
             "warnings": [{"line": 12, "message": f"unexpected field {SCRIPT} ignored"},
                          {"line": 40, "message": "truncated block"}]},
            {"path": "aix1/lparstat_i.txt", "line": 1, "kind": "lparstat_i", "host": "aix1",
             "status": "parsed", "reason": "", "warnings": []},
            {"path": "aix1/lsattr_hdisk.txt", "line": 1, "kind": "lsattr", "host": "aix1",
             "status": "parsed", "reason": "", "warnings": []},
            {"path": f"bundle.tar!{HOSTILE_HOST}/lsattr_ent0.txt", "line": 3, "kind": "lsattr",
             "host": HOSTILE_HOST, "status": "parsed", "reason": "", "warnings": []},
            {"path": "misc/notes_{{7*7}}.txt", "line": 1, "kind": None, "host": "unknown",
             "status": "unrecognised", "reason": f"no known command output {TEMPLATE}",
             "warnings": []},
        ],
        "hosts": [
            {
                "name": "vios1",
                "role": "vios",
                "summary": {
                    "partition_type": "Shared-SMT-4", "mode": "Uncapped",
                    "entitled_capacity": 1.0, "virtual_processors": 2, "weight": 255,
                    "online_memory_mb": 8192, "maximum_memory_mb": 16384,
                    "memory_mode": "Dedicated", "ame_factor": None,
                    "oslevel": "7200-05-03-2148", "ioslevel": "3.1.4.10",
                    "pool_cores": 16, "system_cores": 16,
                },
                "inventory": {
                    "ethernet": [
                        {"name": "ent8", "class": "sea", "description": "Shared Ethernet Adapter",
                         "ha_mode": "auto"},
                        {"name": "ent0", "class": "physical",
                         "description": "4-Port Gigabit Ethernet PCI-Express Adapter (e414571614102004)"},
                    ],
                    "interfaces": [{"name": "en8", "mtu": "1500", "largesend": "on"}],
                    "disks": [{"name": "hdisk2", "description": "MPIO FC 2145",
                               "queue_depth": "20", "reserve_policy": "no_reserve"}],
                    "fc": [{"name": "fcs0", "num_cmd_elems": "1024", "max_xfer_size": "0x200000"},
                           {"name": "fcs1", "num_cmd_elems": "500", "max_xfer_size": "0x100000"}],
                    "vscsi_mappings": [{"vhost": "vhost0", "client_id": "3", "vtd": "vtscsi0",
                                        "backing_device": "hdisk2"}],
                    "npiv_mappings": [{"vfchost": "vfchost0", "client_id": "4",
                                       "client_name": HOSTILE_HOST, "fc_name": "fcs0"}],
                    "wpars": [],
                },
                "counts": {"critical": 1, "warning": 1, "info": 0},
            },
            {
                "name": "aix1",
                "role": "aix",
                "summary": {
                    "partition_type": "Shared-SMT-8", "mode": "Capped",
                    "entitled_capacity": 4.0, "virtual_processors": 24, "weight": 0,
                    "online_memory_mb": 65536, "maximum_memory_mb": 131072,
                    "memory_mode": "Dedicated", "ame_factor": 1.5,
                    "oslevel": "7300-02-01-2346", "ioslevel": None,
                    "pool_cores": 16, "system_cores": 32,
                },
                "inventory": {
                    "disks": [
                        {"name": "hdisk0", "description": "Virtual SCSI Disk Drive",
                         "queue_depth": "3", "reserve_policy": "single_path"},
                        {"name": "hdisk3", "description": f"MPIO {NON_ASCII}", "queue_depth": "8",
                         "pvid": "00f6db0a3b2c1d4e"},
                    ],
                    "wpars": [{"name": "wpar1", "state": "A", "type": "S"}],
                },
                "counts": {"critical": 1, "warning": 0, "info": 1},
            },
            {
                "name": HOSTILE_HOST,
                "role": "unknown",
                "summary": {"partition_type": None, "mode": None, "entitled_capacity": None,
                            "virtual_processors": None, "weight": None,
                            "online_memory_mb": None, "maximum_memory_mb": None,
                            "memory_mode": None, "ame_factor": None, "oslevel": None,
                            "ioslevel": None, "pool_cores": None, "system_cores": None},
                "inventory": {
                    "ethernet": [{"name": "ent0", "class": "virtual",
                                  "description": f"{SCRIPT} {TEMPLATE}"}],
                    "interfaces": [],
                },
                "counts": {"critical": 0, "warning": 1, "info": 0},
            },
        ],
        "findings": [
            {
                "rule_id": "CPU-VP-EXCEEDS-POOL",
                "title": "Virtual processors exceed the cores in the pool",
                "severity": "critical", "category": "processor",
                "host": "aix1", "subject": "partition",
                "message": "aix1 has 24 online virtual processors but the pool has 16 cores.",
                "rationale": "Virtual processors beyond the pool size cannot all be dispatched; "
                             "they add hypervisor dispatch overhead without adding capacity.",
                "source": "000_31a80e54567cd02b.txt §3.1",
                "evidence": [
                    {"path": "aix1/lparstat_i.txt", "line": 9, "excerpt": "Online Virtual CPUs : 24"},
                    {"path": "aix1/lparstat_i.txt", "line": 27,
                     "excerpt": "Active CPUs in Pool                        : 16"},
                ],
                "fix": {"root": [], "padmin": [],
                        "hmc": ["chhwres -m SYS1 -r proc -o r -p aix1 --procs 8"]},
                "rollback": {"root": [], "padmin": [],
                             "hmc": ["chhwres -m SYS1 -r proc -o a -p aix1 --procs 8"]},
                "disruption": ["dlpar"],
                "values": {"current": "24", "suggested": "16"},
            },
            {
                "rule_id": "VIOS-NPIV-CLIENT-UNKNOWN",
                "title": "NPIV mapping names a client that is not in the estate",
                "severity": "critical", "category": "vios",
                "host": "vios1", "subject": "vfchost0",
                "message": f"vfchost0 maps client {HOSTILE_HOST} {SCRIPT}",
                "rationale": f"Quoted from input: {TEMPLATE}",
                "source": "rule VIOS-NPIV-CLIENT-UNKNOWN",
                "evidence": [{"path": "vios1/lsmap_all_npiv.txt", "line": 7,
                              "excerpt": f"Client Name:{HOSTILE_HOST}   {SCRIPT}"}],
                "fix": {"root": [], "padmin": ["vfcmap -vadapter vfchost0 -fcp"], "hmc": []},
                "rollback": {"root": [], "padmin": ["vfcmap -vadapter vfchost0 -fcp fcs0"],
                             "hmc": []},
                "disruption": [],
            },
            {
                "rule_id": "VIOS-FC-NUM-CMD-ELEMS",
                "title": "FC adapter command elements below the recommended value",
                "severity": "warning", "category": "storage",
                "host": "vios1", "subject": "fcs1",
                "message": "fcs1 has num_cmd_elems=500; 1024 or more is recommended for a VIOS.",
                "rationale": "Too few command elements queue I/O in the adapter driver under load.",
                "source": "000_31a80e54567cd02b.txt §5.2",
                "evidence": [{"path": "vios1/lsattr_fcs1.txt", "line": 4,
                              "excerpt": "num_cmd_elems 500 Maximum number of COMMANDS True"}],
                "fix": {"root": [], "padmin": ["chdev -dev fcs1 -attr num_cmd_elems=1024 -perm"],
                        "hmc": []},
                "rollback": {"root": [],
                             "padmin": ["chdev -dev fcs1 -attr num_cmd_elems=500 -perm"],
                             "hmc": []},
                "disruption": ["reboot"],
                "values": {"current": "500", "suggested": "1024"},
            },
            {
                "rule_id": "NET-LARGESEND-OFF",
                "title": "Largesend disabled on a virtual interface",
                "severity": "warning", "category": "network",
                "host": HOSTILE_HOST, "subject": f"en0 {NON_ASCII}",
                "message": f"en0 has mtu_bypass=off ({NON_ASCII}) {TEMPLATE}",
                "rationale": "Without largesend the LPAR segments TCP itself and spends CPU.",
                "source": "000_31a80e54567cd02b.txt §6.4",
                "evidence": [{"path": f"bundle.tar!{HOSTILE_HOST}/lsattr_ent0.txt", "line": 12,
                              "excerpt": f"mtu_bypass off {IMG}"}],
                "fix": {"root": ["chdev -l en0 -a mtu_bypass=on"], "padmin": [], "hmc": []},
                "rollback": {"root": ["chdev -l en0 -a mtu_bypass=off"], "padmin": [], "hmc": []},
                "disruption": ["interface-down"],
                "values": {"current": "off", "suggested": "on"},
            },
            {
                "rule_id": "AME-FACTOR-SET",
                "title": "Active Memory Expansion is in use",
                "severity": "info", "category": "ame",
                "host": "aix1", "subject": "partition",
                "message": "aix1 runs with an AME expansion factor of 1.5.",
                "rationale": "AME trades CPU for memory; check amepat before raising the factor.",
                "source": "000_31a80e54567cd02b.txt §4.7",
                "evidence": [{"path": "aix1/lparstat_i.txt", "line": 33,
                              "excerpt": "Target Memory Expansion Factor             : 1.50"}],
                "fix": {"root": ["amepat 60 1"], "padmin": [], "hmc": []},
                "rollback": {"root": [], "padmin": [], "hmc": []},
                "disruption": [],
            },
        ],
    }
