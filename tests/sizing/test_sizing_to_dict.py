"""Sizing.to_dict gives what dataclasses.asdict gave (with times as HH:MM), for every sized host."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from lparscope.pipeline import analyze

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"


def test_to_dict_is_asdict_with_times() -> None:
    sized = [h.sizing for h in analyze([str(EXAMPLE)]).estate.hosts.values() if h.sizing is not None]
    assert sized
    for z in sized:
        expected = asdict(z)
        expected["peak_window"] = None if z.peak_window is None else [t.strftime("%H:%M") for t in z.peak_window]
        expected["peak_ranges"] = [list(r) for r in z.peak_ranges]
        got = z.to_dict()
        assert got == expected and list(got) == list(expected)
        assert got["reasons"] is not z.reasons  # a copy, as asdict made
