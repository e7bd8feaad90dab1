"""The ``lparscope serve`` command."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from ..report.say import tagged


def serve(
    store: Optional[Path] = typer.Option(None, "--store", help="Store file (default: the user's data folder)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind; anything but loopback needs a token."),
    port: int = typer.Option(8765, "--port", help="TCP port (0: any free port)."),
    token: Optional[str] = typer.Option(None, "--token", help="Access token (made up and printed when bound off loopback)."),
    exit_after: Optional[float] = typer.Option(None, "--exit-after", help="Stop by itself after this many seconds."),
) -> None:
    """A local dashboard over the store: estate, frames, hosts, findings, drift and charts (offline)."""
    from .db import StoreError, connect, default_store
    from .serve import is_loopback, make_server, serve_for

    err = Console(stderr=True)
    path = store if store is not None else default_store()
    try:
        connect(path, read_only=True).close()
    except StoreError as exc:
        err.print(tagged("error", str(exc)), highlight=False)
        raise typer.Exit(2)
    try:
        server = make_server(path, host, port, token)
    except OSError as exc:
        err.print(tagged("error", f"cannot listen on {host}:{port}: {exc.strerror or exc}"), highlight=False)
        raise typer.Exit(2)
    bound = server.server_address[1]
    url = f"http://{host if ':' not in host else '[' + host + ']'}:{bound}/"
    if server.token is not None:
        url += f"?token={server.token}"
        if not is_loopback(host):
            err.print(tagged("note", "listening off loopback: anyone with the URL's token can read the store"),
                      highlight=False)
    Console().print(f"serving {path} on {url}  (Ctrl-C stops)", highlight=False, soft_wrap=True, markup=False)
    try:
        serve_for(server, exit_after)
    except KeyboardInterrupt:
        pass
