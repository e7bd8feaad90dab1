"""Sizing from measured use: EC/VP recommendations (:mod:`.cpu`) and time-series checks
(:mod:`.series_checks`), as pure functions over numpy arrays returning plain dataclasses."""

from .cpu import Sizing, Stats, detect_peak, parse_peak, size_partition
from . import series_checks

__all__ = ["series_checks", "Sizing", "Stats", "detect_peak", "parse_peak", "size_partition"]
