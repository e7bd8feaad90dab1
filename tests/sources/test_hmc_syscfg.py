from pathlib import Path

from lparscope.sources import hmc_syscfg as s
from lparscope.sources import hmc_util
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lssyscfg"


def read(name: str) -> str:
    return (FIX / name).read_text()


def test_sys_default_form_system_from_own_name():
    text = read("hmc10_r_sys.txt")
    assert s.detect(text) >= 95
    r = s.parse(text)
    assert r.warnings == [] and r.hostname == "hmc1"
    a, b = r.records
    assert (a.resource, a.system, a.attrs["type_model"], a.attrs["serial_num"]) == ("sys", "p10frame1", "9105-22A", "78AB001")
    assert a.attrs["lpar_proc_compat_modes"] == "default,POWER9_base,POWER9,POWER10"
    assert b.attrs["state"] == "Power Off" and b.line == 3 and b.int("max_lpars") == 160


def test_lpar_system_from_command_line():
    r = s.parse(read("hmc10_r_lpar.txt"))
    assert [o.name for o in r.records] == ["vios1", "vios2", "aix1"]
    assert {o.system for o in r.records} == {"p10frame1"}
    vios1 = r.records[0]
    assert vios1.resource == "lpar" and vios1.lpar_id == 1 and vios1.attrs["lpar_env"] == "vioserver"
    assert vios1.lines["os_version"] == 2


def test_profile_adapter_lists_are_typed():
    r = s.parse(read("hmc10_r_prof.txt"))
    assert r.warnings == []
    vios, aix = r.records
    assert vios.resource == "prof" and s.ratio(vios.attrs["hpt_ratio"]) == 64 and s.as_float(vios.attrs, "desired_proc_units") == 1.0
    ad = s.adapters(vios)
    trunk, ctl = ad["veth"]
    assert (trunk["slot"], trunk["pvid"], trunk["vlans"], trunk["trunk_priority"], trunk["is_trunk"]) == (10, 1, [100, 200], 1, True)
    assert trunk["vswitch"] == "ETHERNET0" and trunk["ieee_virtual_eth"] is True and trunk["is_required"] is True
    assert (ctl["pvid"], ctl["is_trunk"]) == (4094, False)
    assert [x["drc_index"] for x in ad["io_slots"]] == ["21010010", "21010018"]
    assert ad["vscsi"][0] == {"slot": 20, "adapter_type": "server", "remote_lpar_id": 3, "remote_lpar_name": "aix1",
                              "remote_slot": 20, "is_required": False, "raw": "20/server/3/aix1/20/0"}
    assert ad["vfc"][0]["remote_slot"] == 30 and ad["vfc"][0]["wwpns"] == []
    assert [x["remote_lpar_id"] for x in ad["serial"]] == [None, None]
    fc = s.adapters(aix)["vfc"]
    assert [(x["slot"], x["remote_lpar_name"], x["wwpns"]) for x in fc] == [
        (30, "vios1", ["c0507609a1b20010", "c0507609a1b20011"]), (31, "vios2", ["c0507609a1b20012", "c0507609a1b20013"])]
    assert s.ratio(aix.attrs["hpt_ratio"]) == 128 and s.adapters(aix)["io_slots"] == []


def test_F_form_values_named_from_command_line():
    r = s.parse(read("hmc9_r_sys_F.txt"))
    assert [(o.resource, o.system, o.attrs["serial_num"], o.attrs["state"]) for o in r.records] == [
        ("sys", "p10frame1", "78AB001", "Operating"), ("sys", "p9frame2", "21CD002", "Power Off")]


def test_F_form_colon_delimiter_and_header():
    r = s.parse(read("hmc9_r_lpar_F_colon_header.txt"))
    assert r.warnings == []
    assert [(o.attrs["name"], o.lpar_id, o.attrs["state"], o.system) for o in r.records] == [
        ("vios3", 1, "Not Activated", "p9frame2"), ("aix7", 2, "Not Activated", "p9frame2")]


def test_multi_command_dump():
    text = read("hmc8_collect_dump.txt")
    assert [seg.kind for seg in split_and_classify(text)] == ["lssyscfg"]
    r = s.parse(text)
    kinds = [(type(x).__name__, getattr(x, "resource", getattr(x, "what", getattr(x, "code", None)))) for x in r.records]
    assert kinds == [("HmcInfo", "version"), ("HmcObject", "sys"), ("HmcObject", "lpar"), ("HmcObject", "proc-sys"),
                     ("HmcMessage", "HSCLA4C0")]
    info = r.records[0]
    assert isinstance(info, hmc_util.HmcInfo) and info.base_version == "V9R2" and info.attrs["service_pack"] == "950"
    assert r.records[1].attrs == {"name": "p10frame1"} and r.records[1].system == "p10frame1"
    assert r.records[2].system == "p10frame1" and r.records[2].line == 11
    assert r.records[3].float("configurable_sys_proc_units") == 20.0


def test_bad_input_warns_with_line_numbers_and_never_raises():
    r = s.parse(read("bad_input.txt"))
    assert len(r.records) == 1 and r.records[0].name == "vios1"
    assert [w.line for w in r.warnings] == [3, 4]
    for junk in ["", "\x00\x01", '"', "a=b,c", "###command:lssyscfg -r sys###\n", "-F\n"]:
        s.parse(junk)


def test_not_claimed_by_tunables():
    for name in ["hmc10_r_sys.txt", "hmc10_r_lpar.txt", "hmc10_r_prof.txt"]:
        body = read(name).split("\n", 1)[1]  # without the prompt line
        assert [seg.kind for seg in split_and_classify(body)] == ["lssyscfg"]


def test_F_values_without_names_are_unrecognised_with_the_reason():
    from lparscope.sources import parsers
    from lparscope.sources.filenames import classify_with_hint
    text = read("hmc10_r_lpar_F_no_names.txt")
    (seg,) = split_and_classify(text)
    assert seg.kind is None
    assert seg.reason.startswith("HMC -F values without field names (4 line(s) of 4 values)")
    (seg,) = split_and_classify(read("hmc10_r_lpar_F_alone.txt"))
    assert seg.kind is None and "'lssyscfg -r lpar -m p10frame3 -F' has no -F field list" in seg.reason
    # the field list in the file's name names the values
    segs, hint, added = classify_with_hint(text, "hmc7_lssyscfg_-r_lpar_-m_p10frame3_-F_name,lpar_id,state,lpar_env.txt",
                                           parsers())
    assert hint.command == "lssyscfg -r lpar -m p10frame3 -F name,lpar_id,state,lpar_env" and added == 1
    (seg,) = segs
    assert seg.kind == "lssyscfg"
    r = s.parse(seg.text)
    assert r.warnings == []
    assert [(o.attrs["name"], o.lpar_id, o.attrs["state"], o.system, o.line - added) for o in r.records][1] == (
        "aixtest2", 4, "Not Activated", "p10frame3", 2)


def test_F_alone_parsed_anyway_warns_once():
    r = s.parse(read("hmc10_r_lpar_F_alone.txt"))
    assert r.records == []
    (w,) = r.warnings
    assert w.line == 2 and "-F without its field list" in w.message


def test_head_objects_reads_the_head_of_a_long_output_as_of_the_whole_text():
    # detect() reads an HMC output's first lines without splitting the whole output; whatever the
    # line ends (LF, CRLF, CR alone) and colour codes, the first lines are those of the whole text.
    import random

    from lparscope.sources import _hmc_csv as hc
    from lparscope.sources.base import head_text, leading_prompt, output_head, split_lines, strip_ansi

    rng = random.Random(1)
    for _ in range(5000):
        text = "".join(rng.choice(["a", "\n", "\r", "\r\n", "\x1b[1m", "x=1,", "\x1b]0;t\x07", " ", "# ls"])
                       for _ in range(rng.randint(0, 60)))
        n = rng.randint(1, 6)
        assert split_lines(strip_ansi(head_text(text, n)))[:n] == split_lines(strip_ansi(text))[:n], (text, n)
        whole = [ln for ln in split_lines(strip_ansi(text))[:n] if ln.strip()]  # output_head as it read before
        prompt, start = leading_prompt(whole)
        assert output_head(text, n) == (prompt, whole[start:]), (text, n)
    rows = "".join(f"name=lpar{i},lpar_id={i},state=Running,lpar_env=aixlinux\n" for i in range(5000))
    prompt, objs, count = hc.head_objects("hscroot@hmc1:~> lssyscfg -r lpar -m p9\n" + rows)
    assert prompt is not None and count == 6 and objs[0]["name"] == "lpar0" and objs[5]["lpar_id"] == "5"


def test_a_command_line_of_megabytes_is_split_at_blanks_not_by_shell_rules(monkeypatch):
    """A damaged file's "###command:" marker followed by 40 KB of text went through shlex, which reads
    a character at a time in Python (fuzz: 3 MB of such lines took 2.9 s of CPU to parse, 0.15 s
    now); a command line as long as that is split at blanks, a usual one still by shell rules."""
    import shlex

    from lparscope.sources import _hmc_command

    calls = []
    real = shlex.split
    monkeypatch.setattr(_hmc_command.shlex, "split", lambda text: calls.append(len(text)) or real(text))
    long_cmd = "lssyscfg -r lpar -m p10frame1 " + "Packets: 1" * 5000
    cmd = _hmc_command.parse_command(long_cmd)
    assert (cmd.program, cmd.resource, cmd.system) == ("lssyscfg", "lpar", "p10frame1") and calls == []
    quoted = _hmc_command.parse_command("lshwres -r proc -m 'frame one' --level lpar -F lpar_name,curr_procs")
    assert (quoted.system, quoted.level, quoted.fields) == ("frame one", "lpar", ["lpar_name", "curr_procs"])
    assert calls and calls[-1] < _hmc_command.SHELL_QUOTING_MAX
    text = "###command:lssyscfg -r lpar -m p10frame1 " + "Packets: 1" * 5000 + "###\n" + read("hmc10_r_sys.txt")
    assert isinstance(s.parse(text).records, list)


def test_attribute_names_starting_with_a_digit():
    r = s.parse(read("hmc10_r_sys_digit_names.txt"))
    assert r.warnings == []
    (o,) = r.records
    assert o.attrs["os400_capable"] == "1" and o.attrs["5250_application_capable"] == "1"
    assert o.attrs["description"] == "rack B=row 3, unit 12" and o.attrs["max_lpars"] == "80"
    assert o.lines["5250_application_capable"] == 2
    # a number alone is no attribute name: an unquoted comma in a value keeps what follows
    assert s.parse("name=p9frame5,type_model=9009-22A,serial_num=21EF305,note=a,2=b\n").records[0].attrs["note"] == "a,2=b"


def test_F_names_as_separate_words_give_blank_separated_values():
    from lparscope.sources import hmc_syscfg as syscfg_parser

    text = ("hscroot@hmc4:~> lssyscfg -m p8frame -r lpar --header -F name lpar_env state curr_profile os_version\n"
            "name lpar_env state curr_profile os_version\n"
            'web07 aixlinux Running normal "AIX 7.2 7200-05-05-2246"\n'
            "vios1 vioserver Running default_profile \"VIOS 3.1.4.10\"\n")
    r = syscfg_parser.parse(text)
    assert [(o.attrs["name"], o.attrs["state"], o.attrs["os_version"], o.system) for o in r.records] == [
        ("web07", "Running", "AIX 7.2 7200-05-05-2246", "p8frame"), ("vios1", "Running", "VIOS 3.1.4.10", "p8frame")]
    assert r.warnings == []
