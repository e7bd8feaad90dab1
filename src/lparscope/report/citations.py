"""Citations a reader can check: a rule's ``source`` string turned into named public documents.

Rules cite their sources tersely (``000_31a80e54567cd02b.txt §3.1 (Table 3-1); rules-catalogue S3``):
the seed file names and the catalogue ids mean nothing outside the project, and those files are
not shipped. :func:`citations` maps each part to the document by its title (and number, for IBM
Redbooks), keeps the section / table / figure the rule gave, and for catalogue ids names the
public documents the catalogue entry relies on (with its address when it has a stable one).
Rule modules keep their source strings; only this table knows the documents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# The seed documents (the project's specification), by their number.
SEEDS: dict[str, tuple[str, str | None]] = {
    "000": ('IBM Redbook SG24-8080 "IBM Power Systems Performance Guide: Implementing and Optimizing", '
            'chapter 3 "IBM Power Systems virtualization"', "https://www.redbooks.ibm.com/abstracts/sg248080.html"),
    "001": ('S. Knudson (IBM Power Advanced Technical Sales), "Networking Virtualization, Performance, and '
            'Problem Determination" (presentation, 2013)', None),
    "002": ('IBM support page "Virtual I/O Server performance" (VIOS documentation: QoS, SEA and '
            'virtual SCSI sizing)', "http://www14.software.ibm.com/webapp/set2/sas/f/vios/documentation/perf.html"),
    "003": ('IBM Systems Magazine, "Using 10Gbit Ethernet Adapters with PowerVM SEA: VIOS and SEA '
            'Considerations"', None),
    "004": ('"Queue depth setting in a Versioned WPAR on AIX" (practitioner article on APAR IV63665)', None),
}

_DOCS = {  # short keys for documents several catalogue entries rely on
    "aix-smtctl": ("IBM AIX 7.1 documentation: smtctl command", "https://www.ibm.com/docs/en/aix/7.1?topic=s-smtctl-command"),
    "mcnelly-smt": ("R. McNelly: A change to the SMT mode default in POWER9", "https://robmcnelly.com/a-change-to-the-smt-mode-default-in-power9"),
    "aix-vp-mgmt": ("IBM AIX 7.1 documentation: virtual processor management within a partition", None),
    "griffiths-fold": ('N. Griffiths (IBM): "AIX Virtual Processor Folding is Misunderstood"', "https://ibm.com/support/pages/node/1120161"),
    "throughput": ("TechChannel: Understanding and tuning CPU throughput (scaled throughput mode)", "https://techchannel.com/performance/understanding-and-tuning-cpu-throughput"),
    "aix-schedo": ("IBM AIX 7.3 documentation: schedo command", "https://www.ibm.com/docs/en/aix/7.3?topic=s-schedo-command"),
    "p750": ("IBM Redpaper: IBM Power 750 and 760 Technical Overview and Introduction", None),
    "ps703": ("IBM Redbook: IBM BladeCenter PS703 and PS704 Technical Overview", None),
    "vioslpm-concurrency": ("IBM Power10 documentation: concurrency level attribute of the VIOS LPM pseudo-device",
                            "https://www.ibm.com/docs/en/power10/9080-HEX?topic=pseudodevice-concurrency-level-attribute"),
    "emc-mpio": ("IBM Community: recommended AIX MPIO PCM parameter settings for EMC Symmetrix",
                 "https://community.ibm.com/community/user/discussion/recommended-aix-mpio-pcm-paramter-settings-for-emc-symmetrix"),
    "p780": ("IBM Redpaper: IBM Power 770 and 780 Technical Overview and Introduction (processor compatibility modes)", None),
    "sg248079": ('IBM Redbook SG24-8079 "POWER7 and POWER7+ Optimization and Tuning Guide"', "https://www.redbooks.ibm.com/abstracts/sg248079.html"),
    "hmc-weight": ("IBM HMC help: uncapped weight (0-255, default 128)", None),
    "i5-lpar": ("IBM Redbook: Logical Partitions on System i5", None),
    "powercampus-dedicated": ("PowerCampus: Virtualization with PowerVM, shared dedicated capacity", "https://powercampus.de/en/documentation/virtualization-with-powervm/practical-introduction/shared-dedicated-capacity/"),
    "p10-memory": ("IBM Power10 documentation: partition memory", "https://ibm.com/docs/en/power10?topic=resources-memory"),
    "heyrman": ('P. Heyrman (IBM): "Understanding PowerVM Hypervisor Memory Usage" (2020)', "https://community.ibm.com/community/user/power/blogs/pete-heyrman1/2020/06/08/understanding-powervm-hypervisor-memory-usage"),
    "best-practices": ("IBM Power Virtualization Best Practices Guide, §5 LPAR page table size considerations", None),
    "lynch-paging": ('J. Lynch: "Paging, Memory and I/O Delays" (IBM Systems Magazine, 2010)', "https://techchannel.com/IT-Strategy/09/2010/paging-memory-i-o-delays"),
    "aix-minfree": ("IBM AIX documentation: values for minfree and maxfree", "https://www.ibm.com/docs/en/ssw_aix_latest/performance/values_minfree_maxfree_param.html"),
    "pgspace": ('AIX tip: "Sizing Page Space in AIX"', None),
    "aix-vmo": ("IBM AIX documentation: vmo command (maxpin)", None),
    "aix-large-pages": ("IBM AIX 7.2 documentation: large pages", "https://www.ibm.com/docs/en/ssw_aix_72/com.ibm.aix.performance/large_page_ovw.htm"),
    "aix-isno": ("IBM AIX 7.3 documentation: interface-specific network options", "https://www.ibm.com/docs/en/aix/7.3?topic=interfaces-interface-specific-network-options"),
    "aix-no": ("IBM AIX 7.3 documentation: network option tunable parameters", "https://www.ibm.com/docs/en/aix/7.3.0?topic=parameters-network-option-tunable"),
    "plso": ("IBM technote: POWER8 platform largesend segmentation offload (PLSO) in AIX virtual networks", "https://www.ibm.com/support/pages/power8-platform-largesend-segmentation-offload-plso-feature-aix-virtual-network-environment"),
    "sea-stats": ("IBM POWER7 documentation: Shared Ethernet Adapter statistics", None),
    "aix-nodelayack": ("IBM AIX 7.1 documentation: tcp_nodelayack tunable", None),
    "aix-nagle": ("IBM AIX 7.1 documentation: TCP_NODELAY and tcp_nagle_limit options", "https://www.ibm.com/docs/en/aix/7.1?topic=tuning-tcp-nodelay-tcp-nagle-limit-options"),
    "largesend": ("IBM technote: native AIX largesend", "https://ibm.com/support/pages/node/885512"),
    "mcnelly-net": ('R. McNelly: "Understanding Network Attributes in VIOS Configuration"', "https://robmcnelly.com/understanding-network-attributes-in-vios-configuration/"),
    "sea-ls": ('IBM techdoc: "How to setup SEA failover with Load Sharing configuration"', None),
    "powercampus-ha": ("PowerCampus: changing the SEA ha_mode between failover and load sharing", "https://powercampus.de/en/documentation/virtualization-with-powervm/practical-introduction/changing-the-ha-mode-between-failover-and-load-sharing/"),
    "ctl-vlan": ("Practitioner note: a unique VLAN id for the SEA failover control channel", None),
    "sea-acct": ('C. Gibson: "Shared Ethernet Adapter accounting tool"', None),
    "aix-teaming": ("IBM AIX 7.2 documentation: EtherChannel and IEEE 802.3ad link aggregation, interoperability scenarios",
                    "https://www.ibm.com/docs/en/aix/7.2?topic=teaming-interoperability-scenarios"),
    "aix-ec-lb": ("IBM AIX 7.1 documentation: EtherChannel load-balancing options", None),
    "aix-8023ad": ("IBM AIX 7.3 documentation: standard and 8023ad algorithm", "https://www.ibm.com/docs/en/aix/7.3.0?topic=options-standard-8023ad-algorithm"),
    "aix43-udp": ("IBM AIX 4.3 Performance Tuning Guide: tunable parameters (UDP socket buffer overflows, biods)",
                  "https://sites.ualberta.ca/dept/chemeng/AIX-43/share/man/info/C/a_doc_lib/aixbman/prftungd/tunableaixparms.htm"),
    "vnic-concepts": ("IBM POWER8 documentation: virtual Network Interface Controller (vNIC) concepts", "https://www.ibm.com/docs/en/power8/8001-12C?topic=TI0003J/p8ecu/p8ecu_vniconcepts_network.htm"),
    "powercampus-vnic": ("PowerCampus: adding a vNIC backing device", "https://powercampus.de/en/documentation/virtualization-with-powervm/practical-introduction/adding-a-vnic-backing-device/"),
    "aix-recv": ("IBM AIX 7.2 documentation: adapter receive resources", "https://ibm.com/docs/en/ssw_aix_72/performance/recv_resources.html"),
    "aix-adapter": ("IBM AIX 7.1 documentation: tuning adapter resources", None),
    "hyp-eth": ("Hypervisor Ethernet limits (virtual Ethernet MTU up to 65390)", "https://www.stix.id.au/wiki/Hypervisor_Ethernet_Limits"),
    "iostat-iops": ("aix4admins: iostat / fcstat and IOPS per LUN", "http://aix4admins.blogspot.com/2013/07/iostat-fcstat-iops-io-per-second-for.html"),
    "unixadminschool-queue": ("unixadminschool: AIX disk service times, fcstat and queues", "http://unixadminschool.com/blog/2020/06/aix-for-system-administrators-2020-06-03-140000/"),
    "iv88990": ("IBM support: APAR IV88990 (num_cmd_elems falls back after reboot)", "https://www.ibm.com/support/pages/node/1107759"),
    "max-xfer": ("UNIX Health Check: fcs max_xfer_size and the DMA window", "https://unixhealthcheck.com/blog?id=329"),
    "fast-fail": ("IBM AIX 7.3 documentation: fast I/O failure for Fibre Channel devices", "https://www.ibm.com/docs/en/aix/7.3.0?topic=overview-fast-io-failure-fibre-channel-devices"),
    "mpio-attrs": ("IBM AIX 7.2 documentation: MPIO path control module attributes", None),
    "mpio-dev": ("IBM Developer: AIX MPIO", "https://developer.ibm.com/articles/au-aix-mpio/"),
    "ds3500": ("IBM Redbook: IBM System Storage DS3500 Introduction and Implementation Guide (AIX hosts)", None),
    "dual-vios": ('IBM technote: "Multipathing and disk resiliency with vscsi in a dual VIOS configuration"', "https://www.ibm.com/support/pages/multipathing-and-disk-resiliency-vscsi-dual-vios-configuration"),
    "vscsi-tuning": ("capacityreports.net: tuning vSCSI adapter settings", None),
    "p9-vfc": ("IBM POWER9 documentation: managing virtual Fibre Channel storage", "https://www.ibm.com/docs/POWER9/p9efd/p9efd_managing_vfc_storage.htm"),
    "io-tune": ("capacityreports.net: monitor and tune AIX I/O", "http://capacityreports.net/AIX_Blog/index.php/monitor-and-tune-aix-io"),
    "aix-fsbuf": ("IBM AIX 7.1 documentation: file system buffer tuning", None),
    "vios-planning": ("IBM documentation: Virtual I/O Server planning", None),
    "griffiths-vios": ("N. Griffiths (IBM): Virtual I/O Server sizing rules of thumb", "https://ibm.com/support/pages/node/1165174"),
    "iv94438": ("IBM support: APAR IV94438", "https://www.ibm.com/support/pages/apar/IV94438"),
    "vios-limits": ("IBM HMC documentation: Virtual I/O Server configuration limitations", None),
    "vios-maps": ("IBM: Hardware to Software Maps for PowerVM Virtual I/O Server (FLRT)", None),
    "ame-perf": ("IBM whitepaper: Active Memory Expansion performance", None),
    "ame-doc": ("IBM AIX 7.2 documentation: Active Memory Expansion", None),
    "fcstat-cmd": ("IBM AIX 7.2 documentation: fcstat command", "https://www.ibm.com/support/knowledgecenter/ssw_aix_72/f_commands/fcstat.html"),
    "paging-tips": ('IBM technote: "Paging Space Tips on AIX 5.3 or above"', "http://www-01.ibm.com/support/docview.wss?uid=isg3T1012693"),
    "aix4admins-mpio": ("aix4admins: MPIO (path count per LUN)", "http://aix4admins.blogspot.com/2011/05/mpio-included-as-part-of-aix-at-no.html"),
    "ams-mag": ('IBM Systems Magazine: "Improve Memory Utilization With the PowerVM AMS Feature"',
                "http://archive.ibmsystemsmag.com/aix/administrator/virtualization/ams_powervm/"),
    "griffiths-ame": ('N. Griffiths (IBM): "AIX Active Memory Expansion (AME)"', "https://www.ibm.com/support/pages/aix-active-memory-expansion-ame"),
    "dpo": ("IBM Power8 documentation: Dynamic Platform Optimizer", "https://www.ibm.com/docs/en/power8?topic=dynamically-dynamic-platform-optimizer"),
    "aix4admins-dpo": ("aix4admins: DPO (managed systems can become fragmented)", "https://aix4admins.blogspot.com/2015/01/dpo-magaed-systems-can-become.html"),
}

# rules-catalogue id -> the public documents its entry names (facts; the catalogue is not shipped).
CATALOGUE: dict[str, tuple[str, ...]] = {
    "S1": ("hmc-weight",), "S2": ("griffiths-vios",), "S3": ("sg248079",), "S4": ("heyrman",),
    "S6": ("aix-nodelayack",), "S7": ("iv88990",), "S8": ("p9-vfc",), "S11": ("aix-schedo",),
    "S12": ("ame-perf", "griffiths-ame"),
    "C1": ("aix-nodelayack",), "C5": ("aix-vmo",), "C11": ("aix-minfree",),
    "CPU-01": ("aix-smtctl", "mcnelly-smt"), "CPU-02": ("aix-smtctl",),
    "CPU-03": ("aix-vp-mgmt", "griffiths-fold"), "CPU-05": ("throughput",), "CPU-06": ("aix-schedo",),
    "CPU-08": ("p750",), "CPU-09": ("ps703", "p750"), "CPU-11": ("sg248079",), "CPU-14": ("i5-lpar", "hmc-weight"),
    "CPU-15": ("powercampus-dedicated",),
    "MEM-02": ("p10-memory",), "MEM-03": ("heyrman", "best-practices", "i5-lpar"), "MEM-04": ("heyrman",),
    "MEM-06": ("lynch-paging", "aix-minfree"), "MEM-07": ("aix-minfree",), "MEM-08": ("pgspace",), "MEM-09": ("lynch-paging", "paging-tips"),
    "MEM-05": ("dpo", "aix4admins-dpo"), "MEM-10": ("aix-vmo",), "MEM-11": ("aix-large-pages",), "MEM-13": ("aix-vmo",),
    "AMS-01": ("ams-mag", "sg248079"), "AMS-02": ("p750",),
    "AME-02": ("ame-perf", "p750"), "AME-03": ("ame-doc",), "AME-05": ("griffiths-ame",),
    "NET-01": ("aix-isno",), "NET-02": ("aix-no", "plso"), "NET-03": ("aix43-udp", "aix-no"), "NET-04": ("aix-no", "sea-stats"),
    "NET-05": ("aix-nodelayack", "aix-nagle"), "NET-06": ("plso", "largesend", "mcnelly-net"),
    "NET-07": ("sea-ls", "powercampus-ha"), "NET-08": ("ctl-vlan",), "NET-10": ("sea-acct",), "NET-11": ("aix-teaming", "aix-ec-lb", "aix-8023ad"),
    "NET-13": ("aix-recv", "aix-adapter"), "NET-14": ("aix-adapter",), "NET-16": ("vnic-concepts", "powercampus-vnic"), "NET-15": ("hyp-eth", "largesend"),
    "STO-02": ("iostat-iops",), "STO-03": ("unixadminschool-queue",), "STO-04": ("fcstat-cmd",), "STO-13": ("aix4admins-mpio",), "STO-05": ("iv88990",), "STO-06": ("max-xfer",), "STO-07": ("fast-fail", "ds3500"),
    "STO-09": ("mpio-attrs", "mpio-dev"), "STO-10": ("ds3500",), "STO-12": ("dual-vios",),
    "LPM-01": ("ps703", "vnic-concepts"), "CPU-07": ("p780", "ps703"), "LPM-07": ("p780", "ps703"),
    "LPM-05": ("vioslpm-concurrency",), "STO-11": ("emc-mpio",),
    "STO-14": ("vscsi-tuning", "dual-vios"), "STO-16": ("p9-vfc",), "STO-18": ("io-tune",), "STO-19": ("aix-fsbuf",),
    "STO-20": ("aix-fsbuf",),
    "SZ-09": ("p10-memory",), "SZ-10": ("p9-vfc",), "SZ-11": ("p750",),
    "VIOS-01": ("vios-planning",), "VIOS-02": ("griffiths-vios",), "VIOS-06": ("iv94438",),
    "VIOS-08": ("vios-limits",), "VIOS-09": ("vios-maps",),
}


@dataclass(frozen=True)
class Citation:
    """One document a rule relies on: its title, where in it (section, table, figure), its address."""
    document: str
    where: str = ""
    url: str | None = None
    basis: str = ""  # e.g. "rules catalogue CPU-03 (K: domain knowledge, not seen in a page)"

    def text(self) -> str:
        s = self.document + (f", {self.where}" if self.where else "")
        return s + (f" [{self.basis}]" if self.basis else "")


_SEED = re.compile(r"^(00\d)(?:_[0-9a-f]+\.txt)?\b\s*(.*)$")
_CAT_ID = re.compile(r"\b(S\d+|C\d+|[A-Z]{2,4}-\d+)\b")


def _parts(source: str) -> list[str]:
    """``source`` split on the semicolons outside parentheses."""
    parts, depth, cur = [], 0, []
    for ch in source or "":
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth <= 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


@lru_cache(maxsize=512)
def citations(source: str) -> tuple[Citation, ...]:
    """The documents behind one rule's ``source`` string, in the order it cites them; a document
    named by several catalogue entries is listed once with all of them."""
    found: dict[tuple[str, str, str | None], list[str]] = {}
    last_seed: str | None = None
    for part in _parts(source):
        m = _SEED.match(part)
        if m is None and last_seed and part.startswith(("§", "Table", "Figure", "Example")):
            m = _SEED.match(f"{last_seed} {part}")
        if m and m.group(1) in SEEDS:
            last_seed = m.group(1)
            title, url = SEEDS[last_seed]
            where = m.group(2).strip(" ,")
            if where.startswith("(") and where.endswith(")") and where.count("(") == 1:
                where = where[1:-1]
                if last_seed == "001":  # a slide deck: the part is a slide's title
                    where = f'slide "{where}"'
            found.setdefault((title, where, url), [])
            continue
        last_seed = None
        if part.startswith("rules-catalogue"):
            rest = part[len("rules-catalogue"):]
            conf = " (K: domain knowledge, to confirm)" if re.search(r"[(,]\s*K\b", rest) else ""
            for cid in _CAT_ID.findall(rest):
                keys = CATALOGUE.get(cid, ())
                if not keys:
                    found.setdefault((f"lparscope rules catalogue {cid}", "", None), []).append(
                        "no public document recorded")
                for k in keys:
                    title, url = _DOCS[k]
                    found.setdefault((title, "", url), []).append(f"{cid}{conf}")
            continue
        found.setdefault((part, "", None), [])
    out = []
    for (doc, where, url), ids in found.items():
        basis = ("rules catalogue " + ", ".join(dict.fromkeys(ids))) if ids and "no public" not in ids[0] else \
            (ids[0] if ids else "")
        out.append(Citation(doc, where, url, basis))
    return tuple(out)


def cite(source: str) -> str:
    """One line: every document of ``source`` by title, with section and address; '; '-separated."""
    parts = []
    for c in citations(source):
        parts.append(c.text() + (f" <{c.url}>" if c.url else ""))
    return "; ".join(parts) or (source or "")


def cite_dicts(source: str) -> list[dict[str, str | None]]:
    """The citations as JSON-ready dicts (for the JSON / HTML reports)."""
    return [{"document": c.document, "where": c.where, "url": c.url, "basis": c.basis} for c in citations(source)]
