"""Live tables under load: 1, 4 and 8 Lazy Sunday tables of 4 players at once, each player
in their own headless Chromium context (Playwright), beside one single-page dashboard in
the same run.

What it prints (a benchmark, not a test):

* p50/p95 of "move clicked in browser A -> board updated in browser B" (B is the next
  seat's page: it learns of A's move from the table service, through its own kernel),
  beside the single-page dashboard's "move clicked -> board updated" (one page, its own
  kernel holds the game), and their ratio (goal: p95 within 1.5x);
* memory per seat page (RSS of the kernel processes over the seat pages open);
* errors (page errors, refused moves, waits that timed out; goal: 0 at 8 tables);
* kernels and socket files (connection file, ipc sockets) left ``--linger`` seconds (90)
  after each count's pages closed (goal: 0).

Scripted players: the setup peeks are played through the API with each seat's token (as a
script may); then each player on turn clicks "Draw from the deck" and "Discard it" on its
own page, and the next seat's page is watched for the move.

Usage: ``python benchmarks/bench_tables.py [--tables 1,4,8] [--moves 12] [--port 8890] [--linger 90]``
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def start_server(port: int, data: str) -> subprocess.Popen:
    env = {**os.environ, "PLAYTEST_DATA_DIR": data}
    proc = subprocess.Popen([sys.executable, "-m", "playtest.cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:      # e.g. the port is taken: never measure another server
            raise SystemExit(f"playtest serve exited ({proc.returncode}): is port {port} free? (--port)")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/playtest/api/games", timeout=2).read()
            return proc
        except OSError:
            time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGTERM)
    raise SystemExit("the server did not start within 180 s")


def api(base, method, path, body=None, token=None):
    request = urllib.request.Request(f"{base}/playtest/api/{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def kernel_rss_mb(kernel_ids) -> float:
    """Resident memory of the ipykernel processes of these kernels (by the connection file
    named in their command line), in MB."""
    wanted = {f"kernel-{k}.json".encode() for k in kernel_ids}
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            if not any(w in cmd for w in wanted):
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def connection_files(kernel_ids) -> dict[str, Path]:
    """The connection file of each running kernel of ``kernel_ids`` (from its command line,
    ``-f <folder>/kernel-<id>.json``): where its ipc sockets are too."""
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            parts = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        for part in parts:
            for kernel_id in kernel_ids:
                if part.endswith(f"kernel-{kernel_id}.json"):
                    found[kernel_id] = Path(part)
    return found


async def left_behind(base, files: dict[str, Path], closed_at: float, linger: float) -> tuple[int, int]:
    """``linger`` seconds after ``closed_at`` (the pages closed): how many of the kernels
    of ``files`` (kernel id -> connection file, :func:`connection_files`) still run, and
    how many have files left in their connection folder (connection file, ipc sockets)."""
    await asyncio.sleep(max(0.0, closed_at + linger - time.monotonic()))
    alive = 0
    for kernel_id in files:
        try:
            urllib.request.urlopen(f"{base}/api/kernels/{kernel_id}", timeout=10).read()
            alive += 1
        except urllib.error.HTTPError as exc:
            alive += exc.code != 404
        except OSError:
            alive += 1                      # no answer: counted as left behind
    with_files = sum(any(p.name.startswith(f"kernel-{k}") for p in path.parent.glob("kernel-*"))
                     for k, path in files.items())
    return alive, with_files


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")


async def play_table(browser, base, made, moves, latencies, errors, kernels):
    """Four players at one table: peeks through the API, then draw/discard by clicking.
    Appends each seat page's kernel id to ``kernels``."""
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    pages = {}
    for seat, token in tokens.items():
        context = await browser.new_context(viewport={"width": 1280, "height": 1000})
        page = await context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
        await page.goto(f"{base}/voila/render/table.ipynb?table={made['id']}&token={token}", timeout=300_000)
        pages[seat] = page
    for page in pages.values():
        await page.wait_for_selector(".pt-live .pt-table .pt-card", timeout=300_000)
        found = re.search(r'"kernelId": "([0-9a-f-]{36})"', await page.content())
        if found:
            kernels.append(found[1])
    tid = made["id"]
    for seat, token in tokens.items():                       # setup (LS-3), as a script plays it
        for text in (f"{seat} peek 0 1", f"{seat} done"):
            await asyncio.to_thread(api, base, "POST", f"tables/{tid}/moves", {"move": text}, token)
    played = 0
    while played < moves:
        state = await asyncio.to_thread(api, base, "GET", f"tables/{tid}/state", None, tokens[0])
        seat = state["to_act"][0]
        watcher = pages[(seat + 1) % 4]
        for label in ("Draw from the deck", "Discard it"):
            button = pages[seat].locator(".pt-controls").get_by_role("button", name=label, exact=True)
            try:
                await button.wait_for(state="visible", timeout=60_000)
                before = await watcher.locator(".pt-log").inner_text()
                start = time.perf_counter()
                await button.click()
                # B's board is updated when its log shows the move (every move adds a line)
                await watcher.wait_for_function(
                    "t => { const e = document.querySelector('.pt-log'); return e && e.innerText !== t; }",
                    arg=before, timeout=60_000, polling=20)
                latencies.append(time.perf_counter() - start)
            except Exception as exc:  # noqa: BLE001 - counted and reported, the run goes on
                errors.append(f"table {tid} seat {seat} {label}: {type(exc).__name__}: {str(exc)[:120]}")
                return
            played += 1


async def single_page(browser, base, moves, latencies, errors):
    """The single-page dashboard: click, then wait for the page itself to redraw."""
    page = await browser.new_page(viewport={"width": 1280, "height": 1100})
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    await page.goto(f"{base}/voila/render/lazy_sunday.ipynb?seed=7", timeout=300_000)
    await page.wait_for_selector(".pt-row .pt-card", timeout=300_000)
    cards = page.locator(".pt-row").first.locator(".pt-card")
    await page.locator(".pt-controls").get_by_role("button", name="Peek at 2 of my cards", exact=True).click()
    await cards.nth(0).click()
    await cards.nth(1).click()
    await page.locator(".pt-controls").get_by_role("button", name="Done looking", exact=True).click()
    for _ in range(moves):
        # timed: the draw (the page redraws with "Discard it"); the discard also lets the
        # page's instant bots play their turns, so it is not timed
        draw = page.locator(".pt-controls").get_by_role("button", name="Draw from the deck", exact=True)
        try:
            await draw.wait_for(state="visible", timeout=30_000)
        except Exception:   # noqa: BLE001 - the round ended (NOT ME!, a reveal): enough samples
            break
        start = time.perf_counter()
        await draw.click()
        discard = page.locator(".pt-controls").get_by_role("button", name="Discard it", exact=True)
        await discard.wait_for(state="visible", timeout=120_000)
        latencies.append(time.perf_counter() - start)
        await discard.click()
    await page.close()


async def run(args):
    from playwright.async_api import async_playwright

    data = tempfile.mkdtemp(prefix="bench-tables-")
    proc = start_server(args.port, data)
    base = f"http://127.0.0.1:{args.port}"
    rows = []
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            reference, errors, leftovers = [], [], []
            await single_page(browser, base, args.moves, reference, errors)
            for count in args.tables:
                latencies, errors = [], []
                made = [await asyncio.to_thread(api, base, "POST", "tables",
                                                {"game": "lazy_sunday", "seats": 4, "players": ["human"] * 4,
                                                 "pace": "instant", "seed": 100 + i}) for i in range(count)]
                kernels = []
                started = time.perf_counter()
                await asyncio.gather(*(play_table(browser, base, m, args.moves, latencies, errors, kernels)
                                       for m in made))
                per_seat = kernel_rss_mb(kernels) / len(kernels) if kernels else float("nan")
                files = connection_files(kernels)
                rows.append((count, latencies, errors, per_seat, time.perf_counter() - started))
                for m in made:
                    await asyncio.to_thread(api, base, "POST", f"tables/{m['id']}/host", {"action": "end"},
                                            m["host_token"])
                for context in list(browser.contexts):
                    await context.close()
                leftovers.append((count, len(files), asyncio.create_task(
                    left_behind(base, files, time.monotonic(), args.linger))))
                await asyncio.sleep(5)
            await browser.close()
            left = [(count, started, *(await task)) for count, started, task in leftovers]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    ref50, ref95 = percentile(reference, 0.5), percentile(reference, 0.95)
    print(f"single page, click -> update: p50 {ref50 * 1000:.0f} ms, p95 {ref95 * 1000:.0f} ms "
          f"({len(reference)} moves)")
    print(f"{'tables':>6} {'seats':>5} {'moves':>5} {'p50 ms':>7} {'p95 ms':>7} {'p95 / single':>12} "
          f"{'MB/seat':>8} {'errors':>6} {'wall s':>7}")
    for count, latencies, errors, per_seat, wall in rows:
        p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
        print(f"{count:>6} {4 * count:>5} {len(latencies):>5} {p50 * 1000:>7.0f} {p95 * 1000:>7.0f} "
              f"{p95 / ref95:>11.2f}x {per_seat:>8.0f} {len(errors):>6} {wall:>7.1f}")
        for error in errors[:5]:
            print(f"       {error}")
    for count, started, alive, with_files in left:
        print(f"{count} table(s): {alive} of {started} seat kernels still running and {with_files} with socket "
              f"files left, {args.linger:.0f} s after their pages closed")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2 cores: above 2, every figure is slower)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="1,4,8", type=lambda t: [int(x) for x in t.split(",")])
    parser.add_argument("--moves", default=12, type=int, help="clicked moves per table (default 12)")
    parser.add_argument("--port", default=8890, type=int)
    parser.add_argument("--linger", default=90.0, type=float,
                        help="seconds after a count's pages closed to count its kernels and socket files "
                             "left (default 90)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
