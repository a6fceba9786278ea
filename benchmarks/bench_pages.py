"""Many dashboard pages at once: time to the first button, memory, kernels left behind.

Run: ``python benchmarks/bench_pages.py [--counts 1,8,24] [--rounds 3] [--linger 90] [--pool N]
[--crowd browsers|devices] [--costs-only]``
(about 15 minutes with the defaults on 2 cores). Needs Playwright and the system
Chromium (``/usr/bin/chromium``), as the browser tests do.

One dashboard server (``python -m playtest.server``, what ``playtest serve`` runs, with
its kernel pools, transport and reaper) serves a temporary folder holding a copy of the
game page (``game.ipynb?game=lazy_sunday``) and a trivial dashboard of four buttons (written by this script),
the trivial one with the same kernel pool size: the trivial page is the floor that
Voilà, the kernel start and the browser set on this machine, and both are measured in
the same run. Headless Chromium (one browser, one context per page, so no page shares
another's cache, as separate devices would not) opens 1, 8 and 24 pages of one
dashboard at the same moment and times each page from that moment to its first visible
widget button; each batch waits until the server is quiet (its pool refilled) first,
and one page of each dashboard, not timed, fills their pools before the first batch.
Batches of the two dashboards alternate, in 3 rounds.

``--crowd devices`` opens one page of each batch in Chromium and the others as the
players' own devices would load them, without a browser here (:func:`open_like_a_browser`:
the page, then the kernel's websocket and every widget's state, which is what a page's
scripts fetch before drawing): on this machine the browsers of 8 pages use more CPU
than the server and its kernels, while in a real session each browser runs on its own
device. The Chromium page is timed to its first button as always; a device to its
widget states, plus the drawing time of a page alone measured in the same round (the
Chromium page's time alone minus a device's time alone).

First, on a server of its own, one page of each kind alone (seat, spectator, host, game,
lobby, lab: :func:`page_costs`): its kernel's RSS and PSS (``/proc/<pid>/smaps_rollup``),
the CPU its kernel used until the page was ready, and whether it loaded pandas; and how
many seat pages 2 GiB (a Binder session) holds. ``--costs-only`` stops there.

Printed per dashboard and page count: time to the first button (median and max over
the rounds' pages), the max over the time of one page alone of the same round (the
median of the rounds' ratios; the target is 2x for 8 pages), the memory of a page (RSS of
its kernel process, from psutil if installed, else /proc), and how many of the batch's
kernels were still running ``--linger`` seconds (90) after its pages closed, and how many
had files left (connection file, ipc sockets) in the server's connection folder. Closing a
batch's browser contexts runs no unload handler (Voilà's unload request is refused
anyway, voila #1458), as when a phone sleeps or leaves the network: the server's reaper
alone frees those kernels.

A benchmark, not a test: the figures depend on the machine and what else runs on it,
so the load average is printed beside them. docs/speed.md keeps the latest figures.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from playtest.server.launch import free_port, running

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
FIRST_BUTTON = "button.widget-button:visible"
PAGES = {"game": "Lazy Sunday game page", "trivial": "trivial 4-button dashboard"}
QUERIES = {"game": "game=lazy_sunday"}
"""The query each page of PAGES opens with (none for a page left out)."""

TRIVIAL = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "b0", "metadata": {}, "outputs": [],
               "source": ["import ipywidgets as w\n", "\n",
                          "w.HBox([w.Button(description=f\"Button {i}\") for i in range(4)])"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


# --- processes (Linux /proc; psutil for memory when installed) ----------------------
def children_of(pid: int) -> list[int]:
    """Every descendant process of ``pid``."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def cpu_by_process(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds used so far by each of ``pids`` still running."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            used[pid] = (int(fields[11]) + int(fields[12])) / tick
    return used


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by ``pids`` (those still running)."""
    return sum(cpu_by_process(pids).values())


def cpu_since(before: dict[int, float], pids: list[int]) -> float:
    """CPU seconds ``pids`` used since ``before`` (from :func:`cpu_by_process`); a process
    started since counts whole, one that ended since is left out."""
    now = cpu_by_process(pids)
    return sum(t - before.get(pid, 0.0) for pid, t in now.items())


def kernel_pid(kernel_id: str) -> int | None:
    """The process of a kernel, found by its connection file's name in the command line."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if kernel_id in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    return int(entry.name)
    return None


def rss_mb(pid: int) -> float | None:
    """Resident memory of a process in MB (psutil if installed, else /proc/<pid>/status)."""
    try:
        import psutil
    except ImportError:
        psutil = None
    try:
        if psutil is not None:
            return psutil.Process(pid).memory_info().rss / 2**20
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except Exception:  # noqa: BLE001 - the process ended meanwhile
        return None
    return None


# --- the server ------------------------------------------------------------------------
def prepare(folder: Path, pool: int | None) -> int:
    """Write the two dashboards and the server's pool settings into ``folder``; returns
    the pool size each dashboard gets (``pool``, or the game page's in playtest serve)."""
    from playtest.server.settings import POOL_SIZES

    shutil.copy(ROOT / "playtest" / "dashboards" / "game.ipynb", folder / "game.ipynb")
    (folder / "trivial.ipynb").write_text(json.dumps(TRIVIAL, indent=1))
    pool = POOL_SIZES["game.ipynb"] if pool is None else pool
    # read by the server from its working directory, over playtest's own defaults: the
    # pools fill after each dashboard's first page, as under playtest serve
    config = {"PlaytestVoila": {"pool_sizes": {"game.ipynb": pool, "trivial.ipynb": pool}}}
    (folder / "voila.json").write_text(json.dumps(config, indent=1))
    return pool


@contextlib.contextmanager
def server(folder: Path):
    """Run ``python -m playtest.server folder`` on a free port; yields (base URL, pid)."""
    port = free_port()
    env = {**os.environ, "PLAYTEST_AUTOSAVE_DIR": str(folder / "autosave"),
           "PLAYTEST_DATA_DIR": str(folder / "data")}
    command = [sys.executable, "-m", "playtest.server", str(folder), "--no-browser",
               f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"]
    base = f"http://127.0.0.1:{port}"
    with running(command, f"{base}/voila/tree", folder / "server.log", cwd=folder, env=env) as proc:
        yield base, proc.pid


FILL_DELAY = 10.0
"""Seconds after a page takes a preheated kernel before Voilà starts its replacement
(``VoilaKernelManager.fill_delay`` in playtest serve's settings)."""


def settle(pid: int, kernels_at_least: int, quiet: float = 0.25, timeout: float = 180.0) -> None:
    """Wait until the server holds at least ``kernels_at_least`` kernel processes and its
    process tree used under ``quiet`` of a core for two seconds in a row (its pools
    refilled, its pages done). First wait out the refill delay: until then the server
    is calm with its pools short (and closed pages' kernels still count)."""
    time.sleep(FILL_DELAY + 1)
    deadline = time.monotonic() + timeout
    calm = 0
    while time.monotonic() < deadline and calm < 2:
        tree = [pid, *children_of(pid)]
        before = cpu_seconds(tree)
        time.sleep(1.0)
        used = cpu_seconds(tree) - before
        calm = calm + 1 if used < quiet and len(tree) - 1 >= kernels_at_least else 0


def kernel_alive(base: str, kernel_id: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/api/kernels/{kernel_id}", timeout=10):
            return True
    except urllib.error.HTTPError as exc:
        return exc.code != 404
    except OSError:
        return True       # no answer: counted as left behind


# --- what one page costs, per kind ------------------------------------------------------
COST_DASHBOARDS = ("table.ipynb", "game.ipynb", "lobby.ipynb", "balance_lab.ipynb")


def memory_mb(pid: int) -> tuple[float, float] | None:
    """(RSS, PSS) of a process in MB, from /proc/<pid>/smaps_rollup; None if it ended."""
    try:
        fields = {line.split(":")[0]: int(line.split()[1]) / 1024
                  for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]}
        return fields["Rss"], fields["Pss"]
    except (OSError, KeyError, ValueError, IndexError):
        return None


def loads_pandas(pid: int) -> bool:
    """Whether the process has pandas' compiled modules mapped (it imported pandas)."""
    with contextlib.suppress(OSError):
        return "/pandas/_libs/" in Path(f"/proc/{pid}/maps").read_text()
    return False


def post_json(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(f"{base}/playtest/api/{path}", method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


async def page_costs(base: str, server_pid: int, timeout: float) -> tuple[list[dict], tuple]:
    """Open one page of each kind alone, one after another, as a device would
    (:func:`open_like_a_browser`), on a server that has run no page yet: a page takes a
    preheated kernel if one is ready (the table pages, kept ready for the table's seats),
    else one started for it; its kernel's CPU counts from the kernel's start. Returns a
    row per kind (time to its widget states, its kernel's RSS and PSS in MB, CPU seconds
    the kernel used up to then, whether it loaded pandas) and the server's (RSS, PSS)
    at the end."""
    made = post_json(base, "tables", {"game": "lazy_sunday", "seats": 4, "players": ["human", "human", "heuristic",
                                                                                       "heuristic"]})
    table = f"table={made['id']}&token="
    kinds = [("seat", "table", table + made["seats"][0]["token"]),
             ("seat (another)", "table", table + made["seats"][1]["token"]),
             ("spectator", "table", table + made["spectator_token"]),
             ("host", "table", table + made["host_token"]),
             ("game (Lazy Sunday)", "game", "game=lazy_sunday&seed=3"),
             ("lobby", "lobby", ""),
             ("lab", "balance_lab", "")]
    rows = []
    for kind, page, query in kinds:
        took, kernel_id = await open_like_a_browser(base, page, timeout, query)
        pid = kernel_pid(kernel_id) if kernel_id else None
        memory = memory_mb(pid) if pid else None
        rows.append({"kind": kind, "time": took, "rss": memory[0] if memory else None,
                     "pss": memory[1] if memory else None, "cpu": cpu_seconds([pid]) if pid else None,
                     "pandas": loads_pandas(pid) if pid else None})
    return rows, memory_mb(server_pid)


def report_costs(rows: list[dict], server_memory, limit_gib: float = 2.0) -> None:
    print()
    print("| page | widget states after (s) | kernel RSS (MB) | kernel PSS (MB) | kernel CPU until ready (s) "
          "| pandas loaded |")
    print("|---|---:|---:|---:|---:|---|")
    for row in rows:
        def fmt(value, spec=".0f"):
            return "?" if value is None else format(value, spec)
        print(f"| {row['kind']} | {fmt(row['time'], '.1f')} | {fmt(row['rss'])} | {fmt(row['pss'])} "
              f"| {fmt(row['cpu'], '.2f')} | {'?' if row['pandas'] is None else 'yes' if row['pandas'] else 'no'} |")
    seat = next((r["pss"] for r in rows if r["kind"] == "seat" and r["pss"]), None)
    if server_memory and seat:
        room = limit_gib * 1024 - server_memory[1]
        print(f"\nServer: RSS {server_memory[0]:.0f} MB, PSS {server_memory[1]:.0f} MB. "
              f"{limit_gib:g} GiB (Binder) holds about {room / seat:.0f} seat pages at {seat:.0f} MB PSS "
              f"beside the server, {max(room - 8 * seat, 0) / seat:.0f} while 8 kernels wait ready for a "
              "new table's links.")


# --- the pages -------------------------------------------------------------------------
KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')


def _kernel_message(session: str, msg_type: str, content: dict, metadata: dict | None = None) -> str:
    return json.dumps({"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "",
                                  "session": session, "date": "", "version": "5.3"},
                       "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell"})


async def open_like_a_browser(base: str, page: str, timeout: float, query: str = "") -> tuple[float | None, str | None]:
    """Load a dashboard page as its scripts would, without a browser: the page's HTML in
    full (Voilà sends it as the notebook runs), then the kernel's websocket, then the
    state of every widget (ipywidgets' control comm, ``request_states``). Returns
    (seconds until the states arrived, None on a failure or timeout; the kernel id)."""
    from tornado.httpclient import AsyncHTTPClient
    from tornado.websocket import websocket_connect

    start, kernel_id = time.monotonic(), None
    try:
        # Tornado's client queues requests beyond max_clients (10) and fails them after
        # connect_timeout: a crowd of devices needs its own connections
        client = AsyncHTTPClient(force_instance=True, max_clients=1)
        try:
            response = await client.fetch(f"{base}/voila/render/{page}.ipynb{'?' + query if query else ''}",
                                          request_timeout=timeout,
                                          connect_timeout=timeout)
        finally:
            client.close()
        kernel_id = KERNEL_ID.search(response.body.decode()).group(1)
        session, comm = uuid.uuid4().hex, uuid.uuid4().hex
        socket_url = f"{base.replace('http', 'ws', 1)}/api/kernels/{kernel_id}/channels?session_id={session}"
        socket = await websocket_connect(socket_url)
        try:
            await socket.write_message(_kernel_message(session, "comm_open", {
                "comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}, {"version": "1.0.0"}))
            await socket.write_message(_kernel_message(session, "comm_msg", {
                "comm_id": comm, "data": {"method": "request_states"}}))
            while True:
                left = timeout - (time.monotonic() - start)
                raw = await asyncio.wait_for(socket.read_message(), max(left, 0.01))
                if raw is None:
                    return None, kernel_id
                if isinstance(raw, str):
                    message = json.loads(raw)
                    data = message.get("content", {}).get("data", {})
                    if message.get("msg_type") == "comm_msg" and data.get("method") == "update_states":
                        return time.monotonic() - start, kernel_id
        finally:
            socket.close()
    except Exception as exc:  # noqa: BLE001 - a timeout or a dead page is a result here
        print(f"  a device's page failed: {type(exc).__name__}: {str(exc)[:200]}", flush=True)
        return None, kernel_id


async def open_batch(browser, base: str, page: str, count: int, timeout: float, server_pid: int,
                     devices: bool = False):
    """Open ``count`` pages of one dashboard at the same moment (``devices``: one in
    Chromium, the others with :func:`open_like_a_browser`); returns (seconds to the
    first button per Chromium page, None for a page that never showed one; seconds to
    the widget states per device; their kernel ids; the RSS in MB of each page's kernel;
    CPU seconds used meanwhile by the server with its kernels and by the browser; the
    contexts to close)."""
    contexts, tabs = [], []
    for _ in range(1 if devices else count):
        context = await browser.new_context(viewport={"width": 1280, "height": 1000})
        contexts.append(context)
        tabs.append(await context.new_page())
    server_cpu = cpu_by_process([server_pid, *children_of(server_pid)])
    browser_cpu = cpu_by_process(children_of(os.getpid()))
    start = time.monotonic()

    async def one(tab):
        try:
            query = QUERIES.get(page, "")
            await tab.goto(f"{base}/voila/render/{page}.ipynb{'?' + query if query else ''}", timeout=timeout * 1000)
            await tab.wait_for_selector(FIRST_BUTTON, timeout=timeout * 1000)
            return time.monotonic() - start
        except Exception:  # noqa: BLE001 - a timeout is a result here
            return None

    crowd = count - len(tabs)
    results = await asyncio.gather(*(one(tab) for tab in tabs),
                                   *(open_like_a_browser(base, page, timeout) for _ in range(crowd)))
    times, loaded = list(results[:len(tabs)]), list(results[len(tabs):])
    server_cpu = cpu_since(server_cpu, [server_pid, *children_of(server_pid)])
    browser_cpu = cpu_since(browser_cpu, children_of(os.getpid()))
    kernel_ids = [kernel for _, kernel in loaded if kernel]
    for tab in tabs:
        with contextlib.suppress(Exception):
            config = json.loads(await tab.locator("#jupyter-config-data").text_content(timeout=5000))
            kernel_ids.append(config["kernelId"])
    memory = [m for m in (rss_mb(pid) for pid in map(kernel_pid, kernel_ids) if pid) if m]
    return times, [t for t, _ in loaded], kernel_ids, memory, (server_cpu, browser_cpu), contexts


async def linger_check(base: str, kernel_ids: list[str], closed_at: float, linger: float,
                       sockets: Path | None) -> tuple[int, int]:
    """``linger`` seconds after ``closed_at``: (how many of ``kernel_ids`` still run, how
    many have files left in the server's connection folder ``sockets``, their connection
    file or ipc sockets; a kernel still running keeps its files and is counted in both)."""
    await asyncio.sleep(max(0.0, closed_at + linger - time.monotonic()))
    alive = await asyncio.gather(*(asyncio.to_thread(kernel_alive, base, k) for k in kernel_ids))
    return sum(alive), kernels_with_files(sockets, kernel_ids)


def connection_folder(folder: Path) -> Path | None:
    """The server's folder of kernel connection files and ipc sockets (Voilà logs it at start)."""
    found = re.search(r"Storing connection files in (\S+)\.\s", (folder / "server.log").read_text())
    return Path(found.group(1)) if found else None


def kernels_with_files(sockets: Path | None, kernel_ids: list[str]) -> int:
    """How many of ``kernel_ids`` have a file (``kernel-<id>.json``, ``kernel-<id>-ipc-N``)
    in the connection folder ``sockets``."""
    if sockets is None or not sockets.is_dir():
        return 0
    names = [entry.name for entry in sockets.iterdir()]
    return sum(any(name.startswith(f"kernel-{k}") for name in names) for k in kernel_ids)


async def run(args, base: str, pid: int, pool: int, sockets: Path | None = None) -> dict:
    from playwright.async_api import async_playwright

    devices = args.crowd == "devices"
    results: dict = {}
    lingering: list[tuple[tuple[str, int], asyncio.Task]] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            for page in PAGES:           # a dashboard's pool fills after its first page
                *_, contexts = await open_batch(browser, base, page, 1, args.timeout, pid)
                for context in contexts:
                    await context.close()
            for rnd in range(args.rounds):
                order = list(PAGES) if rnd % 2 == 0 else list(PAGES)[::-1]
                for count in args.counts:
                    for page in order:
                        await asyncio.to_thread(settle, pid, 2 * pool)
                        times, loaded, kernel_ids, memory, cpu, contexts = await open_batch(
                            browser, base, page, count, args.timeout, pid, devices)
                        for context in contexts:
                            await context.close()
                        closed = time.monotonic()
                        row = results.setdefault((page, count), {"rounds": [], "loaded": [], "alone": [],
                                                                 "memory": [], "kernels": 0, "left": 0, "files": 0,
                                                                 "cpu": []})
                        lingering.append(((page, count), asyncio.create_task(
                            linger_check(base, kernel_ids, closed, args.linger, sockets))))
                        if devices and count == 1:        # a device alone: the page less its drawing
                            await asyncio.to_thread(settle, pid, 2 * pool)
                            alone, kernel = await open_like_a_browser(base, page, args.timeout)
                            row["alone"].append(alone)
                            kernel_ids += [kernel] if kernel else []
                            lingering.append(((page, count), asyncio.create_task(
                                linger_check(base, [kernel] if kernel else [], time.monotonic(), args.linger,
                                             sockets))))
                        row["cpu"].append((cpu[0] / count, cpu[1] / count))
                        row["rounds"].append(times)
                        row["loaded"].append(loaded)
                        row["memory"] += memory
                        row["kernels"] += len(kernel_ids)
                        done = [t for t in times + loaded if t is not None]
                        print(f"round {rnd + 1}: {count:2d} x {page:<11} first button (Chromium) "
                              f"{', '.join(f'{t:.1f}' if t else 'never' for t in times)} s"
                              + (f"; devices' widget states max {max(loaded) if None not in loaded else float('nan'):.1f} s"
                                 if loaded else "")
                              + (f"; a device alone {row['alone'][-1] or float('nan'):.1f} s" if row["alone"] else "")
                              + f" ({len(done)}/{count} pages); CPU per page: server {cpu[0] / count:.1f} s, "
                              f"browser {cpu[1] / count:.1f} s; load {os.getloadavg()[0]:.1f}", flush=True)
            for key, task in lingering:
                left, files = await task
                results[key]["left"] += left
                results[key]["files"] += files
        finally:
            await browser.close()
    return results


def batch_times(results: dict, page: str, count: int) -> list[list[float | None]]:
    """Per round, every page's time to its first button: Chromium's as measured; a
    device's as its widget states' time plus that round's drawing time (Chromium alone
    less a device alone)."""
    row, single = results[(page, count)], results[(page, 1)]
    rounds = []
    for r, (times, loaded) in enumerate(zip(row["rounds"], row["loaded"])):
        alone_browser, alone_device = single["rounds"][r][0], (single["alone"] or [None] * (r + 1))[r]
        draw = None if alone_browser is None or alone_device is None else max(alone_browser - alone_device, 0.0)
        rounds.append(list(times) + [None if t is None or draw is None else t + draw for t in loaded])
    return rounds


def report(results: dict, args, pool: int, loads: list, kernels_end: int) -> None:
    print()
    print(f"{datetime.date.today().isoformat()}, {platform.node()}: {os.cpu_count()} CPUs, "
          f"load average {loads[0]:.1f} at the start and {loads[-1]:.1f} at the end; "
          f"kernel pool {pool} per dashboard; {args.rounds} rounds; "
          + ("every page in Chromium" if args.crowd == "browsers" else
             "one page per batch in Chromium, the others as devices (widget states + drawing time)"))
    print()
    print("| dashboard | pages at once | first button, median (s) | max (s) | max / one page alone "
          "| vs trivial (max) | CPU per page: server, browser (s) | kernel RSS per page (MB) "
          f"| kernels left after {args.linger:.0f} s | kernels' socket files left |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for page in PAGES:
        for count in args.counts:
            row = results[(page, count)]
            rounds = batch_times(results, page, count)
            every = [t for batch in rounds for t in batch]
            done = [t for t in every if t is not None]
            failed = len(every) - len(done)
            ratios = [max(batch) / alone[0] for alone, batch in zip(batch_times(results, page, 1), rounds)
                      if alone[0] and None not in batch]
            trivial = [t for batch in batch_times(results, "trivial", count) for t in batch]
            vs = (f"{max(done) / max(trivial):.2f}x" if page != "trivial" and done and trivial
                  and None not in trivial else "")
            memory = f"{statistics.median(row['memory']):.0f}" if row["memory"] else "?"
            cpu = (f"{statistics.median(c[0] for c in row['cpu']):.1f}, "
                   f"{statistics.median(c[1] for c in row['cpu']):.1f}")
            print(f"| {PAGES[page]} | {count} | {statistics.median(done) if done else float('nan'):.1f} "
                  f"| {max(done) if done else float('nan'):.1f}{f' ({failed} never)' if failed else ''} "
                  f"| {statistics.median(ratios) if ratios else float('nan'):.2f}x | {vs} | {cpu} | {memory} "
                  f"| {row['left']} of {row['kernels']} | {row['files']} of {row['kernels']} |")
    print()
    print(f"Kernels running at the end: {kernels_end} (the pools hold {2 * pool}).")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", default="1,8,24", help="pages opened at once per batch (default 1,8,24)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--linger", type=float, default=90.0,
                        help="seconds after a batch closes to count its kernels still running (default 90)")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds a page may take (default 180)")
    parser.add_argument("--pool", type=int, help="preheated kernels per dashboard (default: playtest serve's)")
    parser.add_argument("--crowd", choices=("browsers", "devices"), default="browsers",
                        help="every page in Chromium here (default), or one, the others as the players' "
                             "own devices (see above)")
    parser.add_argument("--costs-only", action="store_true",
                        help="measure one page of each kind (seat, spectator, host, game, lobby, lab) and stop")
    args = parser.parse_args(argv)
    args.counts = [int(n) for n in args.counts.split(",")]
    if 1 not in args.counts:
        args.counts.insert(0, 1)          # the ratios need one page alone
    if not os.access(CHROMIUM, os.X_OK):
        print(f"bench_pages: no Chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="bench-costs-") as tmp:
        folder = Path(tmp)
        for name in COST_DASHBOARDS:
            shutil.copy(ROOT / "playtest" / "dashboards" / name, folder / name)
        with server(folder) as (base, pid):
            costs = asyncio.run(page_costs(base, pid, args.timeout))
    report_costs(*costs)
    if args.costs_only:
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as tmp:
        folder = Path(tmp)
        pool = prepare(folder, args.pool)
        with server(folder) as (base, pid):
            results = asyncio.run(run(args, base, pid, pool, connection_folder(folder)))
            kernels_end = len([p for p in children_of(pid) if p])
        loads.append(os.getloadavg()[0])
    report(results, args, pool, loads, kernels_end)
    return 0


if __name__ == "__main__":
    sys.exit(main())
