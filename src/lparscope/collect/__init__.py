"""Collectors: read-only scripts that gather what lparscope reads, from AIX, VIOS and the HMC.

``lparscope collector aix|vios|hmc|linux [-o FILE]`` prints or writes the script. What a script
may run is decided in one place, :mod:`lparscope.collect.commands` (the allow-list and
the audit every generated script passes); :mod:`lparscope.collect.generate` builds it.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .commands import UnsafeScript, audit_script
from .generate import Options, render

__all__ = ["Options", "render", "audit_script", "UnsafeScript", "register"]


class Target(str, Enum):
    aix = "aix"
    vios = "vios"
    hmc = "hmc"
    linux = "linux"


def register(app: typer.Typer) -> None:
    """Add the ``collector`` command to ``app``."""

    @app.command("collector")
    def collector(
        target: Target = typer.Argument(..., help="aix, vios, hmc or linux (Linux on Power)."),
        output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write the script to FILE (default: print it)."),
        interval: int = typer.Option(5, "--interval", min=1, help="Seconds between samples (lparstat, vmstat, iostat)."),
        count: int = typer.Option(12, "--count", min=1, help="Number of samples."),
        timeout: int = typer.Option(120, "--timeout", min=1, help="Seconds allowed to each command."),
        amepat_minutes: int = typer.Option(0, "--amepat-minutes", min=0, help="AIX: also run amepat for N minutes (0: no)."),
        nmon: bool = typer.Option(False, "--nmon", help="AIX/VIOS/Linux: start an nmon recording in the output folder."),
        nmon_interval: int = typer.Option(60, "--nmon-interval", min=1, help="nmon: seconds between snapshots."),
        nmon_count: int = typer.Option(1440, "--nmon-count", min=1, help="nmon: number of snapshots."),
        hours: int = typer.Option(24, "--hours", min=1, help="HMC: hours of lslparutil data."),
        hmc_user: str = typer.Option("hscroot", "--hmc-user", help="HMC: ssh user."),
        hmc_host: str = typer.Option("", "--hmc", help="HMC: default host name (the script's first argument overrides)."),
    ) -> None:
        """Print (or write with -o) a read-only collection script for AIX, VIOS, the HMC or Linux on Power."""
        if not all(c.isalnum() or c in "._-" for c in hmc_user + hmc_host):
            typer.echo("error: --hmc-user / --hmc: letters, digits, '.', '_' and '-' only", err=True)
            raise typer.Exit(2)
        opt = Options(interval=interval, count=count, timeout=timeout, amepat_minutes=amepat_minutes, nmon=nmon,
                      nmon_interval=nmon_interval, nmon_count=nmon_count, hours=hours, hmc_user=hmc_user,
                      hmc_host=hmc_host)
        script = render(target.value, opt)
        if output is None:
            typer.echo(script, nl=False)
            return
        try:
            output.write_text(script, encoding="utf-8")
            output.chmod(0o755)
        except OSError as exc:
            typer.echo(f"error: cannot write {output}: {exc.strerror or exc}", err=True)
            raise typer.Exit(2)
        typer.echo(f"{target.value} collector written to {output}", err=True)
