"""What an open page costs its device while nobody touches it: Chromium's CPU per page kind.

Run: ``python benchmarks/bench_idle_pages.py [--seconds 10] [--rounds 2]`` (about 3 minutes
on 2 cores). Needs Playwright and the system Chromium (``/usr/bin/chromium``), as the
browser tests do.

One ``playtest serve`` (``python -m playtest.server``) serves a temporary folder holding
the kit's dashboards and a trivial dashboard of four buttons (the reference: what Voilà
and ipywidgets cost when idle). Headless Chromium opens one page of each kind alone (a
game page and the learn page of every installed game with a tutorial, the lobby, a seat
page of a live table, the trivial dashboard), waits until it is drawn and 5 s more, then
counts the CPU seconds of this script's Chromium processes over ``--seconds`` with the page
left alone. A page that animates without end (the tutorial's lit card once pulsed forever:
2.3 CPU-s per 10 s) or polls without need shows here; the target is the trivial
dashboard's figure within 0.1 CPU-s.

Printed per page: the CPU seconds in each round and their median, and the difference from
the trivial dashboard's median of the same run. A benchmark, not a test: the load average
is printed beside the figures. docs/speed.md keeps the latest.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pages import (CHROMIUM, CHROMIUM_ARGS, ROOT, TRIVIAL, children_of, cpu_by_process,  # noqa: E402
                         cpu_since, post_json, server)

SETTLE = 5.0
"""Seconds a page is left after it is drawn before its idle time is counted (the last
layout pass, a tutorial's first pulses)."""


def pages(base: str) -> list[tuple[str, str, str]]:
    """(kind, address under voila/render/, CSS selector of a drawn page) per page kind."""
    from playtest import games

    made = post_json(base, "tables", {"game": "lazy_sunday", "seats": 2, "players": ["human", "heuristic"]})
    found = [("trivial dashboard (reference)", "trivial.ipynb", "button.widget-button")]
    for name, game in sorted(games().items()):
        found.append((f"game page: {game.title}", f"game.ipynb?game={name}", ".pt-table .pt-card"))
        if game.TUTORIAL is not None:
            found.append((f"learn page: {game.title}", f"learn.ipynb?game={name}", ".pt-coach-progress"))
    found += [("lobby", "lobby.ipynb", ".pt-lobby"),
              ("seat page (live table)", f"table.ipynb?table={made['id']}&token={made['seats'][0]['token']}",
               ".pt-live .pt-table .pt-card")]
    return found


def chromium_processes() -> list[int]:
    """This script's Chromium processes (its descendants: Playwright's driver and the browser)."""
    found = []
    for pid in children_of(os.getpid()):
        try:
            if "chrom" in Path(f"/proc/{pid}/comm").read_text():
                found.append(pid)
        except OSError:
            continue
    return found


def idle_cpu(browser, base: str, path: str, ready: str, seconds: float) -> float:
    """Open ``path`` in a fresh context, wait for ``ready`` and :data:`SETTLE`, and return
    the CPU seconds this script's Chromium used over ``seconds`` with the page left alone."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{base}/voila/render/{path}", timeout=180_000)
        page.wait_for_selector(ready, timeout=180_000)
        page.wait_for_timeout(SETTLE * 1000)
        before = cpu_by_process(chromium_processes())
        time.sleep(seconds)
        return cpu_since(before, chromium_processes())
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="idle seconds counted per page (default 10)")
    parser.add_argument("--rounds", type=int, default=2, help="times each page is opened (default 2)")
    args = parser.parse_args(argv)
    if not os.access(CHROMIUM, os.X_OK):
        print(f"bench_idle_pages: no Chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    loads = [os.getloadavg()[0]]
    figures: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-idle-") as tmp:
        folder = Path(tmp)
        for name in ("game.ipynb", "learn.ipynb", "lobby.ipynb", "table.ipynb"):
            shutil.copy(ROOT / "playtest" / "dashboards" / name, folder / name)
        (folder / "trivial.ipynb").write_text(json.dumps(TRIVIAL, indent=1))
        with server(folder) as (base, _pid), sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                kinds = pages(base)
                for _ in range(args.rounds):
                    for kind, path, ready in kinds:
                        figures.setdefault(kind, []).append(idle_cpu(browser, base, path, ready, args.seconds))
            finally:
                browser.close()
    loads.append(os.getloadavg()[0])
    reference = statistics.median(next(iter(figures.values())))
    print(f"\nChromium CPU seconds over {args.seconds:g} s of an untouched page, {args.rounds} round(s); "
          f"load average {min(loads):.1f} to {max(loads):.1f}\n")
    print("| page | CPU-s per round | median | minus the trivial dashboard's |")
    print("|---|---|---:|---:|")
    for kind, values in figures.items():
        median = statistics.median(values)
        print(f"| {kind} | {', '.join(f'{v:.2f}' for v in values)} | {median:.2f} | {median - reference:+.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
