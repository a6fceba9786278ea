"""The board contract: :class:`GameBoard`, the widget that draws a game's view (each
game's own board, or the generic :class:`~playtest.widgets.board.ViewBoard`), and
:class:`BoardHost`, what a board may use of the page that shows it (a game page, a live
seat, the scenario debugger); plus the texts every board's page shows of a game's rulings.
"""
from __future__ import annotations

import html
from typing import Callable, Protocol

import ipywidgets as w

from ..engine import Game, Move, ruling_lines
from ..engine.counting import for_people
from .components import Card, ErrorBanner
from .moves import CardArgs, MoveBuilder, UnorderedArgs


def ruling_sentence(game: Game | type[Game], ruling: str) -> str:
    """What ``ruling`` (an id ``game`` declares, e.g. ``"CR-13"``) says, as a sentence to
    follow a refusal that cites it: ``"The rule: <its line>."``, the line the game
    declares (:func:`~playtest.engine.ruling_lines`); "" for no ruling (``""``) or
    an id the game does not declare. Every explanation of a refused move on a page
    (the game page, the seat page, the tutorial, the scenario debugger) says it so."""
    line = ruling_lines(game).get(ruling, "") if ruling else ""
    return f"The rule: {line.rstrip('.')}." if line else ""


def how_to_play_html(game: Game | type[Game], rules_html: str) -> str:
    """The "How to play" panel of a game's page (the game page and the live table's seat
    page): the board's own rules text (``rules_html``, "" for none) and then the game's
    rulings, each id with its line (:func:`~playtest.engine.ruling_lines`: the
    engine's G ids, then the game's own), so a game drawn by the generic board, with no
    rules text of its own, still shows its rules."""
    items = "".join(f"<li><b>{html.escape(rid)}</b>: {html.escape(line)}</li>"
                    for rid, line in ruling_lines(game).items())
    return (f"{rules_html}<p><b>Rulings</b> (the ids a refused move, the tutorial and "
            f"the scenarios cite)</p><ul>{items}</ul>")


class BoardHost(Protocol):
    """What a :class:`GameBoard` may use of the app that shows it: the one interface of
    :class:`GameApp` (a match in this kernel), the live table's
    :class:`~playtest.widgets.live.SeatApp` (views sent by the table service) and the
    scenario debugger. A board reads nothing else of its app.

    Attributes:
        game: the Game class on the table.
        live: True when the board shows the position moves are made in now (False
            while a GameApp's match is rewound, and in the debugger).
        viewer: the seat whose view is on the board (None = the spectator's view).
        moves: the move controls of the viewer's own moves (a :class:`MoveBuilder`).
        banner: the :class:`~playtest.widgets.components.ErrorBanner`.
    """

    game: type
    live: bool
    viewer: int | None
    moves: MoveBuilder
    banner: ErrorBanner

    def seat_name(self, seat: int) -> str:
        """A seat's label, e.g. "Seat 2 (you)" or "Seat 1 (heuristic bot)"."""

    def decision_moves(self, seat: int) -> list[Move]:
        """The moves ``seat`` may make now to answer its pending decision (its open
        moves if it has no decision); empty unless :attr:`live`."""

    def play(self, move: Move) -> None:
        """Make ``move`` (a GameApp plays it here; a live seat sends it to the table)."""

    def card_clicked(self, seat: int, pos: int | None) -> None:
        """Card ``pos`` of ``seat`` was clicked (it fills an argument of the move being built)."""


def builder_kinds(game, open_moves: bool) -> dict[str, tuple[str, ...]]:
    """The part of ``game.MOVE_ARGS`` (kind -> argument names) that one move builder
    offers: the kinds of the game's open moves (``Game.OPEN_MOVES``, e.g. Lazy Sunday's
    quick discard, LS-5) for ``open_moves=True``, every other kind for False. Fixed per
    game, so the set of buttons a builder holds still tells nothing about a seat."""
    return {kind: tuple(args) for kind, args in game.MOVE_ARGS.items()
            if (kind in game.OPEN_MOVES) == open_moves}


class GameBoard:
    """Base class of a game's board: renders a view dict, labels moves, reports card
    clicks. Subclasses build their widgets once in ``__init__`` and update them in
    place in :meth:`update`.

    Args:
        app: the app showing the board (:class:`BoardHost`: a :class:`GameApp`, a live
            table's seat page, or the scenario debugger); call
            ``app.card_clicked(seat, pos)`` when a card is clicked and read
            ``app.seat_name(seat)`` for labels.

    Attributes:
        widget: the board's box. card_args: see :data:`playtest.widgets.moves.CardArgs`.
        open_title: caption of the open-move panel (e.g. "Done it!").
        extra_controls: widgets shown under the move controls (e.g. Night Shift's
            unavailable actions with their reasons).
        rules_html: a short "How to play" (HTML, citing RULINGS ids); the app shows it
            in a collapsed panel, above the game's rulings ("" = the rulings alone).
        unordered_args: see :data:`playtest.widgets.moves.UnorderedArgs` (arguments a
            person may pick in any order).
    """

    card_args: CardArgs = {}
    unordered_args: UnorderedArgs = {}
    open_title = "Open moves"
    rules_html = ""

    def __init__(self, app: BoardHost):
        self.app = app
        self.widget = w.VBox()
        self.widget.add_class("pt-guarded")      # the page's double-click guard watches its cards
        self.extra_controls: list[w.Widget] = []

    def make_move_controls(self, on_move: Callable[[Move], None],
                           report: Callable[[Exception], None] | None) -> MoveBuilder:
        """The controls of the viewer's own moves (default: a :class:`MoveBuilder` of
        the game's ``MOVE_ARGS`` labelled by this board); a board may return its own
        (e.g. Night Shift: one button per move, with its cost).

        Args:
            on_move: called with the finished :class:`Move`. report: where errors of
                its click handlers go (e.g. ``ErrorBanner.show``).
        """
        return MoveBuilder(builder_kinds(self.app.game, open_moves=False), self, on_move, self.card_args,
                           title="Your move", report=report, preselect=True)

    def offered_move(self, kind: str) -> Move | None:
        """The viewer's one move of ``kind`` its move controls offer now (a move a click
        on a pile makes, e.g. a deck's draw), or None: none or several offered, or the
        controls take no move (rewound, not this seat's decision). The app fills its
        :class:`~playtest.widgets.moves.MoveBuilder` before it draws the board."""
        builder = self.app.moves
        if builder is None or not builder.enabled:
            return None
        offered = [move for move in builder.moves if move.kind == kind]
        return offered[0] if len(offered) == 1 else None

    def seat_widget(self, seat: int) -> w.Widget | None:
        """The widget of ``seat``'s part of the table as drawn now (its row or panel),
        for the live table to mark the seat that just moved; None if the board has none."""
        return None

    def update(self, view: dict, clickable: set[tuple[int, int | None]]) -> None:
        """Show ``view`` (``Match.view`` of the viewing seat, None = spectator);
        ``clickable`` = the (seat, position) cards a click would use now."""
        raise NotImplementedError

    def card_at(self, path: str) -> Card | None:
        """The card widget drawing the card at ``path`` of the view on show (a dotted
        path as in scenarios' ``view_value``, e.g. Lazy Sunday's ``"lists.0.3"`` or
        ``"done.top"``), or None if the board draws no card there. Used to light cards
        up (tutorials, hints). Default: none."""
        return None

    def move_label(self, kind: str, view: dict) -> str:
        """The button text of a move kind."""
        return kind

    def move_tooltip(self, kind: str, view: dict) -> str:
        """The hover text of a move kind (cite RULINGS ids)."""
        return ""

    def arg_title(self, kind: str, name: str) -> str:
        """The caption of an argument's dropdown (default: its ``MOVE_ARGS`` name)."""
        return name

    def arg_label(self, kind: str, name: str, value, view: dict) -> str:
        """The dropdown text of one argument value (only what ``view`` says); a seat or a
        position counted from 1, as people count ("seat 2" for seat 1)."""
        return for_people(f"{name} {value}")

    def describe(self, move: Move, view: dict) -> str:
        """A move in the words of its button and dropdowns, e.g. "Keep it (my card:
        position 1)", for hints and tutorials (only what ``view`` says)."""
        names = self.app.game.MOVE_ARGS.get(move.kind, ())
        args = ", ".join(f"{self.arg_title(move.kind, n)}: {self.arg_label(move.kind, n, v, view)}"
                         for n, v in zip(names, move.args))
        label = self.move_label(move.kind, view)
        return f"{label} ({args})" if args else label
