"""The ``playtest`` command line.

``playtest serve`` runs the dashboard server (:class:`playtest.server.app.PlaytestVoila`,
Voilà with the live tables, preheated kernels and kernel clean-up) over the dashboards
folder, bound to 127.0.0.1 unless told otherwise, and prints the address of the
dashboard index. ``playtest tables backup FILE`` copies the live tables' store;
``playtest notebooks DIR`` copies the tutorial notebooks into a folder;
``playtest rulings [GAME]`` prints a game's ruling ids, each with its one line.
"""
from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
from pathlib import Path

from .arguments import base_url_path, crowd_size, memory_size, origin, port_number

DEFAULT_PORT = 8866


DASHBOARDS_DIR = Path(__file__).resolve().parent / "dashboards"
"""The kit's dashboards, installed with the package (the checkout's ``playtest/dashboards``
under an editable install): what ``playtest serve`` serves without ``--dir``."""

NOTEBOOKS_DIR = Path(__file__).resolve().parent / "notebooks"
"""The tutorial notebooks installed with the package, copied by ``playtest notebooks``."""


def server_arguments(folder: Path, port: int, ip: str, crowd: int = 0, base_url: str = "/",
                     allow_origins: list[str] = (), max_memory: int = 0) -> list[str]:
    """The command line (Voilà's options) that ``serve`` gives the dashboard server
    (shapes: folder is a directory of ``.ipynb`` dashboards; port an int 1..65535; ip an
    address to bind; crowd the pages expected at once, 0 for the defaults, see
    :attr:`playtest.server.app.PlaytestVoila.crowd`; base_url the path every address
    starts with, "/" or e.g. "/user/ab/playtest/" behind Binder's proxy; allow_origins the
    origins allowed besides the server's own, see :mod:`playtest.tables.guard`; max_memory the
    memory budget in bytes, 0 for the container's or machine's, see
    :attr:`playtest.server.app.PlaytestVoila.max_memory`). Kernel pools,
    transport, timeouts and the clean-up of kernels whose page is gone are the server's
    own settings (:mod:`playtest.server.settings`)."""
    return [str(folder), "--no-browser", f"--port={port}", f"--Voila.ip={ip}",
            "--Voila.port_retries=0", *([f"--PlaytestVoila.crowd={crowd}"] if crowd else []),
            *([f"--Voila.base_url={base_url}"] if base_url != "/" else []),
            *[f"--PlaytestVoila.allow_origins={origin}" for origin in allow_origins],
            *([f"--PlaytestVoila.max_memory={max_memory}"] if max_memory else [])]


def port_problem(ip: str, port: int) -> str | None:
    """Why ``ip:port`` cannot be listened on now (e.g. "address already in use"), or
    None if it can: checked before the address is printed, so the printed URL is real."""
    try:
        with socket.create_server((ip, port)):
            return None
    except OSError as exc:
        return exc.strerror or str(exc)


def serve(args: argparse.Namespace) -> int:
    from playtest.scenarios import scenarios_dir
    from playtest.tables import web

    folder = Path(args.dir).resolve() if args.dir else DASHBOARDS_DIR
    if not (folder / "index.ipynb").is_file():
        print(f"playtest serve: no dashboards in {folder} (expected {folder / 'index.ipynb'}); "
              "pass --dir a folder of dashboards with an index.ipynb, or leave --dir out to serve the kit's own",
              file=sys.stderr)
        return 2
    problem = port_problem(args.ip, args.port)
    if problem:
        print(f"playtest serve: cannot listen on {args.ip}:{args.port}: {problem}; "
              f"choose another with --port", file=sys.stderr)
        return 2
    # the kit's dashboards are in the installed package: your scenario files are where you started
    web.publish_scenarios_dir(folder if args.dir else Path.cwd())
    served = f"your own folder {folder} (--dir), not the kit's dashboards" if args.dir else \
        f"the kit's dashboards (playtest {_version()})"
    print(f"playtest serve: serving {served}; your scenario files: {scenarios_dir()}", flush=True)
    from playtest.server import main as run_server

    # in this process, so that a signal to it (Ctrl+C, kill) stops the server itself
    return run_server(server_arguments(folder, args.port, args.ip, args.crowd, args.base_url, args.allow_origin,
                                       args.max_memory))


def tables_backup(args: argparse.Namespace) -> int:
    """``playtest tables backup FILE``: copy the data folder's table store to FILE with
    SQLite's online backup (:func:`playtest.tables.store.backup`), a server running or
    not; says how many tables the copy holds. Returns 0, or 2 with one sentence."""
    from playtest.tables.store import DB_NAME, StoreProblem, backup, data_dir
    source = data_dir() / DB_NAME
    try:
        count = backup(source, args.file)
    except StoreProblem as exc:
        print(f"playtest tables backup: {exc}", file=sys.stderr)
        return 2
    print(f"Copied {count} table{'s' * (count != 1)} from {source} to {args.file}")
    return 0


def add_tables_command(commands) -> None:
    """Add the ``tables`` subcommand group: ``tables backup FILE``."""
    p = commands.add_parser("tables", help="the live tables' store (backup)",
                            description="The live tables' store, tables.sqlite3 in the data folder "
                                        "($PLAYTEST_DATA_DIR, else ~/.local/share/playtest).")
    actions = p.add_subparsers(dest="action", required=True)
    backup = actions.add_parser("backup", help="copy the store to a new file, even while a server runs",
                                description="Copy the live tables' store to FILE with SQLite's online backup "
                                            "(every saved move, those in its -wal file too), even while a server "
                                            "uses it. Restore: stop the server, move tables.sqlite3 and its -wal "
                                            "and -shm files aside, copy FILE to tables.sqlite3.")
    backup.add_argument("file", type=Path, metavar="FILE", help="the copy to write (a new file)")
    backup.set_defaults(run=tables_backup)


def notebooks(args: argparse.Namespace) -> int:
    """``playtest notebooks DIR``: copy the tutorial notebooks (:data:`NOTEBOOKS_DIR`) into
    ``DIR`` (created with its parents if missing). Copies nothing and returns 1, naming
    them, when any of those files is already there (never overwrites a teacher's edits);
    returns 2 when ``DIR`` is a file."""
    target = Path(args.folder)
    sources = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
    if target.exists() and not target.is_dir():
        print(f"playtest notebooks: {target} is a file; name a folder to copy the notebooks into", file=sys.stderr)
        return 2
    present = [s.name for s in sources if (target / s.name).exists()]
    if present:
        print(f"playtest notebooks: {target} already holds {', '.join(present)}; nothing copied "
              "(playtest never overwrites a notebook: move those away or choose another folder)", file=sys.stderr)
        return 1
    target.mkdir(parents=True, exist_ok=True)
    for source in sources:
        shutil.copyfile(source, target / source.name)
    print(f"Copied {len(sources)} tutorial notebooks into {target}: {', '.join(s.name for s in sources)}")
    print(f"Open them with: jupyter lab {target}")
    return 0


def rulings(args: argparse.Namespace) -> int:
    """``playtest rulings [GAME]``: print the ruling ids a game may cite, each with its one
    line: the engine's G ids (:data:`~playtest.engine.G_RULINGS`, every game's), then
    those the game declares (``Game.RULINGS``); without GAME, every installed game's.
    Returns 0, or 2 (and one sentence listing the games) for a game name no installed
    game has."""
    from playtest.engine import G_RULINGS, OptionError, games, get_game
    try:
        chosen = [get_game(args.game)] if args.game is not None else list(games().values())
    except OptionError as exc:
        print(f"playtest rulings: {exc}", file=sys.stderr)
        return 2
    sections = [("Every game (the engine)", G_RULINGS)]
    sections += [(f"{game.title} ({game.name})", game.RULINGS) for game in chosen]
    for n, (heading, lines) in enumerate(sections):
        width = max(map(len, lines), default=0)
        print(("\n" if n else "") + f"{heading}:")
        for rid, line in lines.items():
            print(f"  {rid:<{width}}  {line}")
        if not lines:
            print("  (none declared: its refusals may cite the engine's G ids only)")
    return 0


def _version() -> str:
    from playtest import __version__
    return __version__


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``playtest`` console script; returns the exit code."""
    parser = argparse.ArgumentParser(prog="playtest", description="Teach and playtest card games in Jupyter.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("serve", help="serve the Voilà dashboards in a browser")
    p.add_argument("--port", type=port_number, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--ip", default="127.0.0.1", help="address to bind (default 127.0.0.1, this machine only)")
    p.add_argument("--dir", metavar="PATH", help="serve your own folder of dashboards (with an index.ipynb) "
                                               "instead of the kit's")
    p.add_argument("--crowd", type=crowd_size, default=0, metavar="N",
                   help="pages you expect to open at once (a class, a playtest of N people): each dashboard "
                        "opened keeps N kernels ready, about 60 MB each (default: 1-2 per dashboard; the "
                        "table page also keeps one for each seat of a new or restored table whose "
                        "person has not come yet, at most 8)")
    p.add_argument("--base-url", type=base_url_path, default="/", metavar="PATH",
                   help="the path every address starts with (default /), e.g. behind a proxy as on Binder")
    p.add_argument("--allow-origin", type=origin, action="append", default=[], metavar="ORIGIN",
                   help="an address the server is reached by that is not this machine's (a proxy's public "
                        "address, e.g. https://games.example.org) or another site whose pages may use the lobby; "
                        "repeat for several")
    p.add_argument("--max-memory", type=memory_size, default=0, metavar="SIZE",
                   help="memory the server and its pages may use, e.g. 2G or 1536M: a page that would pass it "
                        "gets 'This server is full' (default: the container's limit, else the machine's memory)")
    p.set_defaults(run=serve)
    add_tables_command(commands)
    p = commands.add_parser("notebooks", help="copy the tutorial notebooks into a folder (for a teacher or a course)")
    p.add_argument("folder", metavar="DIR", help="where to copy them (created if missing; nothing is overwritten)")
    p.set_defaults(run=notebooks)
    p = commands.add_parser("rulings", help="print a game's ruling ids, each with its one line",
                            description="The ruling ids a game cites (in refused moves, tutorials and scenarios), "
                                        "each with its one line: the engine's G ids, every game's, then the "
                                        "game's own.")
    p.add_argument("game", nargs="?", metavar="GAME", help="game name, e.g. chore_race (default: every installed game)")
    p.set_defaults(run=rulings)
    from playtest.scenarios.replay import add_parser as add_replay
    add_replay(commands)
    from .lab.cli import add_report_command, add_simulate_command, add_tables_report_command
    add_simulate_command(commands)
    add_tables_report_command(commands)
    add_report_command(commands)
    from .lab.skill import add_skill_command
    add_skill_command(commands)
    args = parser.parse_args(argv)
    try:
        code = args.run(args)
        sys.stdout.flush()              # a closed pipe shows here, not at interpreter exit
    except BrokenPipeError:             # e.g. `playtest simulate ... | head`: the reader left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # as the Python docs advise
        return 1
    except KeyboardInterrupt:           # Ctrl-C before a command's own handling starts (e.g. while importing)
        print(f"playtest {args.command}: interrupted (Ctrl-C)", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
