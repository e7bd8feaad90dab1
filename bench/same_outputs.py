"""Same findings, same JSON, same tables: run ``lparscope analyze`` over the example estate, every
test fixture folder and ../shared/corpus (when present) and keep every output, normalised, so two
trees (before and after a refactoring) can be compared file by file.

    python bench/same_outputs.py OUT_DIR [--src SRC]   # SRC: the src/ folder to run (default: this tree's)
    python bench/same_outputs.py OUT_DIR --input NAME=PATH ...  # only these inputs (e.g. a bench estate)
    python bench/same_outputs.py --compare DIR_A DIR_B # exit 1 and name the files that differ

Normalised: the JSON loses ``generated_at``; the XLSX becomes one TSV per sheet (cell values only,
the generation time dropped); the fix script and the terminal output (120 columns) are kept as text
with the generation time line dropped.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_STAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:?\d\d|Z)?")


def inputs() -> dict[str, Path]:
    found = {"estate": REPO / "examples" / "estate"}
    for d in sorted((REPO / "tests" / "fixtures").iterdir()):
        if d.is_dir():
            found[f"fixture-{d.name}"] = d
    corpus = REPO.parent / "shared" / "corpus"
    if corpus.is_dir():
        found["corpus"] = corpus
    return found


def _xlsx_tsv(path: Path) -> str:
    from openpyxl import load_workbook

    wb = load_workbook(path, read_only=True, data_only=True)
    out = []
    for ws in wb.worksheets:
        out.append(f"## {ws.title}")
        for row in ws.iter_rows(values_only=True):
            cells = ["" if v is None else _STAMP.sub("<time>", str(v)) for v in row]
            out.append("\t".join(cells).rstrip("\t"))
    return "\n".join(out) + "\n"


def run_one(name: str, path: Path, out: Path, src: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(src), COLUMNS="120", TERM="dumb", NO_COLOR="1")
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        proc = subprocess.run(
            [sys.executable, "-m", "lparscope.cli", "analyze", str(path), "--json", "r.json",
             "--xlsx", "r.xlsx", "--fix-script", "fix.ksh"],
            capture_output=True, text=True, env=env, cwd=tmp)
        stdout = "\n".join(ln for ln in proc.stdout.splitlines() if not _STAMP.search(ln))
        (out / f"{name}.stdout.txt").write_text(f"exit {proc.returncode}\n{stdout}\n{proc.stderr}")
        if (t / "r.json").exists():
            report = json.loads((t / "r.json").read_text())
            report.pop("generated_at", None)
            (out / f"{name}.json").write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
        if (t / "r.xlsx").exists():
            (out / f"{name}.xlsx.tsv").write_text(_xlsx_tsv(t / "r.xlsx"))
        if (t / "fix.ksh").exists():
            text = (t / "fix.ksh").read_text()
            (out / f"{name}.fix.ksh").write_text("\n".join(ln for ln in text.splitlines() if not _STAMP.search(ln)))


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    bad = [n for n in names if not (a / n).exists() or not (b / n).exists()
           or (a / n).read_bytes() != (b / n).read_bytes()]
    for n in bad:
        print(f"differs: {n}")
    print(f"{len(names) - len(bad)} of {len(names)} outputs identical")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?")
    ap.add_argument("--src", default=str(REPO / "src"))
    ap.add_argument("--compare", nargs=2)
    ap.add_argument("--input", action="append", default=[], metavar="NAME=PATH",
                    help="run only these inputs instead of the example estate, fixtures and corpus")
    args = ap.parse_args()
    if args.compare:
        return compare(Path(args.compare[0]), Path(args.compare[1]))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    chosen = dict(spec.split("=", 1) for spec in args.input) if args.input else inputs()
    for name, path in chosen.items():
        run_one(name, Path(path).resolve(), out, Path(args.src))
    return 0


if __name__ == "__main__":
    sys.exit(main())
