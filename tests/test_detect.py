from pathlib import Path

from lparscope.sources.detect import split_and_classify

PASTED = """root@aix1:/ # lsattr -El en0
mtu_bypass    off     Enable/Disable largesend for virtual Ethernet  True
mtu           1500    Maximum IP Packet Size for This Device         True
root@aix1:/ # oslevel -s
7200-05-06-2320
root@aix1:/ # lsvg -l rootvg
rootvg:
LV NAME             TYPE       LPs     PPs     PVs  LV STATE      MOUNT POINT
hd5                 boot       1       1       1    closed/syncd  N/A
root@aix1:/ # lsvg -p rootvg
rootvg:
PV_NAME           PV STATE          TOTAL PPs   FREE PPs    FREE DISTRIBUTION
hdisk0            active            639         402         128..00..18..128..128
"""


def test_split_on_prompts_keeps_command_and_host():
    segs = split_and_classify(PASTED)
    assert [(s.start, s.kind) for s in segs] == [(1, "lsattr"), (4, "oslevel"), (6, "lsvg-l"), (10, "lsvg-p")]
    assert segs[0].prompt.host == "aix1" and segs[3].prompt.command == "lsvg -p rootvg"


def test_split_promptless_paste_at_output_starts():
    text = ("ETHERNET STATISTICS (ent0) :\nDevice Type: Virtual I/O Ethernet Adapter (l-lan)\n"
            "Hardware Address: 52:e8:7f:a2:19:0a\n\n"
            "attribute     value    description                 user_settable\n"
            "thread        1        Thread mode enabled (1) or disabled (0)   True\n")
    segs = split_and_classify(text)
    assert [s.kind for s in segs] == ["entstat", "lsattr"]
    assert segs[1].start == 5


def test_unrecognised_text_has_a_reason():
    (seg,) = split_and_classify("hello world\nthis is not an AIX command output\n")
    assert seg.kind is None and "no supported command output" in seg.reason


def test_silent_commands_are_dropped():
    segs = split_and_classify("$ oem_setup_env\n# schedo -o vpm_fold_policy\nvpm_fold_policy = 3\n")
    assert [s.kind for s in segs] == ["tunables"]


def test_bracket_prompt_with_a_path_names_command_and_host():
    """bash's [user@host:dir]$ prompt: each command its own output, the host from the prompt."""
    text = ("[mark@aix01:~]$ uname -a\nAIX aix01 2 7 00C63E204B00\n[mark@aix01:~]$ lparstat\n\n"
            "System configuration: type=Shared mode=Uncapped smt=8 lcpu=8 mem=4096MB psize=19 ent=0.50\n\n"
            "%user  %sys  %wait  %idle physc %entc  lbusy  vcsw phint\n"
            "----- ----- ------ ------ ----- ----- ------ ----- -----\n"
            "  0.3   0.1    0.0   99.6  0.00   1.0    0.6 305391 17392\n")
    segs = split_and_classify(text)
    assert [(s.start, s.kind, s.prompt.host, s.prompt.command) for s in segs] == [
        (1, "hostname", "aix01", "uname -a"), (3, "lparstat", "aix01", "lparstat")]  # uname -a names the host


def test_one_pattern_for_all_start_lines_picks_the_kind_trying_each_in_turn_would():
    import re
    import types
    from pathlib import Path

    from lparscope.sources import parsers
    from lparscope.sources.detect import _Starts

    registry = parsers()
    starts = _Starts(registry)
    assert starts.joined is not None
    in_turn = [(k, mod.STARTS) for k, mod in registry.items() if getattr(mod, "STARTS", None) is not None]
    lines = [ln.strip() for f in sorted((Path(__file__).parent / "fixtures").rglob("*.txt"))
             for ln in f.read_text(errors="replace").splitlines()]
    lines += ["vnic server statistics:", "  Name  Mtu   Network     Address  Ipkts", "time=1/2/2024 10:00:00,"]
    matched = 0
    for line in lines:
        want = next((k for k, pat in in_turn if pat.match(line)), None)
        assert starts.kind(line) == want, line
        matched += want is not None
    assert matched > 200
    # a pattern that cannot sit inside a group (global inline flags) makes it try them in turn
    odd = {"x": types.SimpleNamespace(STARTS=re.compile("(?i)^abc")), "y": types.SimpleNamespace(STARTS=re.compile("^ab"))}
    fallback = _Starts(odd)  # type: ignore[arg-type]
    assert fallback.joined is None and fallback.kind("ABCd") == "x" and fallback.kind("abd") == "y"
    assert fallback.kind("xyz") is None


def test_prompts_as_sites_set_them():
    """Prompt forms seen in real pastes: no blank after the sigil, the shell's own prompt, a bare
    host name, 'user on host:path', a bracketed path with no sigil, bash's '[user@host dir]#', and
    VIOS commands typed through ioscli."""
    from lparscope.sources.base import parse_prompt

    seen = {line: (p.command, p.host) if (p := parse_prompt(line)) else None for line in [
        "lpar7:/#lspv", "bash-4.2# lsvg -l rootvg", "ksh$ lspv", "aix7# netstat -in",
        "root on vios3:/>lsdev -Cc adapter", "padmin@vios3:[/home/padmin]lsmap -all",
        "$ ioscli lsmap -all -npiv", "# /usr/ios/cli/ioscli lspv", "ioscli lsdev -virtual",
        "[root@lpar7 ~]# lsvg -l rootvg", "[padmin@vios3 logs]$ ioscli lsmap -all", "#lsps -a", "#lspv",
        # not prompts: a comment, an unknown command behind a bare word, a sigil with text before
        "# Thread queue full", "ent0# foo", "#no longer used", "Value>lsattr", "lpar7:/#notacommand",
        "[root@a b c]# lspv"]}
    assert seen == {
        "lpar7:/#lspv": ("lspv", "lpar7"), "bash-4.2# lsvg -l rootvg": ("lsvg -l rootvg", None),
        "ksh$ lspv": ("lspv", None), "aix7# netstat -in": ("netstat -in", "aix7"),
        "root on vios3:/>lsdev -Cc adapter": ("lsdev -Cc adapter", "vios3"),
        "padmin@vios3:[/home/padmin]lsmap -all": ("lsmap -all", "vios3"),
        "$ ioscli lsmap -all -npiv": ("lsmap -all -npiv", None), "# /usr/ios/cli/ioscli lspv": ("lspv", None),
        "ioscli lsdev -virtual": ("lsdev -virtual", None),
        "[root@lpar7 ~]# lsvg -l rootvg": ("lsvg -l rootvg", "lpar7"), "[padmin@vios3 logs]$ ioscli lsmap -all":
        ("lsmap -all", "vios3"), "#lsps -a": ("lsps -a", None), "#lspv": ("lspv", None),
        "# Thread queue full": None, "ent0# foo": None, "#no longer used": None, "Value>lsattr": None,
        "lpar7:/#notacommand": None, "[root@a b c]# lspv": None}


def test_outputs_under_tight_prompts_are_cut_apart():
    text = ("lpar7:/#lspv\n"
            "hdisk0          00c8d5e0a1b2c3d4                    rootvg          active\n"
            "lpar7:/#errpt\n"
            "IDENTIFIER TIMESTAMP  T C RESOURCE_NAME  DESCRIPTION\n"
            "A6DF45AA   1104093025 I O RMCdaemon      The daemon is started.\n")
    segs = split_and_classify(text)
    assert [(s.start, s.kind, s.prompt.host) for s in segs] == [(1, "lspv", "lpar7"), (3, "errpt", "lpar7")]


def test_parallel_shell_output_is_read_per_host():
    """xdsh / dsh / pdsh put 'host: ' in front of every line; each host's output comes in one run."""
    text = ("xdsh vios3,vios4 -l padmin \"ioscli lspv\"\n"
            "vios3: NAME             PVID                                 VG               STATUS\n"
            "vios3: hdisk0           00f6c1a2b3c4d5e6                     rootvg           active\n"
            "vios3: hdisk1           00f6c1a2b3c4d5e7                     None\n"
            "vios4: NAME             PVID                                 VG               STATUS\n"
            "vios4: hdisk0           00f6c1a2b3c4ffee                     rootvg           active\n"
            "vios4: \n"
            "vios4: hdisk1           00f6c1a2b3c4fff0                     None\n")
    segs = split_and_classify(text)
    read = [(s.start, s.kind, s.prompt.host if s.prompt else None) for s in segs]
    assert read == [(1, None, None), (2, "lspv", "vios3"), (5, "lspv", "vios4")]
    lspv = segs[2]
    from lparscope.sources import lspv as lspv_parser
    pvs = lspv_parser.parse(lspv.text).records
    assert [(p.name, p.vg, p.line + lspv.start - 1) for p in pvs] == [("hdisk0", "rootvg", 6), ("hdisk1", None, 8)]
    # hosts' lines interleaved one by one look like a keyed listing ("MAC:", "VLAN:" ...): not split
    from lparscope.sources.dsh import host_spans
    mixed = [ln for pair in zip(text.splitlines()[1:4], text.splitlines()[4:7]) for ln in pair]
    assert host_spans(mixed) is None


def test_lines_that_start_with_a_word_and_a_colon_are_not_a_parallel_shell():
    from lparscope.sources.dsh import host_spans

    errpt = ["LABEL:          SC_DISK_ERR2", "IDENTIFIER:     B6267342", "",
             "Date/Time:       Tue Nov  4 09:30:25 2025", "Sequence Number: 1234",
             "LABEL:          SC_DISK_ERR4", "IDENTIFIER:     DCB47997"]
    assert host_spans(errpt) is None
    entstat = ["State: PRIMARY", "Bridge Mode: All", "Priority: 1", "Active: True", "Status: OK"]
    assert host_spans(entstat) is None


def test_a_note_above_an_output_does_not_hide_it():
    text = ("# LVM\n```\n"
            "rootvg:\n"
            "LV NAME             TYPE       LPs     PPs     PVs  LV STATE      MOUNT POINT\n"
            "hd5                 boot       1       1       1    closed/syncd  N/A\n"
            "hd6                 paging     32      32      1    open/syncd    N/A\n")
    segs = split_and_classify(text)
    assert [(s.start, s.kind) for s in segs] == [(1, None), (3, "lsvg-l")]
    assert segs[0].reason == "no supported command output recognised"


def test_a_comment_above_a_command_in_notes_goes_with_no_output():
    # an administrator's notes: a comment says what the next command shows; it must not be read as
    # the last line of the output above it (a warning there), nor make a piece of its own
    text = ("lspv\n"
            "hdisk0          00c8d7e4a1b2c3d4                    rootvg          active\n"
            "\n"
            "# 顯示PVID (shows each disk's volume identifier)\n"
            "# second line of the note\n"
            "lsps -a\n"
            "Page Space      Physical Volume   Volume Group    Size %Used   Active    Auto    Type   Chksum\n"
            "hd6             hdisk0            rootvg        4096MB    12     yes     yes      lv       0\n")
    segs = split_and_classify(text)
    assert [(s.start, s.kind) for s in segs] == [(1, "lspv"), (6, "lsps")]
    from lparscope.sources import lspv

    assert lspv.parse(segs[0].text).warnings == []
    assert "#" not in segs[0].text and segs[1].start == 6  # emptied, not removed: line numbers stay the file's


def test_monitoring_agent_sections_are_outputs_of_their_own():
    text = ("<<<check_mk>>>\nVersion: 2.2.0p7\nAgentOS: aix\nHostname: lpar31\n"
            "<<<aix_diskiod>>>\nhdisk0 0.9 237.0 9.1 1337054478 1628926522\n"
            "<<<aix_paging>>>\n"
            "Page Space      Physical Volume   Volume Group    Size %Used   Active    Auto    Type   Chksum\n"
            "hd6                   hdisk0                rootvg       4096MB    12        yes        yes       lv       0\n")
    segs = split_and_classify(text)
    assert [(s.start, s.kind) for s in segs] == [(1, "hostname"), (5, None), (7, "lsps")]
    from lparscope.sources import hostname
    assert hostname.parse(segs[0].text).hostname == "lpar31"


def test_a_collectors_raso_section_is_not_filed_under_the_schedo_above():
    text = ("[schedo]\n        vpm_fold_policy = 1\n            vpm_xvcpus = 0\n"
            "[raso]\n               biostat = 0\n         kernel_noexec = 1\n")
    segs = split_and_classify(text)
    assert [(s.start, s.kind, s.prompt.command if s.prompt else None) for s in segs] == \
        [(1, "tunables", "schedo"), (4, None, "raso")]
    assert segs[1].reason == "command 'raso' is not a supported input kind"


def test_lsattr_with_a_header_flag_before_E():
    segs = split_and_classify("$ lsattr -HEl sys0 -a maxuproc\nattribute value description                                  user_settable\n\n"
                              "maxuproc  2048  Maximum number of PROCESSES allowed per user True\n")
    assert [s.kind for s in segs] == ["lsattr"]


def test_sessions_with_vios_cluster_commands_and_sudo_are_cut_at_each_prompt():
    text = ("$ lspv\nNAME             PVID                                 VG               STATUS\n"
            "hdisk0           00f6c1a2b3c4d5e6                     rootvg           active\n"
            "$ cluster -status -clustername ssp1\nNode Name  MTM  Partition Num  State  Pool State\n"
            "vios3  8284-22A022132E0W  1  OK  OK\n"
            "$ sudo lparstat 1 1\n\nSystem configuration: type=Shared mode=Uncapped smt=8 lcpu=8 mem=16384MB psize=4 ent=0.50\n\n"
            "%user  %sys  %wait  %idle physc %entc  lbusy  vcsw phint\n----- ----- ------ ------ ----- ----- ------ ----- -----\n"
            "  1.2   0.8    0.0   98.0  0.02   4.1    0.5   412     0\n")
    segs = split_and_classify(text)
    assert [(s.start, s.kind) for s in segs] == [(1, "lspv"), (4, None), (7, "lparstat")]
    assert segs[1].reason == "command 'cluster' is not a supported input kind"


def test_lparcfg_is_read_as_lparcfg_not_as_tunables():
    text = ("# cat /proc/ppc64/lparcfg\nlparcfg 1.9\nserial_number=IBM,0221A7CDW\nsystem_type=IBM,9009-42A\n"
            "partition_id=7\npartition_entitled_capacity=150\nshared_processor_mode=1\n")
    assert [s.kind for s in split_and_classify(text)] == ["lparcfg"]
    assert [s.kind for s in split_and_classify(text.split("\n", 1)[1])] == ["lparcfg"]


def test_an_output_pasted_without_prompt_under_a_prompted_one_is_cut_where_the_first_stops_reading():
    text = ("$ lspv\n"
            "NAME             PVID                                 VG               STATUS\n"
            "hdisk0           00c5e7d04f1a2b3c                     rootvg           active\n"
            "hdisk1           00c5e7d04f9e8d7c                     clientvg         active\n"
            "\n"
            "then the mapping of the new client:\n"
            "\n"
            "SVSA            Physloc                                      Client Partition ID\n"
            "--------------- -------------------------------------------- ------------------\n"
            "vhost3          U9009.42A.78AB12C-V1-C14                     0x00000009\n"
            "\n"
            "VTD                   vtscsi4\n"
            "Status                Available\n"
            "LUN                   0x8100000000000000\n"
            "Backing device        hdisk1\n"
            "Physloc               U78D3.001.WZS0ABC-P1-C2-T1-W500507680D0A1B2C-L1000000000000\n"
            "Mirrored              false\n")
    segs = split_and_classify(text)
    assert [(s.kind, s.start, s.prompt.command if s.prompt else None) for s in segs] == [
        ("lspv", 1, "lspv"), ("lsmap", 6, None)]
    from lparscope.sources import lsmap
    m = lsmap.parse(segs[1].text)
    assert [r.vtd for r in m.records] == ["vtscsi4"]
    # a prompted output read to its end is never cut, even when a header-like line is inside it
    whole = split_and_classify("$ lspv\nNAME  PVID  VG  STATUS\nhdisk0  00c5e7d04f1a2b3c  rootvg  active\n")
    assert len(whole) == 1 and whole[0].kind == "lspv"


def test_a_report_title_between_system_configuration_and_the_header_stays_in_the_output():
    text = ("\nSystem configuration: type=Shared mode=Uncapped smt=8 lcpu=16 mem=32768MB ent=1.50 Power=Disabled\n\n"
            "Physical Processor Utilisation:\n\n"
            " --------Actual--------              ------Normalised------\n"
            " user   sys  wait  idle      freq    user   sys  wait  idle\n"
            " ----  ----  ----  ----   ---------  ----  ----  ----  ----\n"
            "0.412 0.101 0.000 0.987 3.9GHz[100%] 0.412 0.101 0.000 0.987\n")
    segs = split_and_classify(text)
    assert [(s.kind, s.start) for s in segs] == [("lparstat-E", 1)]


def test_a_paste_of_sar_pcmpath_and_lparcfg_outputs_is_cut_at_each_prompt():
    fix = Path(__file__).parent / "fixtures"
    sar_out = (fix / "sar" / "aix73_P_ALL_shared_uncapped.txt").read_text()
    pcm = (fix / "pcmpath" / "sddpcm_svc_dead_path.txt").read_text().split("\n", 1)[1]  # its own prompt off
    cfg = (fix / "lparcfg" / "sles12_dedicated_donating.txt").read_text()
    text = ("aixweb3:/ # sar -P ALL 10 3\n" + sar_out + "aixweb3:/ # pcmpath query device\n" + pcm
            + "sar -u 600 4\n" + (fix / "sar" / "aix72_u_shared_midnight.txt").read_text().split("\n", 1)[1]
            + "[root@lnxdb02 ~]# cat /proc/ppc64/lparcfg\n" + cfg + "[root@lnxdb02 ~]# exit\n")
    segs = split_and_classify(text)
    n_sar, n_pcm = sar_out.count("\n"), pcm.count("\n")
    assert [(s.start, s.kind) for s in segs] == [
        (1, "sar"), (2 + n_sar, "pcmpath"), (3 + n_sar + n_pcm, "sar"), (16 + n_sar + n_pcm, "lparcfg")]
    assert [s.prompt.command for s in segs] == ["sar -P ALL 10 3", "pcmpath query device", "sar -u 600 4", "cat /proc/ppc64/lparcfg"]
    # without prompts, each output's own first line opens it
    bare = sar_out + pcm + cfg
    assert [s.kind for s in split_and_classify(bare)] == ["sar", "pcmpath", "lparcfg"]
