"""No silent drops: every record a parser read from any fixture is either in the model or the
subject of a warning (file:line) that makes its input ``partly``."""

from __future__ import annotations

from pathlib import Path

import pytest

from lparscope.inputs import collect
from lparscope.pipeline import read_estate

FIX = Path(__file__).parent / "fixtures"
FILES = sorted(p for p in FIX.rglob("*") if p.is_file() and "collect" not in p.parts)


def _attached(kind: str, rec, host) -> bool:
    """Whether the model holds this record where rules look for it."""
    name = type(rec).__name__
    if kind == "lsattr":
        return rec.device is not None and rec.name in host.devices.get(rec.device, _NoDev).attrs
    if kind in ("entstat", "fcstat"):
        return bool(rec.name) and rec.name in host.devices and host.devices[rec.name].stats is not None
    if kind == "lsdev":
        return rec.name in host.devices
    if kind == "tunables":
        return rec.name in host.tunables
    if kind in ("vmstat-v", "vmstat-s"):
        return rec.name in host.vmstat
    if kind == "lparstat-i":
        return host.partition is not None
    if kind == "iostat-D" and name == "DiskIoSample":
        return rec.disk in host.disk_io
    if kind == "errpt":
        return any(e.record.identifier == rec.identifier and e.record.resource == rec.resource for e in host.errors)
    if kind == "lsps":
        return (name == "PagingSummary" and host.paging_total is not None) or getattr(rec, "name", None) in host.paging_spaces
    if kind == "df":
        return rec.mounted_on in host.filesystems
    if kind == "lsfs":
        return rec.mount_point in host.fs_definitions
    if kind == "lsmcode":
        return bool(host.firmware)
    if kind == "prtconf" and name == "SystemConfig":
        return host.system is not None
    if kind == "prtconf" and name == "InstalledResource":
        return rec.name in host.devices
    # Kinds without a dedicated model field: rules and frames read host.records, which holds every record.
    return any(s.record is rec for s in host.records.get(kind, []))


class _NoDev:
    attrs: dict = {}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIX)))
def test_every_record_is_in_the_model_or_warned(path):
    estate, _ = read_estate(collect([str(path)]))
    warned = {(i.path, line) for i in estate.inputs for line, _ in i.warnings}
    for host in estate.hosts.values():
        for kind, sourced in host.records.items():
            for s in sourced:
                if _attached(kind, s.record, host):
                    continue
                line = s.offset + int(getattr(s.record, "line", 1) or 1)
                assert (s.path, line) in warned, f"{kind} record at {s.path}:{line} neither in the model nor warned: {s.record!r:.200}"
                status = {i.status for i in estate.inputs if i.path == s.path and i.kind == kind}
                assert "partly" in status


def test_an_attribute_list_without_a_device_is_warned_and_partly():
    estate, _ = read_estate(collect([str(FIX / "lsattr" / "no_device_pasted.txt")]))
    (inp,) = estate.inputs
    assert inp.kind == "lsattr" and inp.status == "partly"
    assert [line for line, _ in inp.warnings] == [1, 2, 3, 4]
    assert "no device named" in inp.warnings[0][1]
