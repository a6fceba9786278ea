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

Then a long all-bot game (:func:`long_game`, no browser; issue 25): a 4-seat Lazy Sunday
table of random bots at pace ``instant`` with one spectator connection, half the time a
client that reads everything, half the time one that never reads (it comes back when
dropped, as the kernel's client does); a new table each time one ends. It prints

* the bytes per message the reading client got early and late in the game, against the
  same run's full state (what every message carried before updates were incremental:
  the whole log) and the traffic full states would have made;
* the server's RSS over time with each client and after they left, against its start.

Usage: ``python benchmarks/bench_tables.py [--tables 1,4,8] [--moves 12] [--port 8890]
[--long 90] [--linger 90]`` (``--tables ""``: the long game alone; ``--long 0``: without it; ``--linger``: seconds after
the pages closed to count the kernels and socket files left)
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import signal
import socket
import statistics
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


SERVER_KEY = secrets.token_urlsafe(16)     # the server key, given to the server started here


def start_server(port: int, data: str) -> subprocess.Popen:
    env = {**os.environ, "PLAYTEST_DATA_DIR": data, "PLAYTEST_TABLES_KEY": SERVER_KEY}
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


def api(base, method, path, body=None, token=None, client=None):
    """One API call; ``client`` names the host it is made for (with the server key, as a
    lobby page's kernel does), so that a run's tables count as many hosts' (the creation
    limit is per client)."""
    request = urllib.request.Request(f"{base}/playtest/api/{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if client:
        request.add_header("X-Playtest-Key", SERVER_KEY)
        request.add_header("X-Playtest-Client", client)
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


def rss_mb(pid: int) -> float:
    """Resident memory of one process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


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
    await page.goto(f"{base}/voila/render/game.ipynb?game=lazy_sunday&seed=7", timeout=300_000)
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


# --- a long all-bot game (issue 25: traffic and memory) ------------------------------------
LONG_GAME = {"game": "lazy_sunday", "seats": 4, "players": ["random"] * 4, "pace": "instant",
             "options": {"rounds": 20, "max_turns": 10_000}, "seed": 25}
"""The table of :func:`long_game`: random bots (the quickest), no pause between moves, and
the most rounds (LS-10) and turns (G-4) a table may ask for. Such a table ends within
seconds (about 470 moves), so :func:`long_game` plays successive tables."""


async def reading_client(base: str, made: dict, seconds: float) -> list[tuple[float, str, int]]:
    """A spectator connection that reads everything for ``seconds`` or until the table's
    game is over: returns each message as (seconds since the join, type, bytes)."""
    import tornado.websocket
    ws = await tornado.websocket.websocket_connect(
        f"ws{base[4:]}/playtest/api/tables/{made['id']}/ws", max_message_size=1 << 30)
    ws.write_message(json.dumps({"type": "join", "token": made["spectator_token"]}))
    got, start = [], time.monotonic()
    while (left := seconds - (time.monotonic() - start)) > 0:
        try:
            raw = await asyncio.wait_for(ws.read_message(), left)
        except asyncio.TimeoutError:
            break
        if raw is None:
            got.append((time.monotonic() - start, "dropped", 0))
            break
        message = json.loads(raw)
        got.append((time.monotonic() - start, message["type"], len(raw)))
        if (message.get("outcome") or {}).get("finished"):
            break
    ws.close()
    return got


def _join_without_reading(base: str, made: dict) -> socket.socket:
    """A websocket that joins as the spectator and never reads (a small receive window)."""
    host, port = base.split("//")[1].split(":")
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect((host, int(port)))
    raw.sendall((f"GET /playtest/api/tables/{made['id']}/ws HTTP/1.1\r\nHost: {host}:{port}\r\n"
                 "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(1)
    payload, mask = json.dumps({"type": "join", "token": made["spectator_token"]}).encode(), os.urandom(4)
    raw.sendall(bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big") + mask
                + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return raw


async def non_reading_client(base: str, made: dict, seconds: float) -> tuple[int, bool]:
    """A spectator that never reads, for ``seconds`` or until the table's game is over.
    The table's bots play only while a page is connected, so when its moves stop for 2 s
    the server has dropped this client: it comes back (a new connection that does not read
    either). Returns how many times it was dropped and whether the game ended."""
    drops, start = 0, time.monotonic()
    raw = await asyncio.to_thread(_join_without_reading, base, made)
    last, still, over = -1, 0.0, False
    while time.monotonic() - start < seconds:
        await asyncio.sleep(0.5)
        listed = next(t for t in (await asyncio.to_thread(api, base, "GET", "tables?status=all"))["tables"]
                      if t["id"] == made["id"])
        if listed["status"] != "playing":
            over = True
            break
        moves = listed["moves"]
        still = still + 0.5 if moves == last else 0.0
        last = moves
        if still >= 2.0:
            drops += 1
            raw.close()
            raw = await asyncio.to_thread(_join_without_reading, base, made)
            still = 0.0
    raw.close()
    return drops, over


async def watch_rss(pid: int, seconds: float, every: float = 5.0) -> list[tuple[float, float]]:
    """The RSS (MB) of process ``pid`` every ``every`` seconds for ``seconds``."""
    samples, start = [], time.monotonic()
    while (elapsed := time.monotonic() - start) <= seconds + 0.01:
        samples.append((elapsed, rss_mb(pid)))
        await asyncio.sleep(every)
    return samples


async def _moves(base: str, made: dict) -> int:
    state = await asyncio.to_thread(api, base, "GET", f"tables/{made['id']}/state", None, made["spectator_token"])
    return state["version"]


async def _end(base: str, made: dict) -> None:
    try:
        await asyncio.to_thread(api, base, "POST", f"tables/{made['id']}/host", {"action": "end"},
                                made["host_token"])
    except urllib.error.HTTPError:       # over already: a finished table cannot be ended
        pass


async def long_game(base: str, pid: int, seconds: float) -> dict:
    """Half of ``seconds`` with a reading spectator on long all-bot tables
    (:data:`LONG_GAME`; a new table each time one ends, seeds 25, 26, ...), half with a
    non-reading one on other such tables, then 10 s with no client; the server (process
    ``pid``) sampled throughout. Returns the figures :func:`print_long_game` prints."""
    half = seconds / 2
    start_rss = rss_mb(pid)

    async def reading() -> tuple[list, int, int, int]:
        messages, moves, tables, full, began = [], 0, 0, 0, time.monotonic()
        while (left := half - (time.monotonic() - began)) > 1:
            made = await asyncio.to_thread(api, base, "POST", "tables", {**LONG_GAME, "seed": 25 + tables},
                                           client=f"reader-{tables}")
            got = await reading_client(base, made, left)
            offset = messages[-1][0] if messages else 0.0
            messages += [(offset + t, kind, size) for t, kind, size in got]
            full = len(json.dumps(await asyncio.to_thread(api, base, "GET", f"tables/{made['id']}/state", None,
                                                          made["spectator_token"])))
            moves, tables = moves + await _moves(base, made), tables + 1
            await _end(base, made)
        return messages, moves, tables, full

    async def not_reading() -> tuple[int, int, int]:
        drops, moves, tables, began = 0, 0, 0, time.monotonic()
        while (left := half - (time.monotonic() - began)) > 1:
            made = await asyncio.to_thread(api, base, "POST", "tables", {**LONG_GAME, "seed": 1025 + tables},
                                           client=f"quiet-{tables}")
            dropped, _over = await non_reading_client(base, made, left)
            drops, moves, tables = drops + dropped, moves + await _moves(base, made), tables + 1
            await _end(base, made)
        return drops, moves, tables

    (messages, moves_read, tables_read, full), reading_rss = await asyncio.gather(reading(), watch_rss(pid, half))
    (drops, moves_unread, tables_unread), quiet_rss = await asyncio.gather(not_reading(), watch_rss(pid, half))
    after = await watch_rss(pid, 10.0)
    return {"seconds": seconds, "start_rss": start_rss, "messages": messages, "full": full,
            "moves_read": moves_read, "tables_read": tables_read, "reading_rss": reading_rss, "drops": drops,
            "moves_unread": moves_unread, "tables_unread": tables_unread, "quiet_rss": quiet_rss,
            "after_rss": after}


def print_long_game(figures: dict) -> None:
    """Print what :func:`long_game` measured."""
    updates = [size for _t, kind, size in figures["messages"] if kind == "update"]
    join = next((size for _t, kind, size in figures["messages"] if kind == "state"), 0)
    half = figures["seconds"] / 2
    print(f"long all-bot Lazy Sunday (4 random bots, pace instant), {half:.0f} s with a reading client: "
          f"{figures['moves_read']} moves ({figures['moves_read'] / half:.0f} a second) over "
          f"{figures['tables_read']} successive tables, {len(updates)} updates")
    if updates:
        early, late = statistics.median(updates[:100]), statistics.median(updates[-100:])
        full = figures["full"]
        sent = sum(size for _t, _k, size in figures["messages"])
        # before, every message carried the whole log: about the mean of the first and last full state
        before = len(updates) * (join + full) / 2
        print(f"  bytes per update: first 100 median {early:.0f} B, last 100 median {late:.0f} B "
              f"(late / early {late / early:.2f}x); the join's full state {join} B")
        print(f"  the full state at the end (what every message carried before): {full} B = "
              f"{full / late:.0f}x a late update")
        print(f"  received {sent / 1e6:.2f} MB; full states on every move would have been about "
              f"{before / 1e6:.0f} MB ({before / max(sent, 1):.0f}x)")
    start = figures["start_rss"]
    line = lambda samples: ", ".join(f"{t:.0f}s {mb:.0f}" for t, mb in samples)
    print(f"  server RSS (MB; start {start:.0f}): {line(figures['reading_rss'])}")
    print(f"with a client that never reads ({half:.0f} s, other tables): {figures['moves_unread']} moves over "
          f"{figures['tables_unread']} tables, "
          f"dropped {figures['drops']} times (it came back each time)")
    print(f"  server RSS (MB): {line(figures['quiet_rss'])}")
    print(f"10 s after both left: server RSS {line(figures['after_rss'])}; "
          f"highest {max(mb for _t, mb in figures['reading_rss'] + figures['quiet_rss'] + figures['after_rss']):.0f} MB, "
          f"end - start {figures['after_rss'][-1][1] - start:+.0f} MB")


def oversized_bodies(base: str, pid: int, count: int = 8, size: int = 90 * 1024 * 1024) -> None:
    """Post ``count`` bodies of ``size`` bytes (sent whole, as far as the server takes
    them) and print each answer's time and the server's RSS before and after (issue 25:
    eight 90 MiB bodies took the server from 247 to 899 MB before the 413)."""
    host, port = base.split("//")[1].split(":")
    before, chunk, times = rss_mb(pid), b"x" * 65536, []
    for _ in range(count):
        start, sent = time.monotonic(), 0
        with socket.create_connection((host, int(port))) as raw:
            raw.sendall(f"POST /playtest/api/tables HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: "
                        f"application/json\r\nContent-Length: {size}\r\n\r\n".encode())
            try:
                while sent < size:
                    raw.sendall(chunk)
                    sent += len(chunk)
            except OSError:         # the server answered and closed: the rest is never read
                pass
            raw.settimeout(10)
            answer = raw.recv(64)
        times.append((time.monotonic() - start, sent, answer.split(b"\r\n")[0].decode()))
    print(f"{count} bodies of {size / 2**20:.0f} MiB: answers {', '.join(sorted({a for _t, _s, a in times}))} "
          f"in at most {max(t for t, _s, _a in times) * 1000:.0f} ms (the sockets took at most "
          f"{max(s for _t, s, _a in times) / 2**20:.1f} MiB of each before the server closed); "
          f"server RSS {before:.0f} -> {rss_mb(pid):.0f} MB")


async def run(args):
    from playwright.async_api import async_playwright

    data = tempfile.mkdtemp(prefix="bench-tables-")
    proc = start_server(args.port, data)
    base = f"http://127.0.0.1:{args.port}"
    rows = []
    try:
        if args.long:
            oversized_bodies(base, proc.pid)
            print_long_game(await long_game(base, proc.pid, args.long))
        if not args.tables:
            return
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            reference, errors, leftovers = [], [], []
            await single_page(browser, base, args.moves, reference, errors)
            for count in args.tables:
                latencies, errors = [], []
                made = [await asyncio.to_thread(api, base, "POST", "tables",
                                                {"game": "lazy_sunday", "seats": 4, "players": ["human"] * 4,
                                                 "pace": "instant", "seed": 100 + i}, client=f"host-{count}-{i}")
                        for i in range(count)]
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
    parser.add_argument("--tables", default="1,4,8", type=lambda t: [int(x) for x in t.split(",") if x.strip()],
                        help='tables at once, e.g. 1,4,8 ("": none, the long game alone)')
    parser.add_argument("--moves", default=12, type=int, help="clicked moves per table (default 12)")
    parser.add_argument("--port", default=8890, type=int)
    parser.add_argument("--long", default=90.0, type=float, metavar="SECONDS",
                        help="seconds of the long all-bot game, half with a reading client, half with one "
                             "that never reads (default 90; 0: none)")
    parser.add_argument("--linger", default=90.0, type=float,
                        help="seconds after a count's pages closed to count its kernels and socket files "
                             "left (default 90)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
