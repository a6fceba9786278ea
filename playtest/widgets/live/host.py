"""The host's controls of a live table, shown on a page opened with the host token:
pause or resume the bots, their pace, set the turn timer or turn it off, hand a seat
to a bot (or back to a person), start the next round for everyone, end the table, and
download the record once the game is over or ended (LS-11: no record while the game
runs; the service refuses before) and replay it in the page (the scenario debugger on
the record: step, jump, every seat's view or all cards).

A seat whose person's page is connected is handed to a bot only after the host confirms
("Seat N is connected: hand it to a bot anyway?"): the first request goes without
``force``, and the service's refusal (409: a person is connected) opens the question, so
the answer rests on the service's knowledge, not on a state the page saw earlier."""
from __future__ import annotations

import html
import json
import math
from typing import Callable

import ipywidgets as w

from ...tables.live import HUMAN, PACES, TURN_LIMITS
from ..components import download_link, safe
from .client import ApiError, TableApi, spawn


PERSON = ("A person (its link)", HUMAN)
"""The seat picker's entry that hands a seat back to the person with its link."""


class HostControls:
    """The host controls, posting to ``tables/<id>/host`` with the host token.

    Args:
        api: the service. table_id: the table. token: the host token.
        game: the Game class (its ``BOTS`` and name). report: where errors go (e.g.
            ``ErrorBanner.show``).

    Attributes:
        widget: the box (class ``pt-host``). pause, pace, turn, set_turn, turn_off,
        turn_note (the turn timer: its seconds box, Set and Off buttons, what it is now),
        seat, player, hand, next_round, end, confirm_end, cancel_end, record, record_link,
        replay, replay_box, note: its parts (``debugger``: the replay's ScenarioDebugger
        once Replay was pressed); hand_box
        (class ``pt-host-force``) with hand_question, confirm_hand and cancel_hand: the
        question before a connected seat is handed to a bot. running: the parts shown
        only while the table is played. state: the last state shown.
    """

    def __init__(self, api: TableApi, table_id: str, token: str, game, report: Callable[[Exception], None]):
        self.api, self.table_id, self.token, self.game, self.report = api, table_id, token, game, report
        self.state: dict = {}
        self._busy = False

        def button(text, handler, style="", tip=""):
            b = w.Button(description=text, button_style=style, tooltip=tip, layout=w.Layout(width="auto"))
            b.on_click(safe(lambda _b: handler(), report))
            return b

        self.pause = button("Pause the bots", self._toggle_pause,
                            tip="Bots hold, and a reaction window's time limit and the turn timer stop until "
                                "you resume")
        self.pace = w.Dropdown(options=list(PACES), description="Bot pace", layout=w.Layout(width="200px"),
                               tooltip="How long a bot thinks before a move and before a quick reaction")
        self.pace.observe(safe(self._pace_picked, report), "value")
        self.turn = w.Text(placeholder="seconds", description="Turn timer", layout=w.Layout(width="200px"),
                           tooltip=f"Seconds a person has per decision, {TURN_LIMITS[0]} to {TURN_LIMITS[1]}")
        self.set_turn = button("Set", self._set_turn,
                               tip="Give each person this many seconds per decision, from now; when they run out, "
                                   "the table plays for them with a bot")
        self.turn_off = button("Off", lambda: self._act({"action": "timer", "seconds": None}, "Turn timer off."),
                               tip="No time limit on people's decisions")
        self.turn_note = w.HTML()
        self.seat = w.Dropdown(description="Seat", layout=w.Layout(width="320px"))
        bots = list(game.BOTS)
        self._bot_options = [(f"Bot: {b}", b) for b in bots]
        self.player = w.Dropdown(options=self._bot_options + [PERSON], layout=w.Layout(width="200px"))
        self.seat.observe(lambda _c: self._offer_players(), "value")
        self.hand = button("Seat it", self._hand_over, tip="Hand the seat to this bot (a player who left), or back "
                                                             "to the person with the seat's link")
        self.next_round = button("Start the next round for everyone", lambda: self._act({"action": "continue"}),
                                 tip="The round's reveal: deal the next round without waiting for every Continue")
        self.end = button("End the table", self._ask_end, style="danger")
        self.confirm_end = button("Yes, end it for everyone", lambda: self._act({"action": "end"}), style="danger")
        self.cancel_end = button("No", self._keep)
        self.confirm_box = w.HBox([w.HTML("End the table for everyone? Nobody can move after this.&nbsp;"),
                                   self.confirm_end, self.cancel_end], layout=w.Layout(display="none"))
        self.confirm_hand = button("Yes, hand it to the bot", self._force, style="danger")
        self.cancel_hand = button("No", self._keep)
        self.hand_question = w.HTML()
        self.hand_box = w.HBox([self.hand_question, self.confirm_hand, self.cancel_hand],
                               layout=w.Layout(display="none", align_items="center"))
        self.hand_box.add_class("pt-host-force")
        self._handing: tuple[dict, str] | None = None    # (body, note) of a hand-over awaiting the yes
        self.record = button("Get the record", self._get_record,
                             tip="The game's record (open it in the scenario debugger); once the game is over")
        self.record_link = w.HTML()
        self.replay = button("Replay the game", self._get_replay,
                             tip="Step through the whole game, every seat's view or all cards; once it is over")
        self.replay_box = w.VBox()
        self.replay_box.add_class("pt-replay")
        self.debugger = None       # the replay (a ScenarioDebugger), once asked for
        self.note = w.HTML()
        # the controls of a table being played: hidden once its game is over or it has ended
        self.running = [w.HBox([self.pause, self.pace], layout=w.Layout(align_items="center", flex_flow="row wrap")),
                        w.HBox([self.turn, self.set_turn, self.turn_off, self.turn_note],
                               layout=w.Layout(align_items="center", flex_flow="row wrap")),
                        w.HBox([self.seat, self.player, self.hand],
                               layout=w.Layout(align_items="center", flex_flow="row wrap")),
                        self.next_round, self.end]
        self.widget = w.VBox([
            w.HTML("<b>Host controls</b>"), *self.running[:3],
            self.hand_box,
            w.HBox([self.next_round, self.end, self.record, self.record_link, self.replay],
                   layout=w.Layout(align_items="center", flex_flow="row wrap")),
            self.confirm_box, self.note, self.replay_box])
        self.widget.add_class("pt-host")

    def show(self, state: dict) -> None:
        """Show the table as ``state`` (a ``state`` message) says: paused or not, pace,
        who plays each seat, whether a round's reveal waits, whether it is over."""
        self.state = state
        self._busy = True
        try:
            paused = state.get("paused", False)
            # a table of people only: the pause holds a reaction window's time limit, no bots
            bots = any(p["player"] != HUMAN for p in state.get("players", []))
            what = "the bots" if bots else "the table"
            self.pause.description = f"Resume {what}" if paused else f"Pause {what}"
            self.pace.layout.display = None if bots else "none"
            self.pause.button_style = "warning" if paused else ""
            if state.get("pace") in PACES and self.pace.value != state["pace"]:
                self.pace.value = state["pace"]
            limit = state.get("turn_limit")
            self.turn_note.value = (f"now {limit:g} s per decision" if limit else "now off")
            self.turn_off.disabled = not limit
            options = []
            for p in state.get("players", []):
                who = f"{p['player']} bot" if p["player"] != HUMAN else (
                    (p.get("name") or "person") + (", connected" if p["connected"] else ", disconnected"))
                options.append((f"Seat {p['seat'] + 1} ({who})", p["seat"]))
            if list(self.seat.options) != options:
                keep = self.seat.value
                self.seat.options = options
                self.seat.value = keep if keep in [v for _, v in options] else (options[0][1] if options else None)
            self._offer_players()
        finally:
            self._busy = False
        playing = state.get("status") == "playing"
        for control in (self.pause, self.pace, self.turn, self.set_turn, self.seat, self.player, self.hand, self.end):
            control.disabled = not playing
        for part in self.running:
            part.layout.display = None if playing else "none"
        self.next_round.disabled = not (playing and state.get("hold"))
        self.record.disabled = self.replay.disabled = playing
        if not playing:
            self.confirm_box.layout.display = self.hand_box.layout.display = "none"

    # --- actions ------------------------------------------------------------------
    def _act(self, body: dict, done: str = "") -> None:
        self._keep()
        spawn(self._post(body, done), self.report)

    async def _post(self, body: dict, done: str) -> None:
        try:
            await self.api.call("POST", f"tables/{self.table_id}/host", body, token=self.token)
        except ApiError as exc:
            # the service refuses to hand a connected person's seat to a bot without
            # "force" (409): ask the host, rather than show the refusal as an error
            if body.get("action") != "bot" or exc.status != 409 or body.get("force"):
                raise
            self._handing = ({**body, "force": True}, done)
            self.hand_question.value = (f"<b>Seat {body['seat'] + 1} is connected: hand it to a bot anyway?</b> "
                                        "A person is playing it; their page will say the host handed it over.&nbsp;")
            self.hand_box.layout.display = "flex"
            return
        self.note.value = f"<i>{html.escape(done)}</i>" if done else ""

    def _toggle_pause(self) -> None:
        paused = self.state.get("paused", False)
        self._act({"action": "resume" if paused else "pause"}, "Bots resumed." if paused else "Bots paused.")

    def _pace_picked(self, change) -> None:
        if not self._busy and change["new"] != self.state.get("pace"):
            self._act({"action": "pace", "pace": change["new"]}, f"Bot pace: {change['new']}.")

    def _set_turn(self) -> None:
        """Send the seconds typed as the turn timer (the service refuses a number out of
        its range, in a sentence shown in the banner)."""
        text = self.turn.value.strip()
        try:
            seconds = float(text)
            if not math.isfinite(seconds):
                raise ValueError(text)
        except ValueError:
            raise ValueError(f"type the turn timer's seconds per decision, {TURN_LIMITS[0]} to {TURN_LIMITS[1]} "
                             f"(or press Off), not {text[:40]!r}") from None
        seconds = int(seconds) if seconds.is_integer() else seconds
        self._act({"action": "timer", "seconds": seconds}, f"Turn timer: {seconds:g} s per decision, from now.")

    def _offer_players(self) -> None:
        """Offer the chosen seat the game's bots, and its person only if the seat was made
        for one (a seat made for a bot has no link: the service refuses a person there)."""
        entry = next((p for p in self.state.get("players", []) if p["seat"] == self.seat.value), None)
        options = self._bot_options + ([PERSON] if entry is None or entry.get("person", True) else [])
        if list(self.player.options) != options:
            keep = self.player.value
            self.player.options = options
            self.player.value = keep if keep in [v for _, v in options] else options[0][1]

    def _hand_over(self) -> None:
        if self.seat.value is None:
            raise ValueError("choose a seat first")
        who = "a person" if self.player.value == HUMAN else f"the {self.player.value} bot"
        self._act({"action": "bot", "seat": self.seat.value, "bot": self.player.value},
                  f"Seat {self.seat.value + 1} is played by {who} now.")

    def _force(self) -> None:
        """The host's yes: hand the connected seat to the bot after all (``force``)."""
        handing, self._handing = self._handing, None
        if handing is not None:
            self._act(*handing)

    def _ask_end(self) -> None:
        self.confirm_box.layout.display = "flex"

    def _keep(self) -> None:
        self.confirm_box.layout.display = self.hand_box.layout.display = "none"
        self._handing = None

    def _get_record(self) -> None:
        spawn(self._fetch_record(), self.report)

    def _get_replay(self) -> None:
        spawn(self._fetch_replay(), self.report)

    async def _fetch_replay(self) -> None:
        """The replay: the table's record (the service hands it to the host token only,
        once the game is over or ended: it shows every card, G-3) in the scenario
        debugger, from move 0: step, jump to a move, any seat's view or all cards."""
        from ..debugger import ScenarioDebugger      # the replay's code is loaded only when asked for
        record = await self.api.call("GET", f"tables/{self.table_id}/record", token=self.token)
        self.debugger = ScenarioDebugger()
        self.debugger.load_record(json.dumps(record), f"table {self.table_id}")
        self.replay_box.children = (w.HTML("<b>Replay</b> (every card is shown: the game is over)"),
                                    self.debugger.widget)

    async def _fetch_record(self) -> None:
        record = await self.api.call("GET", f"tables/{self.table_id}/record", token=self.token)
        self.record_link.value = download_link(
            json.dumps(record, indent=1), f"{self.game.name}_table_{self.table_id}.json", "application/json",
            "The whole game's record: open it in the scenario debugger", "the record")
