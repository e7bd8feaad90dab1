"""Thresholds and rule selection, with documented defaults, overridable from a TOML file.

Example ``lparscope.toml``::

    [rules]
    disable = ["NET-SEA-ACCOUNTING"]      # rule ids to skip
    only = []                             # when non-empty, run only these
    [rules.severity]
    CPU-EC-BELOW-VP = "info"              # change a rule's severity

    [thresholds]
    ec_to_vp_min_ratio = 0.25
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

# Every threshold a rule reads, its default and why. `lparscope rules` prints these.
DEFAULTS: dict[str, tuple[float, str]] = {
    "ec_to_vp_min_ratio": (0.25, "EC below this share of the online VPs is flagged (000 §3.1 folding test: "
                                 "EC 6.4 / 64 VP = 0.10 took 30 s to unfold, EC 50 / 64 VP = 0.78 took 5 s)"),
    "entc_uncapped_high": (100.0, "mean %entc above this on an uncapped LPAR: EC below its real average use (000 §3.1)"),
    "entc_capped_pinned": (95.0, "share of samples at or above this %entc that marks a capped LPAR pinned at EC"),
    "capped_pinned_share": (0.8, "share of samples that must be pinned for the capped-LPAR finding"),
    "max_mem_to_online_ratio": (4.0, "maximum memory above this multiple of online memory is flagged for HPT overhead"),
    "hpt_ratio": (64.0, "HPT divisor: 64 for POWER5-POWER7 (000 §3.1); 128 for AIX/Linux on POWER7+ and later"),
    "sqfull_share": (0.5, "share of iostat intervals with sqfull > 0 that counts as persistent"),
    "sea_thread_overflow_min": (1.0, "Thread queue overflow packets at or above this are reported (002)"),
    "vscsi_default_queue_depth": (3.0, "the vSCSI client disk default queue_depth (000 §3.6.2)"),
}


OWNERS: dict[str, str] = {}  # threshold name -> module that declared it


def threshold(name: str, default: float, why: str) -> str:
    """Declare a threshold from a rule module (beside the rule that reads it); returns its name."""
    if name in DEFAULTS and DEFAULTS[name][0] != default:
        raise ValueError(f"threshold {name} declared twice with different defaults")
    DEFAULTS[name] = (default, why)
    OWNERS[name] = sys._getframe(1).f_globals.get("__name__", "")
    return name


@dataclass
class Config:
    thresholds: dict[str, float] = field(default_factory=dict)  # only the values a file overrode
    disabled: set[str] = field(default_factory=set)
    only: set[str] = field(default_factory=set)
    severities: dict[str, str] = field(default_factory=dict)

    def t(self, name: str) -> float:
        return self.thresholds[name] if name in self.thresholds else DEFAULTS[name][0]

    def enabled(self, rule_id: str) -> bool:
        if self.only and rule_id not in self.only:
            return False
        return rule_id not in self.disabled

    def severity_override(self, rule_id: str) -> str | None:
        return self.severities.get(rule_id)


class ConfigError(ValueError):
    pass


def load(path: str | Path | None) -> Config:
    """The default configuration, updated from a TOML file when one is given."""
    cfg = Config()
    if path is None:
        return cfg
    p = Path(path)
    try:
        data: dict[str, Any] = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: {exc}") from None
    from .discovery import import_rule_modules

    import_rule_modules()  # rule modules declare their thresholds when imported
    for key, value in (data.get("thresholds") or {}).items():
        if key not in DEFAULTS:
            raise ConfigError(f"{p}: unknown threshold '{key}' (known: {', '.join(sorted(DEFAULTS))})")
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ConfigError(f"{p}: threshold '{key}' must be a number")
        cfg.thresholds[key] = float(value)
    rules = data.get("rules") or {}
    cfg.disabled = set(rules.get("disable") or [])
    cfg.only = set(rules.get("only") or [])
    for rid, sev in (rules.get("severity") or {}).items():
        if sev not in ("critical", "warning", "info"):
            raise ConfigError(f"{p}: severity for {rid} must be critical, warning or info")
        cfg.severities[rid] = sev
    return cfg
