"""``lparscope serve``: a local, offline dashboard over the store (standard library HTTP + Jinja2).

Binds 127.0.0.1 by default. Bound to any other address it requires a token: given once as
``?token=...`` (it is then kept in a same-site, HTTP-only cookie) or as ``Authorization: Bearer``.
Every page carries a Content-Security-Policy that allows only this server's own scripts and
styles; the chart library is the vendored uPlot of report/static, served from the package.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import threading
from http import HTTPStatus
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape

from .db import StoreError, connect
from .pages import SEVERITIES, areas, current_findings, current_hosts, frame_page, host_page

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
STATIC = {
    "uPlot.iife.min.js": ("report", "application/javascript"),
    "uPlot.min.css": ("report", "text/css"),
    "dashboard.js": ("store", "application/javascript"),
    "dashboard.css": ("store", "text/css"),
}
COOKIE = "lparscope_token"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _env() -> Environment:
    env = Environment(loader=PackageLoader("lparscope.store", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["q"] = lambda s: quote(str(s), safe="")
    return env


class Dashboard(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], store: Path, token: str | None) -> None:
        super().__init__(address, Handler)
        self.store = Path(store)
        self.token = token
        self.env = _env()


class Handler(BaseHTTPRequestHandler):
    server: Dashboard
    server_version = "lparscope"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # quiet; errors go to the page
        return

    # -- plumbing
    def _send(self, status: int, body: bytes, ctype: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _page(self, template: str, status: int = 200, extra: dict[str, str] | None = None, **ctx: Any) -> None:
        html = self.server.env.get_template(template).render(**ctx)
        self._send(status, html.encode("utf-8"), "text/html; charset=utf-8", extra)

    def _authorised(self, query: dict[str, list[str]]) -> tuple[bool, dict[str, str]]:
        token = self.server.token
        if token is None:
            return True, {}
        given = (query.get("token") or [""])[0]
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            given = given or auth[7:]
        cookie = SimpleCookie(self.headers.get("Cookie", ""))
        if COOKIE in cookie:
            given = given or cookie[COOKIE].value
        if given and hmac.compare_digest(given.encode(), token.encode()):
            return True, {"Set-Cookie": f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"}
        return False, {}

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        ok, extra = self._authorised(query)
        if not ok:
            self._send(HTTPStatus.UNAUTHORIZED, b"token required: open the URL printed by lparscope serve\n",
                       "text/plain; charset=utf-8")
            return
        path = unquote(parts.path)
        try:
            if path.startswith("/static/"):
                self._static(path[len("/static/"):])
            elif path == "/":
                self._overview(query, extra)
            elif path.startswith("/frame/"):
                self._frame(path[len("/frame/"):], extra)
            elif path.startswith("/host/"):
                self._host(path[len("/host/"):], query, extra)
            else:
                self._page("error.html.j2", 404, message=f"no page {path}")
        except StoreError as exc:
            self._page("error.html.j2", 503, message=str(exc))

    def _static(self, name: str) -> None:
        if name not in STATIC:
            self._send(404, b"not found\n", "text/plain")
            return
        package, ctype = STATIC[name]
        data = (resources.files("lparscope") / package / "static" / name).read_bytes()
        self._send(200, data, ctype + "; charset=utf-8", {"Cache-Control": "max-age=3600"})

    def _connect(self) -> Any:
        return connect(self.server.store, read_only=True)

    @staticmethod
    def _filters(query: dict[str, list[str]]) -> dict[str, str | None]:
        pick = lambda k: (query.get(k) or [""])[0] or None  # noqa: E731
        sev = pick("severity")
        return {"severity": sev if sev in SEVERITIES else None, "area": pick("area"), "host": pick("host")}

    def _overview(self, query: dict[str, list[str]], extra: dict[str, str]) -> None:
        f = self._filters(query)
        con = self._connect()
        try:
            hosts = current_hosts(con)
            findings = current_findings(con, f["host"], f["severity"], f["area"])
            n = con.execute("SELECT count(*), max(collected_at) FROM collections").fetchone()
            ctx = {"hosts": hosts, "findings": findings, "filters": f, "severities": SEVERITIES,
                   "areas": areas(con), "collections": n[0], "newest": str(n[1])[:19] if n[1] else "",
                   "frames": sorted({h["frame"] for h in hosts if h["frame"]})}
        finally:
            con.close()
        self._page("overview.html.j2", extra=extra, **ctx)

    def _frame(self, name: str, extra: dict[str, str]) -> None:
        con = self._connect()
        try:
            data = frame_page(con, self.server.store, name)
        finally:
            con.close()
        if not data["hosts"] and data["section"] is None:
            self._page("error.html.j2", 404, message=f"no frame {name} in the store")
            return
        self._page("frame.html.j2", extra=extra, **data)

    def _host(self, name: str, query: dict[str, list[str]], extra: dict[str, str]) -> None:
        f = self._filters(query)
        con = self._connect()
        try:
            data = host_page(con, self.server.store, name, f["severity"], f["area"])
            data["areas"] = areas(con)
        finally:
            con.close()
        if data["info"] is None:
            self._page("error.html.j2", 404, message=f"no host {name} in the store")
            return
        self._page("host.html.j2", extra=extra, filters=f, severities=SEVERITIES, **data)


def make_server(store: Path, host: str = "127.0.0.1", port: int = 8765, token: str | None = None) -> Dashboard:
    """A dashboard server (not started). Off loopback a token is required: one is made when none is given."""
    if not is_loopback(host) and not token:
        token = secrets.token_urlsafe(24)
    return Dashboard((host, port), store, token)


def serve_for(server: Dashboard, seconds: float | None) -> None:
    """Serve until interrupted, or for at most ``seconds``."""
    timer = None
    if seconds:
        timer = threading.Timer(seconds, server.shutdown)
        timer.daemon = True
        timer.start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        if timer:
            timer.cancel()
        server.server_close()
