"""What the lobby (:mod:`~playtest.widgets.live.lobby`) and the tables overview
(:mod:`~playtest.widgets.live.overview`) share as lists of the server's tables: their
automatic refresh and how a table's players read."""
from __future__ import annotations

import asyncio
import time
from typing import Awaitable, Callable, Sequence

from ...tables.live import HUMAN

REFRESH_EVERY = 10.0
"""Seconds between two automatic refreshes of a list of tables."""

REFRESH_FOR = 3600.0
"""Seconds a list keeps refreshing itself after the page's last click (a closed page
keeps its kernel, voila #1458: it must not poll the service for ever)."""


async def refresh_while_active(refresh: Callable[[], Awaitable], every: float,
                               last_active: Callable[[], float]) -> None:
    """Await ``refresh()`` every ``every`` seconds until :data:`REFRESH_FOR` seconds
    have passed since ``last_active()`` (a ``time.monotonic()`` reading, read anew each
    time, so a click keeps the list refreshing). A refresh that fails is skipped: the
    next one tries again, and the page's Refresh button reports errors."""
    while time.monotonic() - last_active() < REFRESH_FOR:
        await asyncio.sleep(every)
        try:
            await refresh()
        except Exception:  # noqa: BLE001 - a missed refresh is retried; the button reports
            pass


def players_text(players: Sequence[str]) -> str:
    """Who plays each seat, as a table's row says it: ``["human", "heuristic"]`` ->
    ``"1: person, 2: heuristic bot"`` (seats as people count them, from 1)."""
    return ", ".join(f"{seat + 1}: {'person' if player == HUMAN else player + ' bot'}"
                     for seat, player in enumerate(players))
