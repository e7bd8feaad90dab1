from pathlib import Path

from lparscope.sources import netif
from lparscope.sources.netif import Interface, InterfaceCounters

FIX = Path(__file__).parent.parent / "fixtures" / "netif"


def ifs(result):
    return {r.name: r for r in result.records if isinstance(r, Interface)}


def test_ifconfig_a_flags_inet_and_isno():
    text = (FIX / "ifconfig_a_aix72.txt").read_text()
    assert netif.detect(text) >= 90
    r = netif.parse(text)
    assert r.warnings == [] and r.hostname == "aixlp1"
    i = ifs(r)
    en0 = i["en0"]
    assert en0.largesend is True and "CHECKSUM_OFFLOAD(ACTIVE)" in en0.flags and en0.line == 2
    assert en0.inet == [("10.50.7.21", "255.255.255.0"), ("10.50.7.22", "255.255.255.0")]
    assert en0.isno == {"tcp_sendspace": 262144, "tcp_recvspace": 262144, "rfc1323": 1}
    assert en0.lines["tcp_sendspace"] == 5 and en0.mtu is None
    assert i["en1"].largesend is False and i["en1"].isno == {} and i["en1"].inet == [("192.168.20.21", "255.255.252.0")]
    assert i["lo0"].inet6 == ["::1%1/0"] and i["lo0"].isno["tcp_sendspace"] == 131072


def test_netstat_in_rows_with_empty_address():
    text = (FIX / "netstat_in_aix71.txt").read_text()
    assert netif.detect(text) >= 90
    r = netif.parse(text)
    assert r.warnings == []
    rows = [x for x in r.records if isinstance(x, InterfaceCounters)]
    assert len(rows) == 7
    assert (rows[2].name, rows[2].mtu, rows[2].network, rows[2].address, rows[2].ierrs, rows[2].oerrs, rows[2].line) == (
        "en1", 9000, "link#3", "fa.e3.c1.7.40.3", 17, 2, 5)
    assert rows[4].network == "link#1" and rows[4].address is None and rows[4].ipkts == 220311
    assert rows[6].network == "::1%1" and rows[6].coll == 0


def test_collapsed_and_combined_outputs():
    text = ("en0: flags=1e084863,480<UP,BROADCAST,RUNNING,LARGESEND,CHAIN> mtu 9000\n"
            "inet 10.1.1.5 netmask 255.255.255.0 broadcast 10.1.1.255\n"
            "tcp_sendspace 524288 tcp_recvspace 524288 rfc1323 1\n"
            "Name Mtu Network Address Ipkts Ierrs Opkts Oerrs Coll\n"
            "en0 9000 10.1.1 10.1.1.5 100 0 200 0 0\n")
    r = netif.parse(text)
    assert r.warnings == []
    en0, row = r.records
    assert en0.mtu == 9000 and en0.inet == [("10.1.1.5", "255.255.255.0")] and en0.isno["tcp_sendspace"] == 524288
    assert (row.name, row.network, row.opkts, row.line) == ("en0", "10.1.1", 200, 5)


def test_header_broken_over_lines_as_copied_from_a_pdf():
    text = ("# ifconfig en2\nen2:\nflags=1e080863,4c0<UP,BROADCAST,NOTRAILERS,RUNNING,SIMPLEX,MULTICAST,GROU\n"
            "PRT,64BIT,CHECKSUM_OFFLOAD(ACTIVE),LARGESEND,CHAIN>\ninet 10.9.8.7 netmask 0xfffffe00 broadcast 10.9.9.255\n"
            "tcp_sendspace 262144 tcp_recvspace 262144 rfc1323 1\n# \n")
    r = netif.parse(text)
    assert r.warnings == []
    (en2,) = r.records
    assert (en2.name, en2.line, en2.largesend) == ("en2", 2, True) and "GROUPRT" in en2.flags
    assert en2.inet == [("10.9.8.7", "255.255.254.0")] and en2.lines["rfc1323"] == 6


def test_bad_input_warns():
    r = netif.parse("Name Mtu Network Address Ipkts Ierrs Opkts Oerrs Coll\nen0 1500 a b c d e f g h\n\x00\x01\n")
    assert r.records == [] and [w.line for w in r.warnings] == [2, 3]
    r = netif.parse("garbage line\n")
    assert r.records == [] and r.warnings[0].line == 1
    assert netif.detect("nothing") == 0


LINUX_OLD = """# ifconfig
eth0      Link encap:Ethernet  HWaddr 0a:1b:2c:3d:4e:5f
          inet addr:10.40.1.17  Bcast:10.40.1.255  Mask:255.255.255.0
          inet6 addr: fe80::81b:2cff:fe3d:4e5f/64 Scope:Link
          UP BROADCAST RUNNING MULTICAST  MTU:9000  Metric:1
          RX packets:120 errors:0 dropped:0 overruns:0 frame:0
          TX packets:99 errors:0 dropped:0 overruns:0 carrier:0
          collisions:0 txqueuelen:1000
          RX bytes:1200 (1.2 KB)  TX bytes:990 (990.0 B)
          Interrupt:16 Memory:fb000000-fb020000

lo        Link encap:Local Loopback
          inet addr:127.0.0.1  Mask:255.0.0.0
          UP LOOPBACK RUNNING  MTU:65536  Metric:1
"""

LINUX_NET_TOOLS_2 = """# ifconfig
env2: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500
        inet 10.40.2.9  netmask 255.255.255.0  broadcast 10.40.2.255
        inet6 fe80::1  prefixlen 64  scopeid 0x20<link>
        ether 0a:1b:2c:3d:4e:60  txqueuelen 1000  (Ethernet)
        RX packets 2785  bytes 5742557 (5.4 MiB)
        RX errors 0  dropped 0  overruns 0  frame 0
        TX packets 3272  bytes 4278367 (4.0 MiB)
        TX errors 0  dropped 0 overruns 0  carrier 0  collisions 0
        device interrupt 20  memory 0xf7e00000-f7e20000
"""


def test_linux_ifconfig_older_form_gives_flags_mtu_and_addresses():
    r = netif.parse(LINUX_OLD)
    assert r.warnings == []
    eth0, lo = r.records
    assert (eth0.name, eth0.mtu, eth0.flags, eth0.line) == ("eth0", 9000, ["UP", "BROADCAST", "RUNNING", "MULTICAST"], 2)
    assert eth0.inet == [("10.40.1.17", "255.255.255.0")] and eth0.inet6 == ["fe80::81b:2cff:fe3d:4e5f/64"]
    assert eth0.lines == {"flags": 5, "inet": 3, "inet6": 4} and not eth0.largesend
    assert (lo.name, lo.mtu, lo.inet) == ("lo", 65536, [("127.0.0.1", "255.0.0.0")])


def test_linux_ifconfig_counter_lines_are_known_not_warned():
    r = netif.parse(LINUX_NET_TOOLS_2)
    assert r.warnings == []
    (env2,) = r.records
    assert (env2.mtu, env2.inet, env2.inet6) == (1500, [("10.40.2.9", "255.255.255.0")], ["fe80::1"])
    # an unknown line under an interface is still said
    r = netif.parse(LINUX_NET_TOOLS_2 + "        weird 1 2 3\n")
    assert [w.line for w in r.warnings] == [11]
