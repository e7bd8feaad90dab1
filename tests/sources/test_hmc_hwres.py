from pathlib import Path

from lparscope.sources import hmc_hwres as h
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lshwres"


def parse(name: str):
    text = (FIX / name).read_text()
    assert h.detect(text) >= 95
    r = h.parse(text)
    assert r.warnings == []
    return r


def test_proc_sys_and_pool_level():
    (o,) = parse("hmc10_proc_sys.txt").records
    assert (o.resource, o.system, o.float("configurable_sys_proc_units"), o.int("max_shared_proc_pools")) == ("proc-sys", "p10frame1", 20.0, 64)
    (p,) = parse("hmc9_proc_pool_level.txt").records
    assert (p.resource, p.system, p.float("curr_avail_pool_proc_units")) == ("proc-pool", "p9frame2", 3.5)


def test_proc_lpar_current_and_pending():
    r = parse("hmc10_proc_lpar.txt")
    vios, aix, db = r.records
    assert h.proc_lpar(vios)["uncap_weight"] == 255.0
    cur, pend = h.proc_lpar(aix), h.proc_lpar(aix, "pend")
    assert (cur["proc_units"], pend["proc_units"], cur["shared_proc_pool_name"], cur["procs"]) == (2.0, 2.5, "SQLPool", 4.0)
    assert h.proc_lpar(db)["proc_mode"] == "ded" and h.proc_lpar(db)["proc_units"] is None


def test_procpool_lists():
    default, sql = parse("hmc10_procpool.txt").records
    assert default.resource == "procpool" and h.int_list(default.attrs["lpar_ids"]) == [1, 2]
    assert sql.float("max_pool_proc_units") == 4.0 and sql.attrs["lpar_names"] == "aix1"


def test_mem_sys_and_lpar_with_hpt_ratios():
    (m,) = parse("hmc10_mem_sys.txt").records
    assert m.resource == "mem-sys" and m.int("sys_firmware_mem") == 27904
    assert h.ratio(m.attrs["default_hpt_ratios"]) == 128 and m.attrs["possible_hpt_ratios"] == "1:32,1:64,1:128,1:256,1:512"
    assert m.get("max_capacity_sys_mem") == "deprecated" and m.get("mem_mirroring_mode") is None
    vios, aix = parse("hmc10_mem_lpar.txt").records
    assert h.mem_lpar(vios)["hpt_ratio"] == 64
    ma = h.mem_lpar(aix)
    assert (ma["max_mem"], ma["mem"], ma["hpt_ratio"], ma["mem_expansion"]) == (131072, 32768, 128, 1.5)


def test_virtualio_eth_trunks_and_vlans():
    r = parse("hmc10_virtualio_eth.txt")
    rows = [h.veth(o) for o in r.records]
    assert [(x["lpar_name"], x["slot"], x["is_trunk"], x["trunk_priority"], x["pvid"], x["vlans"]) for x in rows] == [
        ("vios1", 10, True, 1, 1, [100, 200]), ("vios1", 11, False, 0, 4094, []),
        ("vios2", 10, True, 2, 1, [100, 200]), ("aix1", 2, False, 0, 100, [])]
    assert {o.resource for o in r.records} == {"veth"} and rows[0]["vswitch"] == "ETHERNET0"


def test_virtualio_scsi_and_fc_pairs():
    server, client = parse("hmc10_virtualio_scsi.txt").records
    assert h.vscsi(server)["remote_lpar_name"] == "aix1" and h.vscsi(client)["remote_slot"] == 20
    assert server.resource == "vscsi"
    s, c = parse("hmc10_virtualio_fc.txt").records
    assert s.resource == c.resource == "vfc"
    assert h.vfc(c)["wwpns"] == ["c0507609a1b20010", "c0507609a1b20011"] and h.vfc(s)["remote_slot"] == 30


def test_io_slots():
    fc, empty = parse("hmc10_io_slot.txt").records
    assert fc.resource == "io-slot" and fc.attrs["description"] == "PCIe3 4-Port 16Gb FC Adapter"
    assert fc.name == "vios1" and empty.lpar_id is None


def test_hmc_message_instead_of_data():
    r = h.parse((FIX / "hmc7_virtualio_fc_unsupported.txt").read_text())
    (msg,) = r.records
    assert isinstance(msg, h.HmcMessage) and msg.code == "HSCLA4C0" and msg.line == 2


def test_without_prompt_resource_inferred_and_kind_wins():
    text = (FIX / "hmc7_proc_lpar_no_prompt.txt").read_text()
    assert [seg.kind for seg in split_and_classify(text)] == ["lshwres"]
    (o,) = h.parse(text).records
    assert o.resource == "proc-lpar" and o.system is None and h.proc_lpar(o)["sharing_mode"] == "cap"


def test_vfc_server_rows_without_prompt_are_fc_by_their_listing():
    # a vFC server adapter prints no WWPNs: the client rows of the same listing say it is FC
    r = parse("hmc11_virtualio_fc_no_prompt.txt")
    assert [o.resource for o in r.records] == ["vfc"] * 4
    server = h.vfc(r.records[1])
    assert (server["adapter_type"], server["remote_lpar_name"], server["remote_slot"], server["wwpns"]) == ("server", "web12", 52, [])


def test_adapter_server_rows_alone_told_by_the_hmc_attribute_order():
    # lshwres prints adapter_type before state for fc, after is_required for scsi
    fc = "lpar_name=vioa,lpar_id=1,slot_num=152,adapter_type=server,state=1,is_required=0,remote_lpar_id=12,remote_lpar_name=web12,remote_slot_num=52\n"
    scsi = "lpar_name=vioa,lpar_id=1,slot_num=20,state=1,is_required=0,adapter_type=server,remote_lpar_id=12,remote_lpar_name=web12,remote_slot_num=20\n"
    assert [o.resource for o in h.parse(fc).records] == ["vfc"]
    assert [o.resource for o in h.parse(scsi).records] == ["vscsi"]
    # two outputs pasted together: each row keeps what its own order says, WWPNs or not
    client = "lpar_name=web12,lpar_id=12,slot_num=52,adapter_type=client,state=1,is_required=0,remote_lpar_id=1,remote_lpar_name=vioa,remote_slot_num=152,wwpns=c05076aa10b20018\n"
    assert [o.resource for o in h.parse(scsi + client + fc).records] == ["vscsi", "vfc", "vfc"]
    # -F --header rows carry the order of the -F list, not the HMC's: the listing's WWPNs decide
    header = "lpar_name,slot_num,adapter_type,state,remote_lpar_id\n"
    assert [o.resource for o in h.parse(header + "vioa,20,server,1,12\n").records] == ["vscsi"]
    # a listing that asked for WWPNs is FC, server rows (empty WWPNs) too
    with_wwpns = "lpar_name,slot_num,adapter_type,state,remote_lpar_id,wwpns\n"
    both = with_wwpns + "vioa,152,server,1,12,\nweb12,52,client,1,1,c05076aa10b20018\n"
    assert [o.resource for o in h.parse(both).records] == ["vfc", "vfc"]


def test_sriov_listings_without_prompt_read_by_their_fields():
    for name, resource in (("hmc11_sriov_adapter_no_prompt.txt", "sriov-adapter"),
                           ("hmc11_sriov_physport_no_prompt.txt", "sriov-physport"),
                           ("hmc11_sriov_logport_no_prompt.txt", "sriov-logport")):
        text = (FIX / name).read_text()
        assert [seg.kind for seg in split_and_classify(text)] == ["lshwres"], name
        r = parse(name)
        assert {o.resource for o in r.records} == {resource} and len(r.records) == 2, name
    port = parse("hmc11_sriov_physport_no_prompt.txt").records[0]
    assert port.attrs["capabilities"] == "pvid_priority_capable,port_vlan_id_capable" and port.attrs["phys_port_label"] == "fabA"


def test_F_header_output_without_command_line_named_by_its_first_line():
    text = (FIX / "hmc11_sriov_logport_header_no_prompt.txt").read_text()
    assert [seg.kind for seg in split_and_classify(text)] == ["lshwres"]
    r = parse("hmc11_sriov_logport_header_no_prompt.txt")
    assert [(o.resource, o.line, o.attrs["lpar_name"], o.attrs["logical_port_id"]) for o in r.records] == [
        ("sriov-logport", 2, "vioa", "27004001"), ("sriov-logport", 3, "vioa", "27004003"),
        ("sriov-logport", 4, "db21", "27004004")]
    assert r.records[2].attrs["lpar_state"] == "Not Activated" and r.records[2].attrs["capacity"] == "20.0"
    slots = parse("hmc10_io_slot_header_no_prompt.txt").records
    assert [(o.resource, o.attrs["drc_index"], o.attrs["lpar_name"]) for o in slots] == [
        ("io-slot", "21010011", "null"), ("io-slot", "21020012", "vioa"), ("io-slot", "21030013", "vioa")]


def test_header_line_in_content_wins_over_a_file_name_F_hint():
    from lparscope.sources import parsers
    from lparscope.sources.filenames import classify_with_hint

    text = (FIX / "hmc10_io_slot_header_no_prompt.txt").read_text()
    reg = parsers()
    segs, hint, shift = classify_with_hint(text, "p10_lshwres_r_io_rsubtype_slot_F_header.txt", reg)
    assert hint is not None and "-F header" in hint.command and [s.kind for s in segs] == ["lshwres"]
    r = h.parse(segs[0].text)
    assert r.warnings == []
    assert [(o.resource, o.attrs["description"]) for o in r.records][1] == ("io-slot", "PCIe3 2-Port 16Gb FC Adapter")
    assert len(r.records) == 3
