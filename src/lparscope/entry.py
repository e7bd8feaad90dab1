"""The ``lparscope`` command's entry point: answers ``--version`` / ``version`` before any heavy import.

The full command line (:mod:`lparscope.cli`) imports typer, rich, numpy and the whole pipeline,
about half a second; asking for the version needs none of it.
"""

from __future__ import annotations

import sys

from . import __version__


def main() -> None:
    """Run the command line; the version alone is printed without loading it."""
    args = sys.argv[1:]
    if args in (["--version"], ["-V"]):
        print(f"lparscope {__version__}")  # as cli._print_version
        return
    if args == ["version"]:
        print(__version__)  # as cli.version
        return
    from .cli import main as cli_main
    from .heap import ends_with_run

    ends_with_run()
    cli_main()
