"""Finding the rule modules: every module under rules/, at any depth, except the machinery.

Importing a rule module registers its rules (:func:`.engine.rule`) and declares its thresholds
(:func:`.config.threshold`). This module imports neither, so both can ask for discovery without
importing each other.
"""

from __future__ import annotations

import importlib
import pkgutil

# Modules of rules/ that declare no rule: the machinery and the helpers the rule modules share.
MACHINERY = {"engine", "config", "discovery", "changes", "host_facts"}

_done = False


def rule_module_names() -> list[str]:
    """Dotted names of every rule module, sorted (subpackages are walked recursively)."""
    package = importlib.import_module(__name__.rpartition(".")[0])
    names = []
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        short = info.name[len(package.__name__) + 1:]
        if info.ispkg or short in MACHINERY or any(part.startswith("_") for part in short.split(".")):
            continue
        names.append(info.name)
    return sorted(names)


def import_rule_modules() -> None:
    """Import every rule module once."""
    global _done
    if _done:
        return
    for name in rule_module_names():
        importlib.import_module(name)
    _done = True
