"""The import rules of docs/architecture.md, checked on every module of src/lparscope.

Each module's imports are read with ``ast`` (top level and inside functions; imports under
``if TYPE_CHECKING:`` are left out, they never run). Three rules:

1. A package imports only packages of a lower layer (or its own): the data flows one way.
2. No import circle between modules, even inside one package.
3. No module over MAX_LINES lines, except the files listed in LONG_MODULES.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "lparscope"

# Lowest first. A package may import a package of a lower layer, never one of its own layer
# (other than itself) or a higher one. docs/architecture.md explains each layer.
LAYERS: list[set[str]] = [
    {"__init__", "numbers", "pipeline_guard", "heap", "dict_views", "compress_z", "decompress", "recording_head"},  # the version; leaf helpers (finite numbers, failure guards, the GC, report dicts made when read, .Z, gzip, bzip2 and xz expansion)
    {"native_core"},                # the optional native core (lparscope._nmon_native), when it is current
    {"nmon", "collect"},            # nmon recordings as tables; the collector scripts (no analysis)
    {"sources"},                    # one parser per input kind: text -> records
    {"input_items"},                # what reading inputs yields (limits, input file, problem), shared by its two halves
    {"inputs"},                     # files, folders, archives -> classified inputs
    {"parse_pool"},                 # the pure half of reading text inputs, on every core
    {"snap_trees"},                 # AIX snap trees read as one host each
    {"model"},                      # records -> the estate (hosts, frames, pools, series)
    {"sizing"},                     # measured use -> sizes (pure numbers over the model)
    {"rules"},                      # the estate -> findings
    {"simulate"},                   # what-if: a changed estate -> replayed pools and sizes (uses model, sizing)
    {"plan"},                       # findings -> one feasible plan of changes (may replay it with simulate)
    {"pipeline"},                   # the whole analysis: files -> findings, sizing, plan
    {"report"},                     # renderers: terminal, JSON, HTML, XLSX, fix scripts
    {"store"},                      # analyses kept over time, served, compared across a fleet
    {"*_cli"},                      # one command's body each (whatif_cli.py ...), registered in cli.py
    {"cli"},                        # the command line
    {"entry", "__main__"},          # the console script (--version without loading cli); python -m lparscope
]

# Circles between modules that their owners are still breaking. Remove an entry with the circle.
ALLOWED_CIRCLES: set[frozenset[str]] = set()

MAX_LINES = 400
# Modules allowed above MAX_LINES, each with why. Remove an entry when the module is split.
LONG_MODULES: dict[str, str] = {}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The lparscope modules ``name`` imports (a name imported from a package counts as the
    package's submodule when one exists)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_lines(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            bases = [a.name for a in node.names]
            names: list[str] = []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            bases, names = [base], [a.name for a in node.names]
        else:
            continue
        for base in bases:
            if not base.startswith("lparscope"):
                continue
            subs = [f"{base}.{n}" for n in names if f"{base}.{n}" in known]
            found.update(subs or [base])
    found.discard(name)
    return {m for m in found if m in known or m == "lparscope"}


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {name: _imports(name, path, known) for name, path in mods.items()}


# Modules that are one stage split over two files: judged as the first. bundles.py is the archive half of
# inputs.py (issue 11 split it out); inputs imports it, and both take their types from input_items.
SAME_STAGE = {"bundles": "inputs"}


def _top(module: str) -> str:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    return SAME_STAGE.get(top, top)


def _layer(top: str) -> int:
    for i, layer in enumerate(LAYERS):
        if top in layer or (top.endswith("_cli") and "*_cli" in layer):
            return i
    raise AssertionError(f"lparscope/{top} is in no layer of tests/test_architecture.py: add it (and to docs/architecture.md)")


def test_every_package_has_a_layer():
    for module in _modules():
        _layer(_top(module))


def test_imports_go_down_the_layers():
    bad = []
    for module, targets in sorted(_graph().items()):
        here = _top(module)
        for target in sorted(targets):
            there = _top(target)
            if there != here and _layer(there) >= _layer(here):
                bad.append(f"{module} imports {target} ({here} may not import {there})")
    assert not bad, "imports against docs/architecture.md:\n" + "\n".join(bad)


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = set()
                while True:
                    m = stack.pop()
                    on.discard(m)
                    comp.add(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def test_no_import_circles():
    graph = _graph()
    # a package's __init__ importing its own modules is not a circle worth breaking
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    circles = [c for c in _circles(graph) if frozenset(c) not in ALLOWED_CIRCLES]
    assert not circles, "import circles:\n" + "\n".join(" <-> ".join(sorted(c)) for c in circles)


def test_allowed_circles_still_exist():
    """An entry of ALLOWED_CIRCLES whose circle is gone must go too."""
    graph = _graph()
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    found = {frozenset(c) for c in _circles(graph)}
    assert ALLOWED_CIRCLES <= found, f"no longer circles, remove them: {ALLOWED_CIRCLES - found}"


def test_modules_stay_small():
    long = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES and rel not in LONG_MODULES:
            long[rel] = n
    assert not long, f"modules over {MAX_LINES} lines (split them by job): {long}"


def test_long_module_list_is_current():
    """An entry of LONG_MODULES that is gone or back under the limit must go too."""
    stale = [rel for rel in LONG_MODULES
             if not (SRC / rel).exists() or len((SRC / rel).read_text(encoding="utf-8").splitlines()) <= MAX_LINES]
    assert not stale, f"remove from LONG_MODULES: {stale}"
