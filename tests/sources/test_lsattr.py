from pathlib import Path

from lparscope.sources import lsattr

FIX = Path(__file__).parent.parent / "fixtures" / "lsattr"


def attrs(result):
    return {a.name: a for a in result.records}


def test_aix_columns_with_dynamic_flag_and_empty_value():
    text = (FIX / "aix72_hdisk_vscsi_client.txt").read_text()
    assert lsattr.detect(text) >= 90
    r = lsattr.parse(text)
    a = attrs(r)
    assert r.warnings == []
    assert {x.device for x in r.records} == {"hdisk1"}
    assert a["queue_depth"].value == "3" and a["queue_depth"].line == 10
    assert a["queue_depth"].user_settable is True  # "True+" = changeable at run time
    assert a["location"].value == "" and a["location"].description == "Location Label"
    assert a["PCM"].user_settable is False


def test_vios_form_reads_device_from_command():
    text = (FIX / "vios_lsdev_dev_attr_sea.txt").read_text()
    r = lsattr.parse(text)
    a = attrs(r)
    assert a["thread"].value == "1" and a["thread"].device == "ent8"
    assert a["virt_adapters"].description.startswith("List of virtual adapters")
    assert "attribute" not in a


def test_collapsed_spacing_as_in_pasted_text():
    r = lsattr.parse("# lsattr -El hdisk3 -a queue_depth\nqueue_depth 256 Queue DEPTH True\n")
    (a,) = r.records
    assert (a.device, a.name, a.value, a.description) == ("hdisk3", "queue_depth", "256", "Queue DEPTH")


def test_colon_forms():
    r = lsattr.parse("#ent_mem_cap:goodsize:mem_exp_factor:size:var_mem_weight\n:3712::3712:\n")
    a = attrs(r)
    assert a["goodsize"].value == "3712" and a["mem_exp_factor"].value == ""
    r = lsattr.parse("queue_depth:20\nmax_transfer:0x40000\n")
    assert attrs(r)["max_transfer"].value == "0x40000"


def test_garbage_lines_become_warnings_not_exceptions():
    r = lsattr.parse("queue_depth  3  Queue DEPTH  True\n\x00\x01 binary junk here\n")
    assert len(r.records) == 1
    assert r.warnings and r.warnings[0].line == 2
