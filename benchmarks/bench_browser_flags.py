"""What a page load costs the test suite's headless Chromium, with its feature switches and without.

Run: ``python benchmarks/bench_browser_flags.py [--pages 4] [--rounds 2]`` (about 2 minutes
on 2 cores). Needs Playwright and the system Chromium (``/usr/bin/chromium``), as the
browser tests do.

Headless Chromium 156 makes, for every browser context (each test's "device"), the
omnibox popups of a browser window: two WebUI pages (``chrome://omnibox-popup.top-chrome/``
and its AI Mode variant) in a renderer process of their own, and it keeps a spare renderer
ready for the next site. No page of the kit needs any of them. The suite's Chromium
(``tests/browser_support.py``, ``CHROMIUM_ARGS``) switches them off (its
``FEATURES_OFF``).

One ``playtest serve`` (``python -m playtest.server``) serves the Lazy Sunday game page.
Each round opens ``--pages`` game pages one after the other, each in a fresh browser
context, in a Chromium with the switches and in one without, and counts the CPU seconds of
every Chromium process (sampled every 0.2 s, so that a process gone with its context
counts too) from the context's creation until it is closed.

Printed: CPU seconds per page load by process kind, for both browsers, and the ratio
(with / without) of the totals of the same run. A benchmark, not a test; the load average
is printed beside the figures. docs/speed.md keeps the latest.
"""
from __future__ import annotations

import argparse
import collections
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pages import CHROMIUM, ROOT, server  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM_ARGS  # noqa: E402  (the suite's flags, the switches included)

WITHOUT = [arg for arg in CHROMIUM_ARGS if not arg.startswith("--disable-features=")]
"""The suite's flags less the switches: Chromium as it was before them."""
PAGE, READY = "game.ipynb?game=lazy_sunday", ".pt-table .pt-card"


def chromium_cpu() -> dict[tuple[int, float], tuple[str, float]]:
    """``{(pid, start time): (process kind, CPU seconds so far)}`` of every Chromium process."""
    found = {}
    for process in psutil.process_iter(["cmdline", "create_time"]):
        line = process.info["cmdline"] or []
        if not line or "chromium" not in line[0]:
            continue
        kind = next((arg[len("--type="):] for arg in line if arg.startswith("--type=")), "browser")
        if "--top-chrome-webui" in line:
            kind += " (browser WebUI)"
        try:
            used = process.cpu_times()
        except psutil.Error:
            continue
        found[(process.pid, process.info["create_time"])] = (kind, used.user + used.system)
    return found


def page_loads(playwright, args: list[str], base: str, pages: int) -> dict[str, float]:
    """CPU seconds per page load by process kind, for a Chromium launched with ``args``."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
    try:
        warm = browser.new_context()          # the server's first render of the page, not counted
        warm.new_page().goto(f"{base}/voila/render/{PAGE}", timeout=180_000)
        warm.pages[0].wait_for_selector(READY, timeout=180_000)
        warm.close()
        time.sleep(1)
        before = chromium_cpu()
        seen = dict(before)
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.wait(0.2):
                seen.update(chromium_cpu())

        sampler = threading.Thread(target=sample)
        sampler.start()
        for _ in range(pages):
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{base}/voila/render/{PAGE}", timeout=180_000)
            page.wait_for_selector(READY, timeout=180_000)
            page.wait_for_timeout(1000)
            seen.update(chromium_cpu())
            context.close()
        time.sleep(1)
        sampling.set()
        sampler.join()
        seen.update(chromium_cpu())
    finally:
        browser.close()
    per_kind: dict[str, float] = collections.Counter()
    for key, (kind, used) in seen.items():
        per_kind[kind] += (used - before.get(key, (kind, 0.0))[1]) / pages
    return dict(per_kind)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=4, help="page loads per browser and round (default 4)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, each browser in turn (default 2)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    loads = [os.getloadavg()[0]]
    totals: dict[str, list[float]] = {"with": [], "without": []}
    kinds: dict[str, collections.Counter] = {"with": collections.Counter(), "without": collections.Counter()}
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as tmp:
        folder = Path(tmp)
        shutil.copy(ROOT / "playtest" / "dashboards" / "game.ipynb", folder / "game.ipynb")
        with server(folder) as (base, _pid), sync_playwright() as playwright:
            for _ in range(args.rounds):
                for name, flags in (("without", WITHOUT), ("with", CHROMIUM_ARGS)):
                    per_kind = page_loads(playwright, flags, base, args.pages)
                    totals[name].append(sum(per_kind.values()))
                    kinds[name].update({kind: used / args.rounds for kind, used in per_kind.items()})
    loads.append(os.getloadavg()[0])
    print(f"\nChromium CPU seconds per game page load ({args.pages} pages a round, {args.rounds} round(s)); "
          f"load average {min(loads):.1f} to {max(loads):.1f}\n")
    print("| process kind | without the switches | with them |")
    print("|---|---:|---:|")
    for kind in sorted(set(kinds["with"]) | set(kinds["without"]), key=lambda k: -kinds["without"][k]):
        print(f"| {kind} | {kinds['without'][kind]:.2f} | {kinds['with'][kind]:.2f} |")
    without, with_ = (sum(totals[name]) / len(totals[name]) for name in ("without", "with"))
    print(f"| **all** | **{without:.2f}** | **{with_:.2f}** |")
    print(f"\nwith / without: {with_ / without:.2f} (rounds: "
          + ", ".join(f"{w / o:.2f}" for w, o in zip(totals["with"], totals["without"])) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
