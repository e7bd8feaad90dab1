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


def test_each_line_shows_as_the_parsers_split_the_text_whatever_its_characters_and_line_ends():
    from lparscope.sources.base import split_lines

    # accented and wide characters, an undecodable byte as read (a lone surrogate), CR, CRLF and
    # LF line ends, and a line longer than the 200 characters an excerpt keeps
    text = ("hdisk0 Disponible \u00e9t\u00e9\rhdisk1 \u4e2d\u6587 \udcff raw\r\n" + "\u00e9" * 300 + "\n\n  last  ")
    lines = split_lines(text)
    finding = SimpleNamespace(evidence=[Evidence("h/lsdev.txt", n, "") for n in range(1, len(lines) + 2)])
    _with_excerpts([finding], {"h/lsdev.txt": pack(text)})  # type: ignore[list-item]
    assert [e.excerpt for e in finding.evidence] == [line.strip()[:200] for line in lines] + [""]
