"""The report's JSON writer gives exactly the text of json.dumps(indent=2, ensure_ascii=False)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lparscope.report import json_text
from lparscope.report.json_text import write_indented

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                    st.text())
keys = st.one_of(st.text(), st.integers(), st.floats(), st.booleans(), st.none())
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                     st.dictionaries(keys, inner, max_size=5),
                                                     st.tuples(inner, inner)), max_leaves=40)


def text(obj: object) -> str:
    out = io.StringIO()
    write_indented(obj, out)
    return out.getvalue()


@settings(max_examples=400, deadline=None)
@given(values)
def test_same_text_as_the_standard_library(obj: object) -> None:
    assert text(obj) == json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def test_subclasses_and_edge_values() -> None:
    np = pytest.importorskip("numpy")
    obj = {"f": np.float64(0.1), "b": [True, False, None], "e": {}, "l": [], "n": -0.0, "big": 2**80,
           "s": "é\u2028\"\\\n\x00\x1f", 1.5: "float key", None: "none key"}
    assert text(obj) == json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def test_written_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The text goes to the file as it is made, never held whole."""
    monkeypatch.setattr(json_text, "FLUSH", 3)
    writes: list[str] = []

    class Sink(io.StringIO):
        def write(self, s: str) -> int:
            writes.append(s)
            return len(s)

    obj = {"hosts": [{"name": f"aix{i}", "ec": i / 10} for i in range(50)]}
    write_indented(obj, Sink())
    assert len(writes) > 10
    assert "".join(writes) == json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def test_errors_as_the_standard_library() -> None:
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError):
        text(loop)
    with pytest.raises(TypeError):
        text({"x": object()})
    with pytest.raises(TypeError):
        text({(1, 2): "tuple key"})
