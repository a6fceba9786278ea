"""People's games beside bot games: the balance lab reads the live tables' export.

When a playtest session ends, the host downloads every finished table's record with its
feedback (:meth:`TableService.export <playtest.tables.service.TableService.export>`,
``GET export?format=json|csv``). :func:`read_tables` replays each record and measures it
with the very code :func:`~playtest.lab.simulate` measures bot games with
(:func:`~playtest.lab.simulation.match_row`), so :func:`~playtest.lab.metrics`,
:func:`~playtest.lab.seat_win_rates` and the plots read people's games as they read
bots', "human" standing in the ``seat{s}_bot`` columns beside the bot names::

    people = read_tables("tables.json", game="lazy_sunday")
    bots = simulate("lazy_sunday", 4, "heuristic", games=2000)
    compare_people_and_bots(people, bots)      # game length and first-seat wins, B - A
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import reprlib
import statistics
import warnings
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

from playtest.engine import Game, Match, Move, PlaytestError, RecordError, get_game
from playtest.engine.limits import load_json

from .simulation import card_counter_columns, empty_rows, match_row, tidy_rows
from .stats import compare

HUMAN = "human"
"""The name a person's seat has in ``players`` and in the rows' ``seat{s}_bot``
(the live tables' :data:`playtest.tables.live.HUMAN`)."""
TABLE_COLUMNS = ["table", "seats", "humans", "names", "status", "rating_mean", "feedback", "think_human_s",
                 "think_bot_s"]
"""The columns :func:`read_tables` adds to those of :func:`~playtest.lab.simulate`."""
CSV_JSON_FIELDS = ("players", "names", "record", "feedback", "winners", "think", "holders")
"""Columns of the export's CSV that hold JSON text."""


def read_tables(source: Any, game: str | type[Game] | None = None, seats: int | None = None,
                include_unfinished: bool = False) -> pd.DataFrame:
    """The live tables' games as balance-lab rows, one per table.

    Every record is replayed (``Match.from_record``'s checks, then its moves one by
    one) and measured as :func:`~playtest.lab.simulate` measures a bot game, so the
    rows have simulate's columns (``game`` is the row's number in the order the tables
    were created; ``seat{s}_bot`` is ``"human"`` for a person's seat, else the bot's
    name) and :func:`~playtest.lab.metrics`, :func:`~playtest.lab.seat_win_rates`
    (``by="bot"`` shows "human" beside the bots) and the plots work on them.

    A table the host ended before its game was over is left out unless
    ``include_unfinished`` is True: an abandoned table measures when people stopped,
    not how long the game is or who it favours, so it would bias game length and win
    rates. Kept, it has ``finished`` False (counted by ``Completion``/``Timeouts``
    like a game stopped by the G-4 cap), no winner and NaN scores. A game the G-4 cap
    stopped at a table is kept, as simulate keeps it.

    Args:
        source: a path (str or ``os.PathLike``) to the export's JSON file
            (``{"tables": [...]}`` as the server sends it, or the list) or CSV file (one
            row per table, lists and objects as JSON text); the parsed JSON (that dict
            or list of table dicts, as :meth:`TableService.export` returns); or a
            :class:`~playtest.tables.service.TableService`. A table dict holds
            ``table`` (id), ``created`` (time), ``status``, ``players`` (per seat
            ``"human"`` or a bot name), ``record`` (the match record) and ``feedback``
            (list of ``{"seat", "rating", "confused", "notes", "time"}``).
        game: keep only this game's tables (a registry name or Game class); the others
            are left out with a warning saying how many. None keeps every game (the
            metrics then mix games: pass a game).
        seats: keep only tables of this seat count (per-seat metrics need one); the
            others are left out with a warning. None keeps them all (a seat a game
            does not have is then NaN in its ``seat{s}_...`` columns).
        include_unfinished: keep the tables ended before their game was over (see above).

    Returns:
        A DataFrame with simulate's columns plus ``table`` (id), ``seats``, ``humans``
        (seats played by people), ``names`` (the names people gave, per seat, as JSON
        text; "" where none), ``status`` (``"over"`` or ``"ended"``),
        ``rating_mean`` (the mean of the feedback's ratings; NaN without one),
        ``feedback`` (the feedback list as JSON text) and ``think_human_s``,
        ``think_bot_s`` (the median of the seats' median think times per decision, in
        seconds, of people and of bots: the export's ``think``; NaN when not known). ``df.attrs`` holds ``game`` and
        ``seats`` (when every row shares one; None otherwise), ``options`` (when every
        table played the same), ``tables`` (rows) and ``left_out`` (``{"other_games",
        "other_seats", "unfinished"}``: tables not in the rows).

    Raises:
        RecordError: (a ``ValueError``) the file cannot be read or is not a table export
            (not JSON, a CSV without the export's columns, an entry that is not a
            table), a CSV cell over the input limits of one record
            (:mod:`playtest.engine.limits`: a ``LimitError``), or a table's record is
            damaged or does not replay (an unknown game, bad options, an illegal move:
            named by number), or its players or feedback are malformed; the message
            names the table.
        TypeError: ``source`` is none of the kinds above.
        OptionError: ``game`` is not a known game.
        ValueError: ``seats`` is not a whole number 1 or more.
    """
    wanted = get_game(game).name if game is not None else None
    if seats is not None and (type(seats) is not int or seats < 1):
        raise ValueError(f"seats must be a seat count (a whole number 1 or more) or None, not {seats!r}")
    entries = _entries(source)
    entries.sort(key=lambda e: (_created(e[1]) is None, _created(e[1]) or 0, e[0]))   # unknown times last
    rows, every = [], {}
    left_out = {"other_games": 0, "other_seats": 0, "unfinished": 0}
    disagree = []
    names: dict[tuple, str] = {}    # card counter columns, formatted once
    games, seat_counts, options = set(), set(), []
    for table_id, entry in entries:
        record = entry.get("record")
        if not isinstance(record, Mapping):
            raise RecordError(f"table {table_id}: no record (the export's 'record' must be a match record object)")
        if wanted is not None and record.get("game") != wanted:
            left_out["other_games"] += 1
            continue
        if seats is not None and record.get("seats") != seats:
            left_out["other_seats"] += 1
            continue
        match, step = _replay(table_id, record)
        players = entry.get("players")
        if (not isinstance(players, list) or len(players) != match.game.seats
                or not all(isinstance(p, str) and p for p in players)):
            raise RecordError(f"table {table_id}: players must list who sat at each of its {match.game.seats} "
                              f"seats ('human' or a bot name), not {players!r}")
        row = {"game": len(rows), "seed": match.seed, **match_row(match, step, players, names)}
        if match.outcome() is None and not include_unfinished:
            left_out["unfinished"] += 1
            continue
        feedback = entry.get("feedback") or []
        row.update(table=table_id, seats=match.game.seats, humans=players.count(HUMAN),
                   names=json.dumps(_names(entry, match.game.seats)), status=entry.get("status"),
                   rating_mean=_rating_mean(table_id, feedback), feedback=json.dumps(feedback),
                   think_human_s=_think(entry, HUMAN), think_bot_s=_think(entry, "bot"))
        if _disagrees(entry, row):
            disagree.append(table_id)
        rows.append(row)
        every.update(dict.fromkeys(card_counter_columns(match.game)))
        games.add(match.game.name)
        seat_counts.add(match.game.seats)
        if match.options_dict() not in options:
            options.append(match.options_dict())
    df = pd.DataFrame(rows) if rows else pd.DataFrame(columns=[*empty_rows(seats or 0).columns, *TABLE_COLUMNS])
    df = tidy_rows(df, every)
    df.attrs.update(game=next(iter(games)) if len(games) == 1 else wanted,
                    seats=next(iter(seat_counts)) if len(seat_counts) == 1 else seats,
                    tables=len(df), left_out=left_out)
    if len(options) == 1:
        df.attrs["options"] = options[0]
    _warn(left_out, wanted, seats, disagree)
    return df


def compare_people_and_bots(human_df: pd.DataFrame, bot_df: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """People's games against bot games on game length and first-seat results:
    :func:`~playtest.lab.compare` with the bots as A and the people as B, so
    :func:`~playtest.lab.plot_compare` draws it too.

    Args:
        human_df: from :func:`read_tables` (one game and seat count).
        bot_df: from :func:`~playtest.lab.simulate`, same game and seat count.
        confidence: of the intervals.

    Returns:
        DataFrame indexed by ``DurationTurns`` (mean turns) and ``AdvantageP1`` (the
        first seat to act's result, Ludii's: 1 won, 0 last, part wins between), each
        with Welch's t interval (people's tables and bot games are independent samples,
        never paired by seed), with columns ``A`` (bots), ``B`` (people),
        ``difference`` (people - bots), ``low``, ``high``, ``n`` and ``interval`` (the
        method); ``attrs["A"]`` and ``attrs["B"]`` say which is which.

    Raises:
        ValueError: as :func:`~playtest.lab.compare`: different games or seat counts.
    """
    table = compare(bot_df, human_df, confidence, paired=False).loc[["DurationTurns", "AdvantageP1"]]
    table.attrs.update(A="bots", B="people at live tables")
    return table


def _entries(source: Any) -> list[tuple[str, Mapping]]:
    """``(table id, table dict)`` of every table in ``source`` (see :func:`read_tables`)."""
    if isinstance(source, (str, os.PathLike)):
        data = _read_file(Path(source))
    elif isinstance(source, (Mapping, list)):
        data = source
    else:
        from playtest.tables.service import TableService   # only here: the lab needs no server otherwise
        if not isinstance(source, TableService):
            raise TypeError(f"read_tables reads a path to the tables export (JSON or CSV), its parsed JSON or a "
                            f"TableService, not {type(source).__name__}")
        data = source.export()
    if isinstance(data, Mapping):
        if not isinstance(data.get("tables"), list):
            raise RecordError("not a table export: a JSON object must hold the tables as a list under 'tables'")
        data = data["tables"]
    if not isinstance(data, list):
        raise RecordError(f"not a table export: it must be a list of tables, not {type(data).__name__}")
    entries = []
    for number, entry in enumerate(data, 1):
        if not isinstance(entry, Mapping):
            raise RecordError(f"not a table export: entry {number} is {type(entry).__name__}, not a table object")
        table_id = entry.get("table")
        entries.append((str(table_id) if table_id not in (None, "") else f"#{number}", entry))
    return entries


def _read_file(path: Path) -> Any:
    """The export in a file, read as :func:`parse_export` reads its text."""
    try:
        text = path.read_text(encoding="utf-8-sig")   # a CSV saved by a spreadsheet may start with a BOM
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "it is not a text file"
        raise RecordError(f"cannot read the tables export {str(path)!r}: {reason}") from None
    return parse_export(text, str(path))


def parse_export(text: str, name: str) -> Any:
    """The live tables' export from its text: JSON (``name`` ending ``.json``, or text
    starting with ``{`` or ``[``) or the export's CSV (``.csv``, or anything else).

    Args:
        text: the file's text (a leading byte-order mark is ignored). name: the file's
            name or path, for the format and the messages.

    Returns:
        What :func:`read_tables` reads: the parsed JSON, or the CSV's tables (a list of
        table dicts, their JSON text columns parsed).

    Raises:
        RecordError: empty, not valid JSON (or nested too deeply), or not the export's CSV;
            the message names the file.
    """
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise RecordError(f"the tables export {name!r} is empty")
    suffix = Path(name).suffix.lower()
    if suffix == ".json" or (suffix != ".csv" and text.lstrip()[:1] in "{["):
        try:
            return json.loads(text)
        except RecursionError:
            raise RecordError(f"the tables export {name!r} is nested too deeply to be a table export") from None
        except ValueError as exc:     # not JSON, or a number of more digits than int() reads
            raise RecordError(f"the tables export {name!r} is not valid JSON ({exc})") from None
    return _from_csv(text, name)


def _from_csv(text: str, name: str) -> list[dict]:
    """The tables of the export's CSV (see ``TableService.export_csv``), its JSON text
    columns parsed."""
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        header = reader.fieldnames or []
        missing = [c for c in ("table", "players", "record") if c not in header]
        if missing:
            raise RecordError(f"the tables export {name!r} is not the export's CSV: no {', '.join(missing)} "
                              f"column (found {', '.join(header[:8]) or 'none'})")
        rows = []
        for row in reader:
            table = row.get("table") or f"#{len(rows) + 1}"
            for field in CSV_JSON_FIELDS:
                if row.get(field):
                    try:    # each cell is one record's worth of text: the input limits hold it
                        row[field] = load_json(row[field], f"table {table}: the {field} column")
                    except json.JSONDecodeError as exc:
                        raise RecordError(f"table {table}: the {field} column is not valid JSON ({exc})") from None
            if row.get("finished") in ("True", "False"):
                row["finished"] = row["finished"] == "True"
            rows.append(row)
    except csv.Error as exc:    # e.g. a field longer than the csv module's limit
        raise RecordError(f"the tables export {name!r} is not a readable CSV ({exc})") from None
    return rows


def _created(entry: Mapping) -> float | None:
    """A table's creation time in seconds since the epoch: the export's ISO 8601 text, or
    a number (exports made before ISO times); None when missing or unreadable."""
    created = entry.get("created")
    if isinstance(created, str):
        try:
            return datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return _number(created)
    return created if isinstance(created, (int, float)) and not isinstance(created, bool) else None


def _number(text: Any) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _think(entry: Mapping, player: str) -> float:
    """The median of the seats' median think times (seconds) of ``player`` ("human" or
    "bot") at a table, from the export's ``think`` rows; NaN without any (an export
    made before think times, or no such decision)."""
    rows = entry.get("think")
    medians = [r["median_s"] for r in rows if isinstance(r, Mapping) and r.get("player") == player
               and isinstance(r.get("median_s"), (int, float))] if isinstance(rows, list) else []
    return float(statistics.median(medians)) if medians else math.nan


def _replay(table_id: str, record: Mapping) -> tuple[Match, Any]:
    """The match of ``record`` at its start and a step that plays its next move
    (returns it; None after the last), each error a RecordError naming the table."""
    moves = record.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"table {table_id}: the record's moves must be a list of move texts")
    try:    # the record's own checks (format, game, options, setup); its moves are played below
        match = Match.from_record({**record, "moves": []}, keep_log=False)
    except RecordError as exc:
        raise RecordError(f"table {table_id}: {exc}") from None
    texts = iter(enumerate(moves, 1))

    def step() -> Move | None:
        number, text = next(texts, (0, None))
        if text is None:
            return None
        try:
            move = Move.parse(text)
            match.play(move)
        except PlaytestError as exc:
            raise RecordError(f"table {table_id}: move {number} of {len(moves)} ({reprlib.repr(text)}) does not "
                              f"replay: {exc}") from None
        return move
    return match, step


def _names(entry: Mapping, seats: int) -> list[str]:
    """The names people gave per seat ("" for none), from the export's ``names`` (older
    exports have none: all "")."""
    names = entry.get("names")
    if not isinstance(names, list) or len(names) != seats:
        return [""] * seats
    return [name if isinstance(name, str) else "" for name in names]


def _rating_mean(table_id: str, feedback: Any) -> float:
    """The mean of the feedback's ratings (a rating left out is not a rating)."""
    if not isinstance(feedback, list) or not all(isinstance(f, Mapping) for f in feedback):
        raise RecordError(f"table {table_id}: feedback must be a list of objects (seat, rating, confused, notes)")
    ratings = [f.get("rating") for f in feedback if f.get("rating") is not None]
    for rating in ratings:
        if isinstance(rating, bool) or not isinstance(rating, (int, float)) or not 1 <= rating <= 5:
            raise RecordError(f"table {table_id}: a feedback rating must be a number 1..5, not {rating!r}")
    return sum(ratings) / len(ratings) if ratings else math.nan


def _disagrees(entry: Mapping, row: Mapping) -> bool:
    """Whether the export says the game ended otherwise than its replay does (the rules
    changed since it was played)."""
    winners, finished = entry.get("winners"), entry.get("finished")
    return ((isinstance(winners, Sequence) and tuple(winners) != row["winners"])
            or (isinstance(finished, bool) and finished != row["finished"]))


def _warn(left_out: dict, game: str | None, seats: int | None, disagree: list[str]) -> None:
    if left_out["other_games"]:
        warnings.warn(f"{left_out['other_games']} table(s) of other games than {get_game(game).title} left out",
                      stacklevel=3)
    if left_out["other_seats"]:
        warnings.warn(f"{left_out['other_seats']} table(s) of other seat counts than {seats} left out", stacklevel=3)
    if left_out["unfinished"]:
        warnings.warn(f"{left_out['unfinished']} table(s) ended before the game was over left out "
                      "(include_unfinished=True keeps them)", stacklevel=3)
    if disagree:
        warnings.warn(f"table(s) {', '.join(disagree)} replay to another result than the export states (the rules "
                      "changed since they were played?): the rows follow the replay", stacklevel=3)
