"""Reading changes: --change options, JSON and the small YAML subset; applying them."""

from __future__ import annotations

import pytest

from lparscope.simulate import FrameSettings, PartitionSettings
from lparscope.simulate.changes import ChangeError, apply, parse_file, parse_option


def test_option_aliases_map_to_hmc_attribute_names() -> None:
    c = parse_option("aix1.ec=1.2")
    assert (c.target, c.attr, c.value) == ("aix1", "desired_proc_units", "1.2")
    assert parse_option("aix1.vp=3").attr == "desired_procs"
    assert parse_option("aix1.sharing_mode=uncapped").value == "uncap"
    assert parse_option("pool1.max=8").attr == "max_pool_proc_units"


@pytest.mark.parametrize("text, message", [
    ("aix1ec=1", "expected HOST.ATTRIBUTE=VALUE"), ("aix1.ec=lots", "needs a number"),
    ("aix1.colour=red", "unknown attribute"), ("aix1.mode=sometimes", "cap or uncap"),
    ("aix1.ec=-1", "must not be negative"), ("aix1.ec=nan", "'nan' is not a number"),
    ("aix1.vp=NaN", "'NaN' is not a number"), ("aix1.ec=inf", "'inf' is not a finite number"),
    ("aix1.ec=1e400", "'1e400' is not a finite number")])
def test_bad_options_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ChangeError, match=message):
        parse_option(text)


def test_yaml_block_and_flow_forms_and_json() -> None:
    yaml = "# plan for Monday\naix1:\n  ec: 1.2\n  vp: 3   # whole cores\naix2: {ec: 2.5, mode: uncap}\n"
    got = [(c.target, c.attr, c.value, c.origin) for c in parse_file(yaml, "c.yaml")]
    assert got == [("aix1", "desired_proc_units", "1.2", "c.yaml:3"), ("aix1", "desired_procs", "3", "c.yaml:4"),
                   ("aix2", "desired_proc_units", "2.5", "c.yaml:5"), ("aix2", "sharing_mode", "uncap", "c.yaml:5")]
    js = parse_file('{"aix1": {"desired_proc_units": 1.2}}', "c.json")
    assert [(c.target, c.attr, c.value) for c in js] == [("aix1", "desired_proc_units", "1.2")]


@pytest.mark.parametrize("text, where", [("  ec: 1\n", "c.yaml:1"), ("aix1:\n  ec:\n", "c.yaml:2"),
                                         ("aix1: [1, 2]\n", "c.yaml:1"), ("aix1:\n  ec 1\n", "c.yaml:2"),
                                         ('{"aix1": ', "c.yaml:1")])
def test_bad_files_name_file_and_line(text: str, where: str) -> None:
    with pytest.raises(ChangeError, match=where):
        parse_file(text, "c.yaml")


def test_apply_copies_and_changes_only_the_named_partition() -> None:
    s = FrameSettings(8.0, [PartitionSettings("aix1", 0.5, 2, False, 0), PartitionSettings("aix2", 1, 2, True)])
    new, used, notes = apply(s, [parse_option("AIX1.ec=1.5"), parse_option("aix1.mode=uncap"),
                                 parse_option("aix1.mem=8192"), parse_option("other.ec=1")])
    assert s.partitions[0].ec == 0.5 and not s.partitions[0].uncapped  # today's settings untouched
    p = new.partitions[0]
    assert (p.ec, p.uncapped, p.weight) == (1.5, True, 128.0)
    assert len(used) == 3 and any("weight 0" in n for n in notes) and any("desired_mem" in n for n in notes)


def test_a_capped_partition_made_uncapped_takes_the_weight_set_beside_it_in_any_order() -> None:
    from lparscope.simulate.changes import Change

    s = FrameSettings(8.0, [PartitionSettings("vios2", 1, 2, False, 0), PartitionSettings("aix2", 2, 2, False, 0)])
    mode_first = [Change("vios2", "sharing_mode", "uncap", "plan"), Change("vios2", "uncap_weight", "255", "plan")]
    for changes in (mode_first, mode_first[::-1]):
        new, _, notes = apply(s, changes)
        assert (new.partitions[0].uncapped, new.partitions[0].weight) == (True, 255.0)
        assert not [n for n in notes if "weight 0" in n]
    # made uncapped with no weight given: replayed with the HMC default, and said so
    new, _, notes = apply(s, [Change("aix2", "sharing_mode", "uncap", "plan")])
    assert new.partitions[1].weight == 128.0 and notes == [
        "aix2: uncapped with weight 0 gets no spare capacity; replayed with weight 128 (the HMC default)"]
