"""Build hooks (the project is configured in pyproject.toml): an editable install compiles the
bytecode; a wheel is built for the stable ABI.

``pip install .`` compiles every installed module to bytecode (``__pycache__``), but
``pip install -e .`` (the README's first command) leaves the sources in ``src/`` uncompiled:
Python then compiles every module of lparscope again in each process when
``PYTHONDONTWRITEBYTECODE`` is set (about 200 modules, ~0.5 s of every ``lparscope analyze``).
This hook compiles them once at install time; a module edited later is recompiled as usual
(Python checks the source's time and size against its bytecode).
"""

from __future__ import annotations

import compileall
from pathlib import Path

from setuptools import setup
from setuptools.command.editable_wheel import editable_wheel


class EditableWithBytecode(editable_wheel):
    """The editable install, then the package's sources compiled in place."""

    def run(self) -> None:
        super().run()
        compileall.compile_dir(str(Path(__file__).resolve().parent / "src" / "lparscope"), quiet=1)


# A wheel (``pip wheel .``, ``pip install .``) uses CPython's stable ABI: one wheel per system and
# processor serves every CPython from 3.10 on (tag cp310-abi3; the core is built with PyO3's abi3
# feature, native/Cargo.toml), so an air-gapped shop carries one file, whatever Python it has.
# An editable install keeps the core named for the Python that built it.
setup(cmdclass={"editable_wheel": EditableWithBytecode}, options={"bdist_wheel": {"py_limited_api": "cp310"}})
