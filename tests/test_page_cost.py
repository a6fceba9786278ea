"""What a page costs when it opens, and the kernels kept ready for pages on their way.

Every widget model of a page is created in its kernel, sent through the server and built
by the browser; a dashboard built before its page asks (``GameApp.open_page``) makes
them in a preheated kernel instead. The table service counts the seat pages still to come
(``TableService.awaited_pages``) and ``playtest serve`` keeps as many table pages ready
(``PlaytestVoila.await_table_pages``).
"""
from __future__ import annotations

import asyncio
import os
import warnings
from pathlib import Path

import ipywidgets as w
import pytest

from browser_support import run_coroutine
from playtest.engine import games
from playtest.tables import service as service_module
from playtest.tables.service import ServiceError, TableService
from playtest.widgets import GameApp
from playtest.widgets.gameboard import builder_kinds
from playtest.widgets.autosave import saved_paths
from playtest.widgets.components import Card, shared
from playtest.widgets.gamepage import GamePage

ROOT = Path(__file__).resolve().parent.parent
GAMES = tuple(games())
MODEL_BUDGET = 340
"""Widget models (widgets, layouts, styles) the game page (``game.ipynb``) may make for a
game's first game, at its first seat count (``Game.SEATS``); 645 to 718 before layouts and styles were shared and each
builder held every kind, 381 to 444 before the New game and record panels waited to be opened."""


def live_models() -> set[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return set(w.Widget.widgets)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_stays_within_its_widget_model_budget(game):
    page = GamePage()                    # before a page asks: the boards imported, no widget of a game made
    before = live_models()
    page.open(f"game={game}")
    made = live_models() - before
    assert page.app.table is not None and len(made) <= MODEL_BUDGET, len(made)


def test_the_new_game_and_record_panels_are_made_when_first_opened_and_show_the_first_games_options():
    app = GameApp("chore_race", seed=4, preset="Quick Game", browser="")
    assert not app.new_game.built and not app.records.built and app.new_game.widget.children == ()
    app.play(app.decision_moves(app.control)[0])    # a move resets the record panel: still not made
    assert not app.records.built
    before = live_models()
    app.setup.selected_index = 0                    # the person opens "New game"
    assert app.new_game.built and len(live_models() - before) > 40 and app.new_game.start in app.new_game.widget.children
    assert app.presets.value == "Quick Game" and app.new_game.config()[2]["target_vp"] == 10   # the first game's
    app.setup.selected_index = 1
    assert app.records.built and app.records.upload in app.records.widget.children


def test_shared_layouts_and_styles_are_one_model_and_refuse_a_change():
    first, second = Card(), Card()
    assert first.layout is second.layout is shared(w.Layout) and first.style is second.style
    with pytest.raises(RuntimeError, match="shared Layout"):
        first.layout.display = "none"        # would hide every card: a widget that changes gets its own
    assert Card(layout=w.Layout(width="9px")).layout is not first.layout


def test_each_move_builder_holds_only_its_own_kinds_of_buttons():
    app = GameApp("lazy_sunday", seed=3, browser="")
    ls = app.game
    assert builder_kinds(ls, open_moves=True) == {"claim": ("s", "p", "serial")}        # LS-5
    assert "claim" not in builder_kinds(ls, open_moves=False) and "peek" in builder_kinds(ls, open_moves=False)
    assert set(app.open_moves.move_args) == set(ls.OPEN_MOVES)
    assert set(app.moves.move_args) == set(ls.MOVE_ARGS) - ls.OPEN_MOVES


def test_an_app_built_before_its_page_reads_no_save_until_open_page_names_the_browser(monkeypatch):
    from playtest.server.settings import BROWSER_ENV
    from test_widgets import ToyBoard, step
    ann = "a" * 24
    played = GameApp("toy", ToyBoard, 3, {1: "random", 2: "random"}, browser=ann)
    step(played)
    assert saved_paths("toy", ann) == [played.autosave_path]
    early = GameApp("toy", ToyBoard, 3, {1: "random", 2: "random"}, start=False, browser="")
    assert early.table is None and early.saved is None          # a pool kernel: nobody's page yet
    monkeypatch.setenv(BROWSER_ENV, ann)
    early.open_page("seed=11")
    assert early.browser == ann and early.saved is not None     # Ann's unfinished game on offer
    assert early.table is not None and early.new_game.seed.value == "11"
    assert early.players == {1: "random", 2: "random"}          # the constructor's seating


def test_awaited_pages_count_the_human_seats_no_page_has_joined(tmp_path, monkeypatch):
    service = TableService(tmp_path)
    try:
        made = service.create({"game": "lazy_sunday", "seats": 4, "players": ["human", "human", "heuristic", "human"]})
        assert service.awaited_pages() == 3
        for table_id, token in ((made["id"], "forged"), ("nosuch", made["seats"][0]["token"])):
            with pytest.raises(ServiceError):
                service.authenticate(table_id, token)
        assert service.awaited_pages() == 3                      # a bad link ends no wait
        service.authenticate(made["id"], made["seats"][0]["token"])
        assert service.awaited_pages() == 2                      # seat 0's page is on its way
        service.authenticate(made["id"], made["seats"][1]["token"])
        assert service.awaited_pages() == 1
        service.authenticate(made["id"], made["spectator_token"])
        assert service.awaited_pages() == 1                      # a spectator is no seat
        service.close()
        service = TableService(tmp_path)                         # a restart: everyone reloads
        assert service.awaited_pages() == 3
        service.table(made["id"]).end()
        assert service.awaited_pages() == 0                      # an ended table awaits nobody
        other = service.create({"game": "chore_race", "seats": 2, "players": ["human", "human"]})
        assert service.awaited_pages() == 2
        clock = service_module.time.monotonic() + service_module.AWAIT_WINDOW + 1
        monkeypatch.setattr(service_module.time, "monotonic", lambda: clock)
        assert service.awaited_pages() == 0 and other            # links never opened: not awaited forever
    finally:
        service.close()


class FakePoolManager:
    """The part of Voilà's kernel manager that resize_pool uses: pools of futures."""

    def __init__(self):
        self.kernel_pools_config = {"default": {"pool_size": 0}}
        self._pools: dict[str, list] = {}
        self.started = 0
        self.shut: list[str] = []

    def fill_if_needed(self, delay=None, notebook_name=None, **_):
        pool = self._pools.setdefault(notebook_name, [])
        while len(pool) < self.kernel_pools_config[notebook_name]["pool_size"]:
            future = asyncio.get_event_loop().create_future()
            self.started += 1
            future.set_result({"kernel_id": f"k{self.started}"})
            pool.append(future)

    async def shutdown_kernel(self, kernel_id):
        self.shut.append(kernel_id)


def test_the_table_page_pool_grows_for_awaited_seats_and_shrinks_once_they_joined():
    from playtest.server import app as app_module

    async def scenario():
        server = app_module.PlaytestVoila(pool_sizes={"table.ipynb": 2}, awaited_cap=4)
        manager = server.kernel_manager = FakePoolManager()
        server.await_table_pages(0)
        assert "table.ipynb" not in manager._pools           # no table, no page yet: nothing started
        server.await_table_pages(3)
        assert len(manager._pools["table.ipynb"]) == 5        # its own 2 and one per awaited seat
        server.await_table_pages(9)
        assert len(manager._pools["table.ipynb"]) == 6        # at most awaited_cap extra
        server.await_table_pages(0)
        assert len(manager._pools["table.ipynb"]) == 6 and not manager.shut   # just ready: kept a while
        server.trim_after = 0                                 # as after a minute ready
        server.await_table_pages(0)
        await asyncio.sleep(0.05)                              # the shutdowns run on the loop
        assert len(manager._pools["table.ipynb"]) == 2 and manager.shut == ["k6", "k5", "k4", "k3"]
        assert manager.kernel_pools_config["table.ipynb"] == {"pool_size": 2}

    run_coroutine(scenario())


def test_crowd_raises_every_listed_pool_and_never_starts_an_unlisted_one():
    from playtest.server.app import PlaytestVoila
    server = PlaytestVoila(pool_sizes={"game.ipynb": 2, "index.ipynb": 1}, crowd=8)
    assert server.pool_size("game.ipynb") == 8 and server.pool_size("index.ipynb") == 8
    assert server.pool_size("scenario_debugger.ipynb") == 0
    assert PlaytestVoila(pool_sizes={"game.ipynb": 2}).pool_size("game.ipynb") == 2


def test_a_preheated_kernel_reads_its_pages_request_from_voilas_own_query_websocket(monkeypatch):
    # the page wait reads Voilà's message itself (voila.utils imports Jupyter Server: 37 MB
    # per kernel); here against Voilà's own handler, so a change of its protocol fails this
    import threading

    import tornado.httpserver
    import tornado.netutil
    import tornado.web
    from tornado.ioloop import IOLoop
    from voila.request_info_handler import RequestInfoSocketHandler

    from playtest.widgets import page
    kernel_id = "0e9a014f-fdb9-41e0-9bde-542313adc3a0"
    sent = {"QUERY_STRING": "table=ab12cd34&token=T1", "SERVER_NAME": "10.0.0.2", "SERVER_PORT": "8866"}
    ready, loop = threading.Event(), {}

    def serve():
        async def main():
            app = tornado.web.Application([(r"/base/voila/query/([0-9a-f-]{36})", RequestInfoSocketHandler)])
            server = tornado.httpserver.HTTPServer(app)
            sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
            server.add_sockets(sockets)
            loop["port"], loop["stop"] = sockets[0].getsockname()[1], asyncio.Event()
            loop["loop"] = IOLoop.current()
            ready.set()
            while kernel_id not in RequestInfoSocketHandler._waiters:     # the kernel is waiting
                await asyncio.sleep(0.02)
            RequestInfoSocketHandler.send_updates({"kernel_id": kernel_id, "payload": sent})   # a page took it
            await loop["stop"].wait()
            server.stop()
        run_coroutine(main())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(10)
    for name, value in {"VOILA_PREHEAT": "True", "VOILA_APP_IP": "127.0.0.1", "VOILA_APP_PORT": str(loop["port"]),
                        "VOILA_SERVER_URL": "/base/", "VOILA_KERNEL_ID": kernel_id, "QUERY_STRING": ""}.items():
        monkeypatch.setenv(name, value)
    for name in ("VOILA_WS_BASE_URL", "VOILA_WS_PROTOCOL", "SERVER_NAME", "SERVER_PORT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(page, "_request_arrived", False)
    try:
        assert page.query_socket_url() == f"ws://127.0.0.1:{loop['port']}/base/voila/query/{kernel_id}"
        assert page.query_string() == "table=ab12cd34&token=T1"
        assert os.environ["SERVER_NAME"] == "10.0.0.2" and os.environ["SERVER_PORT"] == "8866"
    finally:
        loop["loop"].add_callback(loop["stop"].set)
        thread.join(10)
    for name in sent:
        monkeypatch.delenv(name, raising=False)


def test_a_preheated_kernel_whose_query_websocket_fails_opens_its_page_without_an_address(monkeypatch):
    from playtest.widgets import page
    from playtest.server.launch import free_port
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_APP_PORT", str(free_port()))      # nothing listens there
    monkeypatch.setenv("QUERY_STRING", "")
    monkeypatch.setattr(page, "_request_arrived", False)
    with pytest.warns(RuntimeWarning, match="query websocket .* could not be opened"):
        assert page.query_string() == ""
    assert page.query_string() == ""                              # one wait only: no second warning


NOT_IN_A_PAGE = ("pandas", "numpy", "scipy", "matplotlib", "dask", "voila", "jupyter_server", "nbconvert",
                 "debugpy", "jedi")
"""Modules no seat, spectator or game page's kernel imports: the lab's (it imports them
itself when its page opens), Voilà's server side (the page wait reads Voilà's websocket
itself) and what no page uses (:mod:`playtest.server.kernel`)."""


@pytest.mark.server
def test_seat_spectator_and_game_page_kernels_import_only_what_they_use(tmp_path):
    import shutil

    from jupyter_client import BlockingKernelClient

    from table_support import api
    from test_serve_server import get, kernel_command_lines, kernel_id_of, standalone, wait_until
    folder = tmp_path / "dashboards"
    folder.mkdir()
    for name in ("table.ipynb", "game.ipynb"):
        shutil.copy(ROOT / "playtest" / "dashboards" / name, folder / name)
    with standalone(folder, tmp_path) as (proc, base, log):
        status, made = api(base, "POST", "tables", {"game": "lazy_sunday", "seats": 2, "players": ["human", "human"]})
        assert status == 201, made
        # the table pages take kernels preheated for the table's seats (they wait for their
        # page's address), the game page (its first) a kernel started for it
        wait_until(lambda: "Kernel pool of table.ipynb is filled" in log.read_text(), 120, "the table pages ready")
        for path in (made["seats"][0]["path"], made["spectator_path"], "game.ipynb?game=lazy_sunday&seed=3"):
            status, page = get(f"{base}/voila/render/{path}")
            assert status == 200, page[-2000:]
            kernel_id = kernel_id_of(page)
            # no page websocket connects (the reaper's first_connect is 3 s here): say it loads
            assert get(f"{base}/playtest/pages/{kernel_id}/alive")[0] == 204
            connection = next(part for line in kernel_command_lines(proc.pid) for part in line
                              if part.endswith(f"kernel-{kernel_id}.json"))
            client = BlockingKernelClient()
            client.load_connection_file(connection)
            client.start_channels()
            try:
                printed = []
                client.execute_interactive(
                    "import sys; print(' '.join(sorted({n.split('.')[0] for n in sys.modules if sys.modules[n]})))",
                    timeout=60, output_hook=lambda m: printed.append(m["content"].get("text", "")))
            finally:
                client.stop_channels()
            imported = set("".join(printed).split())
            assert "playtest" in imported and "ipywidgets" in imported, printed     # the page ran
            assert not imported & set(NOT_IN_A_PAGE), (path, sorted(imported & set(NOT_IN_A_PAGE)))
        assert log.read_text().count("Using pre-heated kernel") == 2


# --- the memory budget (playtest serve --max-memory) --------------------------------------
def test_memory_sizes_read_as_people_write_them_and_anything_else_is_refused_with_a_sentence():
    from playtest.cli import main
    from playtest.server.memory import parse_size
    assert [parse_size(t) for t in ("2G", "2GiB", "1536M", "512 MB", "2147483648", "0")] == \
        [2 << 30, 2 << 30, 1536 << 20, 512 << 20, 2147483648, 0]
    for bad in ("2X", "-1G", "1.5G", "", "9" * 40):
        with pytest.raises(ValueError, match="is not a memory size: write it as 2G, 1536M"):
            parse_size(bad)
    with pytest.raises(SystemExit):
        main(["serve", "--max-memory", "lots"])


def test_the_default_budget_is_the_containers_cgroup_limit_and_its_use_counts_only_under_a_limit(tmp_path):
    from playtest.server.memory import Cgroup, container_limit, container_usage
    v2 = Cgroup(*(str(tmp_path / "v2" / name) for name in ("memory.max", "memory.current", "memory.stat")),
                "inactive_file")
    v1 = Cgroup(*(str(tmp_path / "v1" / name) for name in ("limit", "usage", "stat")), "total_inactive_file")
    (tmp_path / "v1").mkdir()
    groups = (v2, v1)
    assert container_limit(groups) is None and container_usage(groups) is None     # no cgroup files
    Path(v1.limit).write_text("9223372036854771712\n")                  # cgroup v1 without a limit
    Path(v1.usage).write_text("3000000000\n")
    Path(v1.stat).write_text("total_rss 1500000000\ntotal_inactive_file 400000000\n")
    assert container_limit(groups) is None and container_usage(groups) is None     # another's use: not ours
    Path(v1.limit).write_text("2147483648\n")
    assert container_limit(groups) == 2 << 30 and container_usage(groups) == 2_600_000_000
    (tmp_path / "v2").mkdir()
    Path(v2.limit).write_text("max\n")                                  # v2 first: no limit there
    assert container_limit(groups) is None
    Path(v2.limit).write_text("1073741824\n")
    Path(v2.usage).write_text("900000000\n")
    Path(v2.stat).write_text("anon 700000000\ninactive_file 100000000\n")
    assert container_limit(groups) == 1 << 30 and container_usage(groups) == 800_000_000


def test_the_budget_counts_the_server_and_its_processes_plus_one_more_kernel():
    import signal
    import subprocess
    import sys

    from playtest.server.memory import KERNEL_COST, MemoryBudget, pss
    # a stand-in server, so that no other process of this test run is counted: it starts
    # a "kernel" holding 40 MB (written, so resident) when told to
    server = subprocess.Popen([sys.executable, "-c", SERVER_WITH_ONE_KERNEL], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert server.stdout.readline() == "ready\n"
        budget = MemoryBudget(limit=1 << 50, pid=server.pid)
        used, one_more = budget.measure()
        assert one_more == KERNEL_COST                              # no kernel yet: the default
        assert used >= pss(server.pid) > 0
        server.stdin.write("start\n")
        server.stdin.flush()
        assert server.stdout.readline() == "held\n"
        used_with_kernel, one_more = budget.measure()
        assert used_with_kernel >= used + (30 << 20) and one_more >= 25 << 20     # the kernel is the one to expect
        assert not budget.full()
        assert MemoryBudget(limit=used_with_kernel + one_more - (15 << 20), pid=server.pid).full()  # margins
        assert not MemoryBudget(limit=used_with_kernel + one_more + (20 << 20), pid=server.pid).full()
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


SERVER_WITH_ONE_KERNEL = """
import subprocess, sys, time
print("ready", flush=True)
sys.stdin.readline()
kernel = subprocess.Popen([sys.executable, "-c", "import time; b = bytearray(40 << 20); print('held', flush=True); "
                           "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
print(kernel.stdout.readline(), end="", flush=True)
time.sleep(60)
"""


@pytest.mark.server
def test_a_full_server_answers_every_page_with_a_plain_page_naming_who_plays_and_starts_no_kernel(tmp_path):
    import shutil

    from table_support import api
    from test_serve_server import get, kernel_command_lines, standalone
    folder = tmp_path / "dashboards"
    folder.mkdir()
    shutil.copy(ROOT / "playtest" / "dashboards" / "table.ipynb", folder / "table.ipynb")
    with standalone(folder, tmp_path, f"--PlaytestVoila.max_memory={1 << 20}") as (proc, base, log):
        status, made = api(base, "POST", "tables", {"game": "lazy_sunday", "seats": 2, "players": ["human", "human"]})
        assert status == 201, made                                 # the tables' API is no page: it answers
        status, page = get(f"{base}/voila/render/{made['seats'][0]['path']}")
        assert status == 503, page[-1000:]
        text = page.decode()
        assert "<title>This server is full</title>" in text
        assert "This server is full: 0 pages are open for 1 table. Try again when a table ends." in text
        assert "(1 MB)" in text and kernel_command_lines(proc.pid) == []
        status, page = get(f"{base}/voila/render/table.ipynb?table=nosuch&token=x")
        assert status == 404                                       # a wrong link is still told so first
        assert "page refused, the server is full (0 pages open, 1 tables)" in log.read_text()


def test_past_the_memory_budget_the_table_page_pool_may_shrink_but_never_grows():
    from playtest.server import app as app_module

    class Full:
        def full(self):
            return True

    async def scenario():
        server = app_module.PlaytestVoila(pool_sizes={"table.ipynb": 2}, awaited_cap=4)
        manager = server.kernel_manager = FakePoolManager()
        server.memory = Full()
        server.await_table_pages(3)
        assert "table.ipynb" not in manager._pools                 # full: no pool started for seats to come
        server.start_pool("table.ipynb")
        assert "table.ipynb" not in manager._pools                 # nor for a first page
        server.memory = None
        server.await_table_pages(3)
        assert len(manager._pools["table.ipynb"]) == 5
        server.memory, server.trim_after = Full(), 0
        server.await_table_pages(4)
        assert manager.kernel_pools_config["table.ipynb"] == {"pool_size": 5}     # not 6
        server.await_table_pages(0)
        await asyncio.sleep(0.05)
        assert len(manager._pools["table.ipynb"]) == 2                # shrinks as it would anyway

    run_coroutine(scenario())
