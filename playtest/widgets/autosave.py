"""Autosave: "never lose a user's game".

A :class:`~playtest.widgets.GameApp` writes its game to a file on the server after every
move, so that a page reload (which starts a new kernel) can offer to resume it. The file
holds the record, which holds the seed (G-3): it stays on the server and is never sent
to the browser.

The file is a small JSON wrapper around the record::

    {"format": "playtest.autosave", "version": 1, "game": "lazy_sunday",
     "players": {"1": "heuristic"}, "seed_chosen": false, "saved_at": "...ISO time...",
     "record": {...the match record...}}

``players`` lists the bot seats (seat -> bot name); every other seat is human. It lives
in ``$PLAYTEST_AUTOSAVE_DIR`` or, by default, ``~/.cache/playtest/autosave/<game>/``, one
file per game in progress (the newest unfinished one is offered for resuming), and is
written atomically (a crash mid-write never leaves half a file). Under ``playtest
serve`` each browser has its own folder, ``<game>/<browser name>/``
(:func:`playtest.widgets.page.browser_id`): a page is offered only the games played in
its own browser, never another person's on the same server.

A save that fails (a full disk, a read-only or missing folder) raises
:class:`AutosaveError`, whose message is one plain sentence without the server's folder
or an error number: the page shows it, and the game goes on in memory.
"""
from __future__ import annotations

import datetime
import errno
import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from ..engine import Match, PlaytestError, RecordError, limits
from ..engine.match import write_atomically
from ..server.settings import BROWSER_ID

FORMAT = "playtest.autosave"
VERSION = 1
ENV = "PLAYTEST_AUTOSAVE_DIR"


def autosave_dir() -> Path:
    """``$PLAYTEST_AUTOSAVE_DIR``, else ``~/.cache/playtest/autosave``."""
    env = os.environ.get(ENV)
    return Path(env) if env else Path.home() / ".cache" / "playtest" / "autosave"


KEEP = 20  # unfinished saves kept per game; older ones are pruned


def game_dir(game_name: str, browser: str = "") -> Path:
    """The folder of one game's autosaves (by registry name) from one browser (its name,
    :func:`playtest.widgets.page.browser_id`; "" for pages without one).

    Raises:
        ValueError: ``browser`` is not a browser name (it could leave the folder)."""
    if browser and not BROWSER_ID.fullmatch(browser):
        raise ValueError(f"{browser[:80]!r} is not a browser name (16 to 64 letters, digits, '-' or '_')")
    return autosave_dir() / game_name / browser if browser else autosave_dir() / game_name


def new_path(game_name: str, browser: str = "") -> Path:
    """A fresh autosave file for a game just started (or resumed): one file per game in
    progress, so two people, or two tabs, never overwrite each other's save."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return game_dir(game_name, browser) / f"{stamp}-{uuid.uuid4().hex[:8]}.json"


def saved_paths(game_name: str, browser: str = "") -> list[Path]:
    """The autosave files of a game from one browser (see :func:`game_dir`), newest
    first; all but the newest ``KEEP`` are deleted on the way. A folder that cannot be
    read gives ``[]``, a file that cannot be deleted is left (saving is a help, never a
    reason for the app to stop)."""
    def modified(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:               # gone meanwhile (another page's game ended)
            return 0.0

    try:
        paths = sorted(game_dir(game_name, browser).glob("*.json"), key=modified, reverse=True)
    except OSError:
        return []
    for old in paths[KEEP:]:
        try:
            old.unlink(missing_ok=True)
        except OSError:
            pass
    return paths[:KEEP]


class AutosaveError(PlaytestError):
    """A save on the server failed; the message is one plain sentence for the page
    (what went wrong in everyday words; never the folder or an error number).

    Attributes:
        reason: the short cause, e.g. ``"the disk is full"``.
    """

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"This game could not be saved on the server ({reason}); it goes on in memory and is "
                         "saved again after the next move.")


def problem(exc: OSError) -> str:
    """An OSError in everyday words (no path, no number): ``"the disk is full"``, ..."""
    return {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
            errno.EROFS: "the save folder is read-only", errno.EACCES: "permission to use the save folder is denied",
            errno.EPERM: "permission to use the save folder is denied", errno.ENOENT: "the save folder is missing",
            errno.ENOTDIR: "the save folder is missing", errno.EEXIST: "the save folder is missing",
            }.get(exc.errno, "the save folder cannot be used")


@dataclass
class Autosave:
    """An unfinished game read back from its autosave file.

    Attributes:
        match: the replayed match (at the end of its record). players: bot seats ->
            bot name (other seats human). seed_chosen: whether the seed was chosen by
            hand (a random seed is never shown). saved_at: local time of the save.
    """

    match: Match
    players: dict[int, str]
    seed_chosen: bool
    saved_at: datetime.datetime

    def describe(self) -> str:
        """E.g. "3 seats: seat 0 human, seats 1–2 heuristic bot; 12 moves, saved at 14:05"."""
        seats = self.match.game.seats
        groups: list[tuple[list[int], str]] = []
        for seat in range(seats):
            who = f"{self.players[seat]} bot" if seat in self.players else "human"
            if groups and groups[-1][1] == who and groups[-1][0][-1] == seat - 1:
                groups[-1][0].append(seat)
            else:
                groups.append(([seat], who))
        # seats as people count them, from 1
        parts = [f"seat {s[0] + 1} {who}" if len(s) == 1 else f"seats {s[0] + 1}–{s[-1] + 1} {who}"
                 for s, who in groups]
        n = len(self.match.moves)
        return (f"{seats} seats: {', '.join(parts)}; {n} move{'s' if n != 1 else ''}, "
                f"saved at {self.saved_at.strftime('%H:%M')}")


def write(path: Path, match: Match, players: dict[int, str], seed_chosen: bool) -> None:
    """Write ``match`` with its seat setup to ``path`` atomically (the directory is made
    if needed; the file is readable by its owner only, as it holds the seed). A failed
    write leaves no temporary file, and ``path`` as it was.

    Raises:
        AutosaveError: the folder cannot be made or written (full, read-only, missing);
            the message is plain, for the page.
    """
    data = {"format": FORMAT, "version": VERSION, "game": match.game.name,
            "players": {str(s): p for s, p in sorted(players.items())}, "seed_chosen": bool(seed_chosen),
            "saved_at": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "record": match.record().model_dump()}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(data, indent=1))
    except OSError as exc:
        raise AutosaveError(problem(exc)) from None


def claim(path: Path, game_name: str, browser: str = "") -> Path:
    """Take over the save at ``path`` for a page that resumes it: the file moves to a new
    name (:func:`new_path`), in which that page plays on. A page still playing the game
    under the old name (another tab) writes its own file again at its next move: two
    lines of play, two files, no move lost.

    Returns:
        The new path; ``path`` itself when the file cannot be moved (the page then plays
        on in it, and a failing folder is said at the next save).
    """
    fresh = new_path(game_name, browser)
    try:
        path.replace(fresh)
    except OSError:
        return path
    return fresh


def remove(path: Path) -> None:
    """Delete the autosave at ``path`` (a finished game's), if it is there.

    Raises:
        AutosaveError: it cannot be deleted (a read-only folder); plain message.
    """
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise AutosaveError(problem(exc)) from None


def read(path: Path, game_name: str) -> Autosave:
    """Read and replay an autosave of ``game_name``.

    The file passes the input limits (:mod:`playtest.engine.limits`) before it is
    parsed, as any record does.

    Raises:
        RecordError: the file is not an autosave of that game, is over an input limit,
            or its record does not replay. OSError: it cannot be read.
    """
    try:
        data = limits.load_json(limits.read_text(path, path.name), path.name)
    except limits.LimitError:
        raise
    except ValueError as exc:
        raise RecordError(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise RecordError(f"not a {FORMAT} version {VERSION} file")
    if data.get("game") != game_name:
        raise RecordError(f"it is a save of {data.get('game')!r}, not {game_name!r}")
    try:
        players = {int(s): str(p) for s, p in dict(data.get("players") or {}).items()}
        saved_at = datetime.datetime.fromisoformat(str(data["saved_at"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"bad seat setup or time ({exc})") from None
    match = Match.from_record(data.get("record") or {})
    if match.game.name != game_name:
        raise RecordError(f"its record is a game of {match.game.name!r}, not {game_name!r}")
    return Autosave(match, players, bool(data.get("seed_chosen")), saved_at)
