"""What-if simulation: replay shared processor pools on measured demand (see ``pool``),
compare settings (``replay``), plan consolidations (``consolidate``) and model AME (``ame``).

Lower stages only: imports ``model`` and ``sizing``, never ``rules``, ``report`` or the CLI.
"""

from .pool import FrameSettings, PartitionSettings, PoolSettings, Replay, fill, simulate

__all__ = ["FrameSettings", "PartitionSettings", "PoolSettings", "Replay", "fill", "simulate"]
