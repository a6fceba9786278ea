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
written atomically (a crash mid-write never leaves half a file).
"""
from __future__ import annotations

import datetime
import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from ..engine import Match, RecordError
from ..engine.match import write_atomically

FORMAT = "playtest.autosave"
VERSION = 1
ENV = "PLAYTEST_AUTOSAVE_DIR"


def autosave_dir() -> Path:
    """``$PLAYTEST_AUTOSAVE_DIR``, else ``~/.cache/playtest/autosave``."""
    env = os.environ.get(ENV)
    return Path(env) if env else Path.home() / ".cache" / "playtest" / "autosave"


KEEP = 20  # unfinished saves kept per game; older ones are pruned


def game_dir(game_name: str) -> Path:
    """The folder of one game's autosaves (by registry name)."""
    return autosave_dir() / game_name


def new_path(game_name: str) -> Path:
    """A fresh autosave file for a game just started: one file per game in progress, so
    two people playing on one server never overwrite each other's save."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return game_dir(game_name) / f"{stamp}-{uuid.uuid4().hex[:8]}.json"


def saved_paths(game_name: str) -> list[Path]:
    """The autosave files of a game, newest first; all but the newest ``KEEP`` are
    deleted on the way."""
    paths = sorted(game_dir(game_name).glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in paths[KEEP:]:
        old.unlink(missing_ok=True)
    return paths[:KEEP]


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
        parts = [f"seat {s[0]} {who}" if len(s) == 1 else f"seats {s[0]}–{s[-1]} {who}" for s, who in groups]
        n = len(self.match.moves)
        return (f"{seats} seats: {', '.join(parts)}; {n} move{'s' if n != 1 else ''}, "
                f"saved at {self.saved_at.strftime('%H:%M')}")


def write(path: Path, match: Match, players: dict[int, str], seed_chosen: bool) -> None:
    """Write ``match`` with its seat setup to ``path`` atomically (the directory is made
    if needed; the file is readable by its owner only, as it holds the seed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": FORMAT, "version": VERSION, "game": match.game.name,
            "players": {str(s): p for s, p in sorted(players.items())}, "seed_chosen": bool(seed_chosen),
            "saved_at": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "record": match.record().model_dump()}
    write_atomically(path, json.dumps(data, indent=1))


def read(path: Path, game_name: str) -> Autosave:
    """Read and replay an autosave of ``game_name``.

    Raises:
        RecordError: the file is not an autosave of that game, or its record does not
            replay. OSError: it cannot be read.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
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
