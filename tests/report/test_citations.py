"""Every rule's source resolves to documents a reader can find; explain shows fix and rollback."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from lparscope.cli import app
from lparscope.report.citations import SEEDS, citations, cite
from lparscope.rules.engine import all_rules

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"


def test_every_rule_source_names_its_documents() -> None:
    for r in all_rules().values():
        cs = citations(r.source)
        assert cs, r.id
        for c in cs:
            assert "no public document" not in c.basis, (r.id, c)
            assert ".txt" not in c.document and not c.document.startswith("rules-catalogue"), (r.id, c)
            if c.document in {t for t, _ in SEEDS.values()}:
                continue
            # anything else is either a public document from the catalogue or a named measurement source
            assert c.basis.startswith("rules catalogue") or c.document.startswith(("nmon", "HMC Scanner")), (r.id, c)


def test_redbook_chapter_and_section_are_named() -> None:
    text = cite("000_31a80e54567cd02b.txt §3.1 (Table 3-1); rules-catalogue S3")
    assert 'SG24-8080 "IBM Power Systems Performance Guide: Implementing and Optimizing", chapter 3' in text
    assert "§3.1 (Table 3-1)" in text and "SG24-8079" in text and "[rules catalogue S3]" in text
    slide = citations("001_56ba1d0866fd4e65.txt (Link Aggregation Configuration: backup adapter)")[0]
    assert slide.document.startswith("S. Knudson") and slide.where == 'slide "Link Aggregation Configuration: backup adapter"'
    # a semicolon inside parentheses does not split the citation
    (one,) = citations("000_31a80e54567cd02b.txt §3.9.2 (File; Example 3-42, 3-43; Conclusion)")
    assert one.where == "§3.9.2 (File; Example 3-42, 3-43; Conclusion)"


def test_explain_shows_sources_fix_and_rollback(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["explain", "NET-CLIENT-MTU-BYPASS"])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Sources" in out and "SG24-8080" in out
    assert "Fix" in out and "chdev -l en0 -a mtu_bypass=on" in out
    assert "Rollback" in out and "mtu_bypass=off" in out
    (tmp_path / "h").mkdir()
    res = CliRunner().invoke(app, ["explain", "NET-CLIENT-MTU-BYPASS", "--on", str(tmp_path)])
    assert res.exit_code == 0 and "no finding of this rule in" in res.output
