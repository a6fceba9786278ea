"""The turn timer's countdown on a live table's pages (seat, hotseat, spectator, host).

The table decides when a person's time runs out (its ``turn_deadlines``, wall times by
the server's clock, :meth:`playtest.tables.live.LiveTable._clock_turns`); a page only
draws the seconds left until those deadlines, redrawn each time the number changes. The
page's kernel runs on the server, so its clock is the server's.
"""
from __future__ import annotations

import asyncio
import html
import math
import time
from typing import Callable

import ipywidgets as w


class TurnClock:
    """The countdown line of the turn timer (class ``pt-turn-clock``; ``pt-mine`` while
    this page's own seat is counted down): "12 s left to decide: when your time runs out,
    the table plays for you" to the seat deciding, "Turn timer: seat 2 (Ana) 12 s" to
    every other page. Hidden on a table without a timer, or when nobody is timed.

    Attributes:
        widget: the HTML line. clock: the wall clock it reads (``time.time``; tests
            replace it).
    """

    def __init__(self):
        self.widget = w.HTML(layout=w.Layout(display="none"))
        self.widget.add_class("pt-turn-clock")
        self.clock = time.time
        self._timer: asyncio.TimerHandle | None = None
        self._args: tuple | None = None

    def draw(self, latest: dict | None, mine: list[int], name: Callable[[int], str]) -> None:
        """Draw the seconds left (whole seconds, rounded up) of each deadline in
        ``latest`` (a table state), and plan the next redraw.

        Args:
            latest: the table's latest state (None: not connected yet). mine: the seats
                this page decides for now (the seat on the device). name: seat -> how
                the page names it ("seat 2 (Ana)")."""
        self.stop()
        self._args = (latest, mine, name)
        deadlines = (latest or {}).get("turn_deadlines") or []
        if not deadlines or (latest or {}).get("status") != "playing":
            self.widget.layout.display = "none"
            self.widget.value = ""
            return
        now = self.clock()
        left = {d["seat"]: max(0.0, d["deadline"] - now) for d in deadlines}
        own = [s for s in left if s in mine]
        if own:
            seconds = math.ceil(round(min(left[s] for s in own), 3))
            text = (f"<b>{seconds} s</b> left to decide: when your time runs out, the table plays for you."
                    if seconds else "<b>Time is up</b>: the table plays for you.")
        else:
            text = "Turn timer: " + ", ".join(f"{html.escape(name(s))} <b>{math.ceil(round(v, 3))} s</b>"
                                              for s, v in sorted(left.items()))
        self.widget.value = text
        self.widget.layout.display = None
        if own:
            self.widget.add_class("pt-mine")
        else:
            self.widget.remove_class("pt-mine")
        ticking = [v for v in left.values() if v > 0]
        if ticking:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:        # no loop (a script): no ticking
                return
            # the next redraw: when the first of the numbers shown changes
            self._timer = loop.call_later(min(v - (math.ceil(round(v, 3)) - 1) for v in ticking), self._tick)

    def _tick(self) -> None:
        self._timer = None
        if self._args is not None:
            self.draw(*self._args)

    def stop(self) -> None:
        """Plan no more redraws (the page closes)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
