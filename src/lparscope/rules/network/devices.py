"""How the network rules read the model's Ethernet devices: a SEA's real adapter and HA mode, an
aggregation's members, backup adapter and hash mode, the en interface of an ent adapter.

The SEA's real adapter comes from its ``real_adapter`` attribute or, without ``lsdev -attr``,
from ``entstat -all`` (the member listed as the real adapter); aggregation members from
``adapter_names`` / ``backup_adapter`` or from entstat's per-member sections (``parent``).
"""

from __future__ import annotations

from ...model.estate import Device, Evidence, Host


def interface_of(ent: str) -> str:
    return "en" + ent[3:] if ent.startswith("ent") else ent


def interface_down(host: Host, ent: str, change: str) -> list[str]:
    """The down / detach / change / up sequence of 000 Example 3-33."""
    en = interface_of(ent)
    return [f"chdev -l {en} -a state=down", f"chdev -l {en} -a state=detach", change, f"chdev -l {en} -a state=up"]


S000 = "000_31a80e54567cd02b.txt"
S001 = "001_56ba1d0866fd4e65.txt"


_UNSET = {"", "0", "0.0.0.0", "none", "null"}
_HASH_WORDS = {"source and destination tcp/udp ports": "src_dst_port", "destination ip address": "default",
               "source and destination ip addresses": "src_dst_ip"}


def switched_on(value: str | None) -> bool | None:
    """yes/enabled -> True, no/disabled -> False, anything else unknown."""
    if value is None:
        return None
    v = str(value).strip().lower()
    if v in ("yes", "enabled", "1", "on", "true"):
        return True
    if v in ("no", "disabled", "0", "off", "false"):
        return False
    return None


def is_set(value: str | None) -> bool:
    return value is not None and str(value).strip().lower() not in _UNSET


def name_list(value: str | None) -> list[str]:
    return [n.strip() for n in (value or "").split(",") if n.strip() and n.strip().lower() not in _UNSET]


def sea_role(dev: Device) -> str | None:
    return getattr(dev.stats, "role", None) if dev.stats is not None else None


def sea_stats(dev: Device) -> object | None:
    return getattr(dev.stats, "sea", None) if dev.stats is not None else None


def ha_mode_of(sea: Device) -> tuple[str | None, list[Evidence]]:
    if sea.attr("ha_mode") is not None:
        return sea.attr("ha_mode").strip().lower(), sea.attr_ev("ha_mode")  # type: ignore[union-attr]
    mode = getattr(sea_stats(sea), "ha_mode", None)
    return (mode.strip().lower(), sea.stat_ev("ha.High Availability Mode")) if mode else (None, [])


def real_adapter(host: Host, sea: Device) -> Device | None:
    name = sea.attr("real_adapter")
    if not name:
        members = getattr(sea_stats(sea), "members", None) or {}
        name = next((n for n, r in members.items() if r == "real"), None)
    if not name:
        name = next((d.name for d in host.devices.values() if d.parent == sea.name and sea_role(d) == "real"), None)
    return host.devices.get(name) if name else None


def seas_on(host: Host, ec: Device) -> list[Device]:
    """SEAs built on this aggregation."""
    out = [s for s in host.by_class("sea") if (r := real_adapter(host, s)) is not None and r.name == ec.name]
    if not out and ec.parent and ec.parent in host.devices and host.devices[ec.parent].cls == "sea":
        out = [host.devices[ec.parent]]
    return sorted(out, key=lambda d: d.name)


def is_aggregation(dev: Device) -> bool:
    return dev.cls == "etherchannel" or "adapter_names" in dev.attrs


def backup_adapter(ec: Device) -> str | None:
    if ec.attr("backup_adapter") is not None:
        names = name_list(ec.attr("backup_adapter"))
        return names[0] if names else None
    b = getattr(getattr(ec.stats, "etherchannel", None), "backup_adapter", None) if ec.stats is not None else None
    return b if is_set(b) else None


def aggregation_members(host: Host, ec: Device, with_backup: bool = True) -> list[str]:
    names = name_list(ec.attr("adapter_names"))
    if ec.stats is not None:
        names += getattr(getattr(ec.stats, "etherchannel", None), "members", None) or []
    names += [d.name for d in host.devices.values() if d.parent == ec.name]
    backup = backup_adapter(ec)
    if with_backup and backup:
        names.append(backup)
    elif backup:
        names = [n for n in names if n != backup]
    return sorted(dict.fromkeys(names), key=lambda n: (len(n), n))


def hash_mode_of(ec: Device) -> tuple[str | None, list[Evidence]]:
    if ec.attr("hash_mode") is not None:
        return ec.attr("hash_mode"), ec.attr_ev("hash_mode")
    text = getattr(getattr(ec.stats, "etherchannel", None), "hash_mode", None) if ec.stats is not None else None
    if not text:
        return None, []
    return _HASH_WORDS.get(text.strip().lower(), text), ec.stat_ev("hash_mode")
