"""The seat page of a live table (``dashboards/table.ipynb?table=ID&token=T``).

The page's kernel holds no game: it shows what the table service sends each of its
tokens (a seat's ``Match.view(seat)``, ``log_for(seat)`` and moves; the public view for
a spectator or host token) with the game's own board, move controls, open-move panel,
log, privacy screen and error banner, and sends the moves made with them. Its links
keep each token's state: the join's full state with every update since applied (a gap
or a reconnection resyncs from a full state, never a merge).

What a seat page has, and has not (LS-11 "memory is the game"; fair play on a live
table): no timeline, rewind, branch, record download or new-game panel. It shows who
sits where (connected, away, bot), every other seat's move as it happens (the last move
line and its seat's part of the board are marked for :data:`FRESH_SECONDS`), a refused
move's reason in the error banner, the round's reveal with its Continue, the game's end
with a short feedback form, the host controls for a host token, and a plain notice when
the host has handed the page's seat to a bot. On a table with a reaction time limit, an
open reaction window (Chore Race CR-7) shows its seconds left, counting down each second:
to the seat that must answer, and to every other page. A missing or wrong token, or
table, gives a plain message page.

Several seat tokens on one page (``token=T1,T2``) is hotseat: the privacy screen goes up
when another seat must decide, as in :class:`~playtest.widgets.GameApp`. While it is up,
the board shows the public view if the page also has a spectator or host token (the
lobby's hotseat link carries one), else it is hidden and its cards are blanked.
"""
from __future__ import annotations

import asyncio
import html
import math
import re
import time
from typing import Sequence

import ipywidgets as w

from ...engine import Move, PlaytestError, get_game
from ...tables import pages
from ...engine import OptionError
from ...engine.counting import for_people
from ...tables.live import HUMAN, TOO_LATE, check_name
from ..gameboard import GameBoard, builder_kinds, how_to_play_html, ruling_sentence
from ..components import AppBox, Card, ErrorBanner, LogView, PrivacyScreen, safe, style_widget
from ..board import board_class
from ..moves import MoveBuilder, waiting_note
from ..page import proxied_lobby_note
from .client import TableApi, TableLink, parse_table_query, spawn
from .host import HostControls
from .signals import PageSignals
from .timer import TurnClock
from .style import STYLE

FRESH_SECONDS = 2.0
"""Seconds the last move stays marked (``pt-fresh`` on the last-move line, ``pt-moved``
on its seat's part of the board)."""

TEXT_LIMIT = 2000
"""Characters of a feedback text (the service's limit)."""

PLAYED = "<span class='pt-played'>Your move was played.</span>"
"""Said beside the controls when the table accepted this page's move; it goes once another
seat has moved (the next move's own line takes over)."""

SEAT_INTRO = ("<b>You are {who}.</b> Your cards, everyone's moves as they happen (the last one is marked for a "
              "moment), your moves, the round's reveal, and a short feedback form when the game is over. The "
              "link you opened is your seat: keep it to yourself. If the connection drops, the page reconnects "
              "on its own.")
HOTSEAT_INTRO = ("<b>This device plays {who} (hotseat).</b> Pass it to the person whose seat must decide when "
                 "the screen asks: each seat's cards stay hidden until its person confirms they hold the "
                 "device.")
SPECTATOR_INTRO = ("<b>You are watching: the public view only, no hand is shown.</b> Everyone's moves appear as "
                   "they happen (the last one is marked for a moment), with the table, the log and the result. "
                   "Nothing can be played from this page: put it on a projector or share it with onlookers.")
HOST_INTRO = ("<b>You are the host: the public view (no hand is shown) and the host controls below.</b> Pause or "
              "resume the bots and set their pace; hand a seat to a bot when its player leaves (or back to the "
              "person with its link); start the next round for everyone without waiting for every Continue; "
              "end the table; and once the game is over, get its record for the scenario debugger. Keep the "
              "host link to yourself.")
"""The intro above a live table page, by what its links are (:meth:`SeatApp.intro_html`):
``{who}`` is "seat 2" or "seats 1 and 2" (counted from 1)."""

class FeedbackForm:
    """The short form a player gets when the game is over: a 1-5 rating, "what
    confused you?" and notes, posted to ``tables/<id>/feedback`` with the seat token.

    Args:
        api: the service. table_id: the table. seat: the seat (for the caption, when a
            page holds several). token: the seat's token. report: where errors go.

    Attributes:
        widget: the box (class ``pt-feedback``). rating (ToggleButtons 1..5, None until
        chosen), confused, notes (Textarea), send (Button), note (HTML: sent or not):
        its parts. sent: whether the service stored it.
    """

    def __init__(self, api: TableApi, table_id: str, seat: int, token: str, report, caption: str = ""):
        self.api, self.table_id, self.token, self.report = api, table_id, token, report
        self.sent = False
        self.rating = w.ToggleButtons(options=[(str(n), n) for n in range(1, 6)], value=None,
                                      description="Your rating", tooltips=["1: poor", "", "", "", "5: great"],
                                      style={"button_width": "36px", "description_width": "initial"})
        self.confused = w.Textarea(placeholder="What confused you? (a rule, a screen, a card...)",
                                   layout=w.Layout(width="95%"))
        self.notes = w.Textarea(placeholder="Anything else for the designer", layout=w.Layout(width="95%"))
        self.send = w.Button(description="Send feedback", button_style="primary", layout=w.Layout(width="auto"))
        self.send.on_click(safe(lambda _b: self.submit(), report))
        self.note = w.HTML()
        title = f"<b>Feedback{html.escape(caption)}</b> — how was it? (the designer reads every answer)"
        self.widget = w.VBox([w.HTML(title), self.rating, self.confused, self.notes,
                              w.HBox([self.send, self.note], layout=w.Layout(align_items="center"))])
        self.widget.add_class("pt-feedback")

    def submit(self) -> None:
        """Send the form (a task); the note says when it is stored.

        A text longer than :data:`TEXT_LIMIT` characters, or nothing filled in, is said
        beside the Send button (where the person looks) and nothing is sent.
        """
        body = {"rating": self.rating.value, "confused": self.confused.value.strip(), "notes": self.notes.value.strip()}
        problem = next((f"Feedback texts are at most {TEXT_LIMIT} characters ({name}: {len(body[name])})."
                        for name in ("confused", "notes") if len(body[name]) > TEXT_LIMIT), None)
        if body["rating"] is None and not body["confused"] and not body["notes"]:
            problem = "Choose a rating or write something first."
        if problem:
            self.note.value = f"<b class='pt-warn'>{html.escape(problem)}</b>"
            return
        self.send.disabled = True
        self.note.value = "<i>sending…</i>"
        spawn(self._post(body), self._failed)

    async def _post(self, body: dict) -> None:
        await self.api.call("POST", f"tables/{self.table_id}/feedback", body, token=self.token)
        self.sent = True
        for box in (self.rating, self.confused, self.notes):
            box.disabled = True
        self.note.value = "<b>Thank you!</b> Your feedback is saved with the game."

    def _failed(self, exc: Exception) -> None:
        self.send.disabled = False
        self.note.value = ""
        self.report(exc)


def name_once(line: str, seat: int, who: str) -> str:
    """A move's log ``line`` (as people count) led by ``who``, the name of the ``seat``
    that made it, naming that seat once.

    Args:
        line: the log line, e.g. ``"Seat 3 draws a card."``.
        seat: the seat that made the move (0-based int).
        who: its name on the page, e.g. ``"Seat 3 (Bo)"``.

    Returns:
        ``line`` with ``who`` in place of "Seat N" (or of a private line's "Seat N
        (you)") where the line names the seat first ("Seat 3 draws ...", "Seat 3's
        claim ...", or after a game's cry: "Done it! Seat 3 quick-discards ..."), else
        ``"<who>: <line>"``.
    """
    named = re.match(rf"([^!]*! )?Seat {seat + 1}(?: \(you\))?(?= |'s )", line)
    return f"{named[1] or ''}{who}{line[named.end():]}" if named else f"{who}: {line}"


class SeatApp:
    """A live table's page: one or more tokens of one table, shown with the game's board.

    Args:
        table_id: the table's id. tokens: its tokens on this page (seat tokens, and at
            most one spectator or host token is used for the public view).
        api: the service (default: ``$PLAYTEST_TABLES_URL``). connect: False builds the
            page without connecting (call :meth:`connect`).

    Attributes:
        widget: the root box. links: one :class:`~playtest.widgets.live.client.TableLink`
            per token. game: the Game class (None until the first welcome). board, moves,
            open_moves: the game's board and move controls (None until then).
        control, unlocked, viewer: as :class:`~playtest.widgets.GameApp` (viewer None:
            the public view). banner, privacy, log, status, players, last_move,
            hold_box, hold_text, over_box, over_text, message, claimer, intro, countdown: the
            components. clock: the seconds clock the countdown reads (``time.monotonic``;
            tests replace it). turn_clock: the turn timer's countdown
            (:class:`~playtest.widgets.live.timer.TurnClock`). handed: the notice that the
            host handed this page's seat to a bot (hidden while a person plays it).
            continue_buttons: seat -> its Continue button. forms: seat -> its
            :class:`FeedbackForm`. host: the :class:`HostControls` (None without a
            host token). refused: the plain message shown instead of the table ("" if none).

    The links run as tasks on the running event loop (the kernel's), so the page must be
    built where one runs (a notebook cell, or an asyncio program).
    """

    def __init__(self, table_id: str, tokens: Sequence[str], api: TableApi | None = None,
                 connect: bool = True):
        self.api = api or TableApi()
        self.table_id, self.tokens = table_id, list(tokens)
        self.links: list[TableLink] = []
        self.game = None
        self.board: GameBoard | None = None
        self.moves: MoveBuilder | None = None
        self.open_moves: MoveBuilder | None = None
        self.host: HostControls | None = None
        self.control = self.unlocked = self.viewer = None
        self.continue_buttons: dict[int, w.Button] = {}
        self.forms: dict[int, FeedbackForm] = {}
        self.refused = ""
        self._drawing = False
        self._view: dict | None = None
        self._claim_viewer = None
        self._seen_move: int | None = None
        self._decision: tuple = (None, -1)      # (viewer and its moves, version it began at)
        self._first_state = True
        self._marked: w.Widget | None = None
        self._fresh_timer: asyncio.TimerHandle | None = None
        self.clock = time.monotonic
        self._reaction_until: float | None = None      # clock time the open reaction window closes
        self._countdown_timer: asyncio.TimerHandle | None = None
        self.banner = ErrorBanner()
        report = self.banner.show
        self.message = w.HTML()
        self.message_box = w.VBox([self.message], layout=w.Layout(display="none"))
        self.message_box.add_class("pt-live-message")
        self.title = w.HTML("<b>Live table</b>")
        self.title.add_class("pt-live-title")
        self.intro = w.HTML()
        self.intro.add_class("pt-live-intro")
        self.status = w.HTML("connecting…")
        self.status.add_class("pt-live-status")
        self.players = w.HTML()
        self.players.add_class("pt-players")
        self.handed = w.HTML(layout=w.Layout(display="none"))
        self.handed.add_class("pt-handed")
        self.last_move = w.HTML()
        self.last_move.add_class("pt-last-move")
        self.countdown = w.HTML(layout=w.Layout(display="none"))
        self.countdown.add_class("pt-countdown")
        self.turn_clock = TurnClock()
        self.hold_text = w.HTML()
        self.hold_buttons = w.HBox()
        self.hold_box = w.VBox([self.hold_text, self.hold_buttons], layout=w.Layout(display="none"))
        self.hold_box.add_class("pt-hold")
        self.over_text = w.HTML()
        self.over_forms = w.VBox()
        self.over_box = w.VBox([self.over_text, self.over_forms], layout=w.Layout(display="none"))
        self.over_box.add_class("pt-gameover")
        self.privacy = PrivacyScreen(safe(self.unlock, report))
        self.rules = w.Accordion(children=[w.HTML()], titles=("How to play",), selected_index=None,
                                 layout=w.Layout(display="none"))
        self.board_box = w.VBox()
        self.claimer = w.Dropdown(description="Who", layout=w.Layout(width="180px", display="none"))
        self.claimer.observe(safe(lambda _c: self._drawing or self.refresh(), report), "value")
        self.open_box = w.VBox([self.claimer], layout=w.Layout(display="none"))
        self.outcome = w.HTML()
        self.outcome.add_class("pt-outcome")
        self.signals = PageSignals()
        self.signals.observe(safe(lambda change: self._named(change["new"]), report), "name")
        # the browser has said which name it keeps: an empty box may take the table's (_draw_players)
        self.signals.observe(safe(lambda _change: self.refresh(), report), "loaded")
        self.name_box = w.Text(placeholder="Your name", description="Your name",
                               layout=w.Layout(width="260px"))
        self.name_save = w.Button(description="Save name", layout=w.Layout(width="auto"))
        self.name_save.on_click(safe(lambda _b: self.save_name(), report))
        self.name_note = w.HTML()
        self.sound = w.Checkbox(description="Beep on my turn", indent=False, layout=w.Layout(width="auto"))
        w.link((self.sound, "value"), (self.signals, "sound"))
        self.you = w.HBox([self.name_box, self.name_save, self.name_note, self.sound, self.signals],
                          layout=w.Layout(display="none", align_items="center", flex_flow="row wrap"))
        self.you.add_class("pt-you")
        self._my_turn = False
        self.controls = w.HBox(layout=w.Layout(justify_content="space-between", display="none"))
        self.controls.add_class("pt-controls")
        self.host_box = w.VBox()
        self.log = LogView()
        self.log.widget.layout.display = "none"
        # the seat's own controls and their answers come before the board: above the fold
        # at 1280x720 and at 390 px wide in every game (the intro and rules read after)
        self.content = w.VBox([self.title, self.status, self.players, self.you, self.handed, self.last_move,
                               self.countdown, self.turn_clock.widget,
                               self.hold_box, self.over_box, self.privacy.widget, self.outcome,
                               self.controls, self.board_box, self.intro, self.rules, self.host_box,
                               self.log.widget])
        self.widget = AppBox([style_widget(), w.HTML(STYLE), self.banner.widget, self.message_box, self.content])
        self.widget.add_class("pt-app")
        self.widget.add_class("pt-live")
        if not table_id or not self.tokens:
            self.refuse(html.escape(pages.sentence(pages.missing(bool(table_id), bool(self.tokens)))))
        elif not self.api.available:
            self.refuse("This page was not opened from a playtest server, so there is no table to join. "
                        "Start one with <code>playtest serve</code> and open the lobby."
                        + (f" {note}" if (note := proxied_lobby_note()) else ""))
        elif connect:
            self.connect()

    @classmethod
    def from_query(cls, query: str, **kwargs) -> "SeatApp":
        """The page a page address asks for: ``table=ID&token=T`` (``token=T1,T2`` for
        several seats on one device).

        Args:
            query: the address's query string (see
                :func:`~playtest.widgets.live.client.query_string`). kwargs: as the class.
        """
        table_id, tokens = parse_table_query(query)
        refusal = pages.malformed(query)        # several tables, too many tokens: as playtest serve says
        if refusal is None:
            return cls(table_id, tokens, **kwargs)
        app = cls(table_id, tokens, **{**kwargs, "connect": False})
        app.refuse(html.escape(pages.sentence(refusal.reason)))
        return app

    def connect(self) -> None:
        """Open one websocket per token (tasks on the running loop).

        Raises:
            RuntimeError: no event loop is running here.
        """
        if self.links:
            return
        self.links = [TableLink(self.api, self.table_id, token, self._message, self._link_changed,
                                report=self.banner.show) for token in self.tokens]
        for link in self.links:
            link.name = self.signals.name
            link.start()

    async def ready(self, timeout: float = 20.0) -> None:
        """Wait until every link was welcomed (the board and the controls are built) or
        refused, at most ``timeout`` seconds. A dashboard awaits it in its cell: widgets
        made after the cell ended could reach a page that connected meanwhile as children
        it has no model of ("widget model not found", about one reload in ten)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and not all(link.welcomed or link.status == "closed" for link in self.links):
            await asyncio.sleep(0.02)

    def close(self) -> None:
        """Leave the table: close every websocket."""
        for link in self.links:
            link.stop()
        if self._fresh_timer is not None:
            self._fresh_timer.cancel()
        if self._countdown_timer is not None:
            self._countdown_timer.cancel()
        self.turn_clock.stop()

    def refuse(self, text_html: str) -> None:
        """Show a plain message page instead of the table (``text_html``: HTML, escaped
        by the caller), in the words ``playtest serve`` answers a bad link with before any
        kernel (:func:`playtest.tables.pages.refusal_html`)."""
        self.refused = text_html
        self.message.value = pages.refusal_html(text_html)
        self.message_box.layout.display = "flex"
        self.content.layout.display = "none"

    # --- the app interface of the boards (playtest.widgets.gameboard.BoardHost) ------------
    def _seat_links(self) -> dict[int, TableLink]:
        return {link.seat: link for link in self.links if link.role == "seat" and link.state is not None}

    def _public_link(self) -> TableLink | None:
        return next((link for link in self.links if link.role in ("spectator", "host") and link.state is not None),
                    None)

    def _latest(self) -> dict | None:
        states = [link.state for link in self.links if link.state is not None]
        return max(states, key=lambda s: s["version"]) if states else None

    @property
    def seats(self) -> list[int]:
        """The seats this page plays (those whose token the table accepted)."""
        return sorted(self._seat_links())

    @property
    def live(self) -> bool:
        """Whether the viewer's seat can move now: connected, and the game on."""
        link = self._seat_links().get(self.viewer)
        return link is not None and link.open and link.state.get("status") == "playing"

    def decision_moves(self, seat: int) -> list[Move]:
        """The moves the table last offered ``seat`` for its pending decision (its open
        moves if it has none); empty for a seat not on this page."""
        link = self._seat_links().get(seat)
        if link is None:
            return []
        return [Move.parse(t) for t in link.state["moves"] or link.state["open_moves"]]

    def _player(self, seat: int) -> dict | None:
        """The latest state's entry for ``seat`` (``{"seat", "player", "connected", ...}``), or None."""
        return next((p for p in (self._latest() or {}).get("players", []) if p["seat"] == seat), None)

    def seat_name(self, seat: int) -> str:
        """A seat's label for people, counted from 1 (move texts count from 0), with its
        person's name: "Seat 3 (you, Ana)", "Seat 2 (heuristic bot)", "Seat 4 (Bo, away)",
        "Seat 1"."""
        player = self._player(seat) or {}
        if player.get("player", HUMAN) != HUMAN:
            marks = [f"{player['player']} bot"]
        else:
            marks = ["you"] if seat == self.viewer else []
            marks += [player["name"]] if player.get("name") else []
            marks += ["away"] if seat != self.viewer and player and not player["connected"] else []
        return f"Seat {seat + 1} ({', '.join(marks)})" if marks else f"Seat {seat + 1}"

    def play(self, move: Move) -> None:
        """Send ``move`` to the table from its seat's link; the controls wait for the
        answer (a refusal shows in the error banner).

        Raises:
            PlaytestError: the move's seat is not played on this page.
            ApiError: the link is not connected now (reconnecting).
        """
        link = self._seat_links().get(move.seat)
        if link is None:
            raise PlaytestError(f"seat {move.seat + 1} is not played on this page")
        self.banner.clear()
        self.outcome.value = ""
        try:
            link.send_move(move)
        finally:
            self.refresh()

    def card_clicked(self, seat: int, pos: int | None) -> None:
        """A card click fills an argument of the move being built (the open move if one
        is chosen, else the seat's own move), as in :class:`~playtest.widgets.GameApp`.
        A click that makes no move while one is being built is said next to the controls
        (the table may have moved on under it: a claim's card is gone), never dropped
        without a word."""
        if self.open_moves is None:
            return
        builder = self.open_moves if self.open_moves.kind is not None else self.moves
        kind = builder.kind
        if not builder.pick_card(seat, pos) and kind is not None and self._view is not None:
            label = builder.labels.move_label(kind, self._view)
            self.outcome.value = (f"<b class='pt-warn'>Not sent:</b> that card does not make "
                                  f"“{html.escape(label)}” "
                                  "on the table as it is now (it may have changed since you chose); choose again.")

    def unlock(self, seat: int) -> None:
        """Seat ``seat``'s person confirmed they hold the device (hotseat)."""
        if seat == self.control:
            self.unlocked = seat
            self.refresh()

    def press_continue(self, seat: int) -> None:
        """``seat`` has seen the round's reveal: tell the table.

        Raises:
            PlaytestError: ``seat`` is not played on this page. ApiError: not connected.
        """
        link = self._seat_links().get(seat)
        if link is None:
            raise PlaytestError(f"seat {seat + 1} is not played on this page")
        link.send({"type": "continue"})

    # --- messages from the table ----------------------------------------------------
    def _message(self, link: TableLink, message: dict) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self._welcomed(link, message)
        elif kind == "result":
            self._answered(message)
        elif kind == "error":
            self.banner.show(str(message.get("error")))
        elif kind == "state":
            if message["version"] >= self._latest()["version"]:
                left = message.get("reaction_seconds")
                self._reaction_until = None if left is None else self.clock() + float(left)
                mover = (message.get("last_move") or {}).get("seat")
                if mover is not None and mover not in self.seats and self.outcome.value == PLAYED:
                    self.outcome.value = ""          # another seat has moved since: old news
            if link.resynced:
                moves, link.resynced = ", ".join(link.resynced), []
                self.banner.show(f"the connection dropped before the table answered your move ({moves}) and the "
                                 "table has moved on since: check the board and choose again")
        self.refresh()

    def _answered(self, result: dict) -> None:
        """A move's answer, said next to the controls that sent it (and in the banner when
        it did not count): played, refused with the table's sentence and what its ruling
        says (:func:`~playtest.widgets.gameboard.ruling_sentence`), or too late with what beat
        it. Every move sent gets exactly one answer from the table."""
        if result.get("ok") and not result.get("late"):
            self.outcome.value = PLAYED
            return
        error = str(result.get("late") or result.get("error") or "the table refused the move")
        ruling = str(result.get("ruling") or "")
        text = f"{error} ({ruling})" if ruling and ruling not in error else error
        rule = ruling_sentence(self.game, ruling)     # what the ruling says (the game's line for it)
        text = f"{text.rstrip('.')}. {rule}" if rule else text
        late = text.startswith(TOO_LATE)    # a race lost to a quicker seat: no mistake of this one's
        label, text = ("Too late", text[len(TOO_LATE):]) if late else ("Refused", text)
        self.banner.show(text, label="Too late" if late else "Error")
        self.outcome.value = f"<b class='pt-warn'>{label}:</b> {html.escape(text[:1].upper() + text[1:])}"

    def save_name(self) -> None:
        """Keep the name typed in :attr:`name_box` (in the browser, and with each seat of
        this page at the table); a name :func:`~playtest.tables.live.check_name` refuses
        is said beside the field and nothing is kept."""
        try:
            name = check_name(self.name_box.value)
        except OptionError as exc:
            self.name_note.value = f"<b class='pt-warn'>{html.escape(str(exc))}</b>"
            return
        self.signals.name = name
        self._named(name)

    def _named(self, name: str) -> None:
        """The person's name is known (typed, or kept by the browser): every seat link
        of this page sends it to the table, now and with each join."""
        try:
            name = check_name(name)
        except OptionError:
            return          # a browser's stored value is not trusted: the table would refuse it anyway
        self.name_box.value = name
        self.name_note.value = "" if not name else "<i>saved</i>"
        for link in self.links:
            if link.role == "seat" or not link.welcomed:
                link.name = name
                if link.open and link.role == "seat":
                    link.set_name(name)

    def _draw_turn(self, latest: dict) -> None:
        """The tab's title says when a seat of this page must act ("● Your turn — Lazy
        Sunday"), and the optional beep sounds once when that starts."""
        links = self._seat_links()
        mine = latest.get("status") == "playing" and any(
            link.state["moves"] and not link.pending for link in links.values())
        title = self.game.title if self.game is not None else "Live table"
        self.signals.title = f"● Your turn — {title}" if mine else title
        if mine and not self._my_turn:
            self.signals.beep()
        self._my_turn = mine
        self.you.layout.display = None if links else "none"

    def intro_html(self) -> str:
        """The page's intro (HTML), by the roles the table welcomed its links with: a
        seat's (one seat, or several on one device), a spectator's (the public view only)
        or the host's (what the host controls do; after a seat's when the page also plays
        seats). "" before any welcome."""
        roles = {link.role for link in self.links if link.welcomed}
        seats = sorted(link.seat for link in self.links if link.welcomed and link.role == "seat")
        parts = []
        if seats:
            numbers = [str(seat + 1) for seat in seats]      # as people count
            who = "seat " + numbers[0] if len(seats) == 1 else (
                "seats " + ", ".join(numbers[:-1]) + f" and {numbers[-1]}")
            parts.append((SEAT_INTRO if len(seats) == 1 else HOTSEAT_INTRO).format(who=who))
        if "host" in roles:
            parts.append(HOST_INTRO)
        elif "spectator" in roles and not seats:
            parts.append(SPECTATOR_INTRO)
        return " ".join(parts)

    def _welcomed(self, link: TableLink, message: dict) -> None:
        if self.game is None:
            self._build(get_game(message["game"]), message)
        self.intro.value = self.intro_html()
        report = self.banner.show
        if link.role == "host" and self.host is None:
            self.host = HostControls(self.api, self.table_id, link.token, self.game, report)
            self.host_box.children = (self.host.widget,)
        if link.role == "seat" and link.seat not in self.forms:
            seat = link.seat
            several = sum(1 for t in self.links if t.role == "seat") > 1
            self.forms[seat] = FeedbackForm(self.api, self.table_id, seat, link.token, report,
                                            f" of seat {seat + 1}" if several else "")
            self.over_forms.children = tuple(self.forms[s].widget for s in sorted(self.forms))
            button = w.Button(description=f"Continue (seat {seat + 1})" if several else "Continue", icon="play",
                              button_style="primary", layout=w.Layout(width="auto"))
            button.on_click(safe(lambda _b, s=seat: self.press_continue(s), report))
            button.add_class("pt-continue")
            self.continue_buttons[seat] = button
            self.hold_buttons.children = tuple(self.continue_buttons[s] for s in sorted(self.continue_buttons))

    def _build(self, game, welcome: dict) -> None:
        """The game's board and move controls, built once (the first welcome names the game)."""
        report = self.banner.show
        self.game = game
        self.board = board_class(game)(self)
        self.board.widget.add_class("pt-table")
        self.moves = self.board.make_move_controls(safe(self.play, report), report)
        self.moves.on_change = self._highlight
        self.open_moves = MoveBuilder(builder_kinds(game, open_moves=True), self.board, safe(self.play, report), self.board.card_args,
                                      on_change=self._highlight, title=self.board.open_title, report=report)
        self.open_box.children = (self.open_moves.widget, self.claimer)
        self.controls.children = (w.VBox([self.moves.widget, *self.board.extra_controls]), self.open_box)
        self.board_box.children = (self.board.widget,)
        self.rules.children[0].value = how_to_play_html(game, self.board.rules_html)
        self.rules.children[0].add_class("pt-rules")
        self.rules.layout.display = None
        title = html.escape(welcome.get("title") or game.title)
        cards = welcome.get("cards") or ""
        self.title.value = (f"<b>{title}</b> · live table {html.escape(self.table_id)} · "
                            f"<span class='pt-card-variant'>cards: "
                            f"{html.escape(f'the {cards} variant' if cards else 'the game’s own')}</span>")

    def _link_changed(self, link: TableLink) -> None:
        if link.status == "closed" and not link.welcomed:
            if all(t.status == "closed" and not t.welcomed for t in self.links):
                self.refuse(html.escape(pages.sentence(link.reason)))
            else:
                self.banner.show(f"one of this page's links was refused: {link.reason}")
        self.refresh()

    # --- drawing ------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw every component in place from the latest states."""
        if self.board is None:
            self._draw_status()
            return
        self._drawing = True
        try:
            self._draw()
        finally:
            self._drawing = False

    def _draw(self) -> None:
        links = self._seat_links()
        seats = sorted(links)
        public = self._public_link()
        latest = self._latest()
        if latest is None:
            self._draw_status()
            return
        pending = [s for s in seats if links[s].state["moves"]]
        # the first seat to decide holds the device; while nobody has taken it yet, the
        # lowest of several seats deciding at once (setup peeks, LS-3), whichever state came first
        if pending and (self.control not in pending or self.unlocked != self.control):
            self.control = pending[0]
        if self.control not in seats:
            self.control = seats[0] if seats else None
        # one person per device unless the page holds several seats (those not yet
        # welcomed may be seats too: a page must not unlock before it knows)
        maybe = [t for t in self.links if t.role == "seat" or (not t.welcomed and t.status != "closed")]
        if len(seats) == 1 and len(maybe) == 1:
            self.unlocked = seats[0]
        locked = self.control is not None and self.unlocked != self.control
        self.viewer = None if locked else self.control
        if locked:
            self.privacy.show(self.control, self.seat_name(self.control))
        else:
            self.privacy.hide()
        shown = links[self.viewer].state if self.viewer is not None else (public.state if public else None)
        self._draw_status()
        self._draw_players(latest)
        self._draw_turn(latest)
        self._draw_hold(latest)
        self._draw_over(latest)
        self.draw_countdown()
        self.turn_clock.draw(latest, [] if self.viewer is None else [self.viewer], self.seat_name)
        if self.host is not None and public is not None and public.role == "host":
            self.host.show(public.state)
        self.controls.layout.display = None if seats else "none"
        if shown is None:           # hotseat behind the privacy screen, and no public view on this page
            self._blank(f"Hidden until seat {self.control + 1} confirms.")
            self._draw_last_move(latest, None)
            return
        view = self._view = shown["view"]
        self.board_box.layout.display = None
        self.log.widget.layout.display = None
        link = links.get(self.viewer)
        playing = shown.get("status") == "playing"
        over = shown.get("outcome") is not None or not playing
        mine = []
        if link is not None:
            mine = [m for m in map(Move.parse, shown["moves"]) if m.kind not in self.game.OPEN_MOVES]
        busy = link is not None and bool(link.pending)
        ready = link is not None and link.open and not busy
        note = ("Game over." if over else "Sending your move…" if busy and link.open else
                f"This page has left the table: {link.reason}." if link is not None and link.status == "closed" else
                "Not connected: waiting for the table…" if link is not None and not link.open else
                self._hold_note(shown["hold"]) if shown.get("hold") and link is not None else
                "" if mine else
                waiting_note([s for s in shown.get("to_act", ()) if s != self.viewer], self.seat_name)
                if link is not None else "")
        # a decision lasts while only other seats move and this seat is offered the same
        # moves: in a Family Meeting everyone chooses at once (CR-8), so another seat's
        # commit must not wipe the pass being built. A move of its own starts a new one.
        key, last = (self.viewer, tuple(shown["moves"])), shown.get("last_move") or {}
        if key != self._decision[0] or (last.get("seat") == self.viewer and last.get("number", 0) > self._decision[1]):
            self._decision = (key, shown["version"])
        self.moves.show(self.viewer, mine, view, enabled=ready and playing, note=note,
                        decision=(self.viewer, self._decision[1]))
        claimers = [s for s in seats if not locked and links[s].state["open_moves"]]
        options = [(f"seat {s + 1}", s) for s in claimers]
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
        claim_link = links.get(who)
        claims = [Move.parse(t) for t in claim_link.state["open_moves"]] if claim_link is not None else []
        # one decision per claiming seat: a quick discard in progress ("Done it!" chosen,
        # the card not yet clicked) survives other seats' moves (the builder keeps it), and
        # a card click is never silently dropped: within REACTION of a change it finishes
        # the claim on the offer it was begun on, later on the new one (LS-5)
        self.open_moves.show(who, claims, view, enabled=claim_link is not None and claim_link.open
                             and not claim_link.pending, decision=who)
        self.open_box.layout.display = None if claimers else "none"
        self.log.show(shown["log"])
        self._draw_last_move(latest, shown)
        self.board.update(view, self._clickable())

    def _blank(self, note: str) -> None:
        """Behind the privacy screen with no public view: nothing of the last seat's
        view stays on the page (its cards are blanked, its moves and log emptied)."""
        self._view = None
        self.moves.show(None, [], {}, enabled=False, note=note, decision=("blank",))
        self.open_moves.show(None, [], {}, enabled=False, decision=("blank",))
        self.open_box.layout.display = "none"
        self.log.show([])
        self.log.widget.layout.display = "none"
        self.board_box.layout.display = "none"
        stack = [self.board.widget]
        while stack:
            widget = stack.pop()
            if isinstance(widget, Card):
                widget.show(None)
            stack.extend(getattr(widget, "children", ()))

    def _clickable(self) -> set:
        return self.open_moves.clickable_cards() if self.open_moves.kind is not None else self.moves.clickable_cards()

    def _highlight(self) -> None:
        """A move builder's choice changed: redraw the board's clickable cards."""
        if not self._drawing and self.board is not None and self._view is not None:
            self.board.update(self._view, self._clickable())

    def _draw_status(self) -> None:
        links = self.links
        closed = [t for t in links if t.status == "closed"]
        latest = self._latest()
        classes = []
        if any(t.status == "reconnecting" for t in links):
            text, classes = "Reconnecting to the table…", ["pt-reconnecting"]
        elif links and any(t.status == "connecting" for t in links):
            text, classes = "Connecting to the table…", ["pt-reconnecting"]
        elif links and len(closed) == len(links):
            ended = {"over": "Game over", "ended": "The host ended this table"}.get((latest or {}).get("status"))
            text, classes = ended or f"Not connected: {closed[0].reason}.", ["pt-closed"]
        elif latest is None:
            text = "Connected; waiting for the table…"
        else:
            status = latest.get("status")
            text = {"over": "Game over", "ended": "The host ended this table"}.get(status, "Connected")
            if status == "playing":
                bots = any(p.get("player") != HUMAN for p in latest.get("players", []))
                if latest.get("store"):       # the server cannot save moves now: the table waits
                    text += f" · {latest['store']}"
                    classes = ["pt-closed"]
                elif latest.get("paused"):
                    text += " · bots paused by the host" if bots else " · paused by the host"
                elif bots:
                    text += f" · bot pace: {latest.get('pace')}"
            if closed:
                text += f" · {closed[0].reason}"
                classes = ["pt-closed"]
        self.status.value = html.escape(text)
        for name in ("pt-reconnecting", "pt-closed"):
            if name in classes:
                self.status.add_class(name)
            else:
                self.status.remove_class(name)

    def _draw_players(self, latest: dict) -> None:
        mine = set(self.seats)
        # a seat link opened again where the browser kept no name (another device, a
        # private window): the name the table keeps for the seat fills the empty box, once
        # the browser has said it keeps none (PageSignals.loaded)
        kept = [p["name"] for p in latest.get("players", []) if p["seat"] in mine and p.get("name")]
        if len(mine) == 1 and kept and self.signals.loaded and not self.signals.name and not self.name_box.value:
            self.signals.name = kept[0]          # _named fills the box; the browser keeps it from now on
        marks = []
        for p in latest.get("players", []):
            seat, player = p["seat"], p["player"]
            label = f"Seat {seat + 1}" + (f" · {p['name']}" if player == HUMAN and p.get("name") else "")
            if player != HUMAN:
                cls, text = "pt-bot", f"{label} · {player} bot"
            elif p["connected"]:
                cls, text = "pt-on", f"{label} · connected"
            else:
                cls, text = "pt-away", f"{label} · disconnected"
            if seat in mine:
                cls, text = cls + " pt-me", text + (" · you" if seat == self.viewer or len(mine) == 1 else " · this device")
            if seat in latest.get("to_act", ()) and latest.get("status") == "playing":
                cls, text = cls + " pt-acting", text + " · to act"
            marks.append(f"<span class='pt-player {cls}' data-seat='{seat}'>{html.escape(text)}</span>")
        self.players.value = "".join(marks)
        # the page stays connected when the host hands its seat to a bot (forced, or while
        # it was away): say so plainly, or the person would only find their moves gone
        bots = [p for p in latest.get("players", []) if p["seat"] in mine and p["player"] != HUMAN]
        text = "; ".join(f"the {p['player']} bot plays seat {p['seat'] + 1} now" for p in bots)
        self.handed.value = (f"<b>The host handed your seat to a bot</b>: {html.escape(text)}. You can keep "
                             "watching; the host can hand it back to you." if bots else "")
        self.handed.layout.display = None if bots else "none"

    def _draw_last_move(self, latest: dict, shown: dict | None) -> None:
        """The last move, worded for the viewer (its log lines); newly arrived, it is
        marked for :data:`FRESH_SECONDS` on the line and on its seat's part of the board."""
        last = (shown or latest).get("last_move")
        first, self._first_state = self._first_state, False
        if last is None:
            self.last_move.value = ""
            return
        number, seat = last.get("number"), last["seat"]
        player, by_bot = self._player(seat), bool(last.get("by_bot"))
        # the seat may have changed hands since the move: then name who made it
        who = (self.seat_name(seat) if by_bot == (player is not None and player["player"] != HUMAN)
               else f"Seat {seat + 1} ({'a bot' if by_bot else 'a person'})")
        lines = [for_people(text) for n, text in shown["log"] if n == number] if shown is not None and number else []
        if lines:
            what = " ".join(lines)
        elif shown is not None:
            what = self.board.move_label(last["kind"], shown["view"])
        else:                       # behind the privacy screen: the move's public lines only
            what = " ".join(for_people(text) for text in last.get("public") or ()) or last["kind"]
        self.last_move.value = f"<b>Last move</b> · {html.escape(name_once(what, seat, who))}"
        if number != self._seen_move:
            self._seen_move = number
            if not first:
                self._mark_fresh(seat if shown is not None else None)

    def _mark_fresh(self, seat: int | None) -> None:
        self._unmark()
        self.last_move.add_class("pt-fresh")
        widget = self.board.seat_widget(seat) if seat is not None else None
        if widget is not None:
            widget.add_class("pt-moved")
            self._marked = widget
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._fresh_timer = loop.call_later(FRESH_SECONDS, self._unmark)

    def _unmark(self) -> None:
        if self._fresh_timer is not None:
            self._fresh_timer.cancel()
            self._fresh_timer = None
        self.last_move.remove_class("pt-fresh")
        if self._marked is not None:
            self._marked.remove_class("pt-moved")
            self._marked = None

    def draw_countdown(self) -> None:
        """Show the open reaction window's seconds left (whole seconds, rounded up) and
        plan the next redraw for when that number changes; hidden when no window with a
        time limit is open (the table's ``reaction_limit``; CR-7: when it runs out the
        seat that must answer lets the action happen). The seat that must answer reads
        "N s left to answer" (class ``pt-mine``); every other page, which seat has how
        long. The table decides when the time is up; this is only its clock shown."""
        if self._countdown_timer is not None:
            self._countdown_timer.cancel()
            self._countdown_timer = None
        latest = self._latest()
        if self._reaction_until is None or latest is None or latest.get("status") != "playing":
            self.countdown.layout.display = "none"
            self.countdown.value = ""
            return
        left = max(0.0, self._reaction_until - self.clock())
        seconds = math.ceil(round(left, 3))
        answering = list(latest.get("to_act", []))
        mine = bool(answering) and all(s in self.seats for s in answering) and (
            len(self.seats) == 1 or self.viewer in answering)
        if mine:
            text = (f"<b>{seconds} s</b> left to answer: when the time runs out, you let the action happen."
                    if seconds else "<b>Time is up</b>: you let the action happen.")
        else:
            who = html.escape(", ".join(self.seat_name(s) for s in answering) or "a seat")
            text = (f"Reaction window open: {who} has <b>{seconds} s</b> left to answer." if seconds else
                    f"<b>Time is up</b> for {who}: the action happens.")
        self.countdown.value = text
        self.countdown.layout.display = None
        if mine:
            self.countdown.add_class("pt-mine")
        else:
            self.countdown.remove_class("pt-mine")
        if seconds:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:        # no loop (a script): no ticking
                return
            self._countdown_timer = loop.call_later(left - (seconds - 1), self.draw_countdown)

    def _hold_note(self, hold: dict) -> str:
        """The move controls' note during the round's reveal: press Continue, or (pressed)
        who the next round waits for."""
        if any(seat in hold["waiting"] for seat in self.continue_buttons):
            return "The round is over: press Continue."
        names = ", ".join(self.seat_name(s) for s in hold["waiting"])
        return f"You pressed Continue: the next round is dealt once {names} has too."

    def _draw_hold(self, latest: dict) -> None:
        hold = latest.get("hold")
        self.hold_box.layout.display = "flex" if hold else "none"
        waiting = hold["waiting"] if hold else []
        for seat, button in self.continue_buttons.items():
            button.layout.display = None if seat in waiting else "none"
        if hold:
            names = ", ".join(self.seat_name(s) for s in waiting) or "nobody"
            self.hold_text.value = (f"<b>{html.escape(for_people(hold['reason']))}</b><br>"
                                    f"Still to press Continue: {html.escape(names)}.")
        else:
            self.hold_text.value = ""

    def _draw_over(self, latest: dict) -> None:
        outcome, status = latest.get("outcome"), latest.get("status")
        over = outcome is not None or status in ("over", "ended")
        self.over_box.layout.display = "flex" if over else "none"
        if not over:
            return
        if outcome is not None:
            winners = ", ".join(self.seat_name(s) for s in outcome["winners"]) or "nobody"
            scores = ", ".join(f"seat {s + 1}: {v}" for s, v in enumerate(outcome["scores"]))
            head = "Game over" if outcome.get("finished", True) else "Game stopped unfinished"
            text = (f"<b>{head}</b>: {html.escape(for_people(str(outcome['reason'])))} — winner: {html.escape(winners)} "
                    f"· scores {html.escape(scores)}")
        else:
            text = "<b>The host ended this table</b> before the game was over."
        if self.forms:
            text += "<br>Thanks for playing. A short word on how it went helps the designer:"
        self.over_text.value = text
