"""The lab's CSV: one row per game, that reads back.

:func:`write_csv` writes a simulation's rows (``playtest simulate --csv``, the balance-lab
dashboard's download) with its lists as JSON (``winners`` ``[0, 2]``, ``winner_bots``, and
a traced run's ``score_curve`` and ``lead_change_turns``) and the run's set-up in three
columns of its own (``game_name``, ``run_seed``, ``options`` as JSON), so that::

    metrics(pd.read_csv("games.csv"))      # equals metrics(df): the lab reads its CSV as is
    df = read_csv("games.csv")             # the rows as simulate returned them, attrs included
"""
from __future__ import annotations

import ast
import json
import os
import re
from typing import IO, Any

import pandas as pd

LIST_COLUMNS = ("winners", "winner_bots", "score_curve", "lead_change_turns")
"""Columns holding a list per game, written as JSON text."""
RUN_COLUMNS = ("game_name", "run_seed", "options")
"""The run's set-up, the same on every row: the game's registry name, the run's seed, and
every option (defaults included) as JSON."""


def run_columns(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the :data:`RUN_COLUMNS` filled from its ``attrs`` (``game``,
    ``seed``, ``options``) where it has no such column yet (a copy; ``df`` is not changed)."""
    out = df.copy()
    values = {"game_name": df.attrs.get("game"), "run_seed": df.attrs.get("seed"),
              "options": json.dumps(df.attrs["options"], sort_keys=True) if "options" in df.attrs else None}
    for column, value in values.items():
        if column not in out.columns:
            out[column] = value
    return out


def write_csv(df: pd.DataFrame, target: str | os.PathLike | IO[str] | None = None) -> str | None:
    """Write the rows of a simulation (:func:`~playtest.lab.simulate`,
    :func:`~playtest.lab.read_tables`) as the lab's CSV.

    Args:
        df: the rows; their ``attrs`` give the run columns (see :func:`run_columns`).
        target: a path or an open text file; None returns the text.

    Returns:
        The CSV text when ``target`` is None, else None.

    Raises:
        OSError: the file cannot be written.
    """
    out = run_columns(df)
    for column in LIST_COLUMNS:
        if column in out.columns:
            out[column] = [_json_list(value) for value in out[column]]
    if "record" in out.columns:   # a record is a JSON document already (keep_records=True)
        out["record"] = [value if isinstance(value, str) or value is None else json.dumps(value)
                         for value in out["record"]]
    return out.to_csv(target, index=False)


def _json_list(value: Any) -> str | None:
    if value is None or (isinstance(value, float) and value != value):
        return None
    return json.dumps([_plain(v) for v in value])


def _plain(value: Any) -> Any:
    """A numpy number or a nested list as plain JSON values."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value.item() if hasattr(value, "item") else value


def read_csv(source: str | os.PathLike | IO[str]) -> pd.DataFrame:
    """Read the lab's CSV back into the rows :func:`~playtest.lab.simulate` returned:
    ``winners`` and ``winner_bots`` as tuples, curves as lists, and ``attrs`` (``game``,
    ``seats``, ``bots``, ``options``, ``seed``, ``games``, ``cancelled``) from the run
    columns, which are then dropped. ``metrics(pd.read_csv(path))`` works as well; this
    gives the attrs too (the variant's name in :func:`~playtest.lab.compare`). Options
    that differ from row to row (the dashboard's A/B download, with its ``variant``
    column) stay in the ``options`` column.

    Args:
        source: a path or an open text file.

    Returns:
        The DataFrame.

    Raises:
        ValueError: not the lab's CSV (no ``winners`` or ``seat{s}_won`` columns), or a
            list cell that is not JSON.
        OSError: the file cannot be read.
    """
    df = pd.read_csv(source)
    if "winners" not in df.columns or not any(re.fullmatch(r"seat\d+_won", c) for c in df.columns):
        raise ValueError("not the balance lab's CSV: it has no winners and seat{s}_won columns")
    for column in LIST_COLUMNS:
        if column in df.columns:
            df[column] = [_from_json(value, column, i) for i, value in enumerate(df[column])]
    for column in ("winners", "winner_bots"):
        if column in df.columns:
            df[column] = [tuple(value) if value is not None else () for value in df[column]]
    attrs: dict[str, Any] = {"seats": sum(1 for c in df.columns if re.fullmatch(r"seat\d+_won", c)),
                             "games": len(df), "cancelled": False}
    if "game_name" in df.columns and df["game_name"].notna().any():
        attrs["game"] = str(df["game_name"].dropna().iloc[0])
    if "run_seed" in df.columns and df["run_seed"].notna().any():
        attrs["seed"] = int(df["run_seed"].dropna().iloc[0])
    if "options" in df.columns and df["options"].notna().any() and df["options"].nunique() == 1:
        attrs["options"] = json.loads(df["options"].dropna().iloc[0])
    first = df[df["game"] == 0] if "game" in df.columns else df.iloc[:0]
    if len(first):
        attrs["bots"] = [str(first.iloc[0][f"seat{s}_bot"]) for s in range(attrs["seats"])
                         if f"seat{s}_bot" in df.columns]
    # the set-up moves to attrs; options that differ between rows (an A/B download) stay a column
    df = df.drop(columns=[c for c in RUN_COLUMNS if c in df.columns and (c != "options" or "options" in attrs)])
    df.attrs.update(attrs)
    return df


def _from_json(value: Any, column: str, row: int) -> Any:
    if not isinstance(value, str):
        return None
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        if value.startswith("(") and len(value) < 10_000:   # a Python tuple, as older versions wrote it
            try:
                parsed = ast.literal_eval(value)            # literals only: nothing is run
            except (ValueError, SyntaxError):
                parsed = None
            if isinstance(parsed, tuple):
                return list(parsed)
        raise ValueError(f"row {row + 2}: the {column} column is not a JSON list: {value[:60]!r}") from None
