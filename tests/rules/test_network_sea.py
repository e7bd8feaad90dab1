from types import SimpleNamespace

from lparscope.model import build
from lparscope.rules.config import Config
from lparscope.rules.network import aggregation as network_aggregation
from lparscope.rules.network import sea as network_sea
from lparscope.rules.network import sea_ha as network_sea_ha
from lparscope.sources import netif, odmget

from ._frame_builders import estate
from .conftest import device, host, run_rule, stats


def _vios(name: str = "vios1"):
    return host(name, "vios")


def _feed(h, kind, module, text, path="t.txt"):
    build.apply(h, kind, module.parse(text), path, 0)


# --- accounting ---------------------------------------------------------------------------

def test_accounting_disabled_fires_with_fix_and_rollback():
    h = _vios()
    device(h, "ent8", "sea", accounting="disabled")
    (f,) = run_rule(network_sea.sea_accounting, h)
    assert f.fix.padmin[0] == "chdev -dev ent8 -attr accounting=enabled"
    assert f.rollback.padmin == ["chdev -dev ent8 -attr accounting=disabled"]
    assert f.level == "info" and f.disruption == []


def test_accounting_enabled_or_unknown_is_quiet():
    h = _vios()
    device(h, "ent8", "sea", accounting="enabled")
    device(h, "ent9", "sea")  # no lsdev -attr: cannot tell
    assert run_rule(network_sea.sea_accounting, h) == []


# --- jumbo frames -------------------------------------------------------------------------

def _chain(h, sea_jumbo="yes", ec_jumbo="yes", port_attr=None, port_stat="Enabled"):
    device(h, "ent8", "sea", real_adapter="ent7", virt_adapters="ent5", jumbo_frames=sea_jumbo)
    device(h, "ent7", "etherchannel", adapter_names="ent0,ent1", backup_adapter="NONE", use_jumbo_frame=ec_jumbo)
    for name in ("ent0", "ent1"):
        attrs = {"jumbo_frames": port_attr} if port_attr else {}
        d = device(h, name, "physical", stats=stats(jumbo_frames=port_stat, lines={"jumbo_frames": 40}), **attrs)
        d.parent = "ent7"


def test_jumbo_mismatch_along_the_chain():
    h = _vios()
    _chain(h, sea_jumbo="yes", ec_jumbo="no", port_stat="Disabled")
    (f,) = run_rule(network_sea.sea_jumbo_mismatch, h)
    assert "ent8 jumbo_frames=yes, ent7 use_jumbo_frame=no, ent0 jumbo_frames=no, ent1 jumbo_frames=no" in f.message
    assert f.values["mismatched"] == "ent7, ent0, ent1"
    assert f.fix.padmin[:3] == ["chdev -dev ent7 -attr use_jumbo_frame=yes -perm",
                                "chdev -dev ent0 -attr jumbo_frames=yes -perm",
                                "chdev -dev ent1 -attr jumbo_frames=yes -perm"]
    assert f.rollback.root[0] == "chdev -l ent7 -a use_jumbo_frame=no -P"
    assert f.disruption == ["reboot"]
    # evidence from the attributes and from the ports' entstat "Jumbo Frames:" lines
    assert any(e.path == "s.txt" and e.line == 40 for e in f.evidence)


def test_jumbo_running_state_wins_over_port_attribute():
    h = _vios()  # ODM says no, but the aggregation turned jumbo on in its ports
    _chain(h, sea_jumbo="yes", ec_jumbo="yes", port_attr="no", port_stat="Enabled")
    assert run_rule(network_sea.sea_jumbo_mismatch, h) == []
    h2 = _vios()  # without entstat, the attribute is read
    _chain(h2, sea_jumbo="yes", ec_jumbo="yes", port_attr="no", port_stat=None)
    (f,) = run_rule(network_sea.sea_jumbo_mismatch, h2)
    assert f.values["mismatched"] == "ent0, ent1" and f.fix.root[0] == "chdev -l ent0 -a jumbo_frames=yes -P"


def test_jumbo_consistent_is_quiet():
    h = _vios()
    _chain(h, sea_jumbo="no", ec_jumbo="no", port_stat="Disabled")
    assert run_rule(network_sea.sea_jumbo_mismatch, h) == []


def test_jumbo_chain_from_entstat_only():
    h = _vios()
    sea = device(h, "ent8", "sea", stats=stats(sea=SimpleNamespace(members={"ent3": "real"}, vlan_ids={})),
                 jumbo_frames="no")
    phys = device(h, "ent3", "physical", stats=stats(jumbo_frames="Enabled", role="real"))
    phys.parent = sea.name
    (f,) = run_rule(network_sea.sea_jumbo_mismatch, h)
    assert f.values["mismatched"] == "ent3" and f.fix.padmin[0] == "chdev -dev ent3 -attr jumbo_frames=no -perm"


# --- netaddr on the SEA without the VIOS IP on its interface --------------------------------

IFCONFIG = """# ifconfig -a
en9: flags=1e084863,480<UP,BROADCAST,NOTRAILERS,RUNNING,SIMPLEX,MULTICAST,GROUPRT,64BIT,CHECKSUM_OFFLOAD(ACTIVE),CHAIN>
        inet 10.1.1.5 netmask 0xffffff00 broadcast 10.1.1.255
lo0: flags=e08084b,c0<UP,BROADCAST,LOOPBACK,RUNNING,SIMPLEX,MULTICAST,GROUPRT,64BIT,LARGESEND,CHAIN>
        inet 127.0.0.1 netmask 0xff000000 broadcast 127.255.255.255
"""

NETSTAT_IN = """Name  Mtu   Network     Address            Ipkts Ierrs    Opkts Oerrs  Coll
en8   1500  link#2      40.f2.e9.5a.3c.10   8811220     0  7012334     0     0
en8   1500  10.1.1      10.1.1.5         8811220     0  7012334     0     0
lo0   16896 link#1                          4400     0     4400     0     0
"""


def test_netaddr_without_ip_on_sea_interface():
    h = _vios()
    device(h, "ent8", "sea", netaddr="10.1.1.254")
    _feed(h, "netif", netif, IFCONFIG, "ifconfig.txt")
    (f,) = run_rule(network_sea.sea_netaddr_without_ip, h)
    assert "pings 10.1.1.254" in f.message and "en8 has no IP address (the VIOS address is on en9)" in f.message
    assert "rmtcpip -interface en9" in f.fix.padmin
    assert any(c.startswith("mktcpip -hostname <hostname> -inetaddr <ip-address> -interface en8") for c in f.fix.padmin)
    assert f.rollback.padmin == ["rmtcpip -interface en8", "chdev -dev ent8 -attr netaddr=10.1.1.254"]
    assert {e.path for e in f.evidence} == {"t.txt", "ifconfig.txt"}


def test_netaddr_quiet_when_ip_on_sea_or_unknown():
    h = _vios()
    device(h, "ent8", "sea", netaddr="10.1.1.254")
    assert run_rule(network_sea.sea_netaddr_without_ip, h) == []  # no interface listing: cannot tell
    _feed(h, "netif", netif, NETSTAT_IN, "netstat_in.txt")
    assert run_rule(network_sea.sea_netaddr_without_ip, h) == []  # en8 carries 10.1.1.5
    h2 = _vios()
    device(h2, "ent8", "sea", netaddr="0")
    _feed(h2, "netif", netif, IFCONFIG)
    assert run_rule(network_sea.sea_netaddr_without_ip, h2) == []  # no address to ping


def test_netaddr_from_en_attribute():
    h = _vios()
    device(h, "ent8", "sea", netaddr="10.1.1.254")
    device(h, "en8", "interface", netaddr="")
    (f,) = run_rule(network_sea.sea_netaddr_without_ip, h)
    assert f.values["suggested"] == "VIOS IP on en8, or netaddr=0"
    h.devices["en8"].attrs["netaddr"].value = "10.1.1.5"
    assert run_rule(network_sea.sea_netaddr_without_ip, h) == []


# --- ha_mode sharing missing from the ODM ---------------------------------------------------

ODM_OLD = """# odmget -q attribute=ha_mode PdAt

PdAt:
        uniquetype = "adapter/pseudo/sea"
        attribute = "ha_mode"
        deflt = "disabled"
        values = "disabled,auto,standby"
        width = ""
        type = "R"
        generic = "DU"
        rep = "n"
        nls_index = 88
"""


def test_ha_mode_sharing_missing_from_pdat():
    h = _vios()
    _feed(h, "odmget", odmget, ODM_OLD, "odm.txt")
    (f,) = run_rule(network_sea_ha.sea_sharing_odm, h)
    assert f.values == {"current": "disabled,auto,standby", "suggested": "disabled,auto,standby,sharing"}
    assert f.fix.root == [
        "odmget -q attribute=ha_mode PdAt > /tmp/ha_mode.PdAt.orig",
        "sed 's/values = \"disabled,auto,standby\"/values = \"disabled,auto,standby,sharing\"/' /tmp/ha_mode.PdAt.orig > /tmp/ha_mode.PdAt.new",
        "odmdelete -o PdAt -q attribute=ha_mode",
        "odmadd /tmp/ha_mode.PdAt.new",
        "odmget -q attribute=ha_mode PdAt   # values now end with sharing",
    ]
    assert f.fix.padmin[1] == "oem_setup_env" and f.fix.padmin[-1].startswith("chdev -dev <sea> -attr ha_mode=sharing")
    assert f.rollback.root == ["odmdelete -o PdAt -q attribute=ha_mode", "odmadd /tmp/ha_mode.PdAt.orig"]
    assert [e.line for e in f.evidence] == [5, 7]


def test_ha_mode_sharing_present_is_quiet():
    h = _vios()
    _feed(h, "odmget", odmget, ODM_OLD.replace("auto,standby", "auto,standby,sharing"))
    assert run_rule(network_sea_ha.sea_sharing_odm, h) == []


# --- load sharing suggestion ----------------------------------------------------------------

def _sea_pair_member(h, ha_mode="auto", trunks=(("ent5", 10, [20]),)):
    sea_stats = stats(sea=SimpleNamespace(vlan_ids={t: [p, *tags] for t, p, tags in trunks},
                                          members={t: "virtual" for t, _, _ in trunks} | {"ent6": "control", "ent7": "real"}),
                      lines={})
    device(h, "ent8", "sea", stats=sea_stats, ha_mode=ha_mode, virt_adapters=",".join(t for t, _, _ in trunks), ctl_chan="ent6")
    for t, pvid, tags in trunks:
        d = device(h, t, "trunk", stats=stats(port_vlan_id=pvid, vlan_tag_ids=tags, priority=1, role="virtual",
                                               lines={"port_vlan_id": 50, "vlan_tag_ids": 51}))
        d.parent = "ent8"


def test_load_sharing_suggested_with_one_trunk_adapter():
    h = _vios()
    _sea_pair_member(h)
    (f,) = run_rule(network_sea_ha.sea_load_sharing, estate(hosts=[h]))
    assert f.values["vlans"] == "10 20" and f.values["trunk_adapters"] == "1"
    assert f.fix.padmin[-1].startswith("chdev -dev ent8 -attr ha_mode=sharing")
    assert "chdev -dev ent8 -attr virt_adapters=ent5,<new-trunk-ent>" in f.fix.padmin
    assert any("is_trunk=1,trunk_priority=1" in c for c in f.fix.hmc)
    assert f.rollback.padmin[0].startswith("chdev -dev ent8 -attr ha_mode=auto")
    assert f.disruption == ["dlpar"] and f.level == "info"


def test_load_sharing_two_trunks_needs_no_dlpar():
    h = _vios()
    _sea_pair_member(h, trunks=(("ent5", 10, []), ("ent9", 30, [40])))
    (f,) = run_rule(network_sea_ha.sea_load_sharing, estate(hosts=[h]))
    assert f.values["vlans"] == "10 30 40" and f.fix.hmc == [] and f.disruption == []
    assert f.fix.padmin == ["chdev -dev ent8 -attr ha_mode=sharing   # on the primary VIOS first, then on the backup"]


def test_load_sharing_reported_once_per_pair():
    a, b = _vios("vios1"), _vios("vios2")
    _sea_pair_member(a)
    _sea_pair_member(b)
    a.frame_name = b.frame_name = "p9frame1"
    (f,) = run_rule(network_sea_ha.sea_load_sharing, estate(hosts=[a, b]))
    assert f.host == "vios1" and "Its partner vios2 (ent8) runs the same" in f.message
    assert "chdev -dev ent8 -attr ha_mode=sharing" in f.fix.padmin and "# then on vios2:" in f.fix.padmin
    b.frame_name = "other-frame"  # not a pair: each VIOS is reported
    assert [f.host for f in run_rule(network_sea_ha.sea_load_sharing, estate(hosts=[a, b]))] == ["vios1", "vios2"]
    # the pair from lsmap (model/vios_pairs.py: a common client on one frame) wins over the frame names
    loc = "U9009.42A.784C1D0-V{}-C20{}"
    a.npiv_mappings = [SimpleNamespace(vfchost="vfchost0", physloc=loc.format(1, 3), client_id=3, fc_name="fcs0")]
    b.npiv_mappings = [SimpleNamespace(vfchost="vfchost0", physloc=loc.format(2, 3), client_id=3, fc_name="fcs0")]
    (f,) = run_rule(network_sea_ha.sea_load_sharing, estate(hosts=[a, b]))
    assert "Its partner vios2" in f.message
    c = _vios("vios3")
    _sea_pair_member(c)
    c.frame_name = a.frame_name  # same frame, same VLANs, but vios1's partner is vios2
    assert [f.host for f in run_rule(network_sea_ha.sea_load_sharing, estate(hosts=[a, b, c]))] == ["vios1", "vios3"]


def test_load_sharing_quiet_when_sharing_or_single_vlan():
    h = _vios()
    _sea_pair_member(h, ha_mode="sharing")
    assert run_rule(network_sea_ha.sea_load_sharing, estate(hosts=[h])) == []
    h2 = _vios()
    _sea_pair_member(h2, trunks=(("ent5", 10, []),))
    assert run_rule(network_sea_ha.sea_load_sharing, estate(hosts=[h2])) == []


# --- largesend with Linux clients -----------------------------------------------------------

def test_largesend_with_linux_clients():
    h = _vios()
    device(h, "ent8", "sea", largesend=1, large_receive="yes")
    h.npiv_mappings.append(SimpleNamespace(vfchost="vfchost0", client_id=7, client_name="rhel1", client_os="Linux",
                                           _evidence=None))
    (f,) = run_rule(network_sea.sea_largesend_linux, h)
    assert f.fix.padmin[-1] == "chdev -dev ent8 -attr largesend=0 large_receive=no"
    assert f.rollback.padmin == ["chdev -dev ent8 -attr largesend=1 large_receive=yes"]
    assert f.values["linux_clients"] == "rhel1"


def test_largesend_quiet_without_client_os_or_linux():
    h = _vios()
    device(h, "ent8", "sea", largesend=1, large_receive="yes")
    assert run_rule(network_sea.sea_largesend_linux, h) == []  # no ClntOS information
    h.npiv_mappings.append(SimpleNamespace(vfchost="vfchost0", client_id=3, client_name="aix1", client_os="AIX"))
    assert run_rule(network_sea.sea_largesend_linux, h) == []


# --- link aggregation under an SEA ----------------------------------------------------------

def test_backup_adapter_under_sea_failover():
    h = _vios()
    device(h, "ent8", "sea", real_adapter="ent7", ha_mode="auto")
    device(h, "ent7", "etherchannel", adapter_names="ent0,ent1", backup_adapter="ent2", netaddr="0")
    (f,) = run_rule(network_aggregation.lagg_backup_under_sea, h)
    assert f.fix.padmin == ["cfglnagg -rm -parent ent8 ent7 ent2"]
    assert f.rollback.padmin == ["cfglnagg -add -backup -parent ent8 ent7 ent2"]
    assert f.fix.root == ["/usr/lib/methods/ethchan_config -d -p ent8 ent7 ent2"]
    assert run_rule(network_aggregation.lagg_netaddr_under_sea, h) == []


def test_backup_adapter_quiet_without_failover_or_backup():
    h = _vios()
    device(h, "ent8", "sea", real_adapter="ent7", ha_mode="disabled")
    device(h, "ent7", "etherchannel", adapter_names="ent0,ent1", backup_adapter="ent2")
    assert run_rule(network_aggregation.lagg_backup_under_sea, h) == []
    h2 = _vios()
    device(h2, "ent8", "sea", real_adapter="ent7", ha_mode="auto")
    device(h2, "ent7", "etherchannel", adapter_names="ent0,ent1", backup_adapter="NONE")
    assert run_rule(network_aggregation.lagg_backup_under_sea, h2) == []


def test_netaddr_on_aggregation_under_sea():
    h = _vios()
    device(h, "ent8", "sea", real_adapter="ent7", ha_mode="auto")
    device(h, "ent7", "etherchannel", adapter_names="ent0,ent1", backup_adapter="NONE", netaddr="10.1.1.1")
    (f,) = run_rule(network_aggregation.lagg_netaddr_under_sea, h)
    assert f.fix.padmin[0] == "cfglnagg -parent ent8 -attr netaddr=0 ent7"
    assert f.rollback.root == ["/usr/lib/methods/ethchan_config -c -p ent8 ent7 netaddr 10.1.1.1"]
    h2 = _vios()  # an aggregation with no SEA on top may ping
    device(h2, "ent7", "etherchannel", adapter_names="ent0,ent1", netaddr="10.1.1.1")
    assert run_rule(network_aggregation.lagg_netaddr_under_sea, h2) == []


# --- transmit spread (000 Table 3-12) -------------------------------------------------------

TABLE_3_12 = {"ent0": (811028335, 1239805118), "ent1": (1127872165, 2184361773),
              "ent4": (8604105240, 2203568387), "ent6": (19992956659, 4671940746)}


def _lagg(h, members, hash_mode="default"):
    device(h, "ent10", "etherchannel", adapter_names=",".join(members), mode="8023ad", hash_mode=hash_mode)
    for i, (name, (tx, rx)) in enumerate(members.items()):
        d = device(h, name, "physical", stats=stats(counters={"tx_packets": tx, "rx_packets": rx}, role="member",
                                                   lines={"tx_packets": 100 * i + 10}))
        d.parent = "ent10"


def test_tx_spread_table_3_12():
    h = _vios()
    _lagg(h, TABLE_3_12)
    (f,) = run_rule(network_aggregation.lagg_tx_spread, h)
    assert "ent6 transmits 65% of the packets (fair share 25% of 4 ports; hash_mode=default)" in f.message
    assert "ent0 tx 811028335 (3%) rx 1239805118 (12%)" in f.values["ports"]
    assert "ent6 tx 19992956659 (65%) rx 4671940746 (45%)" in f.values["ports"]
    assert f.fix.padmin[0] == "cfglnagg -attr hash_mode=src_dst_port ent10"
    assert f.rollback.root == ["/usr/lib/methods/ethchan_config -c ent10 hash_mode default"]
    assert f.level == "warning" and [e.line for e in f.evidence] == [10, 110, 210, 310, 7]


def test_tx_spread_already_src_dst_port_is_info():
    h = _vios()
    _lagg(h, TABLE_3_12, hash_mode="src_dst_port")
    (f,) = run_rule(network_aggregation.lagg_tx_spread, h)
    assert f.level == "info" and f.rollback.padmin == []


def test_tx_spread_balanced_or_threshold_is_quiet():
    h = _vios()
    _lagg(h, {"ent0": (571203310, 655120344), "ent1": (546118427, 646361873)})
    assert run_rule(network_aggregation.lagg_tx_spread, h) == []
    h2 = _vios()  # 63% on one of two ports: below 1.5 x 50%
    _lagg(h2, {"ent0": (6893411, 7410087), "ent1": (4120933, 4506122)})
    assert run_rule(network_aggregation.lagg_tx_spread, h2) == []
    assert len(run_rule(network_aggregation.lagg_tx_spread, h2, Config(thresholds={"lagg_tx_share_factor": 1.2}))) == 1
    h3 = _vios()  # too few packets to judge
    _lagg(h3, {"ent0": (900, 0), "ent1": (10, 0)})
    assert run_rule(network_aggregation.lagg_tx_spread, h3) == []
