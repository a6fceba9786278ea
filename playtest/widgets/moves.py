"""A generic move builder: from a seat's legal moves and ``Game.MOVE_ARGS``.

Pick the move's kind (one button per kind), then each argument in turn from the values
the legal moves still allow given the earlier choices (a dropdown per argument, hidden
when only one value is possible), then Play. Clicking a card can fill a card argument
(see :meth:`MoveBuilder.pick_card`); a card click that completes a chosen move plays it,
and so does a second click on the card that chose it.
Arguments the game lists in a fixed order but that form a set (Lazy Sunday's two peeked
cards, a Family Meeting's three cards) are picked in any order (``unordered_args``).

Double clicks are guarded on the identity of what was clicked, never on time, so no
deliberate click is ever dropped however fast it comes:

* in the kernel, each decision gets its own pool of buttons, and a click acts only on
  the decision its button was drawn for: a click on a button of an earlier decision (a
  click queued while the kernel played the move, e.g. "End Shift" pressed ten times) is
  ignored (:attr:`MoveBuilder.ignored` counts them). A pool is not drawn again for a
  new decision until it has been off screen for :data:`RETIRE` seconds (a new pool is
  made meanwhile, at most :data:`MAX_POOLS`), so clicks queued over several decisions
  (the bots' moves, a hotseat hand-over) never reach a later decision's button;
* in the page, :class:`~playtest.widgets.clickguard.ClickGuard` drops the clicks of a
  double click or a burst (the browser's own click count, ``event.detail`` 2 or more)
  that land on another button than the first: the next decision's button drawn in the
  same spot (e.g. "Discard it" then "Draw from the deck"). A click after the pointer
  moved, or after the system's double-click time, is a first click and always goes
  through.
"""
from __future__ import annotations

import html
import itertools
import math
import time
from typing import Callable, Mapping, NamedTuple, Sequence

import ipywidgets as w
from ipywidgets.widgets.widget_description import DescriptionStyle

from ..engine import Move
from .components import safe, shared

CLICK_GUARD = 0.4
"""Seconds after the position changes during which the scenario debugger's "Play this
move" button ignores clicks. The move controls have no time guard (see the module
docstring)."""

REACTION = 0.5
"""Seconds after the moves on offer change (another seat moved on a live table) during
which a card click that finishes a move begun before the change finishes it on the offer
the person was looking at: no one sees a new position and reacts faster, so the click was
meant for the old one. The table then judges the move as made on that position (a quick
discard slapped on a DONE top that has just left is returned with no penalty, LS-5; it is
not judged against whatever card has moved under the pointer)."""

RETIRE = 5.0
"""Seconds a pool of move buttons stays off screen before it may be drawn for another
decision: clicks on its buttons that were queued in the page meanwhile (made for the
decision it showed) arrive and are ignored first. Never a limit on deliberate clicks:
a new decision's buttons take clicks at once."""

MAX_POOLS = 4
"""At most this many pools of move buttons (each one button per kind of the builder);
beyond it, the pool off screen the longest is drawn again."""

CardArgs = Mapping[str, Sequence[tuple[str | None, str | None]]]
"""kind -> the (seat argument, position argument) pairs a card click can fill, in order.
A seat argument of None means "a card of the moving seat itself"; a position argument of
None means the click picks a seat only (e.g. Lazy Sunday's ``landlord s``)."""

UnorderedArgs = Mapping[str, Sequence[Sequence[int]]]
"""kind -> groups of argument positions that may be chosen in any order, e.g. Lazy
Sunday's ``{"peek": ((0,), (1,))}`` (the game lists ``peek a b`` with ``a < b``) or
``{"switcheroo": ((0, 1), (2, 3))}`` (two seat-and-card pairs, the lower seat first):
the builder offers every order and plays the game's own."""


class _Offer(NamedTuple):
    """The moves on offer just before a change, and the move being built on them."""
    kind: str
    prefix: list
    choices: list[Move]
    canonical: dict[Move, Move]
    finished: Move | None       # the move the build had finished, if any
    at: float                   # time.monotonic() of the change


def waiting_note(seats: Sequence[int], seat_name: Callable[[int], str]) -> str:
    """The line under a seat's moves while other seats must act, naming them as the page
    does: "Waiting for Seat 2 (Ana)." or "Waiting for Seat 1 and Seat 3 (heuristic bot).";
    "Waiting for another seat." when no seat is named.

    Args:
        seats: the seats that must act (0-based ints), the viewing seat left out.
        seat_name: a seat's label for people (``GameApp.seat_name``).
    """
    names = [seat_name(seat) for seat in seats]
    if not names:
        return "Waiting for another seat."
    return f"Waiting for {names[0] if len(names) == 1 else ', '.join(names[:-1]) + ' and ' + names[-1]}."


class MoveBuilder:
    """Builds one move for one seat from its legal moves.

    Args:
        move_args: the kinds this builder offers (kind -> argument names): a fixed part of
            the game's ``MOVE_ARGS`` (:func:`playtest.widgets.gameboard.builder_kinds`), never
            the moves of one position, so that the set of button widgets reveals nothing.
        labels: an object with ``move_label(kind, view) -> str``,
            ``move_tooltip(kind, view) -> str`` and
            ``arg_title(kind, arg_name) -> str`` and
            ``arg_label(kind, arg_name, value, view) -> str`` and
            ``describe(move, view) -> str`` (the game board); labels must say only what
            ``view`` says.
        on_move: called with the finished :class:`Move`.
        card_args: which arguments a card click fills (see :data:`CardArgs`).
        on_change: called with no argument after the selection changes (so the board
            can highlight the cards that may be clicked next).
        title: a caption shown above the buttons.
        report: where exceptions raised by its click handlers go (e.g.
            ``ErrorBanner.show``).
        unordered: see :data:`UnorderedArgs`; None = the ``unordered_args`` attribute of
            ``labels`` (the board), if any.
        preselect: on a new decision whose moves are all of one kind, with a choice
            among them (e.g. Crazy Eights' naming of a suit), that kind starts chosen:
            its argument controls show at once (the seat's own moves; an open move is
            begun by its button only).

    Attributes:
        widget: the box to display (CSS class ``pt-guarded``: the page's click guard
            watches it). kind: the kind being built, or None.
        prefix: the arguments chosen so far (in the order picked, for unordered ones).
        moves: the moves on offer, as the game lists them. choices: those moves and,
            for unordered arguments, their other orders (what the builder picks from).
        ignored: how many clicks on a button of an earlier decision were dropped.
    """

    def __init__(self, move_args: Mapping[str, Sequence[str]], labels, on_move: Callable[[Move], None],
                 card_args: CardArgs | None = None, on_change: Callable[[], None] | None = None,
                 title: str = "", report: Callable[[Exception], None] | None = None,
                 unordered: UnorderedArgs | None = None, preselect: bool = False):
        self.move_args, self.labels, self.on_move = move_args, labels, on_move
        self.preselect = preselect
        self.ignored = 0
        self.unordered = dict(getattr(labels, "unordered_args", {}) if unordered is None else unordered)
        self.card_args = card_args or {}
        self.on_change = on_change or (lambda: None)
        self.report = report
        self.seat: int | None = None
        self.moves: list[Move] = []
        self.choices: list[Move] = []
        self._canonical: dict[Move, Move] = {}
        self.view: dict = {}
        self.kind: str | None = None
        self.prefix: list = []
        self._earlier: _Offer | None = None     # the offer a move in progress was begun on
        self.enabled = True
        self._busy = False
        self._sent = False              # the last move built here was sent (a repeated Play is ignored)
        # pools of kind buttons, one per kind each: a new decision is drawn on another
        # pool, so a click meant for an earlier decision lands on a button that is no
        # longer shown and is ignored (double clicks, a burst of clicks); a pool is drawn
        # again only once it has been off screen RETIRE seconds (see the module docstring)
        # Every kind of move_args gets its buttons when its pool is made, and a button
        # not on show is blanked: which buttons exist, and what hidden ones say, must not
        # tell another hotseat player which moves (e.g. which drawn action) a seat had.
        self._pools: list[dict[str, w.Button]] = []
        self._left: list[float] = []        # per pool: time.monotonic() it went off screen
        self._pool = 0
        self._decision = object()
        for _ in range(2):
            self._new_pool()
        self.dropdowns: list[w.Dropdown] = []           # pool, one per argument position
        self.kind_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.play_button = w.Button(description="Play", button_style="success", disabled=True,
                                    layout=w.Layout(width="auto"))
        self.play_button.on_click(safe(lambda _b: self._play_chosen(), report))
        self.cancel_button = w.Button(description="Cancel", layout=w.Layout(width="auto"))
        self.cancel_button.on_click(safe(lambda _b: self.select(None), report))
        self.arg_box = w.HBox(layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.title = w.HTML(f"<b>{html.escape(title)}</b>" if title else "")
        self.hint = w.HTML()
        self._note = ""                 # the hint's text from show(), under any click's own
        self.widget = w.VBox([self.title, self.kind_box, self.arg_box, self.hint])
        self.widget.add_class("pt-guarded")

    # --- input ------------------------------------------------------------------
    @property
    def buttons(self) -> dict[str, w.Button]:
        """Kind -> its button for the current decision."""
        return self._pools[self._pool]

    def show(self, seat: int | None, moves: Sequence[Move], view: dict, enabled: bool = True,
             note: str = "", decision=None) -> None:
        """Offer ``moves`` (all by ``seat``) labelled from ``view``. While the decision is
        the same, the choice in progress is kept if a move of its kind still starts with
        the arguments chosen, else its kind alone if it still has several moves (on a live
        table other seats' moves change the offer under a person's hand: a quick discard
        half built must survive them, LS-5); a new decision resets it. A move finished on
        the old offer is still sent if Play is pressed before anything else is chosen
        (the press may have been on its way), and a card click within :data:`REACTION`
        seconds of the change that finishes the move on the old offer sends that move: the
        table judges it.

        Args:
            enabled: False greys the buttons out (e.g. while the match is rewound).
            note: a line of text shown under the buttons.
            decision: any value that changes when a new decision starts (e.g. the
                match's move count); clicks made for an earlier decision are ignored.
        """
        keep = seat == self.seat and decision == self._decision
        same = keep and list(moves) == self.moves
        if decision != self._decision:
            self._pool, self._decision = self._next_pool(), decision
        self.seat, self.moves, self.view, self.enabled = seat, list(moves), view, enabled
        if keep and enabled and not same and self.kind is not None:
            self._earlier = _Offer(self.kind, list(self.prefix), self.choices, self._canonical,
                                   self._canonical.get(self._complete()), time.monotonic())
        elif not (keep and enabled):
            self._earlier = None
        self._canonical = self._orders(self.moves)
        self.choices = list(self._canonical)
        kinds = list(dict.fromkeys(m.kind for m in self.moves))
        for pool in self._pools:
            for kind, button in pool.items():
                if (pool is not self.buttons or kind not in kinds) and button.description:
                    button.description, button.tooltip = "", ""
        for kind in kinds:
            button = self._button(self._pool, kind)
            button.description = self.labels.move_label(kind, view)
            button.tooltip = self.labels.move_tooltip(kind, view) or None
            button.disabled = not enabled
        shown = tuple(self.buttons[k] for k in kinds)
        if self.kind_box.children != shown:
            self.kind_box.children = shown
        # no "Your move" heading over "Game over." or "Waiting for Seat 2."
        self.title.layout.display = None if shown else "none"
        if not same or not enabled:
            if not (keep and enabled and self._candidates(self.prefix)):
                several = keep and enabled and sum(m.kind == self.kind for m in self.choices) > 1
                self.kind, self.prefix = (self.kind if several else None), []
        if (self.preselect and enabled and not keep and self.kind is None and len(kinds) == 1
                and len(self.choices) > 1):
            self.kind, self.prefix, self._sent = kinds[0], [], False     # one kind to choose within
            self._advance()
        self._note = f"<i>{html.escape(note)}</i>" if note else ""
        self.hint.value = self._note
        self._sync()

    def _new_pool(self) -> int:
        self._pools.append({})
        self._left.append(-math.inf)
        for kind in self.move_args:
            self._button(len(self._pools) - 1, kind)
        return len(self._pools) - 1

    def _next_pool(self) -> int:
        """The pool to draw a new decision on: one off screen for :data:`RETIRE` seconds
        (the longest), else a new one, else (at :data:`MAX_POOLS`) the one off screen the
        longest."""
        now = time.monotonic()
        self._left[self._pool] = now
        others = sorted((left, pool) for pool, left in enumerate(self._left) if pool != self._pool)
        if others and now - others[0][0] >= RETIRE:
            return others[0][1]
        if len(self._pools) < MAX_POOLS:
            return self._new_pool()
        return others[0][1]

    def _button(self, pool: int, kind: str) -> w.Button:
        button = self._pools[pool].get(kind)
        if button is None:
            button = self._pools[pool][kind] = w.Button(layout=shared(w.Layout, width="auto"),
                                                        style=shared(w.ButtonStyle))
            button.on_click(safe(lambda _b: self._clicked(pool, kind), self.report))
        return button

    def _orders(self, moves: list[Move]) -> dict[Move, Move]:
        """Each move, and each other order of its unordered argument groups -> the move
        as the game lists it (the first order listed wins a tie, e.g. two equal cards)."""
        found: dict[Move, Move] = {}
        for move in moves:
            found.setdefault(move, move)
            groups = self.unordered.get(move.kind)
            if not groups or len(move.args) <= max(max(g) for g in groups):
                continue
            slots = [i for g in groups for i in g]
            for order in itertools.permutations(groups):
                args = list(move.args)
                for i, value in zip(slots, (move.args[i] for g in order for i in g)):
                    args[i] = value
                found.setdefault(Move(move.seat, move.kind, tuple(args)), move)
        return found

    def _clicked(self, pool: int, kind: str) -> None:
        if pool != self._pool:
            self.ignored += 1       # a button of an earlier decision: a double click's second half
            return
        self.select(kind)

    def select(self, kind: str | None) -> None:
        """Start building a move of ``kind`` (None: cancel). A kind whose only move
        has no argument is played at once."""
        if kind is not None and (not self.enabled or kind not in {m.kind for m in self.moves}):
            return      # a stale click (the moves changed since the button was drawn)
        if self._earlier is not None and self._earlier.kind != kind:
            self._earlier = None    # another move started (re-selecting the same kind keeps it)
        self.hint.value = self._note
        self.kind, self.prefix, self._sent = kind, [], False
        if kind is not None:
            self._advance()
            if self._finished():
                return self._emit()
        self._sync()

    def choose(self, position: int, value) -> None:
        """Choose ``value`` for argument ``position`` of the kind being built (later
        choices are dropped).

        Raises:
            ValueError: no legal move has that value there, given the earlier choices.
        """
        if self.kind is None or position > len(self.prefix):
            raise ValueError("choose the move first")
        prefix = self.prefix[:position]
        self._earlier = None
        if value not in self._values(prefix):
            raise ValueError(f"{value!r} is not a legal choice for "
                             f"{self._arg_name(position)} of {self.kind} now")
        self.prefix = prefix + [value]
        self._advance()
        self._sync()

    def pick_card(self, seat: int, pos: int | None) -> bool:
        """A click on card ``pos`` of ``seat``: fill the next card argument of the move
        being built, or, with no kind chosen, choose the one kind that can use that card.
        Plays the move if the click completes it and its kind is no guess: chosen before
        the click, or the only kind on offer (e.g. Chore Race's steal: "from whom" is
        the whole decision). A click that picked one kind among several only selects it
        (Play confirms): a card click must not take a move the person never chose. Once
        the move is complete, a second click on a card it holds makes it, as Play does,
        and a click on another card that can take that card's place chooses it instead.
        Returns whether the click was used."""
        if not self.enabled or not self.moves:
            return False
        earlier, self._earlier = self._earlier, None
        if earlier is not None and earlier.kind == self.kind and time.monotonic() - earlier.at < REACTION:
            move = self._finish_on(earlier, seat, pos)
            if move is not None:            # meant for the position shown before the change
                self.kind, self.prefix, self._sent = None, [], True
                self.hint.value = self._note
                self._sync()
                self.on_move(move)
                return True
        if self.kind is not None and self._finished():
            if self._holds_card(seat, pos):
                self._emit()                # the card clicked again: the person means this move
                return True
            repicked = self._repick(seat, pos)
            if repicked is not None:        # another card in place of the chosen one: chosen, not played
                self.prefix = repicked
                self._advance()
                self._say_chosen()
                self._sync()
                return True
        offered = list(dict.fromkeys(m.kind for m in self.moves))
        kinds = [self.kind] if self.kind else [k for k in offered if self._card_prefix(k, [], seat, pos) is not None]
        if len(kinds) != 1:
            return False
        prefix = self._card_prefix(kinds[0], self.prefix if self.kind else [], seat, pos)
        if prefix is None:
            return False
        sure = self.kind is not None or offered == kinds
        self.kind, self.prefix = kinds[0], prefix
        self._advance()
        if sure and self._finished():
            self._emit()
        else:
            if not sure:        # say why nothing was played yet, and how to go on
                self._say_chosen()
            self._sync()
        return True

    def attempt(self, seat: int, pos: int | None) -> Move | None:
        """The move a click on card ``pos`` of ``seat`` would complete for the kind
        being built, legal or not (None: no kind chosen, or the click does not finish
        its arguments): what to ask :meth:`~playtest.engine.Match.refusal` about when
        :meth:`pick_card` refuses the click."""
        if self.kind is None or self.seat is None:
            return None
        names = self.move_args.get(self.kind, ())
        for seat_arg, pos_arg in self.card_args.get(self.kind, ()):
            if seat_arg is None and seat != self.seat:
                continue
            raw = self._pair_raw(self.kind, seat_arg, pos_arg)
            values = {raw[0]: seat, raw[1]: pos}
            rest = sorted(i for i in raw if i is not None and i >= len(self.prefix))
            if rest and rest == list(range(len(self.prefix), len(self.prefix) + len(rest))):
                args = list(self.prefix) + [values[i] for i in rest]
                if len(args) == len(names):
                    return Move(self.seat, self.kind, tuple(args))
        return None

    def clickable_cards(self) -> set[tuple[int, int | None]]:
        """The (seat, position) cards whose click :meth:`pick_card` would use now (for
        highlighting); position None stands for "any card of that seat"."""
        if not self.enabled:
            return set()
        if self.kind is not None and self._finished():
            # the move is finished: its cards (a click makes it) and those that may take
            # their place (a click chooses that one instead)
            return {card for start in self._card_starts() for card in self._cards_after(self.prefix[:start])}
        return self._cards_after(self.prefix if self.kind else [])

    def _cards_after(self, prefix: list) -> set[tuple[int, int | None]]:
        """The (seat, position) cards a click may add to ``prefix`` (of the kind being
        built, else of any kind on offer), each usable by one kind only."""
        found: dict[tuple, set] = {}
        for kind in [self.kind] if self.kind else list(dict.fromkeys(m.kind for m in self.moves)):
            for seat_arg, pos_arg in self.card_args.get(kind, ()):
                si, pi = self._pair_raw(kind, seat_arg, pos_arg)
                idx = [i for i in (si, pi) if i is not None]
                rest = [i for i in idx if i >= len(prefix)]      # filled ones match via the prefix
                if not rest or min(rest) != len(prefix):
                    continue
                for m in self.choices:
                    if m.kind == kind and list(m.args[:len(prefix)]) == prefix and len(m.args) > max(idx):
                        card = (m.args[si] if si is not None else m.seat, m.args[pi] if pi is not None else None)
                        found.setdefault(card, set()).add(kind)
        return {card for card, kinds in found.items() if len(kinds) == 1}

    # --- internals ----------------------------------------------------------------
    def _arg_name(self, i: int) -> str:
        names = self.move_args.get(self.kind, ())
        return names[i] if i < len(names) else f"argument {i + 1}"

    def _pair_raw(self, kind, seat_arg, pos_arg):
        names = list(self.move_args.get(kind, ()))
        return [names.index(a) if a in names else None for a in (seat_arg, pos_arg)]

    def _say_chosen(self) -> None:
        """The hint after a card click chose a move without making it: how to go on."""
        move = self._complete()
        label = html.escape(self.labels.describe(self._canonical[move], self.view) if move is not None
                            else self.labels.move_label(self.kind, self.view))     # which card, once chosen
        then = ("click it again or press Play to make the move" if move is not None
                else "choose the rest, then press Play")
        self.hint.value = f"<i>That card chose “{label}”: {then}, or Cancel.</i>"

    def _card_starts(self) -> list[int]:
        """Where each card argument pair of the kind being built begins in its arguments,
        for the pairs the prefix has filled."""
        starts = []
        for seat_arg, pos_arg in self.card_args.get(self.kind, ()):
            raw = [i for i in self._pair_raw(self.kind, seat_arg, pos_arg) if i is not None]
            if max(raw) < len(self.prefix):
                starts.append(min(raw))
        return starts

    def _repick(self, seat, pos) -> list | None:
        """The prefix with card ``pos`` of ``seat`` in place of a card the move being
        built holds (its later arguments dropped), or None if no legal move has it there."""
        return next((prefix for start in self._card_starts()
                     if (prefix := self._card_prefix(self.kind, self.prefix[:start], seat, pos)) is not None), None)

    def _finished(self) -> Move | None:
        """The move built, when its arguments are all chosen (None before)."""
        return None if self._next_values() else self._complete()

    def _holds_card(self, seat, pos) -> bool:
        """Whether the move being built holds card ``pos`` of ``seat`` in one of its card
        arguments already."""
        for seat_arg, pos_arg in self.card_args.get(self.kind, ()):
            if seat_arg is None and seat != self.seat:
                continue
            raw = self._pair_raw(self.kind, seat_arg, pos_arg)
            values = {raw[0]: seat, raw[1]: pos}
            if raw[1] is not None and all(i is None or (i < len(self.prefix) and self.prefix[i] == values[i])
                                          for i in raw):
                return True
        return False

    def _card_prefix(self, kind, prefix, seat, pos):
        """The prefix after a click on (seat, pos) for ``kind``, or None if unusable."""
        for seat_arg, pos_arg in self.card_args.get(kind, ()):
            if seat_arg is None and seat != self.seat:
                continue
            raw = self._pair_raw(kind, seat_arg, pos_arg)
            values = {raw[0]: seat, raw[1]: pos}
            # part of the pair may be filled already (e.g. the only other seat): it must match
            filled = [i for i in raw if i is not None and i < len(prefix)]
            rest = sorted(i for i in raw if i is not None and i >= len(prefix))
            if not rest or rest != list(range(len(prefix), len(prefix) + len(rest))):
                continue
            if any(prefix[i] != values[i] for i in filled):
                continue
            new = list(prefix) + [values[i] for i in rest]
            if any(m.kind == kind and list(m.args[:len(new)]) == new for m in self.choices):
                return new
        return None

    def _finish_on(self, offer: _Offer, seat: int, pos: int | None) -> Move | None:
        """The move a click on (seat, pos) finishes on an earlier ``offer`` (the game's
        own order of its arguments), or None if it does not finish one there."""
        now = self.choices, self.prefix
        self.choices, self.prefix = offer.choices, list(offer.prefix)
        try:
            prefix = self._card_prefix(offer.kind, self.prefix, seat, pos)
            if prefix is None:
                return None
            self.prefix = prefix
            self._advance()
            move = self._complete()
            return offer.canonical[move] if move is not None and not self._next_values() else None
        finally:
            self.choices, self.prefix = now

    def _candidates(self, prefix) -> list[Move]:
        return [m for m in self.choices if m.kind == self.kind and list(m.args[:len(prefix)]) == list(prefix)]

    def _values(self, prefix) -> list:
        return list(dict.fromkeys(m.args[len(prefix)] for m in self._candidates(prefix) if len(m.args) > len(prefix)))

    def _next_values(self) -> list:
        return self._values(self.prefix)

    def _complete(self) -> Move | None:
        return next((m for m in self._candidates(self.prefix) if list(m.args) == self.prefix), None)

    def _advance(self) -> None:
        """Fill arguments that have only one possible value."""
        while not self._complete():
            values = self._next_values()
            if len(values) != 1:
                break
            self.prefix.append(values[0])

    def _sync(self) -> None:
        """Redraw the argument dropdowns for the current kind and prefix."""
        self._busy = True
        try:
            shown = []
            if self.kind is not None:
                for i in range(len(self.prefix) + 1):
                    values = self._values(self.prefix[:i])
                    if len(values) < 2 and not (values and i == len(self.prefix)):
                        continue
                    while len(self.dropdowns) <= i:
                        # the label its own width: "and my card" was cut to "and my c…" at the default 80 px
                        dd = w.Dropdown(layout=w.Layout(width="auto"),
                                        style=shared(DescriptionStyle, description_width="initial"))
                        dd.observe(safe(lambda ch, pos=len(self.dropdowns): self._dropdown_changed(pos, ch),
                                        self.report), "index")
                        self.dropdowns.append(dd)
                    dd = self.dropdowns[i]
                    name = self._arg_name(i)
                    dd.options = [(self.labels.arg_label(self.kind, name, v, self.view), v) for v in values]
                    dd.description = self.labels.arg_title(self.kind, name)
                    dd.index = values.index(self.prefix[i]) if i < len(self.prefix) else None
                    shown.append(dd)
                shown += [self.play_button, self.cancel_button]
            self.play_button.disabled = not self.enabled or self._complete() is None
            if self.arg_box.children != tuple(shown):
                self.arg_box.children = tuple(shown)
            for dd in self.dropdowns:
                if dd not in shown and dd.options:
                    dd.options = ()
            for kind, button in self.buttons.items():
                button.button_style = "info" if kind == self.kind else ""
        finally:
            self._busy = False
        self.on_change()

    def _dropdown_changed(self, position: int, change) -> None:
        if self._busy or change["new"] is None or self.kind is None:
            return
        self.choose(position, self.dropdowns[position].value)

    def _play_chosen(self) -> None:
        if self.enabled and self._complete():
            self._emit()
        elif self.enabled and self._earlier is not None and self._earlier.finished is not None:
            move, self._earlier = self._earlier.finished, None  # pressed on the form just before it changed
            self._sent = True
            self.on_move(move)
        elif self.enabled and self.kind is None and self._sent:
            self.ignored += 1       # Play pressed again after it sent the move (it was disabled since)
        elif self.enabled:
            self.hint.value = ("<i>The table changed before your move was sent, and the move you were "
                               "building is no longer on offer: nothing was played; choose again.</i>")

    def _emit(self) -> None:
        move = self._canonical[self._complete()]     # the game's own order of unordered arguments
        self._sent = True
        self.kind, self.prefix, self._earlier = None, [], None
        self.hint.value = self._note
        self._sync()
        self.on_move(move)
