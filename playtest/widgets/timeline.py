"""The timeline: step back and forward through a match's record, jump to any move,
branch from a rewound point, or go back to the live game.

It never changes the match itself; it calls back the controller, which uses
``Match.goto`` and ``Match.branch``. Branching drops the later moves of the line, so it
asks for a confirmation that says how many moves go (never lose moves silently).
"""
from __future__ import annotations

from typing import Callable

import ipywidgets as w


class Timeline:
    """Record navigation.

    Args:
        on_goto: called with a move number n (0..total) to show the state after n moves.
        on_branch: called with no argument to play on from the shown point (confirmed).

    Attributes:
        widget: the box to display. cursor, total: the last values passed to :meth:`show`.
    """

    def __init__(self, on_goto: Callable[[int], None], on_branch: Callable[[], None]):
        self.on_goto, self.on_branch = on_goto, on_branch
        self.cursor = self.total = 0
        self._busy = False

        def button(text, tip, handler, style=""):
            b = w.Button(description=text, tooltip=tip, button_style=style, layout=w.Layout(width="auto"))
            b.on_click(lambda _b: handler())
            return b

        self.first = button("|◀ Start", "Go to the start (setup)", lambda: self.on_goto(0))
        self.back = button("◀", "One move back", lambda: self.on_goto(max(self.cursor - 1, 0)))
        self.forward = button("▶", "One move forward", lambda: self.on_goto(min(self.cursor + 1, self.total)))
        self.live = button("Back to live", "Show the latest position and play on", lambda: self.on_goto(self.total),
                           "primary")
        self.branch = button("Play from here", "Start a new line from the shown move", self._ask)
        self.confirm = button("Yes, drop them", "", self._confirmed, "danger")
        self.cancel = button("Keep them", "", self._cancel)
        self.slider = w.IntSlider(min=0, max=0, description="Move", continuous_update=False,
                                  layout=w.Layout(width="320px"))
        self.slider.observe(self._slid, "value")
        self.label = w.HTML()
        self.question = w.HTML()
        self.confirm_box = w.HBox([self.question, self.confirm, self.cancel], layout=w.Layout(display="none"))
        self.widget = w.VBox([w.HBox([self.first, self.back, self.slider, self.forward, self.live, self.branch,
                                      self.label], layout=w.Layout(align_items="center", flex_flow="row wrap")),
                              self.confirm_box])
        self.widget.add_class("pt-timeline")

    @property
    def rewound(self) -> bool:
        """Whether the shown point is before the end of the record."""
        return self.cursor < self.total

    def show(self, cursor: int, total: int) -> None:
        """Show position ``cursor`` (moves applied) of a record of ``total`` moves."""
        self.cursor, self.total = cursor, total
        self._busy = True
        try:
            self.slider.max = max(total, 0)
            self.slider.value = cursor
        finally:
            self._busy = False
        rewound = self.rewound
        self.first.disabled = self.back.disabled = cursor == 0
        self.forward.disabled = not rewound
        self.live.layout.display = self.branch.layout.display = None if rewound else "none"
        self.label.value = (f"<span class='pt-rewound'>Rewound to move {cursor} of {total}: moves are off. "
                            "“Play from here” or “Back to live”.</span>" if rewound else f"Move {cursor} (live)")
        if not rewound:
            self._cancel()

    def _slid(self, change) -> None:
        if not self._busy and change["new"] != self.cursor:
            self.on_goto(change["new"])

    def _ask(self) -> None:
        dropped = self.total - self.cursor
        self.question.value = (f"Playing on from move {self.cursor} drops the {dropped} later "
                               f"move{'s' if dropped != 1 else ''} of this line (save the record first to keep "
                               f"{'them' if dropped != 1 else 'it'}). ")
        self.confirm_box.layout.display = "flex"

    def _confirmed(self) -> None:
        self.confirm_box.layout.display = "none"
        self.on_branch()

    def _cancel(self) -> None:
        self.confirm_box.layout.display = "none"
