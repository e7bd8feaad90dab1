"""Conformance over the real corpus in ../shared/corpus (skipped when the folder is absent).

Every file whose MANIFEST kind lparscope supports must split, classify and parse
without an exception, and at least one of its outputs must be recognised as the
expected kind with records filled. The whole corpus must also go through
``analyze`` without a traceback. A coverage table per kind is printed (pytest -s)
and written to corpus-coverage.txt in the pytest temporary folder.
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from lparscope.pipeline import analyze
from lparscope.sources import parsers
from lparscope.sources.detect import split_and_classify

from .corpus_kinds import render, table

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
pytestmark = pytest.mark.skipif(not (CORPUS / "MANIFEST.tsv").exists(), reason="../shared/corpus not present")

# MANIFEST kind (regex) -> the lparscope kind expected to be recognised in the file.
EXPECTED = [
    (r"^lparstat -i", "lparstat-i"),
    (r"^lparstat \(no interval\)", "lparstat"),
    (r"^lsattr", "lsattr"),
    (r"^entstat", "entstat"),
    (r"^(ending )?vmstat -v", "vmstat-v"),
    (r"^(ending )?vmstat -s", "vmstat-s"),
    (r"^iostat -dD", "iostat-D"),
    (r"^(no|vmo|ioo|schedo|nfso) (-a|-L|-F -L)", "tunables"),
    (r"^lsdev -Cc", "lsdev"),
    (r"^(VIOS dump: )?lsmap", "lsmap"),
    (r"^fcstat", "fcstat"),
    (r"^lswpar", "lswpar"),
    (r"^netstat -in", "netif"),
    (r"^amepat", "amepat"),
    (r"^mount$", "mount"),
    (r"^(ending )?lparstat -H", "lparstat-H"),
    (r"^lparstat -E", "lparstat-E"),
    (r"^lsps", "lsps"),
    (r"^lsconf", "prtconf"),
    (r"^df ", "df"),
    (r"^mpstat -d", "mpstat"),
    (r"^lscfg -v", "lscfg"),
    (r"^lsvpd", "lsvpd"),
    (r"^lssrad", "lssrad"),
    (r"^ioslevel/oslevel", None),  # mixed pastes: must not fail; kinds vary
    (r"^lssea/lsseasV4", "lssea"),  # the SEA report part; the rest of the file is other commands
]


def _manifest() -> list[tuple[str, str | None]]:
    rows = []
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            path, kind = row["local_path"], row["kind"]
            if Path(path).name.startswith("LINUX_"):
                continue
            for pattern, ours in EXPECTED:
                if re.search(pattern, kind):
                    rows.append((path, ours))
                    break
    return rows


def test_every_supported_file_parses(tmp_path: Path) -> None:
    registry = parsers()
    coverage: dict[str, Counter] = defaultdict(Counter)
    failures: list[str] = []
    for rel, expected in _manifest():
        text = (CORPUS / rel).read_text(encoding="utf-8", errors="replace")
        segments = split_and_classify(text, registry)  # an exception fails the test
        found = []
        for seg in segments:
            if seg.kind is None:
                continue
            parsed = registry[seg.kind].parse(seg.text)  # must not raise
            found.append((seg.kind, bool(parsed.records), bool(parsed.warnings)))
        label = expected or "mixed"
        hits = [f for f in found if expected is None or f[0] == expected]
        if expected is not None and not any(h[1] for h in hits):
            failures.append(f"{rel}: expected {expected}, found {found or 'nothing'}")
            coverage[label]["not recognised"] += 1
        elif any(h[2] for h in hits):
            coverage[label]["partly"] += 1
        else:
            coverage[label]["parsed"] += 1
    table = "\n".join(f"{k:<12} " + ", ".join(f"{n} {s}" for s, n in sorted(c.items())) for k, c in sorted(coverage.items()))
    (tmp_path / "corpus-coverage.txt").write_text(table + "\n")
    print("\ncorpus coverage per kind:\n" + table)
    assert not failures, "\n".join(failures)


def test_analyze_whole_corpus_without_traceback(tmp_path: Path) -> None:
    analysis = analyze([str(CORPUS)])
    inputs = [{"path": i.path, "kind": i.kind, "status": i.status} for i in analysis.estate.inputs]
    per_kind = render(table(inputs, CORPUS))
    (tmp_path / "corpus-by-manifest-kind.txt").write_text(per_kind + "\n")
    print("\nfiles per MANIFEST kind:\n" + per_kind)
    assert analysis.estate.inputs
    assert not analysis.problems, analysis.problems
    assert not [i for i in analysis.estate.inputs if i.reason.startswith("parser error")]
    # one source of truth for derived numbers on real data too (tests/rules/test_consistency.py)
    from tests.rules.test_consistency import contradictions

    assert contradictions(analysis.findings) == []
    # Every MANIFEST kind none of whose files is read is listed in docs/parsers.md with its reason.
    docs = (Path(__file__).resolve().parents[1] / "docs" / "parsers.md").read_text(encoding="utf-8")
    not_read = docs.split("## Not read (yet)", 1)[-1].replace("\\|", "|")
    unlisted = [kind for kind, c in table(inputs, CORPUS).items()
                if not c["parsed"] and not c["partly"] and f"`{kind}`" not in not_read]
    assert not unlisted, f"MANIFEST kinds neither read nor listed under 'Not read (yet)' in docs/parsers.md: {unlisted}"
