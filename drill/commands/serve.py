"""``drill serve [--port 8000] [--host 127.0.0.1] [--token SECRET]``: the app in a web browser.

textual-serve runs ``drill`` once per browser tab, as a process whose screen and keys travel over a web
socket (Textual's web driver), so the browser gets the same screens, keys, languages and saves as a
terminal.  Bound to this machine by default; a ``--host`` that other machines can reach is said loudly,
and ``--token`` makes every page and socket ask for the secret (a cookie after the first page).
"""

from __future__ import annotations

import argparse
import hmac
import ipaddress
import shlex
import socket
import sys
from typing import TYPE_CHECKING

from engine.messages import Twin

if TYPE_CHECKING:
    from aiohttp import web

DEFAULT_PORT = 8000
DEFAULT_HOST = "127.0.0.1"
TOKEN_COOKIE = "drill_token"
MIN_TOKEN = 8  # a secret shorter than this is guessed in a few thousand tries


def register(subparsers) -> None:
    p = subparsers.add_parser("serve", help="run the app in a web browser (textual-serve)",
                              description="Serve the app over HTTP: open the address it prints in a browser "
                                          "to get the same screens, keys, languages and saves as in a terminal. "
                                          "Bound to this machine (127.0.0.1) unless --host says otherwise.")
    p.add_argument("--port", metavar="PORT", default=str(DEFAULT_PORT), help=f"the port (default {DEFAULT_PORT})")
    p.add_argument("--host", metavar="HOST", default=DEFAULT_HOST,
                   help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)")
    p.add_argument("--token", metavar="SECRET", help="ask every browser for this secret (open the printed "
                                                     "address with ?token=SECRET once)")
    p.add_argument("--public-url", metavar="URL", help="the address browsers reach the server at, when it is not "
                                                       "http://HOST:PORT (behind a proxy)")
    p.set_defaults(func=run_serve)


def is_loopback(host: str) -> bool:
    """Is ``host`` reachable from this machine only?"""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def app_command(args: argparse.Namespace) -> str:
    """The command textual-serve starts for each browser tab: this Python, this drill, the same saves, profile
    and language."""
    from drill.core.paths import saves_dir

    argv = [sys.executable, "-m", "drill", "--saves", str(saves_dir(args.saves))]
    if args.profile:
        argv += ["--profile", args.profile]
    if args.lang:
        argv += ["--lang", args.lang]
    return shlex.join(argv)


def token_guard(token: str):
    """An aiohttp middleware: a request passes with ``?token=`` or the cookie it sets; others get 403."""
    from aiohttp import web

    @web.middleware
    async def guard(request: web.Request, handler):
        given = request.query.get("token") or request.cookies.get(TOKEN_COOKIE) or ""
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise web.HTTPForbidden(text="drill serve: this page needs its token: open it with ?token=SECRET\n")
        response = await handler(request)
        if "token" in request.query and isinstance(response, web.Response):
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="Strict")
        return response

    return guard


def make_server(command: str, host: str, port: int, public_url: str, token: str | None):
    """textual-serve's Server for ``command``, with the token guard when there is a token."""
    from textual_serve.server import Server

    class DrillServer(Server):
        async def _make_app(self) -> web.Application:
            # textual-serve builds its aiohttp app here and offers no other hook for a middleware; its version
            # is pinned in pyproject.toml and tests/functional/test_serve.py covers the guard.
            app = await super()._make_app()
            if token is not None:
                app.middlewares.append(token_guard(token))
            return app

    return DrillServer(command, host=host, port=port, title="infra-drill", public_url=public_url)


def run_serve(args: argparse.Namespace) -> int:
    from drill.commands import UsageError
    from drill.commands.bank import whole_number
    from drill.core.paths import command_lang

    lang = command_lang(args)
    port = whole_number(args.port, "--port", 1, 65535)
    host = args.host.strip()
    if not host:
        raise UsageError("--host must not be empty (127.0.0.1: this machine only)",
                         "--host 不能为空（127.0.0.1 表示只允许本机访问）")
    token = args.token
    if token is not None and len(token) < MIN_TOKEN:
        raise UsageError(f"--token: at least {MIN_TOKEN} characters, so that it cannot be guessed",
                         f"--token：至少 {MIN_TOKEN} 个字符，以免被猜中")
    shown_host = socket.gethostname() if host in ("0.0.0.0", "::") else host
    if ":" in shown_host and not shown_host.startswith("["):
        shown_host = f"[{shown_host}]"
    public_url = (args.public_url or f"http://{shown_host}:{port}").rstrip("/")
    profile = args.profile or "default"
    if not is_loopback(host):
        print(Twin(f"drill serve: listening on {host}: anyone who can reach port {port} can use profile "
                   f"'{profile}' (answer, change its settings, read its history)"
                   + ("; every browser must give the token." if token else
                      ". Pass --token SECRET to require a secret."),
                   f"drill serve：正在监听 {host}：凡能访问端口 {port} 的人都能使用档案“{profile}”（答题、修改设置、"
                   "查看记录）" + ("；每个浏览器都须提供令牌。" if token else "。加上 --token SECRET 可要求输入口令。")
                   ).text(lang), file=sys.stderr)
    address = public_url + "/" + (f"?token={token}" if token else "")
    print(Twin(f"Open {address} in a browser (Ctrl+C stops the server).",
               f"在浏览器中打开 {address}（按 Ctrl+C 停止服务）。").text(lang), flush=True)
    server = make_server(app_command(args), host, port, public_url, token)
    try:
        server.serve()
    except OSError as e:  # the port is taken, or the address is not this machine's
        from drill.commands.memory import fail

        return fail(Twin(f"cannot serve on {host}:{port}: {e.strerror or e}",
                         f"无法在 {host}:{port} 上提供服务：{e.strerror or e}").text(lang))
    return 0
