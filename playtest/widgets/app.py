"""The generic app controller: a :class:`~playtest.engine.Table` (a match with bots)
wired to a game's board, move controls, open-move panel, log, timeline, new-game panel,
save/load, privacy screen and error banner.

Who sees what (the security boundary, DESIGN "view"):

* the seat *in control* is the human seat with a pending decision (the first one the
  game asks); it keeps control until another human seat must decide;
* with several human seats (hotseat), when control passes to a different human seat a
  privacy screen goes up and the board shows the spectator view (``Match.view(None)``)
  and public log until that person clicks "I am seat N — show my cards";
* only ``Match.view(seat)`` and ``Match.log_for(seat)`` of the unlocked seat (or the
  spectator's) ever reach a widget; the raw state and bot views never do;
* a seed drawn at random is never shown while the game runs (it rebuilds every card).

Double clicks: a click arriving after the position changed must not act on the new
position. Each decision gets its own move buttons, so a click on a button of an earlier
decision is ignored, however many decisions came since (:mod:`playtest.widgets.moves`);
the page's click guard drops the later clicks of a double click or a burst that land on
another button (:mod:`playtest.widgets.clickguard`): End Shift pressed ten times ends one
Shift. There is no time window, so no deliberate click is ever dropped. A card click that has to guess the kind
among several only selects it (Play confirms); a card click that completes a chosen
kind, or the only kind on offer, plays at once. A card click no move can use is
explained: the move it would make and the ruling that forbids it (``Match.refusal``).

When the game is over, "Play again" starts the same set-up with a new seed; the New game
and record panels close once they have started or loaded a game.

Never lose a user's game: after every move the game (record and seat setup) is saved on
the server (:mod:`playtest.widgets.autosave`); a new app of the same game offers to
resume an unfinished one.

Sharing: "Save as scenario" downloads the game as a scenario file (:mod:`playtest.scenarios`),
"Share link" shows two page addresses, one for the shown position (``?record=``: the
record up to the shown move, packed into the address) and one for a new game from the
same start (``?record=`` of move 0: the same seats, options, setup and seed; or
``?scenario=NAME`` for a game opened from a scenario); a record link also says who sits
where (``&players=human,random,...``). :meth:`GameApp.open_link` opens what an address
asks for (a hand-typed ``?seed=N`` too: a new game with that seed). A shared position or a
scenario opens paused at its last move: the bots wait until the player moves or
presses "Continue".
"""
from __future__ import annotations

import asyncio
import html
import json
import reprlib
from pathlib import Path
from typing import Mapping, Sequence
from urllib.parse import quote

import ipywidgets as w

from ..engine import Game, IllegalMove, Match, Move, PlaytestError, RecordError, Table, get_game, limits
from ..engine.counting import for_people
from ..engine.registry import other_game
from ..pages import game_page
from ..scenarios import Scenario, find_scenario
from . import autosave
from .board import board_class
from .components import AppBox, ErrorBanner, LogView, PrivacyScreen, safe, style_widget
from .gameboard import GameBoard, builder_kinds, how_to_play_html, ruling_sentence
from .moves import MoveBuilder, waiting_note
from .newgame import HUMAN, NewGamePanel, default_bot
from .page import browser_id
from .records import RecordPanel, pack_record, parse_link, players_query, unpack_record
from .timeline import Timeline


OFFERED = 8
"""Most unfinished autosaved games a page offers to resume (newest first); each is
replayed to be described, so the offer stays quick."""

BOT_REACTION = 1.5
"""Seconds the bots wait, on a game page, when a person at the page gets a new chance to
make an open move (a Lazy Sunday Done it!, LS-5: a new card on DONE) and whenever a bot
wants an open move the person could race it to: the person who spots a match has time to
see it and slap first, as at a live table's paced bots (their reaction times are 1 to 3 s,
:data:`playtest.tables.live.PACES`). Everything waits meanwhile; otherwise bots move at
once. Only with an event loop running (a kernel's): in a script, bots move at once."""


def refusal_text(refusal: IllegalMove, game: Game | type[Game]) -> str:
    """A refused move in a player's words, with what its ruling says:
    ``"Not allowed (LS-7): <the reason>. The rule: <LS-7's line>."`` (``refusal``: an
    :class:`~playtest.engine.IllegalMove` of ``game``, e.g. of ``Match.refusal``; its
    ruling id and reason come from the game's ``explain``, the line from
    :func:`ruling_sentence`; seats and positions counted from 1,
    :func:`~playtest.engine.counting.for_people`)."""
    where = f" ({refusal.ruling})" if refusal.ruling else ""
    reason = for_people(refusal.reason).rstrip(".")
    rule = ruling_sentence(game, refusal.ruling)
    return f"Not allowed{where}: {reason[:1].upper()}{reason[1:]}." + (f" {rule}" if rule else "")


class GameApp:
    """A playable game in a notebook or a Voilà dashboard.

    Args:
        game: registry name or Game class.
        board: a :class:`GameBoard` subclass; None: the one the game declares
            (``Game.BOARD``, or the generic board: :func:`playtest.widgets.board.board_class`).
        seats: seat count of the first game; None: the game's ``SEATS`` (else its
            ``min_seats``). players: seat -> ``"human"`` or a bot name of ``game.BOTS``
            (seats left out are human); None: seat 0 human, the others the game's default
            bot (:func:`~playtest.widgets.newgame.default_bot`: "heuristic" if declared).
        options: game options, applied over ``preset``. seed: None draws a random
            (hidden) seed.
        preset: a name of ``game.PRESETS`` (e.g. Chore Race's "Quick Game").
        start: False builds the app without starting a game or reading the autosaves
            (call :meth:`start`, or :meth:`open_page` on a dashboard page).
        autosave: False never reads or writes the autosave file.
        browser: the name of the page's browser, whose autosaves alone are offered
            (:mod:`~playtest.widgets.autosave`); None: :func:`~playtest.widgets.page.browser_id`.

    Attributes:
        widget: the root box to display. table, match: the game being played.
        control: the human seat in control (None if no seat is human).
        unlocked: the human seat whose cards are on screen (None behind the privacy
            screen). viewer: the seat whose view is shown (None = spectator).
        banner, privacy, board, moves, open_moves, log, timeline, new_game, records,
        presets: the components (``presets`` is None for a game without PRESETS).
        rules: the "How to play" accordion: the board's ``rules_html`` and the game's
            rulings (:func:`how_to_play_html`), closed at first.
        setup: the accordion of the New game and Save / load panels (closed once a game
            is started or loaded). controls: the box of the move controls.
        again_button: "Play again", shown when the game is over (:meth:`play_again`).
        lit: the view paths of the cards lit up now (:meth:`light`).
        resume_box, resume_button, discard_button, resume_note: the offer to resume an
            unfinished autosaved game, shown when the app starts and one exists.
        save_note: shown while saving on the server fails (a full disk, a read-only or
            missing folder): one plain sentence, set once, hidden when a save works
            again. save_problem: that sentence, or None while saving works.
        saved: the unfinished :class:`~playtest.widgets.autosave.Autosave` on offer, or
            None. autosave_path: where the game on the table is autosaved (None: not
            yet saved, or autosave off).
        scenario_name: the name of the scenario the game on the table was opened from
            (``?scenario=NAME``: its share link reopens it), else "".

    Raises:
        OptionError: bad seat count, options or bot names for the first game; a declared
            board that does not load.
        KeyError: an unknown preset.
    """

    def __init__(self, game, board: type[GameBoard] | None = None, seats: int | None = None,
                 players: Mapping[int, str] | None = None, options: Mapping | None = None,
                 seed: int | None = None, start: bool = True, preset: str | None = None,
                 autosave: bool = True, browser: str | None = None):
        self.game = get_game(game)
        if board is None:
            board = board_class(self.game)
        if seats is None:
            seats = self.game.SEATS or self.game.min_seats
        if players is None:
            players = {0: HUMAN, **{seat: default_bot(self.game) for seat in range(1, seats)}}
        self.autosave = autosave
        self.browser = browser_id() if browser is None else browser
        self.autosave_path = None
        self.saved: "autosave.Autosave | None" = None
        self._saved_path = None
        self._drawing = False
        self.default_players = dict(players)
        self.table: Table | None = None
        self.players: dict[int, str] = {}
        self.control = self.unlocked = self.viewer = None
        self.seed_chosen = False
        self.scenario_name = ""
        self.banner = ErrorBanner()
        report = self.banner.show
        self.privacy = PrivacyScreen(safe(self.unlock, report))
        self.board = board(self)
        self.moves = self.make_move_controls()
        self.open_moves = MoveBuilder(builder_kinds(self.game, open_moves=True), self.board, safe(self.play, report),
                                      self.board.card_args, on_change=self._highlight,
                                      title=self.board.open_title, report=report)
        self._claim_viewer = None
        self._bot_wait: asyncio.TimerHandle | None = None     # the bots' reaction time running (_run_bots)
        self._chance: tuple = ()        # (table, the people's open moves) the bots last waited on
        self.claimer = w.Dropdown(description="Who", layout=w.Layout(width="180px"))
        self.claimer.observe(safe(lambda _c: self._drawing or self.refresh(), report), "value")
        self.open_box = w.VBox([self.open_moves.widget, self.claimer])
        self.log = LogView()
        self.timeline = Timeline(safe(self.goto, report), safe(self.branch, report))
        self.new_game = NewGamePanel(self.game, self.start, seats, dict(players), report=report)
        self.records = RecordPanel(self._record, self.load, report=report, get_scenario=self._scenario,
                                   get_link=self._links, on_refused=self.banner.clear)
        # a scenario or shared position: what it is, and the bots paused at its last move
        self.paused = False
        self.about = w.HTML()
        self.pause_note = w.HTML()
        self.continue_button = w.Button(description="Continue", icon="play", button_style="primary",
                                        tooltip="Let the bots play on from here", layout=w.Layout(width="auto"))
        self.continue_button.on_click(safe(lambda _b: self.continue_play(), report))
        self.again_button = w.Button(description="Play again", icon="redo", button_style="primary",
                                     tooltip="A new game with the same seats and options (a new seed)",
                                     layout=w.Layout(width="auto", display="none"))
        self.again_button.add_class("pt-again")
        self.again_button.on_click(safe(lambda _b: self.play_again(), report))
        self.lit: tuple[str, ...] = ()
        self.pause_box = w.HBox([self.pause_note, self.continue_button], layout=w.Layout(align_items="center"))
        self.opened_box = w.VBox([self.about, self.pause_box], layout=w.Layout(display="none"))
        self.opened_box.add_class("pt-opened")
        # the board's extra controls beside the moves, not under them: the controls stay short
        controls = w.HBox([w.VBox([self.moves.widget, self.again_button]), *self.board.extra_controls, self.open_box],
                          layout=w.Layout(justify_content="space-between", flex_flow="row wrap"))
        controls.add_class("pt-controls")
        self.controls = controls
        self.setup = setup = w.Accordion(children=[self.new_game.widget, self.records.widget],
                                         titles=("New game", "Save / load record"))
        # each panel's inputs are made when it is first opened (NewGamePanel.build, RecordPanel.build)
        setup.observe(safe(lambda ch: (self.new_game, self.records)[ch["new"]].build() if ch["new"] is not None
                           else None, report), "selected_index")
        rules = w.HTML(how_to_play_html(self.game, self.board.rules_html))
        rules.add_class("pt-rules")
        self.rules = w.Accordion(children=[rules], titles=("How to play",), selected_index=None)
        self.resume_note = w.HTML()
        self.resume_button = w.Button(button_style="success", icon="play", layout=w.Layout(width="auto"))
        self.resume_button.on_click(safe(lambda _b: self.resume(), report))
        self.discard_button = w.Button(description="Discard it", layout=w.Layout(width="auto"),
                                       tooltip="Delete the autosaved game and keep this new one")
        self.discard_button.on_click(safe(lambda _b: self.discard_saved(), report))
        self.saved_choice = w.Dropdown(description="Saved game", layout=w.Layout(width="auto", display="none"),
                                       style={"description_width": "initial"})
        self.saved_choice.observe(safe(lambda _c: self._saved_chosen(), report), "value")
        self._offered: list = []        # (path, Autosave) of the unfinished games on offer, newest first
        self.resume_box = w.VBox([self.resume_note, self.saved_choice,
                                  w.HBox([self.resume_button, self.discard_button])],
                                 layout=w.Layout(display="none"))
        self.resume_box.add_class("pt-resume")
        self.save_problem: str | None = None
        self.save_note = w.HTML(layout=w.Layout(display="none"))
        self.save_note.add_class("pt-save-note")
        # the board and the move controls first, so both fit a 1280x720 screen; the rules below them
        self.widget = AppBox([style_widget(), self.banner.widget, self.save_note, self.resume_box, self.opened_box,
                              self.privacy.widget,
                              self.board.widget, controls, self.rules, self.timeline.widget,
                              w.HBox([self.log.widget, setup], layout=w.Layout(align_items="flex-start",
                                                                               flex_flow="row wrap"))])
        self.widget.add_class("pt-app")
        self.board.widget.add_class("pt-table")
        options = {**(self.game.PRESETS[preset] if preset else {}), **(options or {})} or None
        self.new_game.set_options(options or {})   # the panel shows the first game's options
        self._first = (seats, dict(players), options, seed)
        if start:
            self._offer_saved()     # read before the first game: it must not replace the save
            self.start(*self._first)

    def open_page(self, query: str) -> None:
        """Open a dashboard page on an app built before its page asked (``start=False,
        browser=""``: in a preheated kernel the widgets are made while it waits in the
        pool, not while a person waits for the page): name the page's browser, offer its
        unfinished autosaved games, start the first game (the constructor's seats,
        players, options and seed), then open what the address asks for
        (:meth:`open_link`).

        Args:
            query: the page's query string (:func:`playtest.widgets.query_string`).
        """
        self.browser = browser_id()
        self._offer_saved()         # read before the first game: it must not replace the save
        self.start(*self._first)
        self.open_link(query)

    def make_move_controls(self) -> MoveBuilder:
        """The controls of the seat in control's moves: the board's
        (:meth:`GameBoard.make_move_controls`), redrawing the clickable cards as the
        choice changes."""
        builder = self.board.make_move_controls(safe(self.play, self.banner.show), self.banner.show)
        builder.on_change = self._highlight
        return builder

    @property
    def presets(self):
        """The New game panel's :class:`~playtest.widgets.newgame.PresetPicker` (None for a
        game without PRESETS); reading it makes the panel's inputs."""
        return self.new_game.presets

    # --- the game ----------------------------------------------------------------
    @property
    def match(self) -> Match:
        """The match on the table."""
        return self.table.match

    @property
    def humans(self) -> list[int]:
        """The human seats."""
        return self.table.humans if self.table else []

    @property
    def live(self) -> bool:
        """Whether the position shown is the match's last one (moves are on); False
        while rewound (see :class:`BoardHost`)."""
        return self.table is not None and self.match.at_end

    def decision_moves(self, seat: int) -> list[Move]:
        """``seat``'s moves answering its pending decision (its open moves if it has
        none); empty while rewound.

        Raises:
            IndexError: ``seat`` is not a seat of this game (G-1).
        """
        return self.table.decision_moves(seat)

    def seat_name(self, seat: int) -> str:
        """A seat's label, counted from 1: "Seat 2 (you)" or "Seat 1 (heuristic bot)" for
        seats 1 and 0."""
        if seat in self.table.bots:
            return f"Seat {seat + 1} ({self.players.get(seat, 'bot')} bot)"
        return f"Seat {seat + 1} (you)" if seat == self.viewer else f"Seat {seat + 1}"

    def start(self, seats: int, players: Mapping[int, str], options: Mapping | None = None,
              seed: int | None = None) -> None:
        """Start a new game (see the class arguments); bots move until a human must
        decide.

        Raises:
            OptionError: bad seats, options or bot names (the running game is kept).
        """
        match = Match(self.game, seats, options, seed)
        self._seat(match, players, seed_chosen=seed is not None)
        self.scenario_name = ""

    def play_again(self) -> None:
        """"Play again": a new game with the seats, players and options of the one on
        the table and a new random seed (a pinned setup is not kept: a new deal)."""
        match = self.match
        players = {s: self.players.get(s, HUMAN) for s in range(match.game.seats)}
        self.start(match.game.seats, players, match.options_dict(), None)

    def load(self, text: str | bytes, name: str = "the uploaded file") -> None:
        """Load a record (JSON text) or a scenario (TOML text, see
        :mod:`playtest.scenarios`) and play on from its end. Seats keep the new-game
        panel's human/bot choice when the seat counts agree; else seat 0 is human and
        the others are the panel's first bot.

        The text passes the input limits (:mod:`playtest.engine.limits`: at most 1 MiB,
        UTF-8, nested at most 32 deep, ...) before it is parsed.

        Args:
            text: the file's text (or its bytes, read as UTF-8). name: how messages
                name it, e.g. the file's name.

        Raises:
            RecordError: corrupt or illegal record, over an input limit (a
                :class:`~playtest.engine.limits.LimitError`), or a record of another
                game (the message names both games); ScenarioError: a scenario file
                with a mistake (line and reason), over a limit, or of another game. The
                game on the table is kept.
        """
        if not isinstance(text, str):
            text = limits.decode(text, name)
        limits.check_size(text, name)
        if text.lstrip().startswith("{"):            # a record (a scenario never starts so)
            try:
                data = limits.load_json(text, name)
            except json.JSONDecodeError as exc:
                raise RecordError(f"not a playtest record: the file is not valid JSON ({exc})") from None
        else:
            try:
                data = limits.load_json(text, name)  # JSON of another shape: "not a record"
            except limits.LimitError as exc:
                if exc.limit == "MAX_DEPTH":         # "[[[[...": no TOML nests so, JSON's depth limit says why
                    raise
                self.open_scenario(Scenario.from_toml(text, name))
                return
            except ValueError:                       # not JSON: a scenario
                self.open_scenario(Scenario.from_toml(text, name))
                return
        self._check_game(data)
        match = Match.from_record(data)
        if match.game.name != self.game.name:
            raise RecordError(self._other_game(match.game.name))
        self._seat_loaded(match)

    def open_scenario(self, scenario: Scenario, name: str = "") -> None:
        """Play on from the end of ``scenario``'s moves (seats as for :meth:`load`),
        paused there: its title and description are shown, and the bots wait until the
        player moves or presses "Continue" (:meth:`continue_play`).

        Args:
            name: the scenario's name for the share link (``?scenario=NAME``); "" = an
                unnamed scenario (e.g. an uploaded file): the link is the move-0 record.

        Raises:
            ScenarioError: an illegal move or a bad setup; RecordError: a scenario of
                another game. The game on the table is kept.
        """
        if scenario.game != self.game.name:
            raise RecordError(self._other_game(scenario.game).replace(" record,", " scenario,"))
        match = scenario.to_match()
        about = f"<b>Scenario: {html.escape(scenario.title or name or 'untitled')}</b>" + (
            f"<br>{html.escape(scenario.description)}" if scenario.description else "")
        self._seat_loaded(match, scenario_name=name, about=about)

    def open_link(self, query: str) -> None:
        """Open what a page address asks for: ``?scenario=NAME`` (a shipped example, or
        ``NAME.toml`` in the scenarios folder, see
        :func:`playtest.scenarios.find_scenario`) or ``?record=DATA`` (a shared
        position, see :func:`playtest.widgets.records.pack_record`): play on from its
        end, paused (see :meth:`open_scenario`); ``?seed=N``: a new game of the new-game
        panel's table with seed N. A bad value (a damaged record, another game's)
        shows the error banner and keeps the game on the table; no query does nothing.

        Args:
            query: the page's query string (Voilà passes it as ``QUERY_STRING``).
        """
        try:
            link = parse_link(query)
            if link.scenario is not None:
                self.open_scenario(find_scenario(link.scenario), link.scenario)
            elif link.record is not None:
                self.open_shared(link.record, link.players)
            elif link.seed is not None:
                seats, players, options, _ = self.new_game.config()
                self.start(seats, players, options, link.seed)
                self.new_game.seed.value = str(link.seed)
        except (PlaytestError, ValueError) as exc:
            self.banner.show(exc)

    def open_shared(self, data: str, players: Sequence[str] | None = None) -> None:
        """Open a shared position (the ``?record=`` value of a "Share link"), paused at
        its last move; a record of 0 moves is a new game with that exact set-up (seats,
        options, setup, seed) and starts at once.

        Args:
            players: each seat's player in seat order ("human" or one of the game's
                bot names, the link's ``players=``); None: seats as for :meth:`load`.

        Raises:
            RecordError: the value is damaged, not a record, holds an illegal move, or
                is another game's, or ``players`` does not name one player per seat;
            OptionError: an unknown bot name. The game on the table is kept.
        """
        match = unpack_record(data)
        if match.game.name != self.game.name:
            raise RecordError(self._other_game(match.game.name).replace(" record,", " shared position,"))
        seats = match.game.seats
        if players is not None and len(players) != seats:
            raise RecordError(f"the link's ?players= names {len(players)} players for a {seats}-seat game: "
                              "give one per seat (the game on the table is unchanged)")
        seating = None if players is None else dict(enumerate(players))
        about = (f"<b>Shared position</b>: move {len(match.moves)} of a {html.escape(self.game.title)} game, "
                 f"{seats} seats") if match.moves else ""
        self._seat_loaded(match, about=about, players=seating)

    def continue_play(self) -> None:
        """"Continue": let the bots play on from a paused scenario or shared position."""
        self.paused = False
        try:
            self._run_bots()
            self._autosave()
        finally:
            self.refresh()

    def _seat_loaded(self, match: Match, scenario_name: str = "", about: str = "",
                     players: Mapping[int, str] | None = None) -> None:
        """Put a loaded match on the table (``players``: seat -> "human" or a bot name;
        None: see :meth:`load`); with ``about`` (HTML saying what was opened), paused
        at its last move. ``scenario_name``: see :attr:`scenario_name`."""
        seats, panel_players, _, _ = self.new_game.config()
        if players is None and seats == match.game.seats:
            players = panel_players
        elif players is None:
            bot = next((p for p in self.default_players.values() if p != HUMAN), None) or default_bot(self.game)
            players = {s: bot for s in range(1, match.game.seats)}
        self._seat(match, players, seed_chosen=True, paused=bool(about), about=about)
        self.scenario_name = scenario_name

    def _check_game(self, data) -> None:
        """Refuse a record (parsed JSON) of another game before replaying it."""
        other = data.get("game") if isinstance(data, dict) else None
        if isinstance(other, str) and other != self.game.name:
            raise RecordError(self._other_game(other))

    def _other_game(self, name: str) -> str:
        here = self.game.title
        try:
            title = get_game(name).title
        except Exception:  # noqa: BLE001 - a name no game has: never repeated back as if it were one
            return (f"this file names the game {reprlib.repr(name)}, which this kit does not have; "
                    f"a {here} record says \"game\": \"{self.game.name}\" (the {here} game on the table is unchanged)")
        return (f"{other_game(name, self.game)}; open it on the {title} page ({game_page(name)}) "
                f"(the {here} game on the table is unchanged)")

    def _seat(self, match: Match, players: Mapping[int, str], seed_chosen: bool, paused: bool = False,
              about: str = "") -> None:
        """Put ``match`` on the table, atomically: the new table is built, its bots move
        (unless ``paused``: they wait for :meth:`continue_play` or the player's move)
        and every component draws it; if any of that fails, the running game comes back
        exactly as it was and the error propagates. ``about``: HTML shown above the board
        (what was opened), "" for none."""
        bots = {s: p for s, p in players.items() if p != HUMAN}
        table = Table(match, bots)          # raises OptionError before anything changes
        old = (self.table, self.players, self.seed_chosen, self.control, self.unlocked, self.viewer,
               self._claim_viewer, self.paused, self.about.value)
        try:
            self.table, self.players, self.seed_chosen = table, dict(bots), seed_chosen
            if not paused:
                self._run_bots()
            self.paused, self.about.value = paused, about
            self.autosave_path = None          # a new game gets its own file at its first save
            self.control = self.unlocked = None
            self.banner.clear()
            self.setup.selected_index = None    # the panel that started or loaded it has done its job
            self.refresh()
        except BaseException:
            (self.table, self.players, self.seed_chosen, self.control, self.unlocked, self.viewer,
             self._claim_viewer, self.paused, self.about.value) = old
            if self.table is not None:
                self.refresh()
            raise

    def play(self, move: Move) -> None:
        """Play a human move, then let the bots move until a human must decide.

        Raises:
            IllegalMove: the move is not legal now (the state is unchanged).
        """
        self.banner.clear()
        try:
            self.match.play(move)
            self.paused = False             # the player moved: the bots play on
            self._run_bots()
            self._autosave()
        finally:
            self.refresh()

    def reaction_time(self) -> float:
        """Seconds a bot waits before an open move a person here may race it to
        (:data:`BOT_REACTION`; 0: bots never wait)."""
        return BOT_REACTION

    def _run_bots(self, waited: bool = False) -> None:
        """Let the bots move until a person must decide or the game ends. While the
        people at this page may make open moves, stop for :meth:`reaction_time` seconds
        on the kernel's event loop before the bots' next move when those open moves are
        new (a new chance, e.g. a new card on DONE) or a bot wants one; the person may
        move meanwhile (:meth:`play` plays on from there), then the bots go on
        (:meth:`_bots_after_wait`; ``waited``: the first bot move goes ahead)."""
        if self._bot_wait is not None:
            self._bot_wait.cancel()
            self._bot_wait = None
        try:
            clocked = self.reaction_time() > 0 and asyncio.get_running_loop() is not None
        except RuntimeError:        # no event loop: a script or a test drives the page
            clocked = False
        table = self.table
        while True:
            if clocked and not waited:
                chance = (table, frozenset(str(m) for s in table.humans for m in table.open_moves(s)))
                wanted, deciding = table.proposals() if chance[1] else ({}, None)
                if wanted or (deciding is not None and chance != self._chance):
                    self._chance = chance
                    self._wait_bots(table, len(table.match.moves))
                    return
            if table.step_bot() is None:
                return
            waited = False

    def _wait_bots(self, table: Table, version: int, extended: bool = False) -> None:
        """Let the bots go on after :meth:`reaction_time` seconds, on the running loop."""
        self._bot_wait = asyncio.get_running_loop().call_later(self.reaction_time(), self._bots_after_wait,
                                                               table, version, extended)

    def _bots_after_wait(self, table: Table, version: int, extended: bool = False) -> None:
        """The reaction time is over: the bots move on, unless the game moved, was
        rewound or replaced meanwhile, or the person is making an open move (its button
        pressed: they get one more reaction time, ``extended``). An error is shown in
        the banner."""
        self._bot_wait = None
        if table is not self.table or len(table.match.moves) != version or not table.match.at_end or self.paused:
            return
        if self.open_moves.kind is not None and not extended:
            self._wait_bots(table, version, extended=True)   # a Done it! being made: once more
            return
        try:
            self._run_bots(waited=True)
            self._autosave()
        except Exception as error:  # noqa: BLE001 - a loop callback: the banner is where the person sees it
            self.banner.show(error)
        finally:
            self.refresh()

    def card_clicked(self, seat: int, pos: int | None) -> None:
        """A card of ``seat`` at ``pos`` was clicked: it fills an argument of the move
        being built: the open move if one is being built (open moves are chosen by
        their button first), else the seat's own move. A click that completes a move
        no rule allows is explained in the banner (:meth:`refuse`); any other click goes
        to :meth:`unused_click`."""
        builder = self.open_moves if self.open_moves.kind is not None else self.moves
        if builder.pick_card(seat, pos):
            return
        move = builder.attempt(seat, pos) if self.live else None
        if move is not None:
            self.refuse(move)
        else:
            self.unused_click()

    def unused_click(self) -> None:
        """A card click that neither picked a card nor made a move: nothing to say in a
        game (as a click on a card no move uses); a tutorial says what its step asks."""

    def moves_closed(self) -> str:
        """Why the viewer's moves (its own and the open moves) are offered greyed out now,
        though the rules allow them, said under them instead of "Waiting for Seat 2."
        ("" = they are not: always, in a game); a tutorial's step to read, or its lesson
        done, closes them."""
        return ""

    def refuse(self, move: Move) -> str:
        """Say why ``move`` cannot be played now, in the error banner, in plain words
        with its ruling id (:func:`refusal_text` of ``Match.refusal``); nothing changes.

        Returns:
            The text shown ("" when the move is legal: nothing is shown).
        """
        refusal = self.match.refusal(move)
        text = refusal_text(refusal, self.game) if refusal is not None else ""
        if text:
            self.banner.show(text)
        return text

    def light(self, paths: Sequence[str]) -> None:
        """Light up the cards at these view paths (see :meth:`GameBoard.card_at`; CSS
        class ``pt-lit``) until the next call; () puts them out. A path the board draws
        no card at is skipped."""
        for path in self.lit:
            card = self.board.card_at(path)
            if card is not None and "pt-lit" in card._dom_classes:
                card._dom_classes = tuple(c for c in card._dom_classes if c != "pt-lit")
        self.lit = tuple(paths)
        self._relight()

    def _relight(self) -> None:
        """Apply :attr:`lit` to the board as drawn now (a redraw resets card classes)."""
        for path in self.lit:
            card = self.board.card_at(path)
            if card is not None and "pt-lit" not in card._dom_classes:
                card._dom_classes = (*card._dom_classes, "pt-lit")

    def unlock(self, seat: int) -> None:
        """Seat ``seat``'s person confirmed they hold the device (hotseat)."""
        if seat == self.control:
            self.unlocked = seat
            self.refresh()

    # --- autosave ----------------------------------------------------------------
    def _autosave(self) -> None:
        """Save the game on the server (after every move); a finished game deletes its
        save. The first save of a new game replaces an unfinished one still on offer.

        A save that fails (a full disk, a read-only or missing folder) never stops the
        game: :attr:`save_note` says so once, in plain words, and stays until a save
        works again (each move tries again); the game goes on in memory."""
        if not self.autosave or self.table is None:
            return
        try:
            if self.autosave_path is None:
                self.autosave_path = autosave.new_path(self.game.name, self.browser)
            if self.match.outcome() is not None:
                autosave.remove(self.autosave_path)
            else:
                autosave.write(self.autosave_path, self.match, self.players, self.seed_chosen)
        except autosave.AutosaveError as exc:
            if self.save_problem is None:        # said once: later failures add nothing
                self.save_note.value = html.escape(str(exc))
                self.save_note.layout.display = None
            self.save_problem = str(exc)
        else:
            if self.save_problem is not None:    # saving works again
                self.save_problem = None
                self.save_note.value = ""
                self.save_note.layout.display = "none"
        self._hide_offer()

    def _offer_saved(self) -> None:
        """Offer to resume an unfinished autosaved game of this game: the newest, and
        with several, a choice among the :data:`OFFERED` newest (each described by its
        seats, moves and time). A save that cannot be read is set aside with a one-line
        notice; a finished one is deleted."""
        paths = autosave.saved_paths(self.game.name, self.browser) if self.autosave else []
        offered: list[tuple[Path, autosave.Autosave]] = []
        notices = []
        for path in paths:
            if len(offered) == OFFERED:
                break
            if path == self.autosave_path:
                continue                                 # this page's own game
            saved, notice = self._read_saved(path)
            if notice:
                notices.append(notice)
            elif saved is not None:
                offered.append((path, saved))
        self._offered = offered
        notice = "<br>".join(notices)
        if not offered:
            self.saved = None
            self.resume_note.value = notice
            self.resume_button.layout.display = self.discard_button.layout.display = "none"
            self.saved_choice.layout.display = "none"
            self.resume_box.layout.display = "flex" if notice else "none"
            return
        where = " from this browser" if self.browser else ""
        several = len(offered) > 1
        self.resume_note.value = (f"<b>{'Unfinished games were' if several else 'An unfinished game was'} saved "
                                  f"on this server{where}.</b> Resume {'one' if several else 'it'}, or discard "
                                  f"{'the one chosen' if several else 'it'}." + (f"<br>{notice}" if notice else ""))
        self.saved_choice.options = [(f"{saved.describe()}{' (newest)' if i == 0 else ''}", i)
                                     for i, (_, saved) in enumerate(offered)]
        self.saved_choice.value = 0
        self.saved_choice.layout.display = None if several else "none"
        self.resume_button.layout.display = self.discard_button.layout.display = None
        self.resume_box.layout.display = "flex"
        self._saved_chosen()

    def _read_saved(self, path: Path) -> tuple["autosave.Autosave | None", str]:
        """``(the unfinished game saved at path, "")``; ``(None, "")`` for a finished one
        (deleted: never offered); ``(None, a one-line HTML notice)`` for a save that cannot
        be read (set aside as ``*.corrupt``, never offered again)."""
        try:
            saved = autosave.read(path, self.game.name)
        except Exception as exc:  # noqa: BLE001 - a bad save must never stop the app
            kept = path.with_suffix(".corrupt")      # kept for a look by hand
            try:
                path.replace(kept)
                aside = f"was set aside as {html.escape(kept.name)}"
            except OSError:
                aside = "is left where it is"
            # an OSError's text holds the server's folder: name the cause in plain words
            reason = autosave.problem(exc) if isinstance(exc, OSError) else str(exc)
            return None, (f"<i>An autosaved {html.escape(self.game.title)} game could not be read "
                          f"and {aside} ({html.escape(reason[:200])}).</i>")
        if saved.match.outcome() is not None:
            try:
                autosave.remove(path)
            except autosave.AutosaveError:
                pass                                 # a finished game is never offered anyway
            return None, ""
        return saved, ""

    def _saved_chosen(self) -> None:
        """The game picked in the choice of unfinished games is the one on offer."""
        index = self.saved_choice.value
        if index is None or not 0 <= index < len(self._offered):
            return
        self._saved_path, self.saved = self._offered[index]
        self.resume_button.description = f"Resume your unfinished game ({self.saved.describe()})"

    def _hide_offer(self) -> None:
        self.saved = None
        self.resume_box.layout.display = "none"
        self.resume_note.value = ""

    def resume(self) -> None:
        """Resume the autosaved game on offer: the same match (replayed) and seats.

        Raises:
            RecordError: no game on offer any more.
        """
        saved = self.saved
        if saved is None:
            raise RecordError("there is no autosaved game to resume")
        self._seat(saved.match, saved.players, saved.seed_chosen)
        self.scenario_name = ""
        # play on in a file of its own: a tab still playing the old line keeps its file
        self.autosave_path = autosave.claim(self._saved_path, self.game.name, self.browser)
        seats = saved.match.game.seats
        self.new_game.seats.value = seats
        for seat in range(seats):
            self.new_game.players[seat].value = saved.players.get(seat, HUMAN)
        self._hide_offer()

    def discard_saved(self) -> None:
        """Delete the autosaved game on offer and keep the game on the table.

        Raises:
            AutosaveError: the file cannot be deleted (plain message; offer hidden)."""
        try:
            if self.saved is not None:
                autosave.remove(self._saved_path)
        finally:
            self._hide_offer()
        self._offer_saved()         # the other unfinished games, if any, stay on offer

    # --- time travel -------------------------------------------------------------
    def goto(self, n: int) -> None:
        """Show the position after ``n`` moves (moves are off until back at the end).

        Raises:
            IndexError: ``n`` outside 0..len(record).
        """
        self.match.goto(n)
        self.refresh()

    def branch(self) -> None:
        """Play on from the shown position: the later moves of the line are dropped
        (the timeline asks first). Bots move if it is their turn."""
        match = self.match.branch()
        table = Table(match, self.players)
        self.table, self.paused = table, False
        self._run_bots()
        self._autosave()
        self.refresh()

    def _record(self) -> tuple[str, bool, str]:
        return self.match.to_json(), self.match.outcome() is not None, f"{self.game.name}_record.json"

    def _links(self) -> list[tuple[str, str]]:
        """The share links: this position (the record up to the shown move), and a new
        game from the same start (the record of move 0, or the scenario it was opened from);
        each names the game first (``game=NAME&``: the game page, :mod:`playtest.pages`)."""
        seating = players_query(self.players, self.match.game.seats)
        game = f"game={quote(self.game.name)}"
        if self.scenario_name:
            start = (f"The scenario {self.scenario_name}, from where it stops", f"{game}&scenario={self.scenario_name}")
        else:     # the record of move 0: the same seats, options, setup and seed
            start = ("A new game with the same set-up (move 0)",
                     f"{game}&record={pack_record(self.match.branch(0))}&{seating}")
        return [(f"This position (move {self.match.cursor}, with the moves so far)",
                 f"{game}&record={pack_record(self.match)}&{seating}"), start]

    def _scenario(self) -> tuple[str, str]:
        """The game on the table up to the shown move, as scenario TOML and a file name."""
        scenario = Scenario.from_match(self.match, title=f"{self.game.title} game, move {self.match.cursor}",
                                       upto=self.match.cursor)
        return scenario.to_toml(), f"{self.game.name}_move{self.match.cursor}.toml"

    # --- drawing -----------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw every component in place from the views of the match."""
        self._drawing = True
        try:
            self._draw()
        finally:
            self._drawing = False

    def _draw(self) -> None:
        match, humans = self.match, self.humans
        if match.at_end:
            pending = [s for s in match.to_act() if s in humans]
            if pending and self.control not in pending:
                self.control = pending[0]
            if self.control is None and humans:
                self.control = humans[0]
        if len(humans) == 1:
            self.unlocked = humans[0]
        locked = self.control is not None and self.unlocked != self.control
        self.viewer = None if locked else self.control
        if locked:
            self.privacy.show(self.control, self.seat_name(self.control))
        else:
            self.privacy.hide()
        view = match.view(self.viewer)
        live = match.at_end
        over = match.outcome() is not None
        mine = []
        if self.viewer is not None and live:
            mine = [m for m in self.decision_moves(self.viewer) if m.kind not in self.game.OPEN_MOVES]
        closed = self.moves_closed() if live else ""
        note = ("The match is rewound: moves are off." if not live else
                f"Hidden until seat {self.control + 1} confirms." if locked else
                closed or ("Game over." if over else "" if mine else
                           waiting_note([s for s in match.to_act() if s != self.viewer], self.seat_name)
                           if self.viewer is not None else ""))
        decision = (id(match), match.cursor, len(match.moves), self.viewer)
        self.moves.show(self.viewer, mine, view, enabled=live and not closed, note=note, decision=decision)
        # behind the privacy screen nobody acts: the device is changing hands, and a claim
        # now would be made in the name of whoever the panel last showed
        claimers = [s for s in humans if live and not locked and self.table.open_moves(s)]
        options = [(f"seat {s + 1}", s) for s in claimers]
        # the claimer follows the seat on screen: a newly confirmed seat claims as itself
        follow = self.viewer is not None and self.viewer != self._claim_viewer and self.viewer in claimers
        if list(self.claimer.options) != options or follow:
            keep = self.viewer if follow else self.claimer.value if self.claimer.value in claimers else (
                self.viewer if self.viewer in claimers else (claimers[0] if claimers else None))
            if list(self.claimer.options) != options:
                self.claimer.options = options
            self.claimer.value = keep
        if self.viewer is not None and self.viewer in claimers:
            self._claim_viewer = self.viewer
        self.claimer.layout.display = None if len(claimers) > 1 else "none"
        who = self.claimer.value
        # one decision per claiming seat and game, as on a live seat page: a Done it! being
        # made survives the bots' moves, and a card clicked just after DONE changed is
        # judged on the top it was begun on (LS-5: too late, returned without a penalty)
        self.open_moves.show(who, self.table.open_moves(who) if who is not None else [], view,
                             enabled=live and not closed, decision=(id(match), who))
        self.open_box.layout.display = None if claimers else "none"
        self.log.show(match.log_for(self.viewer))
        self.timeline.show(match.cursor, len(match.moves))
        waiting = [s for s in match.to_act() if s in self.table.bots] if self.paused and live and not over else []
        if waiting:
            bots = ", ".join(f"seat {s + 1}" for s in waiting)
            self.pause_note.value = (f"Stopped at move {len(match.moves)}. The bots ({bots}) wait: make your "
                                     f"move, or press Continue to let them play.&nbsp;")
        self.pause_box.layout.display = None if waiting else "none"
        self.opened_box.layout.display = None if waiting or self.about.value else "none"
        if not over:
            self.records.reset()
        self.again_button.layout.display = None if over and live else "none"
        self.board.update(view, self._clickable())
        self._relight()

    def _clickable(self) -> set:
        return self.open_moves.clickable_cards() if self.open_moves.kind is not None else self.moves.clickable_cards()

    def _highlight(self) -> None:
        """A move builder's selection changed: redraw the board's clickable cards."""
        if not self._drawing and self.table is not None:
            self.board.update(self.match.view(self.viewer), self._clickable())
            self._relight()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

