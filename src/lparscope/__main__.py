"""``python -m lparscope ...``: the same command line as the ``lparscope`` console script."""

from __future__ import annotations

from .cli import main
from .heap import ends_with_run

if __name__ == "__main__":
    ends_with_run()
    main()
