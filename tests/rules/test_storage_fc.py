from types import SimpleNamespace as NS

from lparscope.model.estate import Sourced
from lparscope.rules.config import Config
from lparscope.rules.storage import fc_adapters as storage_fc_adapters
from lparscope.rules.storage import npiv as storage_npiv
from lparscope.sources.lspath import DiskPath

from .conftest import device, ev, host, run_rule, stats


def npiv(vfchost, port):
    return NS(vfchost=vfchost, fc_name=port, client_id=3, physloc=None, _evidence=ev(4, "npiv.txt"))


def test_npiv_port_clients_over_limit():
    v = host("vios2", "vios")
    v.npiv_mappings += [npiv(f"vfchost{i}", "fcs0") for i in range(5)]
    cfg = Config(thresholds={"npiv_clients_per_port_max": 4})
    (f,) = run_rule(storage_npiv.npiv_port_clients, v, cfg)
    assert f.values == {"current": "5", "suggested": "<= 4"}
    assert "vfcmap -vadapter vfchost4 -fcp <another NPIV port>" in f.fix.padmin
    assert run_rule(storage_npiv.npiv_port_clients, v) == []  # 5 <= 64


def test_npiv_spread_uneven_with_moves():
    v = host("vios2", "vios")
    v.npiv_mappings += [npiv(f"vfchost{i}", "fcs0") for i in range(4)]
    device(v, "fcs1", "fc", "PCIe2 2-Port 16Gb FC Adapter")
    (f,) = run_rule(storage_npiv.npiv_port_spread, v)
    assert f.level == "warning" and f.values == {"current": "fcs0: 4, fcs1: 0", "suggested": "fcs0: 2, fcs1: 2"}
    assert f.fix.padmin[-2:] == ["vfcmap -vadapter vfchost2 -fcp", "vfcmap -vadapter vfchost2 -fcp fcs1"]
    assert f.rollback.padmin[-1] == "vfcmap -vadapter vfchost2 -fcp fcs0"
    v.npiv_mappings[0].fc_name = v.npiv_mappings[1].fc_name = "fcs1"
    assert run_rule(storage_npiv.npiv_port_spread, v) == []


def test_npiv_spread_single_known_port_is_info():
    v = host("vios2", "vios")
    v.npiv_mappings += [npiv(f"vfchost{i}", "fcs0") for i in range(4)]
    (f,) = run_rule(storage_npiv.npiv_port_spread, v)
    assert f.level == "info" and "All 4 NPIV client adapters" in f.message
    v.npiv_mappings[1:] = []
    assert run_rule(storage_npiv.npiv_port_spread, v) == []


def _fcs(h, **counters):
    s = stats(name="fcs0", device_type="FC Adapter (adapter/pciex/df1000e21410f103)", counters=counters,
              lines={k: 40 + i for i, k in enumerate(counters)})
    return device(h, "fcs0", "fc", stats=s, num_cmd_elems=500, max_xfer_size="0x100000")


def test_num_cmd_elems_shortage():
    h = host("vios1", "vios")
    _fcs(h, no_command_resource_count=1830, seconds_since_last_reset=86400, invalid_crc_count=4)
    (f,) = run_rule(storage_fc_adapters.fcs_num_cmd_elems, h)
    assert "1830" in f.message and "invalid_crc_count 4" in f.message
    assert f.fix.padmin == ["chdev -dev fcs0 -attr num_cmd_elems=1000 -perm"]
    assert f.fix.root[0] == "chdev -l fcs0 -a num_cmd_elems=1000 -P"
    assert f.rollback.root == ["chdev -l fcs0 -a num_cmd_elems=500 -P"]
    h2 = host("vios1", "vios")
    _fcs(h2, no_command_resource_count=0)
    assert run_rule(storage_fc_adapters.fcs_num_cmd_elems, h2) == []


def test_max_xfer_size_dma_shortage():
    h = host()
    _fcs(h, no_dma_resource_count=12, ip_no_dma_resource_count=0)
    (f,) = run_rule(storage_fc_adapters.fcs_max_xfer, h)
    assert f.values == {"current": "0x100000", "suggested": "0x200000"} and f.fix.padmin == []
    assert f.fix.root[0] == "chdev -l fcs0 -a max_xfer_size=0x200000 -P"
    h2 = host()
    _fcs(h2, no_dma_resource_count=0, ip_no_dma_resource_count=7)  # IP over FC section does not count
    assert run_rule(storage_fc_adapters.fcs_max_xfer, h2) == []


def test_fscsi_fast_fail_with_lspath():
    h = host()
    device(h, "fscsi0", "fscsi", fc_err_recov="delayed_fail", dyntrk="no")
    device(h, "fscsi1", "fscsi", fc_err_recov="fast_fail", dyntrk="yes")
    h.records["lspath"] = [Sourced(DiskPath("hdisk1", "Enabled", p, line=i), "p.txt", 0) for i, p in enumerate(["fscsi0", "fscsi1"], 1)]
    (f,) = run_rule(storage_fc_adapters.fscsi_recovery, h)
    assert f.subject == "fscsi0" and f.fix.root[0] == "chdev -l fscsi0 -a fc_err_recov=fast_fail -a dyntrk=yes -P"
    assert f.rollback.root == ["chdev -l fscsi0 -a fc_err_recov=delayed_fail -a dyntrk=no -P"]
    # single path through fscsi0: keep delayed_fail
    h.records["lspath"] = [Sourced(DiskPath("hdisk1", "Enabled", "fscsi0", line=1), "p.txt", 0)]
    assert run_rule(storage_fc_adapters.fscsi_recovery, h) == []


def test_fscsi_without_lspath_needs_two_ports():
    h = host("vios1", "vios")
    device(h, "fscsi0", "fscsi", fc_err_recov="delayed_fail", dyntrk="yes")
    assert run_rule(storage_fc_adapters.fscsi_recovery, h) == []
    device(h, "fscsi1", "fscsi", fc_err_recov="fast_fail", dyntrk="yes")
    (f,) = run_rule(storage_fc_adapters.fscsi_recovery, h)
    assert "assumed multipathed" in f.message and f.fix.padmin == ["chdev -dev fscsi0 -attr fc_err_recov=fast_fail dyntrk=yes -perm"]


def _fc_port(h, name, fc_id, attention="Link Up", port_type="Fabric"):
    from lparscope.sources.fcstat import FcAdapterStats

    s = FcAdapterStats(name, port_type=port_type, port_fc_id=fc_id, attributes={"attention_type": attention})
    return device(h, name, "fc", "PCIe4 4-Port 32Gb FC Adapter", stats=s)


def test_npiv_spread_moves_clients_within_their_switch_to_ports_fcstat_shows_up():
    v = host("vios2", "vios")
    v.npiv_mappings += [npiv(f"vfchost{i}", "fcs0") for i in range(6)]
    _fc_port(v, "fcs0", "0x086280")
    _fc_port(v, "fcs1", "0x080280")  # the same switch (domain 08)
    _fc_port(v, "fcs2", "0xda0200")  # another switch: the clients are not zoned there
    _fc_port(v, "fcs3", "0x08c280", attention="Link Down")
    device(v, "fcs4", "fc", "PCIe4 4-Port 32Gb FC Adapter")  # no fcstat beside the others: its link is not known
    (f,) = run_rule(storage_npiv.npiv_port_spread, v)
    assert f.values == {"current": "fcs0: 6, fcs1: 0, fcs2: 0", "suggested": "fcs0: 3, fcs1: 3, fcs2: 0"}
    targets = {c.split()[-1] for c in f.fix.padmin if c.startswith("vfcmap") and not c.endswith("-fcp")}
    assert targets == {"fcs1"} and any("zoned" in c for c in f.fix.padmin)
    _fc_port(v, "fcs1", "0xda0300")  # now every idle port is on the other switch: nothing to move
    assert run_rule(storage_npiv.npiv_port_spread, v) == []


def test_extra_npiv_clients_move_to_a_port_on_their_own_switch():
    from lparscope.sources.lsnports import NpivPort

    v = host("vios2", "vios")
    v.npiv_mappings += [npiv(f"vfchost{i}", "fcs1") for i in range(3)]
    ports = [NpivPort("fcs0", "U1-P1-C1-T1", 1, 64, 10, 2048, 2000, 2), NpivPort("fcs1", "U1-P1-C1-T2", 1, 2, 0, 2048, 2000, 3),
             NpivPort("fcs2", "U1-P1-C2-T1", 1, 64, 60, 2048, 2040, 4)]
    v.records["lsnports"] = [Sourced(p, "lsnports.txt", 0) for p in ports]
    _fc_port(v, "fcs0", "0x086280")
    _fc_port(v, "fcs1", "0x080280")
    _fc_port(v, "fcs2", "0xda0200")  # most free virtual ports, but another switch
    (f,) = run_rule(storage_npiv.npiv_port_clients, v)
    assert f.fix.padmin[-2:] == ["vfcmap -vadapter vfchost2 -fcp", "vfcmap -vadapter vfchost2 -fcp fcs0"]


def test_max_xfer_size_unknown_now_is_not_given_a_fixed_target():
    h = host()
    _fcs(h, no_dma_resource_count=12)
    del h.devices["fcs0"].attrs["max_xfer_size"]  # fcstat only: a larger value may already be set
    (f,) = run_rule(storage_fc_adapters.fcs_max_xfer, h)
    assert "at least 0x200000" in f.values["suggested"] and "0x100000" not in " ".join(f.rollback.root)


def test_counters_that_stood_still_between_two_fcstat_runs_are_an_old_shortage():
    h = host()
    first = _fcs(h, no_dma_resource_count=17, no_command_resource_count=19, seconds_since_last_reset=345322).stats
    _fcs(h, no_dma_resource_count=17, no_command_resource_count=19, seconds_since_last_reset=345422)
    h.devices["fcs0"].stats_first = first
    assert run_rule(storage_fc_adapters.fcs_max_xfer, h) == []
    assert run_rule(storage_fc_adapters.fcs_num_cmd_elems, h) == []
    h.devices["fcs0"].stats.counters["no_dma_resource_count"] = 25  # rose in the 100 s between: now
    assert len(run_rule(storage_fc_adapters.fcs_max_xfer, h)) == 1


def test_two_fcstat_runs_keep_the_first_reading(tmp_path):
    from pathlib import Path

    from lparscope.pipeline import analyze

    src = (Path(__file__).resolve().parents[1] / "fixtures" / "fcstat" / "fcs1_aix72_physical.txt").read_text()
    (tmp_path / "aix3").mkdir()
    (tmp_path / "aix3" / "fcstat_1.txt").write_text(src)
    (tmp_path / "aix3" / "fcstat_2.txt").write_text(src.replace("Seconds Since Last Reset: 604812",
                                                                "Seconds Since Last Reset: 604912"))
    dev = analyze([str(tmp_path)]).estate.hosts["aix3"].devices["fcs1"]
    assert dev.stats_first is not None and dev.stats_first.counters["seconds_since_last_reset"] == 604812
    assert dev.stats.counters["seconds_since_last_reset"] == 604912


def test_fc_link_errors_rising_warn_one_reading_informs_standing_still_is_quiet():
    h = host("vios1", "vios")
    first = _fcs(h, loss_of_sync_count=4, invalid_crc_count=1, seconds_since_last_reset=9000).stats
    (f,) = run_rule(storage_fc_adapters.fc_link_errors, h)  # one reading: counts since reset
    assert f.severity == "info" and "loss of sync count 4" in f.message and "one reading" in f.message
    assert f.fix.padmin == ["fcstat fcs0"] and not f.fix.changes
    _fcs(h, loss_of_sync_count=4, invalid_crc_count=9, seconds_since_last_reset=9600)
    h.devices["fcs0"].stats_first = first
    (f,) = run_rule(storage_fc_adapters.fc_link_errors, h)  # CRC errors rose in 600 s
    assert (f.severity or f.rule.severity) == "warning" and "invalid crc count 9" in f.message and "loss of sync" not in f.message
    h.devices["fcs0"].stats.counters["invalid_crc_count"] = 1  # nothing rose: an old burst
    assert run_rule(storage_fc_adapters.fc_link_errors, h) == []
    h.devices["fcs0"].stats.counters["seconds_since_last_reset"] = 100  # reset in between: one reading again
    assert run_rule(storage_fc_adapters.fc_link_errors, h)[0].severity == "info"
    clean = host("aix1", "aix")
    _fcs(clean, loss_of_sync_count=0, seconds_since_last_reset=9000)
    assert run_rule(storage_fc_adapters.fc_link_errors, clean) == []
