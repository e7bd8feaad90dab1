"""When each system-firmware release stream and each VIOS release first shipped.

A dated table shipped with lparscope, read by the level-age rules. The months are the first
general availability of each stream as IBM announced it, written from IBM's release cadence; they
are approximate (an inference, confidence K in rules-catalogue terms): check a level against IBM
Fix Level Recommendation Tool (FLRT) before acting. ``TABLE_DATE`` is printed with every finding
so a reader knows how old the table itself is.
"""

from __future__ import annotations

import re
from datetime import date

TABLE_DATE = date(2026, 11, 1)

#: System firmware release stream (the number in SV860_xxx, VL950_xxx, MH1050_xxx) -> (year, month)
FIRMWARE_STREAMS: dict[int, tuple[int, int]] = {
    # POWER7 / POWER7+
    710: (2010, 2), 720: (2010, 9), 730: (2011, 4), 740: (2011, 10), 760: (2012, 10), 763: (2013, 4),
    770: (2013, 5), 773: (2013, 10), 780: (2014, 6),
    # POWER8
    810: (2014, 6), 820: (2014, 12), 830: (2015, 6), 840: (2015, 12), 860: (2016, 10),
    # POWER9
    910: (2018, 3), 920: (2018, 8), 930: (2019, 5), 940: (2019, 11), 950: (2020, 11),
    # Power10
    1010: (2021, 9), 1020: (2022, 7), 1030: (2022, 11), 1040: (2023, 7), 1050: (2023, 11), 1060: (2024, 11),
    # Power11
    1110: (2025, 7), 1120: (2025, 11),
}

#: VIOS release (first three fields of ioslevel) -> (year, month)
VIOS_RELEASES: dict[str, tuple[int, int]] = {
    "2.1.0": (2008, 10), "2.1.1": (2009, 5), "2.1.2": (2009, 10), "2.1.3": (2010, 4),
    "2.2.0": (2010, 10), "2.2.1": (2011, 10), "2.2.2": (2012, 11), "2.2.3": (2013, 11), "2.2.4": (2015, 12),
    "2.2.5": (2016, 11), "2.2.6": (2017, 11), "3.1.0": (2018, 11), "3.1.1": (2019, 11), "3.1.2": (2020, 11),
    "3.1.3": (2021, 9), "3.1.4": (2022, 12), "4.1.0": (2023, 11), "4.1.1": (2024, 11),
}

_FW = re.compile(r"(?:^|[^0-9])(?:[A-Z]{1,3})?(\d{3,4})(?:_|\.)")


def firmware_stream(level: str) -> int | None:
    """The release stream of a firmware level string: ``VL950_111`` / ``FW950.50`` -> 950."""
    m = _FW.search(level.strip().upper() + "_")
    if not m:
        return None
    n = int(m.group(1))
    return n if n in FIRMWARE_STREAMS else None


def vios_release(level: str) -> str | None:
    """``3.1.4.10`` -> ``3.1.4`` when that release is in the table."""
    parts = level.strip().split(".")
    key = ".".join(parts[:3])
    return key if key in VIOS_RELEASES else None


def age_years(released: tuple[int, int], today: date) -> float:
    """Years from a release month to ``today``."""
    return (today.year - released[0]) + (today.month - released[1]) / 12.0
