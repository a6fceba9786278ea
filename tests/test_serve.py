"""The dashboard server without a browser: the kernel reaper's rules on a fake kernel
manager and a fake clock, the server's settings and their Binder copy, the dashboards'
way of reading their page address, and PlaytestVoila's configuration layers."""
from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import time
from pathlib import Path

import pytest

from browser_support import run_coroutine
from playtest.server import app as server_app
from playtest.server import settings
from playtest.server.reaper import KernelReaper, Watch, due, pooled_kernel_ids, started_by_voila

ROOT = Path(__file__).resolve().parent.parent
LIMITS = {"grace": 45.0, "first_connect": 60.0}


# --- the rules ----------------------------------------------------------------------
def test_a_kernel_whose_page_left_goes_after_the_grace_period_not_before():
    watch = Watch(held_at=0.0)
    assert not due(watch, 0.0, connections=1, state="idle", pooled=False, **LIMITS)
    assert not due(watch, 10.0, connections=1, state="idle", pooled=False, **LIMITS)   # last seen here
    assert not due(watch, 15.0, connections=0, state="idle", pooled=False, **LIMITS)
    assert not due(watch, 54.9, connections=0, state="idle", pooled=False, **LIMITS)
    assert due(watch, 55.0, connections=0, state="idle", pooled=False, **LIMITS)


def test_a_page_that_comes_back_in_time_keeps_its_kernel():
    watch = Watch(held_at=0.0, connected=True)
    assert not due(watch, 40.0, connections=0, state="idle", pooled=False, **LIMITS)
    assert not due(watch, 44.0, connections=1, state="idle", pooled=False, **LIMITS)   # a reload reconnected
    assert not due(watch, 80.0, connections=0, state="idle", pooled=False, **LIMITS)
    assert due(watch, 89.0, connections=0, state="idle", pooled=False, **LIMITS)


def test_a_page_that_never_connects_frees_its_kernel_a_minute_after_its_notebook_ran():
    watch = Watch(held_at=0.0)
    for t in (0.0, 5.0, 20.0):     # the notebook runs (a curl GET waits for it, then leaves)
        assert not due(watch, t, connections=0, state="busy", pooled=False, **LIMITS)
    assert not due(watch, 79.0, connections=0, state="idle", pooled=False, **LIMITS)
    assert due(watch, 80.0, connections=0, state="idle", pooled=False, **LIMITS)
    assert not watch.connected


@pytest.mark.parametrize("state", ["starting", "busy", "restarting"])
def test_a_running_or_starting_kernel_is_never_due(state):
    watch = Watch(held_at=0.0, connected=True)
    assert not due(watch, 1000.0, connections=0, state=state, pooled=False, **LIMITS)
    assert watch.held_at == 1000.0


def test_a_page_still_being_sent_holds_its_kernel_then_has_a_minute_to_connect():
    km = FakeKernelManager()
    km.add("page")
    reaper, clock = reaper_for(km)
    reaper.page_sending("page")
    clock.now = 500.0                     # a slow response on a crowded evening
    assert reaper.check() == []
    reaper.page_sent("page")
    clock.now = 559.0
    assert reaper.check() == []
    clock.now = 560.0
    assert reaper.check() == ["page"]


def test_a_page_loading_in_a_browser_holds_its_kernel_while_it_says_it_is_alive():
    km = FakeKernelManager()
    km.add("loading")
    reaper, clock = reaper_for(km)
    reaper.check()
    for t in (10.0, 50.0, 90.0):          # a slow browser, still loading its scripts
        clock.now = t
        assert reaper.page_alive("loading") and reaper.check() == []
    clock.now = 149.0
    assert reaper.check() == []
    clock.now = 150.0                     # it stopped saying so (closed) a minute ago
    assert reaper.check() == ["loading"]
    assert not reaper.page_alive("not-a-kernel-here") and "not-a-kernel-here" not in reaper.watches


def test_a_preheated_kernel_waiting_in_the_pool_is_never_due():
    watch = Watch(held_at=0.0)
    assert not due(watch, 3600.0, connections=0, state="idle", pooled=True, **LIMITS)


# --- the reaper on a fake kernel manager ----------------------------------------------
class FakeKernel:
    def __init__(self, env=None):
        self._launch_args = {"env": env} if env is not None else {}


class FakeKernelManager:
    """The part of Jupyter Server's MappingKernelManager the reaper reads."""

    def __init__(self):
        self.models: dict[str, dict] = {}
        self.kernels: dict[str, FakeKernel] = {}
        self.shut: list[str] = []
        self._pools: dict[str, list] = {}

    def add(self, kernel_id, connections=0, state="idle", env=None):
        self.models[kernel_id] = {"id": kernel_id, "connections": connections, "execution_state": state}
        self.kernels[kernel_id] = FakeKernel(env if env is not None else {"VOILA_PREHEAT": "False"})

    def list_kernel_ids(self):
        return list(self.models)

    def __contains__(self, kernel_id):
        return kernel_id in self.models

    def kernel_model(self, kernel_id):
        return self.models[kernel_id]

    def get_kernel(self, kernel_id):
        return self.kernels[kernel_id]

    def notify_connect(self, kernel_id):           # Jupyter Server: a page websocket opened
        self.models[kernel_id]["connections"] += 1

    def notify_disconnect(self, kernel_id):        # ...and closed
        self.models[kernel_id]["connections"] -= 1

    async def shutdown_kernel(self, kernel_id):
        if kernel_id == "stuck":
            raise RuntimeError("no answer")
        self.shut.append(kernel_id)
        del self.models[kernel_id], self.kernels[kernel_id]


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def reaper_for(km, **kwargs):
    clock = Clock()
    return KernelReaper(kernel_manager=km, clock=clock, grace=45, first_connect=60, **kwargs), clock


def test_reaper_shuts_down_only_the_kernel_whose_page_left():
    km = FakeKernelManager()
    km.add("left", connections=1)
    km.add("open", connections=1)
    reaper, clock = reaper_for(km)
    assert reaper.check() == []
    km.models["left"]["connections"] = 0
    clock.now = 44.0
    assert run_coroutine(reaper.reap()) == []
    clock.now = 45.0
    assert run_coroutine(reaper.reap()) == ["left"]
    assert km.shut == ["left"] and set(km.models) == {"open"} and set(reaper.watches) == {"open"}


def test_reaper_forgets_kernels_shut_down_by_others():
    km = FakeKernelManager()
    km.add("a")
    reaper, _clock = reaper_for(km)
    reaper.check()
    del km.models["a"]
    reaper.check()
    assert reaper.watches == {}


def test_a_kernel_that_will_not_shut_down_is_logged_and_the_check_goes_on(caplog):
    km = FakeKernelManager()
    km.add("stuck")
    km.add("gone")
    reaper, clock = reaper_for(km)
    reaper.check()
    clock.now = 61.0
    assert sorted(run_coroutine(reaper.reap())) == ["gone", "stuck"]
    assert km.shut == ["gone"]
    assert "stuck did not shut down: no answer" in caplog.text


def test_each_check_tells_the_table_service_which_pages_are_gone(monkeypatch):
    from playtest.tables import web

    told = []

    class Service:
        def pages_without_browser(self, kernel_ids):
            told.append(sorted(kernel_ids))

    km = FakeKernelManager()
    km.add("closed", connections=1)
    km.add("open", connections=1)
    km.add("loading")                              # never connected: not a closed page
    reaper, clock = reaper_for(km)
    reaper.check()                                 # no table service yet: nothing to tell
    monkeypatch.setattr(web, "_service", Service())
    km.models["closed"]["connections"] = 0
    clock.now = 5.0
    assert reaper.check() == []                    # the kernel stays for its grace period...
    assert told == [["closed"]]                    # ...but its tables hear at once
    km.models["closed"]["connections"] = 1         # the browser is back
    reaper.check()
    assert told[-1] == []


def test_the_tables_hear_of_a_closed_page_the_moment_its_websocket_closes(monkeypatch):
    from playtest.tables import web

    told = []

    class Service:
        def pages_without_browser(self, kernel_ids):
            told.append(sorted(kernel_ids))

    monkeypatch.setattr(web, "_service", Service())
    km = FakeKernelManager()
    km.add("seat-0")
    km.add("seat-1")

    async def scenario():
        reaper, _clock = reaper_for(km, interval=3600)    # no check runs while this test does
        reaper.start()
        try:
            km.notify_connect("seat-0")
            km.notify_connect("seat-1")                    # a page opens...
            await asyncio.sleep(0.01)
            assert told[-1] == []
            km.notify_disconnect("seat-1")                 # ...and closes: heard at once
            await asyncio.sleep(0.01)
            assert told[-1] == ["seat-1"]
            km.notify_connect("seat-1")                    # reconnected
            await asyncio.sleep(0.01)
            assert told[-1] == [] and km.models["seat-1"]["connections"] == 1
            reaper.stop()
            reaper.start()                                 # listening twice would tell twice
            count = len(told)
            km.notify_disconnect("seat-0")
            await asyncio.sleep(0.01)
            assert told[count:] == [["seat-0"]]
        finally:
            reaper.stop()

    run_coroutine(scenario())


def test_a_slow_kernel_shutdown_does_not_hold_back_the_other_shutdowns():
    km = FakeKernelManager()
    km.add("slow", connections=1)
    km.add("quick", connections=1)
    shut_at = {}

    async def shutdown_kernel(kernel_id):
        await asyncio.sleep(0.2 if kernel_id == "slow" else 0)
        shut_at[kernel_id] = time.monotonic()
        del km.models[kernel_id]

    km.shutdown_kernel = shutdown_kernel
    reaper, clock = reaper_for(km)
    reaper.check()
    km.models["slow"]["connections"] = km.models["quick"]["connections"] = 0
    clock.now = 45.0
    started = time.monotonic()
    assert sorted(run_coroutine(reaper.reap())) == ["quick", "slow"]
    assert shut_at["quick"] - started < 0.1 < shut_at["slow"] - started


def test_a_failing_table_service_never_stops_the_reaper(monkeypatch, caplog):
    from playtest.tables import web

    class Broken:
        def pages_without_browser(self, kernel_ids):
            raise RuntimeError("boom")

    monkeypatch.setattr(web, "_service", Broken())
    km = FakeKernelManager()
    km.add("left", connections=1)
    reaper, clock = reaper_for(km)
    reaper.check()
    km.models["left"]["connections"] = 0
    clock.now = 45.0
    assert reaper.check() == ["left"] and "was not told of closed pages: boom" in caplog.text


def test_under_jupyter_server_only_kernels_started_by_voila_are_watched():
    km = FakeKernelManager()
    km.add("voila-page", env={"VOILA_PREHEAT": "False", "QUERY_STRING": ""})
    km.add("notebook", env={"PATH": "/usr/bin"})          # JupyterLab's notebook kernel
    km.add("unknown")
    km.kernels["unknown"]._launch_args = None             # a jupyter_client without launch args
    reaper, clock = reaper_for(km, voila_only=True)
    reaper.check()
    clock.now = 3600.0
    assert reaper.check() == ["voila-page"]
    assert started_by_voila(km.kernels["notebook"]) is False
    assert started_by_voila(km.kernels["unknown"]) is None


def test_each_check_removes_the_socket_files_of_kernels_that_stopped_and_only_those(tmp_path):
    # jupyter_client removes a kernel's connection file and ipc sockets only on a clean
    # shutdown: a kernel that died, failed to start or failed to shut down left them behind
    ids = {name: f"{n:08d}-0000-4000-8000-000000000000"
           for n, name in enumerate(("running", "starting", "died", "failed"))}
    for kernel_id in ids.values():
        (tmp_path / f"kernel-{kernel_id}.json").write_text("{}")
        for n in range(1, 6):
            (tmp_path / f"kernel-{kernel_id}-ipc-{n}").touch()
    (tmp_path / "notes.txt").write_text("not a kernel's")

    async def scenario():
        km = FakeKernelManager()
        km.add(ids["running"])
        starting = asyncio.ensure_future(asyncio.sleep(10))
        failed = asyncio.ensure_future(asyncio.sleep(0))
        await failed                                           # a start that ended in an error
        km._pending_kernels = {ids["starting"]: starting, ids["failed"]: failed}
        reaper = KernelReaper(kernel_manager=km, connection_dir=str(tmp_path), grace=45)
        try:
            await reaper.reap()
        finally:
            starting.cancel()
        return {path.name for path in tmp_path.iterdir()}

    left = run_coroutine(scenario())
    assert left == {"notes.txt"} | {f"kernel-{ids[k]}{end}" for k in ("running", "starting")
                                    for end in [".json"] + [f"-ipc-{n}" for n in range(1, 6)]}
    km = FakeKernelManager()                                   # Jupyter Server: no folder of its own
    assert KernelReaper(kernel_manager=km).remove_stale_files() == []


def test_kernels_waiting_in_voilas_pool_are_known_by_their_finished_start_tasks():
    async def scenario():
        async def started(kernel_id):
            return {"kernel_id": kernel_id}

        async def failed():
            raise RuntimeError("kernel died while starting")

        done, broken = asyncio.ensure_future(started("k1")), asyncio.ensure_future(failed())
        pending = asyncio.ensure_future(asyncio.sleep(10))
        await asyncio.sleep(0.01)
        km = FakeKernelManager()
        km._pools = {"game.ipynb": [done, broken, pending]}
        ids = pooled_kernel_ids(km)
        pending.cancel()
        return ids

    assert run_coroutine(scenario()) == {"k1"}
    assert pooled_kernel_ids(object()) == set()           # no pool at all (Jupyter Server)


def test_the_grace_period_comes_from_the_environment_and_sets_the_check_interval(monkeypatch):
    monkeypatch.setenv("PLAYTEST_KERNEL_GRACE", "4.5")
    reaper = KernelReaper(kernel_manager=FakeKernelManager())
    assert reaper.grace == 4.5 and reaper.interval == 1.0 and reaper.first_connect == 60.0
    monkeypatch.delenv("PLAYTEST_KERNEL_GRACE")
    reaper = KernelReaper(kernel_manager=FakeKernelManager())
    assert reaper.grace == 45.0 and reaper.interval == 5.0
    # a page closed just after a look is found one interval later; it goes by grace: < 60 s
    assert reaper.grace + reaper.interval < 60


# --- settings, Binder and the dashboards ----------------------------------------------
def test_binder_installs_the_same_settings_as_the_server_has():
    binder = json.loads((ROOT / "binder/jupyter_server_config.json").read_text())
    assert binder == settings.JUPYTER_SERVER
    post_build = (ROOT / "binder/postBuild").read_text()
    assert "binder/jupyter_server_config.json" in post_build
    assert "playtest/server/templates/playtest" in post_build
    assert (ROOT / "playtest/server/templates/playtest/conf.json").is_file()


def test_kernels_use_ipc_sockets_and_wait_long_enough_for_their_outputs():
    for config in (settings.VOILA, settings.JUPYTER_SERVER):
        assert config["KernelManager"]["transport"] == "ipc"
        assert config["VoilaExecutor"]["iopub_timeout"] >= 30       # nbclient's 4 s dropped widgets


def read_page_address(source: str) -> bool:
    return bool(re.search(r"query_string\(\)|page_folder\(\)", source))


def test_no_dashboard_reads_its_address_from_the_environment_of_a_preheated_kernel():
    for notebook in sorted((ROOT / "playtest/dashboards").glob("*.ipynb")):
        code = "\n".join("".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]
                         if c["cell_type"] == "code")
        assert "QUERY_STRING" not in code, notebook.name
        if notebook.name in settings.POOL_SIZES and re.search(r"\.open(_link|_page)?\(", code):
            assert read_page_address(code), notebook.name


def test_the_game_page_imports_the_boards_before_the_page_asks_and_builds_the_app_after():
    # a pool kernel imports every installed game's board while it waits for a page
    # (GamePage()); once the page has asked, GamePage.open builds the game's app, and its
    # open_page names the browser, offers its saves and starts the game
    cell = "".join(next(c["source"] for c in json.loads((ROOT / "playtest/dashboards/game.ipynb").read_text())["cells"]
                        if c["cell_type"] == "code"))
    built, asked = cell.index("GamePage()"), cell.index("query_string()")
    assert built < asked < cell.index("page.open(query)")
    assert settings.POOL_SIZES["game.ipynb"] >= 1


def test_every_pooled_dashboard_exists():
    for name in settings.POOL_SIZES:
        assert (ROOT / "playtest/dashboards" / name).is_file(), name


# --- PlaytestVoila --------------------------------------------------------------------
@pytest.fixture
def voila_app(monkeypatch, tmp_path):
    """A PlaytestVoila initialised (not started) in an empty working directory; the
    SIGTERM handler Voilà installs is put back afterwards."""
    monkeypatch.chdir(tmp_path)
    before = signal.getsignal(signal.SIGTERM)
    apps = []

    def make(argv):
        app = server_app.PlaytestVoila()
        app.initialize(argv)
        apps.append(app)
        return app

    yield make
    signal.signal(signal.SIGTERM, before)


def test_the_server_runs_with_playtest_settings_under_the_command_line(voila_app, tmp_path):
    app = voila_app([str(ROOT / "playtest/dashboards"), "--port=9123", "--show_tracebacks=True"])
    assert app.port == 9123 and app.root_dir == str(ROOT / "playtest/dashboards")
    assert app.voila_configuration.preheat_kernel is True
    assert app.voila_configuration.strip_sources is True
    assert app.voila_configuration.show_tracebacks is True          # the command line wins
    assert app.config.KernelManager.transport == "ipc"
    assert app.config.VoilaKernelManager.kernel_pools_config == {"default": {"pool_size": 0}}
    assert app.pool_sizes["game.ipynb"] >= 1
    assert app.template_paths[0] == str(server_app.TEMPLATE_DIR)


def test_a_dashboards_pool_is_filled_after_its_first_page_and_only_once(voila_app):
    class PoolManager:
        kernel_pools_config = {"default": {"pool_size": 0}, "mine.ipynb": {"pool_size": 5}}
        filled: list = []
        _pools: dict = {}

        def fill_if_needed(self, delay=None, notebook_name=None):
            self.filled.append((notebook_name, self.kernel_pools_config[notebook_name]["pool_size"], delay))

    app = voila_app([str(ROOT / "playtest/dashboards")])
    app.kernel_manager = PoolManager()
    app.pool_sizes = {"game.ipynb": 3, "mine.ipynb": 2}
    app.start_pool("game.ipynb")
    app.start_pool("game.ipynb")
    app.start_pool("balance_lab.ipynb")          # not listed: no pool
    app.start_pool("mine.ipynb")                 # configured by hand (voila.json): left as it is
    assert app.kernel_manager.filled == [("game.ipynb", 3, None)]     # after Voilà's fill_delay


def test_a_voila_json_in_the_working_directory_overrides_the_defaults(voila_app, tmp_path):
    (tmp_path / "voila.json").write_text(json.dumps(
        {"VoilaKernelManager": {"kernel_pools_config": {"default": {"pool_size": 3}}}}))
    app = voila_app([str(ROOT / "playtest/dashboards")])
    assert app.config.VoilaKernelManager.kernel_pools_config == {"default": {"pool_size": 3}}
    assert app.config.KernelManager.transport == "ipc"               # the rest stays


def test_a_page_takes_a_preheated_kernel_only_when_one_is_ready():
    from types import SimpleNamespace

    async def scenario():
        async def started():
            return {"kernel_id": "k"}

        async def failed():
            raise RuntimeError("the kernel died while starting")

        ready, broken = asyncio.ensure_future(started()), asyncio.ensure_future(failed())
        waiting = asyncio.ensure_future(asyncio.sleep(10))      # a refill in its fill_delay
        await asyncio.sleep(0.01)
        answers = []
        for pool in ([ready, waiting], [waiting, ready], [broken], []):
            manager = SimpleNamespace(_pools={"game.ipynb": pool})
            handler = server_app.PageHandler.__new__(server_app.PageHandler)
            handler.application = SimpleNamespace(settings={"kernel_manager": manager})
            handler._notebook = "game.ipynb"
            answers.append(handler.should_use_rendered_notebook({"template": "lab"}, len(pool), None, None, {}))
        waiting.cancel()
        return answers

    assert run_coroutine(scenario()) == [True, False, False, False]


def test_the_page_handler_finds_the_kernel_id_voilas_page_config_carries():
    config = {"baseUrl": "/", "kernelId": "0b440cfc-3385-4cc9-8a12-0c4a31223221", "appVersion": "0.5.13"}
    html = f'<script id="jupyter-config-data" type="application/json">\n  {json.dumps(config)}\n</script>'
    assert server_app.KERNEL_ID.search(html).group(1) == config["kernelId"]


def test_the_page_template_extends_voilas_lab_page_with_the_kernel_message(voila_app):
    import jinja2

    app = voila_app([str(ROOT / "playtest/dashboards")])
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(app.template_paths))
    source, filename, _ = env.loader.get_source(env, "index.html.j2")
    assert filename.startswith(str(server_app.TEMPLATE_DIR))
    assert "{%- extends 'lab/index.html.j2' -%}" in source
    assert "Reload the page to get your game back from its last move (a single game through its Resume button)." in source
    assert env.loader.get_source(env, "lab/index.html.j2")           # what it extends is found


def test_connection_files_and_ipc_sockets_fit_a_unix_socket_path(voila_app, monkeypatch):
    monkeypatch.setattr(server_app.tempfile, "gettempdir", lambda: "/very/long/" + "x" * 80)
    app = voila_app([str(ROOT / "playtest/dashboards")])
    assert app.connection_dir_root == "/tmp"


@pytest.mark.parametrize("ip, loopback", [("127.0.0.1", "127.0.0.1"), ("0.0.0.0", "127.0.0.1"),
                                          ("", "127.0.0.1"), ("192.168.1.5", "192.168.1.5"),
                                          ("::", "127.0.0.1"), ("::1", "[::1]")])
def test_kernels_reach_the_server_on_an_address_it_listens_on(ip, loopback):
    assert server_app.loopback_for(ip) == loopback


def test_the_server_imports_voila_without_jsonschemas_iri_checker():
    # rfc3987_syntax builds ~35 parsers on import (3 s of CPU per kernel, jsonschema #1428):
    # the server's entry point skips it (a preheated kernel imports no Voilà), and jsonschema
    # still checks the formats Jupyter's schemas use
    import subprocess
    import sys
    code = ("import sys, playtest.cli\n"
            "assert 'jsonschema' not in sys.modules, 'the command line imports jsonschema before serve'\n"
            "from playtest.server import skip_iri_format_checker\n"
            "skip_iri_format_checker()\n"
            "import voila.utils, jsonschema\n"
            "checkers = jsonschema.FormatChecker().checkers\n"
            "print(sys.modules['rfc3987_syntax'] is None, 'iri' in checkers, 'uri-reference' in checkers)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.split() == ["True", "False", "True"], out.stderr[-2000:]


def test_voilas_data_folder_is_searched_when_jupyter_does_not_look_there(monkeypatch):
    # a venv made with --system-site-packages: Voilà is the machine's, its templates in the
    # machine's share/jupyter, which the venv's Jupyter does not search ("No template
    # sub-directory with name 'lab'")
    monkeypatch.delenv("JUPYTER_PATH", raising=False)
    monkeypatch.setattr(server_app, "jupyter_path", lambda *parts: ["/nowhere/share/jupyter"])
    added = server_app.share_voila_data()
    assert added is not None and (added / "voila" / "templates" / "lab" / "index.html.j2").is_file()
    assert os.environ["JUPYTER_PATH"] == str(added)
    # where Jupyter already looks (a plain venv, a machine's Python), nothing changes
    monkeypatch.delenv("JUPYTER_PATH")
    monkeypatch.setattr(server_app, "jupyter_path", lambda *parts: [str(added)])
    assert server_app.share_voila_data() is None and "JUPYTER_PATH" not in os.environ
