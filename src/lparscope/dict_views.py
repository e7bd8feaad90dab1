"""Report dicts made when read, not kept: the long lists of a large estate's report.

A thousand hosts give some 9,000 findings and 5,000 planned changes. As dicts (evidence, commands,
changes, reasons ...) they held 37 MB for as long as the report lived, beside the objects they
were made from. :class:`DictViews` stands in the report for such a list: a sequence of
:class:`DictView`, each a read-only mapping that makes the value of a key when the key is read,
with the same getters the object's ``to_dict`` uses (a table of key -> getter beside the class:
``rules.engine.FINDING_FIELDS``, ``plan.model.PLANNED_FIELDS``; the inputs', hosts' and frames'
entries in ``report.json_report`` and ``report.frame``). The terminal's counts and
roll-ups read a few keys of each; the JSON writer makes each item's dict, writes it, lets it go.

A view equals the dict it stands for and cannot be changed; reading a key twice makes its value twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

Fields = Mapping[str, Callable[[Any], Any]]  # key -> getter, in the dict's key order


class DictView(Mapping[str, Any]):
    """One object as its report dict, each value made when read."""

    # private names: a template's ``view.name`` reads the key when no attribute has that name
    __slots__ = ("_obj", "_fields")

    def __init__(self, obj: Any, fields: Fields) -> None:
        self._obj = obj
        self._fields = fields

    def __getitem__(self, key: str) -> Any:
        return self._fields[key](self._obj)

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def get(self, key: str, default: Any = None) -> Any:  # Mapping's, without raising KeyError
        get = self._fields.get(key)
        return default if get is None else get(self._obj)

    def __contains__(self, key: object) -> bool:  # Mapping's would make the value
        return key in self._fields

    def to_dict(self) -> dict[str, Any]:
        return {key: get(self._obj) for key, get in self._fields.items()}

    def __repr__(self) -> str:
        return f"DictView({self.to_dict()!r})"


class DictViews(Sequence[DictView]):
    """Objects as a list of report dicts (see the module's docstring)."""

    __slots__ = ("_objs", "_fields")

    def __init__(self, objs: Sequence[Any], fields: Fields) -> None:
        self._objs = objs
        self._fields = fields

    @overload
    def __getitem__(self, index: int) -> DictView: ...

    @overload
    def __getitem__(self, index: slice) -> list[DictView]: ...

    def __getitem__(self, index: int | slice) -> DictView | list[DictView]:
        if isinstance(index, slice):
            return [DictView(o, self._fields) for o in self._objs[index]]
        return DictView(self._objs[index], self._fields)

    def __iter__(self) -> Iterator[DictView]:
        fields = self._fields
        return (DictView(o, fields) for o in self._objs)

    def __len__(self) -> int:
        return len(self._objs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, DictViews)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"DictViews({len(self)} items)"


def plain(value: Any) -> Any:
    """``json.dumps``'s ``default``: views as the lists and dicts they stand for, anything else as text."""
    if isinstance(value, DictViews):
        return [v.to_dict() for v in value]
    if isinstance(value, DictView):
        return value.to_dict()
    return str(value)
