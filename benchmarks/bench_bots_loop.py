"""The server answers while search bots think (issue 25): ``/games`` latency on a real
``playtest serve`` with no table, then while 8 tables' search bots think.

Each table is Chore Race, 2 seats: a scripted person at seat 0 (it plays its first legal
move whenever it is to act, through the HTTP API, as a script may) and the search bot
``ismcts:2000ms`` at seat 1, which moves first. The bots decide in the server's worker
processes (``playtest.tables.thinking``); with 8 tables, decisions are always waiting
for a worker. Meanwhile a prober asks ``GET /games`` every 50 ms, from ``--settle`` seconds
after the tables' creation (``playtest serve`` preheats a table page's kernel for each
new human seat, and Voila renders those on the loop: that is not the bots' doing).

What it prints (a benchmark, not a test): /games p50/p95/p99/max in ms with no table
and with the 8 tables, their ratio (goal: p99 under 100 ms while the bots think), and
the bots' decisions made (their moves) in the window.

Usage: ``python benchmarks/bench_bots_loop.py [--tables 8] [--seconds 30] [--settle 40] [--bot ismcts:2000ms]
[--port 8893]``
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import tornado.httpclient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_tables import start_server  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def call(client, base, method, path, body=None, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = await client.fetch(f"{base}/playtest/api/{path}", method=method, headers=headers,
                                  body=None if body is None else json.dumps(body), request_timeout=120)
    return json.loads(response.body)


async def probe(client, base, seconds: float) -> list[float]:
    """``GET /games`` every 50 ms for ``seconds``: the latencies in ms."""
    latencies, begin = [], time.monotonic()
    while time.monotonic() < begin + seconds:
        start = time.perf_counter()
        await client.fetch(f"{base}/playtest/api/games", request_timeout=120)
        latencies.append((time.perf_counter() - start) * 1000)
        if latencies[-1] > 500:
            print(f"  a /games request took {latencies[-1]:.0f} ms, {time.monotonic() - begin:.1f} s into the window")
        await asyncio.sleep(0.05)
    return latencies


async def person(client, base, made, stop: asyncio.Event) -> None:
    """Seat 0's scripted person: plays its first legal move whenever it is to act."""
    token = made["seats"][0]["token"]
    while not stop.is_set():
        state = await call(client, base, "GET", f"tables/{made['id']}/state", token=token)
        if state["outcome"] or state["status"] != "playing":
            return
        if state["moves"]:
            await call(client, base, "POST", f"tables/{made['id']}/moves",
                       {"move": state["moves"][0], "version": state["version"]}, token=token)
        await asyncio.sleep(0.2)


async def played(client, base, made) -> int:
    """Moves played so far at these tables."""
    states = [await call(client, base, "GET", f"tables/{m['id']}/state", token=m["host_token"]) for m in made]
    return sum(state["version"] for state in states)


async def measure(base: str, tables: int, seconds: float, bot: str, settle: float) -> None:
    client = tornado.httpclient.AsyncHTTPClient(max_clients=tables + 4)
    await probe(client, base, 2)                                   # warm up
    alone = await probe(client, base, seconds / 2)
    made = [await call(client, base, "POST", "tables", {
        "game": "chore_race", "seats": 2, "players": ["human", bot], "options": {"first_player": 1},
        "pace": "instant", "seed": k, "listed": False}) for k in range(tables)]
    stop = asyncio.Event()
    people = [asyncio.create_task(person(client, base, m, stop)) for m in made]
    # every bot is deciding; a new table's human seats also make playtest serve preheat a
    # table page's kernel each (TableService.awaited_pages): Voila renders those notebooks on
    # the loop (0.4-2 s each, measured with PYTHONASYNCIODEBUG), so the window starts after
    await asyncio.sleep(settle)
    before = await played(client, base, made)
    busy = await probe(client, base, seconds)
    moves = await played(client, base, made) - before
    stop.set()
    await asyncio.gather(*people)
    print(f"/games latency, ms (n={len(alone)} alone, {len(busy)} with {tables} tables of {bot}):")
    for name, values in [("no table", alone), (f"{tables} tables thinking", busy)]:
        print(f"  {name:<22} p50 {percentile(values, .5):7.1f}  p95 {percentile(values, .95):7.1f}  "
              f"p99 {percentile(values, .99):7.1f}  max {max(values):7.1f}")
    print(f"  ratio p95 thinking / alone: {percentile(busy, .95) / percentile(alone, .95):.1f}x; "
          f"goal p99 < 100 ms: {'met' if percentile(busy, .99) < 100 else 'NOT met'}")
    print(f"  moves played at the {tables} tables in the window (bots' and people's): {moves}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--bot", default="ismcts:2000ms")
    parser.add_argument("--port", type=int, default=8893)
    parser.add_argument("--settle", type=float, default=40, help="seconds between the tables' creation and the "
                        "window (the preheated table kernels start meanwhile)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-bots-loop-") as data:
        server = start_server(args.port, data)
        try:
            asyncio.run(measure(f"http://127.0.0.1:{args.port}", args.tables, args.seconds, args.bot, args.settle))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(30)


if __name__ == "__main__":
    main()
