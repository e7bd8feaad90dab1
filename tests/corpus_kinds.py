"""Per-kind reading status over the real corpus: each MANIFEST kind with how many of its files
were parsed, partly read or unrecognised.

Used by the conformance test, and by hand on any JSON report of a corpus run::

    lparscope analyze ../shared/corpus --json corpus.json
    python tests/corpus_kinds.py corpus.json

A file is *parsed* when every output found in it was read in full, *partly* when some
output was read but another had warnings or was not recognised, *unrecognised* when none was.
"""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def manifest_kinds(corpus: Path = CORPUS) -> dict[str, str]:
    with open(corpus / "MANIFEST.tsv", encoding="utf-8") as fh:
        return {row["local_path"]: row["kind"] for row in csv.DictReader(fh, delimiter="\t")}


def file_status(entries: list[dict]) -> str:
    read = [e for e in entries if e.get("kind") and e["status"] in ("parsed", "partly")]
    if not read:
        return "unrecognised"
    if all(e["status"] == "parsed" for e in entries):
        return "parsed"
    return "partly"


def table(inputs: list[dict], corpus: Path = CORPUS) -> dict[str, Counter]:
    kinds = manifest_kinds(corpus)
    by_file: dict[str, list[dict]] = defaultdict(list)
    for e in inputs:
        path = e["path"].replace("\\", "/")
        rel = path.split("corpus/", 1)[-1].split("!", 1)[0]
        by_file[rel].append(e)
    out: dict[str, Counter] = defaultdict(Counter)
    for rel, kind in kinds.items():
        entries = by_file.get(rel)
        out[kind][file_status(entries) if entries else "missing"] += 1
    return out


def render(t: dict[str, Counter]) -> str:
    rows = []
    for kind in sorted(t):
        c = t[kind]
        rows.append(f"{kind[:70]:<70} parsed {c['parsed']:>2}  partly {c['partly']:>2}  unrecognised {c['unrecognised']:>2}"
                    + (f"  missing {c['missing']}" if c["missing"] else ""))
    total = Counter()
    for c in t.values():
        total.update(c)
    rows.append(f"{'TOTAL files':<70} parsed {total['parsed']:>2}  partly {total['partly']:>2}  unrecognised {total['unrecognised']:>2}")
    return "\n".join(rows)


if __name__ == "__main__":
    report = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    print(render(table(report["inputs"])))
