"""Binder, locally: Jupyter Server with the settings ``binder/postBuild`` installs runs
``playtest serve`` behind jupyter-server-proxy at ``<base_url>playtest/``. The host opens
the lobby there (logged in by the session's token), and a friend's device, which has no
login cookie, opens the address the lobby shows for a seat: it passes through the
server's login and lands on that seat's board, widgets and table websocket included. When
the server behind the proxy crashes, the page says so at once and stops reconnecting; the
proxy starts the server again and a reload gives the seat back."""
from __future__ import annotations

import json

import psutil
import pytest
from browser_support import NO_POOLS
from table_support import Player, browser, create_in_lobby  # noqa: F401 (fixture)
from test_serve_server import ROOT, binder_server_command

from playtest.server.launch import running

pytestmark = pytest.mark.browser
pytest.importorskip("jupyter_server_proxy", reason="Binder's proxy: pip install -e '.[test]'")


def test_binder_serves_the_lobby_behind_its_proxy_and_a_seat_address_opens_on_another_device(
        tmp_path, browser, request):
    token = "b1nder-t0ken"
    command, env, base = binder_server_command(tmp_path, request, ROOT, token)
    (tmp_path / "config" / "voila.json").write_text(json.dumps(NO_POOLS))    # the proxy's playtest serve reads it
    log = tmp_path / "server.log"
    with running(command, f"{base}/api/status", log, cwd=ROOT, env=env) as proc:
        host = Player(browser, f"{base}/playtest/voila/render/lobby.ipynb?token={token}")
        guest = None
        try:
            href, address = create_in_lobby(host)
            seat_page = "/playtest/voila/render/" + href
            assert address == (f"{base}/login?next=" + seat_page.replace("?", "%3F").replace("&", "%26")
                               .replace("=", "%3D") + f"&token={token}"), address
            guest = Player(browser, address)                # a fresh device: no cookie of the server's
            guest.wait(".pt-live .pt-table .pt-card")
            assert guest.page.url == base + seat_page
            assert "Seat 1 · connected · you" in guest.page.locator(".pt-players").inner_text()
            assert not guest.page.locator(".pt-error").is_visible()

            # the server behind the proxy crashes: the proxy opens each websocket and drops it
            # at once, many times a second; the page says so within seconds and stops trying
            sockets = []
            guest.page.on("websocket", lambda ws: sockets.append(ws.url))
            (server,) = [p for p in psutil.Process(proc.pid).children(recursive=True)
                         if "serve" in p.cmdline() and "--base-url=/playtest/" in p.cmdline()]
            server.kill()
            guest.page.locator("#pt-kernel-lost").wait_for(timeout=30_000)
            tries = len(sockets)
            guest.page.wait_for_timeout(3000)
            assert len(sockets) == tries <= 6, sockets
            # a crash is not a clean exit: the proxy starts the server again, and the page's
            # Reload (which waits until the server answers: reloading before would show the
            # proxy's error page) gives the seat back, its table restored from the store
            guest.page.locator("#pt-kernel-lost").get_by_role("button", name="Reload the page").click()
            guest.wait(".pt-live .pt-table .pt-card", timeout=150)
            assert "Seat 1 · connected · you" in guest.page.locator(".pt-players").inner_text()
        finally:
            host.close()
            if guest is not None:
                guest.close()
    text = log.read_text()
    assert "Serving the playtest dashboards from" in text            # playtest serve, behind the proxy
    assert "playtest: live tables under" not in text                 # Jupyter Server's own table service is off
