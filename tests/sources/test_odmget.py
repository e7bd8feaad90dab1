from pathlib import Path

from lparscope.sources import odmget

FIX = Path(__file__).parent.parent / "fixtures" / "odmget"


def test_pdat_stanza_with_prompt():
    text = (FIX / "pdat_ha_mode.txt").read_text()
    assert odmget.detect(text) >= 90
    r = odmget.parse(text)
    (s,) = r.records
    assert r.warnings == []
    assert s.object_class == "PdAt" and s.line == 3
    assert s.fields["values"] == "disabled,auto,standby,sharing" and s.fields["width"] == ""
    assert s.fields["nls_index"] == "88" and s.lines["values"] == 7


def test_two_cuat_stanzas_without_prompt():
    text = (FIX / "cuat_two_stanzas.txt").read_text()
    assert odmget.detect(text) >= 90
    a, b = odmget.parse(text).records
    assert (a.fields["attribute"], a.fields["value"], a.line) == ("queue_depth", "32", 1)
    assert (b.fields["attribute"], b.fields["value"], b.lines["value"]) == ("reserve_policy", "no_reserve", 13)


def test_collapsed_one_line_stanza_and_document_quotes():
    (s,) = odmget.parse('CuAt: name = "hdisk5" attribute = "queue_depth" value = "8" type = "R" nls_index = 30\n').records
    assert s.fields == {"name": "hdisk5", "attribute": "queue_depth", "value": "8", "type": "R", "nls_index": "30"}
    (s,) = odmget.parse('PdAt:\nattribute = "ha_mode\u201c\ndeflt = "disabled\u201c\n').records
    assert s.fields == {"attribute": "ha_mode", "deflt": "disabled"}
    # a quote lost inside a value, the class at the end of the command line
    (s,) = odmget.parse('# odmget PdAt | grep -p "wio PdAt:\nuniquetype = "wio attribute = "naca_1_spt" deflt = "1"\n').records
    assert (s.object_class, s.fields["uniquetype"], s.fields["attribute"], s.fields["deflt"]) == ("PdAt", "wio", "naca_1_spt", "1")


def test_bad_input_warns_and_never_raises():
    r = odmget.parse('deflt = "1"\nPdAt:\nnot a field\n\x00\x01\n')
    assert [w.line for w in r.warnings] == [1, 3, 4]
    assert odmget.detect("hello\n") == 0
