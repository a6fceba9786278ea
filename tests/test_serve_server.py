"""The dashboard server for real, without a browser: ``python -m playtest.server`` (what
``playtest serve`` runs) and Jupyter Server with Binder's settings, each on a folder
holding a trivial dashboard, with the reaper's times shortened on the command line.

A plain GET of a page (no websocket, as curl) must not pin its kernel; a kernel waiting
in the preheated pool must stay; under Jupyter Server a notebook's kernel (started
through the REST API, as JupyterLab does) must never be touched."""
from __future__ import annotations

import contextlib
import html
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser_support import voila_config_env

from playtest.server.launch import free_port, running

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parent.parent
def fast_reaper(first_connect: float = 3) -> list[str]:
    """The reaper's options for a test: kernels without a page go in seconds."""
    return [f"--KernelReaper.first_connect={first_connect}", "--KernelReaper.grace=2", "--KernelReaper.interval=0.5"]


FAST_REAPER = fast_reaper()
TRIVIAL = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "c0", "metadata": {}, "outputs": [],
               "source": ["import ipywidgets as w\n", "w.Button(description='Go')"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def get(url: str, timeout: float = 60.0, headers: dict | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def post_announcing_90_mib(base: str, path: str = "/playtest/api/tables") -> bytes:
    """POST to ``path`` a request whose ``Content-Length`` says 90 MiB, sending only 2
    bytes of it: the whole answer, which the server must send (and close) without waiting
    for the rest (issue 25: such bodies were read whole)."""
    host, port = base.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:     # a wait for the rest times out
        raw.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {90 << 20}\r\n\r\n{{}}".encode())
        answer = b""
        while chunk := raw.recv(65536):
            answer += chunk
    return answer


def get_page(url: str, cookie: str = "") -> tuple[bytes, str]:
    """A dashboard page's HTML and the ``Set-Cookie`` header that names the browser ("" if
    none; Jupyter Server sets cookies of its own)."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=60) as answer:
        named = [c for c in answer.headers.get_all("Set-Cookie") or [] if c.startswith("playtest_browser=")]
        return answer.read(), "".join(named)


def wait_until(condition, timeout: float, what: str, step: float = 0.25):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(step)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Answers as they are: a redirect is returned, not followed."""

    def redirect_request(self, *args, **kwargs):
        return None

    def http_error_302(self, req, fp, code, msg, headers):
        return fp


def kernel_id_of(page: bytes) -> str:
    return re.search(rb'"kernelId": "([0-9a-f-]{36})"', page).group(1).decode()


@contextlib.contextmanager
def standalone(folder: Path, tmp_path: Path, *options: str, first_connect: float = 3,
               voila_config: dict | None = None):
    """``python -m playtest.server`` (what ``playtest serve`` runs) on ``folder`` with the
    fast reaper, its data in ``tmp_path``, until the block ends: yields ``(process, base
    URL, log file)``. ``first_connect``: seconds the reaper leaves a kernel whose page
    never connected (a test that opens pages in a browser on a busy machine wants more).
    ``voila_config``: Voilà settings over playtest's (browser_support.voila_config_env)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PLAYTEST_DATA_DIR": str(tmp_path / "data")}
    if voila_config is not None:
        env = voila_config_env(voila_config, tmp_path / "voila-config", env)
    command = [sys.executable, "-m", "playtest.server", str(folder), "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", *fast_reaper(first_connect),
               *options]
    log = tmp_path / "server.log"
    with running(command, f"{base}/voila/tree", log, cwd=folder, env=env) as proc:
        yield proc, base, log


def binder_server_command(tmp_path: Path, request, root: Path, token: str, *options: str):
    """Jupyter Server as Binder runs it (what binder/postBuild installs: its settings and
    the page template), without JupyterLab and friends, which only slow the start here:
    ``(command, env, base URL)``."""
    config_dir, data_dir = tmp_path / "config", tmp_path / "data"
    config_dir.mkdir()
    shutil.copy(ROOT / "binder/jupyter_server_config.json", config_dir)
    (config_dir / "jupyter_server_config.d").mkdir()
    (config_dir / "jupyter_server_config.d" / "off.json").write_text(json.dumps({"ServerApp": {"jpserver_extensions": {
        name: False for name in ("jupyterlab", "jupyter_lsp", "jupyter_server_terminals", "notebook_shim")}}}))
    shutil.copytree(ROOT / "playtest/server/templates/playtest", data_dir / "voila/templates/playtest")
    # the kernels' Unix sockets live in the runtime folder: a socket's path has at most 107
    # bytes, which pytest's temporary folders can pass (Binder's ~/.local/... is short)
    runtime = tempfile.mkdtemp(prefix="pt-rt-")
    request.addfinalizer(lambda: shutil.rmtree(runtime, ignore_errors=True))
    port = free_port()
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(config_dir), "JUPYTER_PATH": str(data_dir),
           "JUPYTER_RUNTIME_DIR": runtime, "PLAYTEST_DATA_DIR": str(tmp_path / "tables"),
           # Binder's proxy starts the `playtest` script of this Python
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    command = [sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
               f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}", "--ServerApp.port_retries=0",
               "--allow-root", *options]
    return command, env, f"http://127.0.0.1:{port}"


def kernel_command_lines(server_pid: int) -> list[list[str]]:
    """The command lines of the server's running kernels (one that exits while listed is left out)."""
    import psutil
    lines = []
    for process in psutil.Process(server_pid).children(recursive=True):
        try:
            line = process.cmdline()
        except psutil.Error:    # gone, or a zombie not yet reaped, since the listing
            continue
        if any(re.search(r"kernel-[0-9a-f-]{36}\.json$", part) for part in line):
            lines.append(line)
    return lines


@pytest.fixture
def folder(tmp_path) -> Path:
    (tmp_path / "trivial.ipynb").write_text(json.dumps(TRIVIAL))
    return tmp_path


def test_standalone_server_serves_tables_preheated_pages_and_frees_kernels_no_page_took(folder, tmp_path):
    # a pool of one preheated kernel for the trivial dashboard, filled after its first
    # page (a voila.json in the working directory adds to playtest's own settings)
    # (refilled 1 s after a page took a kernel here, not playtest serve's 10 s: fill_delay)
    (folder / "voila.json").write_text(json.dumps({"PlaytestVoila": {"pool_sizes": {"trivial.ipynb": 1}}}))
    with standalone(folder, tmp_path, "--VoilaKernelManager.fill_delay=1") as (proc, base, log):
        assert kernel_command_lines(proc.pid) == []                 # no kernel before a page asks
        # the live-table service answers on the same port, before Voilà's catch-all handlers
        status, body = get(f"{base}/playtest/api/games")
        assert status == 200 and "lazy_sunday" in {g["name"] for g in json.loads(body)["games"]}
        answer = post_announcing_90_mib(base)
        assert answer.startswith(b"HTTP/1.1 413 ") and b"larger than 64 KiB" in answer, answer[:300]
        # any other address: Tornado's bare 400, also before reading (the server reads 1 MiB at most)
        assert post_announcing_90_mib(base, "/api/kernels").startswith(b"HTTP/1.1 400 ")

        page, cookie = get_page(f"{base}/voila/render/trivial.ipynb")
        assert b"pt-kernel-lost" in page                              # the playtest page template
        assert b"@jupyterhub/jupyter-server-proxy" not in page
        first = kernel_id_of(page)
        # a browser gets a name of its own (its autosaves are its own), unreadable by scripts
        name = re.fullmatch(r"playtest_browser=([A-Za-z0-9_-]{24}); .*", cookie)
        assert name and "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie, cookie
        assert "Using pre-heated kernel" not in log.read_text()
        wait_until(lambda: "Kernel pool of trivial.ipynb is filled" in log.read_text(), 60, "the pool filled")
        page, again = get_page(f"{base}/voila/render/trivial.ipynb", cookie=f"playtest_browser={name[1]}")
        assert again == ""                                            # a named browser keeps its name
        second = kernel_id_of(page)
        assert f"Using pre-heated kernel: {second}" in log.read_text()

        # kernels talk over ipc sockets in the server's private folder: no TCP port race
        connection = next(part for line in kernel_command_lines(proc.pid) for part in line
                          if part.endswith(f"kernel-{second}.json"))
        info = json.loads(Path(connection).read_text())
        assert info["transport"] == "ipc" and oct(Path(connection).parent.stat().st_mode)[-3:] == "700"

        # nobody opened the pages' websockets: their kernels go first_connect (3 s) after
        # the pages were sent, unless the page says it is still loading (its script does,
        # every 10 s); the refilled pool's kernel stays although no page connects
        wait_until(lambda: get(f"{base}/api/kernels/{first}")[0] == 404, 30, "the first page's kernel shut down")
        for _ in range(5):          # 5 s: more than first_connect and a check interval (3 + 0.5 s)
            assert get(f"{base}/playtest/pages/{second}/alive")[0] == 204
            time.sleep(1)
        assert get(f"{base}/api/kernels/{second}")[0] == 200
        wait_until(lambda: get(f"{base}/api/kernels/{second}")[0] == 404, 30, "the second page's kernel shut down")
        assert get(f"{base}/playtest/pages/{second}/alive")[0] == 404
        assert log.read_text().count("no page connected to it") == 2
        time.sleep(4)
        assert len(kernel_command_lines(proc.pid)) == 1               # the pool's kernel, held
    assert proc.returncode == 0                    # SIGTERM stops the server cleanly


def test_under_jupyter_server_only_voilas_kernels_are_reaped_never_a_notebooks(folder, tmp_path, request):
    # a page that shows the link another device would open (the lobby's copyable addresses)
    links = json.loads(json.dumps(TRIVIAL))
    links["cells"][0]["source"] = ["from playtest.widgets.page import address_for_others, page_folder\n",
                                   "print('LINK', address_for_others(page_folder(), 'trivial.ipynb?x=1&token=seat'))"]
    (folder / "links.ipynb").write_text(json.dumps(links))
    token = "t0ken"
    command, env, base = binder_server_command(tmp_path, request, folder, token, *FAST_REAPER)
    auth = {"Authorization": f"token {token}"}
    log = tmp_path / "server.log"
    with running(command, f"{base}/api/status", log, cwd=folder, env=env):
        # a notebook's kernel, started as JupyterLab starts one, with no websocket open
        start = urllib.request.Request(f"{base}/api/kernels", data=b"{}", headers=auth, method="POST")
        with urllib.request.urlopen(start, timeout=60) as answer:
            notebook_kernel = json.loads(answer.read())["id"]
        status, page = get(f"{base}/voila/render/trivial.ipynb?token={token}")
        assert status == 200 and b"pt-kernel-lost" in page           # Binder's template is the playtest one
        assert b"@jupyterhub/jupyter-server-proxy" not in page        # its Lab extension only errs in a Voilà page
        voila_kernel = kernel_id_of(page)

        def kernels():
            return {k["id"] for k in json.loads(get(f"{base}/api/kernels", headers=auth)[1])}

        # a device without the server's cookie is refused the page; the lobby's link logs it in first
        status, page = get(f"{base}/voila/render/links.ipynb?token={token}")
        link = html.unescape(re.search(rb"LINK (\S+)", page).group(1).decode())
        assert link == f"{base}/login?next=/voila/render/trivial.ipynb%3Fx%3D1%26token%3Dseat&token={token}", link
        seat_page = f"{base}/voila/render/trivial.ipynb?x=1&token=seat"
        opener = urllib.request.build_opener(NoRedirect)
        refused = opener.open(urllib.request.Request(seat_page), timeout=60)
        assert refused.status == 302 and "/login" in refused.headers["Location"]
        logged_in = opener.open(urllib.request.Request(link), timeout=60)
        assert logged_in.status == 302 and logged_in.headers["Location"] == "/voila/render/trivial.ipynb?x=1&token=seat"
        cookie = "; ".join(c.split(";")[0] for c in logged_in.headers.get_all("Set-Cookie"))
        opened = opener.open(urllib.request.Request(seat_page, headers={"Cookie": cookie}), timeout=60)
        assert opened.status == 200 and b"pt-kernel-lost" in opened.read()
        wait_until(lambda: voila_kernel not in kernels(), 30, "the Voilà page's kernel shut down")
        time.sleep(4)                                  # more than first_connect again
        assert notebook_kernel in kernels()
    text = log.read_text()
    assert "playtest: a kernel without its page is shut down" in text
    assert f"shutting down kernel {voila_kernel}" in text and f"shutting down kernel {notebook_kernel}" not in text


def test_a_second_server_on_a_held_data_folder_stops_with_one_message(folder, tmp_path):
    """Another server (JupyterLab's table service, another ``playtest serve``) holds the
    live tables of this data folder: the new server says so and stops (exit 2) instead
    of restoring the same tables and running their bots a second time."""
    from playtest.tables.service import TableService
    data = tmp_path / "data"
    holder = TableService(data)
    try:
        command = [sys.executable, "-m", "playtest.server", str(folder), "--no-browser", f"--port={free_port()}",
                   "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"]
        done = subprocess.run(command, cwd=folder, env={**os.environ, "PLAYTEST_DATA_DIR": str(data)},
                              capture_output=True, text=True, timeout=120)
    finally:
        holder.close()
    assert done.returncode == 2, done.stderr[-2000:]
    assert (f"playtest serve: the live tables in {data} are served by another server (process {os.getpid()}, "
            in done.stderr), done.stderr[-2000:]
    assert "Traceback" not in done.stderr


def test_a_damaged_table_store_leaves_the_dashboards_serving_and_says_one_sentence(folder, tmp_path):
    """The store file is not a database: the server starts, serves its dashboards, and
    says what is wrong with the tables on its command line, in the lobby's listing and on
    a table link; the file is left as it was."""
    (tmp_path / "data").mkdir()
    store = tmp_path / "data" / "tables.sqlite3"
    store.write_bytes(b"these bytes are no database " * 100)
    sentence = (f"Live tables are off: the table store {store} is not an SQLite database (damaged, or another file "
                "put in its place): stop the server, move the file aside (keep it, do not delete it) and put back a "
                "copy made with `playtest tables backup` in its place, or start with no tables.")
    with standalone(folder, tmp_path) as (proc, base, log):
        page, _cookie = get_page(f"{base}/voila/render/trivial.ipynb")         # a dashboard, with its kernel
        assert b"pt-kernel-lost" in page
        status, body = get(f"{base}/playtest/api/tables")
        assert status == 200 and json.loads(body)["store"]["problem"] == sentence
        status, body = get(f"{base}/voila/render/table.ipynb?table=ab12cd34&token=x")
        assert status == 503 and html.escape(sentence) in body.decode()
        assert f"playtest serve: {sentence}" in log.read_text() and "Traceback" not in log.read_text()
    assert store.read_bytes() == b"these bytes are no database " * 100


def test_a_bad_table_link_is_refused_at_once_with_a_plain_page_and_no_kernel(tmp_path):
    # the real table page; no ready kernels (the table page's pool and the seats' awaited
    # pages off), so that any kernel a refusal used would show in the count
    folder = tmp_path / "dashboards"
    folder.mkdir()
    shutil.copy(ROOT / "playtest/dashboards/table.ipynb", folder)
    (folder / "voila.json").write_text(json.dumps({"PlaytestVoila": {"pool_sizes": {"table.ipynb": 0},
                                                                     "awaited_cap": 0}}))
    with standalone(folder, tmp_path) as (proc, base, log):
        request = urllib.request.Request(f"{base}/playtest/api/tables", method="POST", data=json.dumps(
            {"game": "night_shift", "seats": 2, "players": ["human", "human"], "seed": 5}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            made = json.loads(answer.read())
        tid, seat0 = made["id"], made["seats"][0]["token"]
        page = f"{base}/voila/render/table.ipynb"
        refused = {
            f"table={tid}&token=wrong": (403, "This link's token is not valid for this table"),
            f"table={tid}": (403, "This link names a table but holds no token"),
            f"table=0000abcd&token={seat0}": (404, "There is no table with this id on this server"),
            f"table={tid}&table=0000abcd&token={seat0}": (404, "This link names more than one table"),
            "table=%3Cscript%3Ealert(1)%3C/script%3E&token=x": (404, "There is no table with this id"),
            f"table={tid}&token=%3Cscript%3Ealert(1)%3C/script%3E": (403, "not valid for this table"),
            f"table={tid}&token=%FF": (403, "not valid for this table"),       # Tornado's bare 400 before
            f"table={tid}&token={'x' * 70_000}": (403, "This link has no valid table token"),   # empty reply before
        }
        for query, (status, words) in refused.items():
            started = time.monotonic()
            code, body = get(f"{page}?{query}")
            took = time.monotonic() - started
            text = body.decode()
            assert code == status and words in html.unescape(text), (query, code, text[:500])
            assert took < 2, (query, took)
            assert "This table page cannot open" in text and 'href="lobby.ipynb"' in text and "<script" not in text
            assert "kernelId" not in text
        # an address too long to hand to a kernel (it failed the kernel's start: a bare 500),
        # as long as a browser sends (a bare "empty response" before), on any page
        for query in (f"table={tid}&token={'x' * 150_000}", "record=" + "x" * 2_000_000):
            code, body = get(f"{page}?{query}")
            assert code == 414 and "This page address is too long" in body.decode(), (code, body[:300])
            assert f"It holds {len(query):,} characters" in body.decode() and "at most 100,000" in body.decode()
        # no refusal used a kernel (Voilà lists none; its started kernels are in its log)
        assert kernel_command_lines(proc.pid) == [] and "Kernel started" not in log.read_text()
        cut = f"({len('record=') + 2_000_000 + len('/voila/render/table.ipynb?'):,} characters)"
        wait_until(lambda: cut in log.read_text(), 10, "the access log line")   # written after the answer
        assert max(map(len, log.read_text().splitlines())) < 1000       # the addresses are cut in the log
        assert seat0 not in log.read_text() and "token=[hidden]" in log.read_text()   # links are seats: never logged

        # the right links still get the table page, each with its kernel: a seat, and
        # hotseat (the spectator's token with both seats', as the lobby makes it)
        hotseat = ",".join([made["spectator_token"], seat0, made["seats"][1]["token"]])
        for query in (made["seats"][0]["path"].split("?", 1)[1], f"table={tid}&token={hotseat}"):
            code, body = get(f"{page}?{query}")
            assert code == 200 and b"This table page cannot open" not in body
            assert get(f"{base}/api/kernels/{kernel_id_of(body)}")[0] == 200       # the page's own kernel
        assert log.read_text().count("playtest: table page refused") == len(refused)


def test_a_page_left_shuts_its_kernel_down_at_once_and_a_stop_prints_no_traceback(folder, tmp_path, ctrl_c):
    """Found by a fresh user: a reloaded page's old kernel was not shut down (Voilà's
    unload request, ``POST voila/api/shutdown/<id>`` with the ``_xsrf`` cookie's value,
    got 403 "'_xsrf' argument missing": the page set no such cookie); and stopping the
    server with Ctrl+C printed a KeyboardInterrupt traceback from a kernel still starting
    (the server interrupts each kernel it stops; the interrupt was a SIGINT); and a
    preheated kernel waiting in its first cell for its page (voila #1189), as a
    dashboard's does, printed a "ZMQError: Socket operation on non-socket" traceback when
    stopped: its cell ended after its sockets had closed."""
    from http.cookies import SimpleCookie

    (folder / "waiting.ipynb").write_text(json.dumps({**TRIVIAL, "cells": [{**TRIVIAL["cells"][0], "source": [
        "from playtest.widgets import query_string\n", "query = query_string()\n", "import ipywidgets as w\n",
        "w.Button(description='Go')"]}]}))
    (folder / "voila.json").write_text(json.dumps({"PlaytestVoila": {"pool_sizes": {"trivial.ipynb": 1,
                                                                                     "waiting.ipynb": 1}}}))
    with standalone(folder, tmp_path, "--VoilaKernelManager.fill_delay=1") as (proc, base, log):
        get_page(f"{base}/voila/render/waiting.ipynb")           # its pool's kernel will wait for a page
        wait_until(lambda: "Kernel pool of waiting.ipynb is filled" in log.read_text(), 60, "the pool filled")
        request = urllib.request.Request(f"{base}/voila/render/trivial.ipynb")
        with urllib.request.urlopen(request, timeout=60) as answer:
            page = answer.read()
            cookies = SimpleCookie()
            for header in answer.headers.get_all("Set-Cookie") or []:
                cookies.load(header)
        kernel = kernel_id_of(page)
        xsrf = cookies["_xsrf"].value                     # the page sets the cookie the unload request reads
        assert get(f"{base}/api/kernels/{kernel}")[0] == 200
        # what the page's unload beacon sends: a form with _xsrf, and the page's cookies
        jar = "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items())
        shutdown = urllib.request.Request(f"{base}/voila/api/shutdown/{kernel}", method="POST",
                                          data=f"_xsrf={xsrf}".encode(),
                                          headers={"Cookie": jar, "Origin": base,
                                                   "Content-Type": "application/x-www-form-urlencoded"})
        with urllib.request.urlopen(shutdown, timeout=60) as answer:    # 403 before: HTTPError
            assert answer.status == 204
        assert get(f"{base}/api/kernels/{kernel}")[0] == 404         # answered once the kernel is down
        assert f"shutting down kernel {kernel}" not in log.read_text()      # by the request, not the reaper
        # Ctrl+C while the trivial pool's kernel is starting (its imports take a second or
        # two), after the waiting page's and its pool's and the trivial page's
        wait_until(lambda: log.read_text().count("Kernel started:") >= 4, 60, "the pool's kernel starting")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(60) == 0
        time.sleep(3)          # a kernel still starting had printed its traceback by now
    stopped = log.read_text()
    assert "Stopping" in stopped
    assert stopped.count("Kernel shutdown:") >= 3, stopped[-3000:]     # the server stopped the kernels left
    for noise in ("Traceback", "KeyboardInterrupt", "Kernel is running over TCP", "ZMQError"):
        assert noise not in stopped, stopped[-3000:]


def test_a_page_kernel_is_interrupted_by_message_and_exits_quietly_when_stopped_before_it_started(tmp_path):
    from playtest.server.kernel import PageKernelSpecManager, connection_file
    spec = PageKernelSpecManager().get_kernel_spec("python3")
    assert spec.argv[1:3] == ["-m", "playtest.server.kernel"] and spec.interrupt_mode == "message"
    assert connection_file(["-f", "/x/kernel-1.json"]) == connection_file(["--f=/x/kernel-1.json"]) == "/x/kernel-1.json"
    assert connection_file([]) is None
    # the server removed its connection file while it was starting: it exits, saying nothing
    done = subprocess.run([sys.executable, "-m", "playtest.server.kernel", "-f", str(tmp_path / "kernel-gone.json")],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not (tmp_path / "kernel-gone.json").exists()
