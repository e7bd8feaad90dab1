"""Device attribute commands as an administrator types them, written once: ``chdev`` and ``lsattr``
in the AIX root form and ``chdev`` in the VIOS padmin form. Rules (``rules/changes.py``) and the
model's planned changes (``model/change.py``) print their commands with these.
"""

from __future__ import annotations

from collections.abc import Mapping


def chdev_root(dev: str, attrs: Mapping[str, object], perm: bool = False) -> str:
    """``chdev -l DEV -a a=1 -a b=2`` as root (AIX, or a VIOS after oem_setup_env). ``perm`` adds
    ``-P``: the change goes to the ODM only and applies at the next boot (or reconfiguration)."""
    return f"chdev -l {dev} " + " ".join(f"-a {k}={v}" for k, v in attrs.items()) + (" -P" if perm else "")


def chdev_padmin(dev: str, attrs: Mapping[str, object], perm: bool = False) -> str:
    """``chdev -dev DEV -attr a=1 b=2`` in the VIOS restricted shell; ``perm`` adds ``-perm`` (the
    padmin spelling of ``-P``)."""
    return f"chdev -dev {dev} -attr " + " ".join(f"{k}={v}" for k, v in attrs.items()) + (" -perm" if perm else "")


def lsattr_root(dev: str, attr: str, allowed: bool = False) -> str:
    """Read one attribute as root: ``lsattr -El DEV -a ATTR``; ``allowed``: the values it accepts (``-Rl``)."""
    return f"lsattr -{'R' if allowed else 'E'}l {dev} -a {attr}"
