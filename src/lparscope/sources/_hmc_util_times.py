"""The times of one ``lslparutil`` listing: the HMC's form, or the one other form the whole listing agrees on.

The HMC prints ``time=11/19/2026 12:00:00`` (MM/DD/YYYY). A listing that went through a spreadsheet
comes back in the locale's form: ``19.11.2026 12:00:00`` or ``19/11/2026`` (day first), ``11/19/26``
(two-digit year), seconds dropped. A listing is read in the HMC's form when that reads every time
it holds; else in the one other form that reads them all (a day above 12 tells day first from
month first, a 4-digit year from a 2-digit one); when two forms read them all (every day 12 or
less, the year 2-digit or the separator not the HMC's), or none does, the times that the HMC's
form cannot read are left as text: the parser warns (:func:`unread_note`) and those rows are no
samples.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache

_HMC_FORMATS = ("%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S")
# the other forms, of a date whose separators are made "/" (a "." or "-" of a locale)
_OTHER_FORMS = {"MM/DD/YYYY": "%m/%d/%Y", "DD/MM/YYYY": "%d/%m/%Y", "MM/DD/YY": "%m/%d/%y", "DD/MM/YY": "%d/%m/%y"}
_DATE = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./-](\d{2,4})([ T].*)$")


@lru_cache(maxsize=4096)  # every partition of a frame is sampled at the same times
def hmc_time(t: str) -> datetime | None:
    """A time in a form the HMC prints, else None."""
    for fmt in _HMC_FORMATS:
        try:
            return datetime.strptime(t, fmt)
        except ValueError:
            continue
    return None


def _in_form(date_fmt: str) -> Callable[[str], datetime | None]:
    def read(t: str) -> datetime | None:
        m = _DATE.match(t.strip())
        if m is None:
            return None
        text = f"{m.group(1)}/{m.group(2)}/{m.group(3)} {m.group(4)[1:].strip()}"
        for clock in ("%H:%M:%S", "%H:%M"):
            try:
                return datetime.strptime(text, f"{date_fmt} {clock}")
            except ValueError:
                continue
        return None
    return read


def time_reader(texts: list[str]) -> tuple[Callable[[str], datetime | None], str | None]:
    """How to read the times ``texts`` (the distinct ones of a listing), and the form when it is not
    the HMC's (None: the HMC's, or no form reads them all; "ambiguous: A or B" when two do)."""
    texts = [t.strip() for t in texts if t and t.strip()]
    if all(hmc_time(t) is not None for t in texts):
        return hmc_time, None
    readers = {name: _in_form(fmt) for name, fmt in _OTHER_FORMS.items()}
    whole = [name for name, read in readers.items() if all(read(t) is not None for t in texts)]
    if len(whole) == 1:
        return readers[whole[0]], whole[0]
    return hmc_time, (f"ambiguous: {' or '.join(whole)}" if whole else None)


def unread_note(text: str, unread: int, rows: int, form: str | None) -> str:
    """The listing's warning: its first time that could not be read, and how many rows have none."""
    why = (f"its dates read as {form.removeprefix('ambiguous: ')} alike (no day above 12), so no form is taken"
           if form and form.startswith("ambiguous") else
           "expected MM/DD/YYYY hh:mm:ss as the HMC prints it, or one other form every time of the listing is in "
           "(DD/MM/YYYY, MM/DD/YY, DD/MM/YY)")
    return (f"lslparutil time {text[:40]!r} not read ({why}): {unread} of {rows} events of this listing have no "
            "time and are no samples")
