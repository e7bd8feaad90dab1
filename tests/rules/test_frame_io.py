from types import SimpleNamespace

from lparscope.model.estate import Evidence
from lparscope.rules.config import Config
from lparscope.rules.frame.storage import (
    frame_npiv_client_vs_port,
    frame_npiv_port_clients,
    frame_vscsi_client_vs_backing,
)

from ._frame_builders import estate, frame, part, slot
from .conftest import device, host


def run(fn, e):
    return list(fn(e, Config()))


def _vscsi_estate(client_qd=3, client_xfer="0x40000", luns=None):
    v = host("vios1", role="vios")
    device(v, "hdisk2", "disk", queue_depth=20, max_transfer="0x80000")
    device(v, "hdisk3", "disk", queue_depth=20, max_transfer="0x80000")
    v.vscsi_mappings = [SimpleNamespace(vhost="vhost0", physloc="U9009.42A.784C1D0-V1-C101", client_id=3, vtd=f"vtscsi{i}",
                                        lun=f"0x8{i + 1}00000000000000", backing_device=f"hdisk{i + 2}", status="Available",
                                        _evidence=Evidence("lsmap.txt", 3 + i)) for i in range(2)]
    c = host("aix1")
    device(c, "hdisk0", "disk", "Virtual SCSI Disk Drive", queue_depth=client_qd, max_transfer=client_xfer)
    fr = frame(part("vios1", 1, "vioserver", host="vios1"), part("aix1", 3, host="aix1"))
    return estate(fr, hosts=[v, c])


def test_vscsi_max_transfer_below_backing_is_info_queue_depth_default_left_to_host_rule():
    [f] = run(frame_vscsi_client_vs_backing, _vscsi_estate())
    assert f.subject == "hdisk0 max_transfer" and f.level == "info" and "hdisk2/hdisk3 on vios1" in f.message
    assert f.fix.root[0].startswith("chdev -l hdisk0 -a max_transfer=0x80000 -P")


def test_vscsi_queue_depth_above_backing_is_warning():
    fs = run(frame_vscsi_client_vs_backing, _vscsi_estate(client_qd=64, client_xfer="0x80000"))
    [f] = fs
    assert f.subject == "hdisk0 queue_depth" and f.level == "warning" and f.values["suggested"] == "20"


def test_vscsi_same_values_quiet():
    assert not run(frame_vscsi_client_vs_backing, _vscsi_estate(client_qd=20, client_xfer="0x80000"))


def _npiv_estate(client_cmds=2048, port_cmds=1024):
    v = host("vios2", role="vios")
    device(v, "fcs0", "fc", num_cmd_elems=port_cmds, max_xfer_size="0x200000")
    v.npiv_mappings = [SimpleNamespace(vfchost="vfchost0", physloc="U9009.42A.784C1D0-V2-C201", client_id=3,
                                       fc_name="fcs0", vfc_client_name="fcs0", status="LOGGED_IN",
                                       _evidence=Evidence("npiv.txt", 3))]
    c = host("aix1")
    device(c, "fcs0", "fc", "Virtual Fibre Channel Client Adapter", num_cmd_elems=client_cmds, max_xfer_size="0x200000")
    fr = frame(part("vios2", 2, "vioserver", host="vios2"), part("aix1", 3, host="aix1"))
    return estate(fr, hosts=[v, c])


def test_npiv_client_above_port_fires():
    [f] = run(frame_npiv_client_vs_port, _npiv_estate())
    assert f.level == "warning" and "port fcs0, which has 1024" in f.message


def test_npiv_client_matching_quiet():
    assert not run(frame_npiv_client_vs_port, _npiv_estate(client_cmds=1024))


def test_npiv_port_clients_from_hmc_vfc_data():
    v = part("vios1", 1, "vioserver")
    for i in range(4):
        v.vfc.append(slot("vfc", 110 + i, "server", 10 + i, f"c{i}", 14, port="U78DA.ND0.X-P0-C7-T0"))
    v.vfc.append(slot("vfc", 120, "server", 20, "c9", 14, port="U78DA.ND0.X-P0-C1-T0"))
    [f] = run(frame_npiv_port_clients, estate(frame(v)))
    assert f.level == "info" and "C7-T0 4" in f.message
    v.vfc.pop(0)
    v.vfc.append(slot("vfc", 121, "server", 21, "c8", 14, port="U78DA.ND0.X-P0-C1-T0"))
    assert not run(frame_npiv_port_clients, estate(frame(v)))
