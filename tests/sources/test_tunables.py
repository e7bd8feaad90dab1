from pathlib import Path

from lparscope.sources import tunables

FIX = Path(__file__).parent.parent / "fixtures" / "tunables"


def by_name(result):
    return {t.name: t for t in result.records}


def test_F_L_table_with_wrapped_name_blanks_and_restricted_part():
    text = (FIX / "aix72_schedo_F_L.txt").read_text()
    assert tunables.detect(text) >= 90
    r = tunables.parse(text)
    t = by_name(r)
    assert r.warnings == []
    assert len(r.records) == 7
    assert {x.command for x in r.records} == {"schedo"}
    fold = t["vpm_fold_policy"]
    assert (fold.current, fold.default, fold.boot, fold.minimum, fold.maximum) == ("4", "1", "4", "0", "15")
    assert fold.unit == "" and fold.type == "D" and fold.line == 9 and fold.restricted is False
    assert t["ded_cpu_donate_thresh"].unit == "% busy"
    assert t["maxspin"].current_int == 16384 and t["maxspin"].maximum_int == 2**32 - 1
    wrapped = t["vpm_throughput_core_threshold"]
    assert wrapped.line == 11 and wrapped.maximum_int == 1024 and wrapped.unit == "cores"
    assert t["vpm_xvcpus"].minimum_int == -1
    fast = t["fast_locks"]  # deprecated: blank DEF/MIN/MAX columns
    assert fast.restricted and (fast.current, fast.default, fast.boot, fast.maximum) == ("0", "", "0", "")
    assert fast.unit == "boolean" and fast.type == "d"
    assert t["sidle_S1runq_mload"].dependencies == ["sidle_S2runq_mload"]


def test_nmon_separators_na_values_and_command_inferred_from_names():
    r = tunables.parse((FIX / "nmon_vmo_L_no_prompt.txt").read_text())
    t = by_name(r)
    assert r.warnings == []
    assert {x.command for x in r.records} == {"vmo"}
    assert t["ame_maxfree_mem"].current == "n/a" and t["ame_maxfree_mem"].current_int is None
    assert t["ame_maxfree_mem"].default_int == 24 * 2**20
    assert t["maxfree"].dependencies == ["minfree", "memory_frames"]
    assert t["minfree"].unit == "4KB pages" and t["minfree"].maximum_int == 1593 * 1024


def test_no_a_name_equals_value_with_host_from_prompt():
    r = tunables.parse((FIX / "aix61_no_a.txt").read_text())
    t = by_name(r)
    assert r.hostname == "lpar07"
    assert len(r.records) == 8 and r.warnings == []
    assert t["tcp_sendspace"].current_int == 262144 and t["tcp_sendspace"].command == "no"
    assert t["delayackports"].current == "{}"
    assert t["rfc1323"].line == 5


def test_prompts_inside_text_set_the_command():
    text = (FIX / "vios_oem_schedo_o.txt").read_text()
    assert tunables.detect(text) >= 90
    r = tunables.parse(text)
    assert [(x.command, x.name, x.current, x.line) for x in r.records] == [
        ("schedo", "vpm_fold_policy", "4", 3),
        ("vmo", "maxpin%", "90", 5),
    ]


def test_single_o_line_without_prompt_guesses_schedo():
    (t,) = tunables.parse("vpm_fold_policy = 3\n").records
    assert t.command == "schedo" and t.current_int == 3


def test_no_F_L_sections_reset_restricted():
    r = tunables.parse((FIX / "no_F_L_sections.txt").read_text())
    t = by_name(r)
    assert r.warnings == []
    assert t["net_buf_size"].restricted and not t["tcp_sendspace"].restricted
    assert t["sb_max"].maximum_int == 8 * 2**60 - 1
    assert t["tcp_sendspace"].type == "C" and t["tcp_sendspace"].dependencies == ["sb_max"]
    assert {x.command for x in r.records} == {"no"}


def test_to_number():
    assert tunables.to_number("4G-1") == 2**32 - 1
    assert tunables.to_number("0x10") == 16
    assert tunables.to_number("n/a") is None and tunables.to_number("") is None


def test_bad_input_warns_and_never_raises():
    r = tunables.parse("NAME  CUR  DEF  BOOT  MIN  MAX  UNIT  TYPE\nvpm_fold_policy  garbage here\n\x00\x01 junk\nlonely_name\n")
    assert r.records == []
    assert [w.line for w in r.warnings] == [2, 3, 4]
    assert tunables.detect("hello world\n") == 0
    assert tunables.parse("").records == []


def test_hmc_attribute_listings_are_no_tunables():
    from lparscope.sources.detect import split_and_classify

    memopt = "lpar_name=vioa,lpar_id=1,curr_lpar_score=100\nlpar_name=db21,lpar_id=21,curr_lpar_score=none\n"
    assert tunables.detect(memopt) == 0
    assert [seg.kind for seg in split_and_classify(memopt)] == [None]
    physport = (FIX.parent / "lshwres" / "hmc11_sriov_physport_no_prompt.txt").read_text()
    assert tunables.detect(physport) == 0
    # one pair per line is still a tunable (nmon's name=value form)
    assert tunables.detect("minfree=960\nmaxfree=1088\n") > 0


def test_wrapped_name_whose_values_line_lost_its_indent_in_a_paste():
    text = ("/# ioo -L\n"
            "NAME                      CUR    DEF    BOOT   MIN    MAX    UNIT           TYPE\n"
            "     DEPENDENCIES\n"
            "--------------------------------------------------------------------------------\n"
            "j2_dynamicBufferPreallocation\n"
            "16     16     16     0      256    16K slabs         D\n"
            "--------------------------------------------------------------------------------\n"
            "j2_inodeCacheSize         400    400    400    1      1000                     D\n")
    r = tunables.parse(text)
    assert r.warnings == []
    t = r.records[0]
    assert (t.command, t.name, t.current, t.default, t.boot, t.minimum, t.maximum, t.unit, t.type, t.line) == (
        "ioo", "j2_dynamicBufferPreallocation", "16", "16", "16", "0", "256", "16K slabs", "D", 5)
    assert [x.name for x in r.records] == ["j2_dynamicBufferPreallocation", "j2_inodeCacheSize"]
