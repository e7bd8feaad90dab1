"""One copy of each repeated string in parser records.

A thousand hosts' outputs repeat the same few words thousands of times: attribute names and
descriptions (``lsattr``), counter labels (``entstat``), states ("Available", "Enabled"). Each
parse makes a fresh string of each, and the model keeps the records to the end of the run: on
the bench's 1,000-host estate, 54 MB of strings in the hosts' records, 1.7 MB of them distinct.
:func:`share` swaps every short string of a parser's records for the first equal one in a table
the caller keeps for a run (a worker process: for its life), before the records are kept or
sent back from a worker (the pickle then names a string it already wrote instead of writing it
again). Values are unchanged: only which object holds them.

The table is the caller's, not ``sys.intern``: Python 3.12 before 3.12.6 keeps every interned
string for the life of the process (CPython issue 113993), which a program that analyses estate
after estate would feel.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

LONGEST = 160  # longer strings (a message, a whole line) rarely repeat: not worth hashing

_names: dict[type, tuple[str, ...]] = {}  # a record class's field names (dataclasses.fields is slow)


def share(obj: Any, table: dict[str, str]) -> Any:
    """``obj`` with its strings shared through ``table`` (string -> the copy kept): lists and
    dataclass records changed in place, dicts and tuples rebuilt; numbers, arrays and other
    objects are left as they are. (A string inside a container is shared where it is met, not by
    a call: records hold millions of them.)"""
    kind = type(obj)
    if kind is str:
        return table.setdefault(obj, obj) if len(obj) <= LONGEST else obj
    if kind is list:
        for i, item in enumerate(obj):
            if type(item) is str:
                if len(item) <= LONGEST:
                    obj[i] = table.setdefault(item, item)
            elif type(item) not in _ATOMS:
                obj[i] = share(item, table)
        return obj
    if kind is dict:
        out = {}
        for k, v in obj.items():
            if type(k) is str and len(k) <= LONGEST:
                k = table.setdefault(k, k)
            if type(v) is str:
                if len(v) <= LONGEST:
                    v = table.setdefault(v, v)
            elif type(v) not in _ATOMS:
                v = share(v, table)
            out[k] = v
        return out
    if kind is tuple:
        return tuple(item if type(item) in _ATOMS else share(item, table) for item in obj)
    names = _names.get(kind)
    if names is None:
        if not (is_dataclass(obj) and not isinstance(obj, type)):
            return obj
        names = _names[kind] = tuple(f.name for f in fields(obj))
    for name in names:
        value = getattr(obj, name, None)
        if type(value) is str:
            if len(value) <= LONGEST:
                object.__setattr__(obj, name, table.setdefault(value, value))
        elif type(value) not in _ATOMS:
            object.__setattr__(obj, name, share(value, table))  # frozen records too: they are not shared yet
    return obj


_ATOMS = frozenset({int, float, bool, type(None)})
