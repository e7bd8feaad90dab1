"""The excerpt shown with a finding is the line its evidence names, counted as the parsers count lines."""

from types import SimpleNamespace

from lparscope.model.estate import Evidence
from lparscope.parse_pool import pack
from lparscope.pipeline import _with_excerpts


def test_a_form_feed_or_vertical_tab_does_not_end_a_line():
    text = "# lsattr -El hdisk0\x0c page 2\nqueue_depth 3 Queue DEPTH True\x0b\nreserve_policy single_path Reserve Policy True\r\nlast"
    finding = SimpleNamespace(evidence=[Evidence("aix1/lsattr.txt", 2, ""), Evidence("aix1/lsattr.txt", 3, ""),
                                        Evidence("aix1/lsattr.txt", 4, "")])
    _with_excerpts([finding], {"aix1/lsattr.txt": pack(text)})  # type: ignore[list-item]
    assert [e.excerpt for e in finding.evidence] == [
        "queue_depth 3 Queue DEPTH True\x0b".strip(), "reserve_policy single_path Reserve Policy True", "last"]
