"""A Lazy Sunday whose extra bot ``"stuck"`` never decides (it sleeps forever), for the
live tables' hard time cap: a module of its own, so that the bots' worker processes can
import the game class a decision names."""
from __future__ import annotations

import time

from playtest.engine import Bot
from playtest.games.lazy_sunday.rules import LazySunday


class StuckBot(Bot):
    """Never returns from a decision (a bot with a bug)."""

    name = "stuck"

    def choose(self, view, legal):
        while True:
            time.sleep(0.01)


class StuckLazySunday(LazySunday):
    """Lazy Sunday with the stuck bot among its bots."""

    BOTS = {**LazySunday.BOTS, "stuck": StuckBot}
