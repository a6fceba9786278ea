"""The kit's own pages on a LAN address, and a page of another site.

``playtest serve`` listens on a non-loopback address of this machine and the lobby is
opened by that address, as a class opens it: the lobby's Create table (its kernel calls
the table service) and a seat's link work. A page of another origin (a tiny page served
from another port) tries what a hostile site can: a ``no-cors`` fetch with a
``text/plain`` body and a JSON fetch; the server refuses both and no table is made."""
from __future__ import annotations

import contextlib
import http.server
import ipaddress
import os
import socket
import sys
import threading

import psutil
import pytest
from browser_support import NO_POOLS, voila_config_env
from table_support import Player, api, browser, create_in_lobby  # noqa: F401 (fixture)
from test_serve_server import ROOT, fast_reaper

from playtest.server.launch import free_port, running

pytestmark = pytest.mark.browser

EVIL = """<!doctype html><title>another site</title><script>
window.attempts = (async (target) => {
  const body = JSON.stringify({game: "night_shift", seats: 2, players: ["human", "human"]});
  const out = [];
  for (const init of [{mode: "no-cors", headers: {"Content-Type": "text/plain"}},
                      {mode: "cors", headers: {"Content-Type": "application/json"}}]) {
    try { const r = await fetch(target, {method: "POST", body, ...init}); out.push(r.type + " " + r.status); }
    catch (e) { out.push("refused: " + e.message); }
  }
  return out;
});
</script>"""


def lan_address() -> str | None:
    """A non-loopback IPv4 address of this machine, or None."""
    for addresses in psutil.net_if_addrs().values():
        for a in addresses:
            if a.family == socket.AF_INET and not ipaddress.ip_address(a.address).is_loopback:
                return a.address
    return None


@contextlib.contextmanager
def another_site():
    """A tiny page on another port of 127.0.0.1 (another origin); yields its address."""
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(EVIL.encode())

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_the_lobby_works_on_a_lan_address_and_a_page_of_another_site_creates_no_table(tmp_path, browser):
    ip = lan_address()
    if ip is None:
        pytest.skip("this machine has no non-loopback IPv4 address")
    lan = f"http://{ip}:{free_port()}"
    command = [sys.executable, "-m", "playtest.server", str(ROOT / "playtest" / "dashboards"), "--no-browser",
               f"--port={lan.rsplit(':', 1)[1]}", f"--Voila.ip={ip}", "--Voila.port_retries=0", *fast_reaper(60)]
    log = tmp_path / "server.log"
    env = voila_config_env(NO_POOLS, tmp_path / "voila-config", {**os.environ, "PLAYTEST_DATA_DIR": str(tmp_path / "data")})
    with running(command, f"{lan}/voila/tree", log, cwd=ROOT / "playtest" / "dashboards", env=env):
        host = Player(browser, f"{lan}/voila/render/lobby.ipynb")
        guest = None
        try:
            href, _address = create_in_lobby(host)          # the lobby's kernel created it
            guest = Player(browser, f"{lan}/voila/render/{href}")
            guest.wait(".pt-live .pt-table .pt-card")
            assert "Seat 1 · connected · you" in guest.page.locator(".pt-players").inner_text()
            status, listing = api(lan, "GET", "tables")
            assert status == 200 and len(listing["tables"]) == 1
            made = listing["tables"][0]["id"]

            with another_site() as evil:
                page = browser.new_page()
                try:
                    page.goto(evil)
                    results = page.evaluate("(target) => window.attempts(target)", f"{lan}/playtest/api/tables")
                finally:
                    page.close()
            # the no-cors fetch reached the server (an opaque answer); the JSON one was
            # stopped by the browser (the server grants no CORS) or refused by the server
            assert results[0] == "opaque 0" and results[1].startswith("refused"), results
            text = log.read_text()
            assert "415 POST /playtest/api/tables" in text or "403 POST /playtest/api/tables" in text, text[-3000:]
            status, listing = api(lan, "GET", "tables")
            assert [t["id"] for t in listing["tables"]] == [made]      # no table from the other site
        finally:
            host.close()
            if guest is not None:
                guest.close()
