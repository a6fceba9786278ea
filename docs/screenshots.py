"""Make the documentation's screenshots from the real pages.

Starts ``playtest serve`` on a free 127.0.0.1 port (its data, autosaves and variants in a
temporary folder, so nothing of yours is read or written), opens each page in headless
Chromium (``/usr/bin/chromium``, Playwright) at 1280x720, waits until the page shows what
it is for, saves a PNG of the viewport in ``docs/_static/screenshots/`` and stops the
server. Run it again after a change to a page::

    python docs/screenshots.py            # about 2 minutes on 2 cores
    python docs/screenshots.py --only lobby,table_seat0

The shot ``crazy_eights`` needs the worked example installed
(``pip install -e examples/crazy_eights``).

Needs the ``test`` extra (Playwright) and Debian's Chromium (``apt-get install chromium``).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from playtest.server.launch import free_port, running, serve_command

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "_static" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1280, "height": 720}
TIMEOUT_MS = 180_000


@contextlib.contextmanager
def serve(folder: Path):
    """``playtest serve --port <free>`` run from the checkout, its data in ``folder``;
    yields the base URL and stops the server's process group at the end."""
    port = free_port()
    env = dict(os.environ, PLAYTEST_DATA_DIR=str(folder / "data"),
               PLAYTEST_AUTOSAVE_DIR=str(folder / "autosave"),
               PLAYTEST_VARIANTS_DIR=str(folder / "variants"))
    base = f"http://127.0.0.1:{port}"
    try:
        with running(serve_command(port), f"{base}/voila/tree", folder / "serve.log", cwd=ROOT, env=env,
                     timeout=90, stop_wait=10):
            yield base
    except RuntimeError as problem:
        raise SystemExit(str(problem)) from None


def api(base: str, path: str, body: dict, token: str | None = None) -> dict:
    """POST ``body`` as JSON to the lobby's HTTP API (``<base>/playtest/api/<path>``),
    with a table token when given; returns the answer."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{base}/playtest/api/{path}", method="POST",
                                     data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def create_table(base: str) -> dict:
    """A Lazy Sunday table through the lobby's HTTP API: two people and a heuristic bot."""
    return api(base, "tables", {"game": "lazy_sunday", "seats": 3, "pace": "human", "seed": 7,
                                "players": ["human", "human", "heuristic"]})


def shoot_crazy_eights(browser, base: str) -> None:
    """Crazy Eights (examples/crazy_eights, installed: the generic board draws it) at a
    live table, a person against the heuristic bot: seat 0's page."""
    made = api(base, "tables", {"game": "crazy_eights", "seats": 2, "pace": "instant", "seed": 3,
                                "players": ["human", "heuristic"]})
    context = browser.new_context(viewport=VIEWPORT)
    shoot(context, f"{base}/voila/render/{made['seats'][0]['path']}", ".pt-live .pt-table .pt-card",
          "crazy_eights")
    context.close()


def shoot_host_replay(browser, base: str) -> None:
    """A Lazy Sunday table a person played two moves at (through the API) and its host
    ended: the host page with *Replay the game* pressed, the replay at move 0."""
    made = api(base, "tables", {"game": "lazy_sunday", "seats": 2, "pace": "instant", "seed": 7,
                                "players": ["human", "heuristic"]})
    seat = made["seats"][0]
    for number, move in enumerate(["0 peek 0 1", "0 done"]):
        api(base, f"tables/{made['id']}/moves", {"move": move, "id": f"docs-{number}"}, seat["token"])
    api(base, f"tables/{made['id']}/host", {"action": "end"}, made["host_token"])
    context = browser.new_context(viewport=VIEWPORT)
    host = context.new_page()
    host.goto(f"{base}/voila/render/{made['host_path']}", timeout=TIMEOUT_MS)
    host.get_by_role("button", name="Replay the game").click(timeout=TIMEOUT_MS)
    host.wait_for_selector(".pt-replay .pt-debugger .pt-table .pt-card", timeout=TIMEOUT_MS)
    host.locator(".pt-host").first.evaluate("e => e.scrollIntoView({block: 'start'})")
    host.wait_for_timeout(1500)
    save(host, "host_replay")
    context.close()


# name -> (page address under /voila/render/, CSS selector to wait for)
PAGES = {
    "index": ("index.ipynb", "a:has-text('Lazy Sunday')"),
    "game": ("game.ipynb?game=lazy_sunday&seed=4", ".pt-table .pt-card"),
    "learn": ("learn.ipynb?game=lazy_sunday", ".pt-table .pt-card"),
    "debugger": ("scenario_debugger.ipynb?scenario=lazy_sunday_claim_on_caller", ".pt-debugger .pt-table"),
    "lab": ("balance_lab.ipynb", ".pt-lab button:has-text('Run')"),
    "card_editor": ("card_editor.ipynb", ".pt-card-editor"),
}


def save(page, name: str) -> None:
    """Save the page's viewport (1280x720) as ``<name>.png``."""
    path = OUT / f"{name}.png"
    page.screenshot(path=str(path))
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} kB", flush=True)


def shoot(context, url: str, ready: str, name: str, scroll: bool = False):
    """Open ``url``, wait for ``ready`` (scrolled to the top of the window with ``scroll``)
    and save the viewport as ``<name>.png``; returns the page."""
    page = context.new_page()
    page.goto(url, timeout=TIMEOUT_MS)
    page.wait_for_selector(ready, timeout=TIMEOUT_MS)
    if scroll:
        page.locator(ready).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(1500)                       # let the widgets finish drawing
    save(page, name)
    return page


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated names among: "
                        + ", ".join([*PAGES, "lobby", "table_seat0", "table_seat1", "crazy_eights", "host_replay"]))
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, serve(Path(folder)) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        for name, (path, ready) in PAGES.items():
            if only is None or name in only:
                context = browser.new_context(viewport=VIEWPORT)
                shoot(context, f"{base}/voila/render/{path}", ready, name)
                context.close()
        if only is None or only & {"lobby", "table_seat0", "table_seat1"}:
            made = create_table(base)
            seats = []
            for seat in made["seats"][:2]:               # each person on a device of their own
                context = browser.new_context(viewport=VIEWPORT)
                page = context.new_page()
                page.goto(f"{base}/voila/render/{seat['path']}", timeout=TIMEOUT_MS)
                seats.append((context, page))
            for number, (context, page) in enumerate(seats):
                page.wait_for_selector(".pt-live .pt-table .pt-card", timeout=TIMEOUT_MS)
                page.wait_for_timeout(1500)
                if only is None or f"table_seat{number}" in only:
                    path = OUT / f"table_seat{number}.png"
                    page.screenshot(path=str(path))
                    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} kB", flush=True)
            if only is None or "lobby" in only:
                context = browser.new_context(viewport=VIEWPORT)
                page = shoot(context, f"{base}/voila/render/lobby.ipynb",
                             f".pt-lobby-tables:has-text('{made['id']}')", "lobby", scroll=True)
                context.close()
            for context, _page in seats:
                context.close()
        if only is None or "crazy_eights" in only:
            shoot_crazy_eights(browser, base)
        if only is None or "host_replay" in only:
            shoot_host_replay(browser, base)
        browser.close()


if __name__ == "__main__":
    main()
