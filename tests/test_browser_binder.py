"""Binder, locally: Jupyter Server with the settings ``binder/postBuild`` installs runs
``playtest serve`` behind jupyter-server-proxy at ``<base_url>playtest/``. The host opens
the lobby there (logged in by the session's token), and a friend's device, which has no
login cookie, opens the address the lobby shows for a seat: it passes through the
server's login and lands on that seat's board, widgets and table websocket included."""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

import pytest
from table_support import Player, browser  # noqa: F401 (fixture)
from test_serve_server import ROOT, free_port, running

pytestmark = pytest.mark.browser
pytest.importorskip("jupyter_server_proxy", reason="Binder's proxy: pip install -e '.[test]'")


def test_binder_serves_the_lobby_behind_its_proxy_and_a_seat_address_opens_on_another_device(
        tmp_path, browser, request):
    config_dir, data_dir = tmp_path / "config", tmp_path / "data"
    config_dir.mkdir()
    shutil.copy(ROOT / "binder/jupyter_server_config.json", config_dir)
    (config_dir / "jupyter_server_config.d").mkdir()     # JupyterLab and friends only slow the start here
    (config_dir / "jupyter_server_config.d" / "off.json").write_text(json.dumps({"ServerApp": {"jpserver_extensions": {
        name: False for name in ("jupyterlab", "jupyter_lsp", "jupyter_server_terminals", "notebook_shim")}}}))
    shutil.copytree(ROOT / "playtest/server/templates/playtest", data_dir / "voila/templates/playtest")
    runtime = tempfile.mkdtemp(prefix="pt-rt-")          # short: kernels' Unix socket paths
    request.addfinalizer(lambda: shutil.rmtree(runtime, ignore_errors=True))
    port, token = free_port(), "b1nder-t0ken"
    base = f"http://127.0.0.1:{port}"
    bin_dir = os.path.dirname(sys.executable)             # the proxy starts the `playtest` script
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(config_dir), "JUPYTER_PATH": str(data_dir),
           "JUPYTER_RUNTIME_DIR": runtime, "PLAYTEST_DATA_DIR": str(tmp_path / "tables"),
           "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    command = [sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
               f"--ServerApp.token={token}", f"--ServerApp.root_dir={ROOT}", "--ServerApp.port_retries=0",
               "--allow-root"]
    log = tmp_path / "server.log"
    with running(command, ROOT, env, f"{base}/api/status", log):
        host = Player(browser, f"{base}/playtest/voila/render/lobby.ipynb?token={token}")
        guest = None
        try:
            create = host.page.get_by_role("button", name="Create table")
            create.wait_for(timeout=150_000)
            create.click()
            link = host.page.locator(".pt-lobby-links a", has_text="Seat 0")
            link.wait_for(timeout=60_000)
            href = link.get_attribute("href")
            address = host.page.locator(".pt-lobby-links .pt-address").first.inner_text()
            seat_page = "/playtest/voila/render/" + href
            assert address == (f"{base}/login?next=" + seat_page.replace("?", "%3F").replace("&", "%26")
                               .replace("=", "%3D") + f"&token={token}"), address
            guest = Player(browser, address)                # a fresh device: no cookie of the server's
            guest.wait(".pt-live .pt-table .pt-card")
            assert guest.page.url == base + seat_page
            assert "Seat 0 · connected · you" in guest.page.locator(".pt-players").inner_text()
            assert not guest.page.locator(".pt-error").is_visible()
        finally:
            host.close()
            if guest is not None:
                guest.close()
    text = log.read_text()
    assert "Serving the playtest dashboards from" in text            # playtest serve, behind the proxy
    assert "playtest: live tables under" not in text                 # Jupyter Server's own table service is off
