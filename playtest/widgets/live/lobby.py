"""The lobby of live tables (``dashboards/lobby.ipynb``): create a table, hand out its
links, list the open tables with their free seats, and export the finished ones.

The create form is the game's new-game panel (seats, people and bots, options, seed) with
the table's own settings: where it starts (a new game, or where one of the game's shipped
scenarios or of your scenario files stops: ``NAME.toml`` in the scenarios folder, as for a
dashboard's ``?scenario=NAME``), the bots' pace, whether other people's seats are left open for the
lobby's Join, and for a game with reaction windows (Chore Race CR-7) a time limit for
answering (off by default).

Creating a table posts to the table service with the server key (``X-Playtest-Key``:
``$PLAYTEST_TABLES_KEY``, which the server put in every kernel's environment; a browser
never sees it). The answer's tokens are shown once, as links: one per human seat, one
for all the human seats on one device (hotseat, with the privacy screen), the spectator
link (the public view, for a projector) and the host link (the public view and the host
controls). Links are relative to the lobby's own folder (Voilà serves both pages from
``.../voila/render/``) and open in a new tab; the full address beside each is for
copying to another device.
"""
from __future__ import annotations

import csv
import functools
import html
import io
import json
import reprlib
import time
from typing import Any, Callable

import ipywidgets as w

from ...engine import OptionError, games
from ...engine.game import Reacts
from ...scenarios import Scenario, example, examples, find_scenario, is_scenario_name, scenarios_dir
from ...tables.live import DEFAULT_PACE, HUMAN, PACES, TURN_LIMITS, check_turn_limit
from ...tables.service import CHOSEN_SEED_NOTE, REACTION_LIMITS
from ..components import ErrorBanner, download_link, safe, style_widget
from ..newgame import NewGamePanel, option_label
from ..page import address_for_others, proxied_lobby_note
from .client import ApiError, TableApi, spawn
from .listing import REFRESH_EVERY, players_text, refresh_while_active
from .share import CopyButton, qr_image
from .style import STYLE

def has_reactions(game) -> bool:
    """Whether ``game`` (a Game class) has reaction windows a time limit can close: it
    is :class:`~playtest.engine.game.Reacts` (Chore Race: CR-7)."""
    return issubclass(game, Reacts)


MAX_USER_SCENARIOS = 200
"""Files of the scenarios folder the lobby reads at most (sorted by name)."""


@functools.lru_cache(maxsize=None)
def shipped_scenarios(game: str) -> tuple[tuple[str, Scenario], ...]:
    """The shipped scenarios of ``game`` (a registry name) a table can start from, as
    ``(name, Scenario)`` sorted by name: those whose game goes on at their end (a scenario
    that ends the game would make a table with nothing to play). Read once per process."""
    found = []
    for name in examples(game):
        scenario = example(name)
        if scenario.to_match().outcome() is None:
            found.append((name, scenario))
    return tuple(found)


def user_scenarios(game: str) -> tuple[tuple[str, Scenario], ...]:
    """The scenarios of ``game`` in the scenarios folder (``NAME.toml`` in
    :func:`~playtest.scenarios.scenarios_dir`, the folder a dashboard's ``?scenario=NAME``
    and the table service read) a table can start from, as ``(NAME, Scenario)`` sorted by
    name; read afresh on each call. A file that is not a valid scenario (or over an
    input limit), whose game ends at its end, or named like a shipped example (the name
    means the example) is left out; at most :data:`MAX_USER_SCENARIOS` files are read."""
    try:
        paths = sorted(scenarios_dir().glob("*.toml"))[:MAX_USER_SCENARIOS]
    except OSError:
        return ()
    shipped = examples()
    found = []
    for path in paths:
        name = path.stem
        if name in shipped or not is_scenario_name(name):
            continue
        try:
            scenario = find_scenario(name)
            if scenario.game == game and scenario.to_match().outcome() is None:
                found.append((name, scenario))
        except Exception:  # noqa: BLE001 - a broken file is simply not offered
            continue
    return tuple(found)


def playable_scenarios(game: str) -> tuple[tuple[str, Scenario], ...]:
    """Where a table of ``game`` can start: :func:`shipped_scenarios`, then
    :func:`user_scenarios`."""
    return shipped_scenarios(game) + user_scenarios(game)


def _link_row(label: str, path: str, folder: str) -> str:
    """One table row: the link (relative, new tab), the full address to copy and its QR
    code (none without the folder's full address)."""
    anchor = f"<a href='{html.escape(path)}' target='_blank' rel='noopener'>{html.escape(label)}</a>"
    address = address_for_others(folder, path) if folder else ""
    full = f"<code class='pt-address'>{html.escape(address)}</code>" if folder else ""
    qr = qr_image(address, label) if folder else ""
    return f"<tr><td>{anchor}</td><td>{full}</td><td>{qr}</td></tr>"


def _copies(links: list[tuple[str, str]], folder: str) -> list[CopyButton]:
    """A copy button per ``(label, path)`` link, copying its full address (none without
    the folder's full address)."""
    return [CopyButton(address_for_others(folder, path), f"Copy: {label}") for label, path in links] if folder else []


def _result(table: dict) -> str:
    """A finished table's result in words: the winners (seats counted from 1, as every
    page shows them) and the scores; "ended before the end" when it has none."""
    winners, scores = table.get("winners") or [], table.get("scores") or []
    if not winners and not scores:
        return "ended before the end"
    won = (f"won by seat{'s' * (len(winners) > 1)} {', '.join(str(s + 1) for s in winners)}" if winners
           else "no winner")
    return won + (f" (scores {', '.join(map(str, scores))})" if scores else "")


PAST_SHOWN = 50
"""Past tables the lobby lists (the newest); the export has them all."""


class LobbyApp:
    """The lobby.

    Args:
        api: the table service (default: ``$PLAYTEST_TABLES_URL`` and
            ``$PLAYTEST_TABLES_KEY``).
        folder: the full address of the dashboards' folder, for the copyable addresses
            (see :func:`~playtest.widgets.live.client.page_folder`; "" shows only the
            relative links).
        refresh_every: seconds between automatic refreshes of the table list (0: only
            the Refresh button).
        game: the game picked at first.
        start: False builds the lobby without contacting the service (call
            :meth:`refresh`).

    Attributes:
        widget: the root box.
        banner: errors.
        game: the game dropdown.
        panels: game name -> its :class:`~playtest.widgets.NewGamePanel` (built when
            first picked).
        panel: the one on show.
        pace: the table's bot pace.
        listed: whether the lobby lists the table.
        scenario: where the table starts ("": a new game; else a key of ``scenarios``).
        scenario_note: what that scenario is.
        seed_note: the line under the seed box
            (:data:`~playtest.tables.service.CHOSEN_SEED_NOTE`).
        scenarios: name -> Scenario of the game on show (:func:`playable_scenarios`, read
            when the game is picked).
        reaction: the reaction time limit's text input (blank: off), shown for a game
            with :func:`has_reactions` only.
        reaction_help: its help line.
        turn: the turn timer's text input (seconds per decision; blank: off, the default).
        turn_help: its help line.
        links: the links of the last table made or joined (class ``pt-lobby-links``).
        made: the service's answer for the last table created.
        tables: the list of tables (class ``pt-lobby-tables``).
        rows: its pooled rows ``(box, text, join button)``.
        listing: the last list the service sent.
        store_note: the store's problem, one sentence (class ``pt-store-problem``, hidden
            when there is none).
        damaged_box: the tables the store holds but cannot replay, each with its reason
            and a Record button (class ``pt-damaged``).
        damaged: the last such list the service sent.
        refresh_button: the Refresh button.
        export_csv: the CSV export button.
        export_json: the JSON export button.
        export_link: the export's download link.
    """

    def __init__(self, api: TableApi | None = None, folder: str = "", refresh_every: float = REFRESH_EVERY,
                 game: str = "lazy_sunday", start: bool = True):
        self.api = api or TableApi()
        self.folder = folder
        self.refresh_every = refresh_every
        self.made: dict | None = None
        self.shown_links: list[str] = []     # the links this page was given, newest first (HTML blocks)
        self.listing: list[dict] = []
        self._active = time.monotonic()
        self._poller = None
        self.banner = ErrorBanner()
        report = self.banner.show
        self.report = report
        named = sorted(games().items(), key=lambda item: item[1].title)
        self.game = w.Dropdown(options=[(g.title, name) for name, g in named], description="Game",
                               value=game if game in dict(named) else named[0][0])
        self.game.observe(safe(lambda _c: self._show_panel(), report), "value")
        self.panels: dict[str, NewGamePanel] = {}
        self.scenarios: dict[str, Scenario] = {}
        self._forms: dict[str, tuple] = {}    # game -> its new-game form while a scenario is shown
        self.panel_box = w.VBox()
        self.pace = w.Dropdown(options=list(PACES), value=DEFAULT_PACE, description="Bot pace",
                               tooltip="How long bots take: think time before a move, reaction time before a "
                                       "quick discard ('instant' for speed play)")
        self.listed = w.Checkbox(value=False, indent=False, layout=w.Layout(width="auto"),
                                 description="Leave the other people's seats open: no links, anyone in the lobby "
                                             "may take one")
        wide = {"description_width": "initial"}
        self.scenario = w.Dropdown(description="Start from", style=wide,
                                   layout=w.Layout(width="auto", max_width="640px"),
                                   tooltip="A new game, or the position where one of the game's shipped scenarios "
                                           "stops (its seats, options and deal)")
        self.scenario.observe(safe(lambda _c: self._scenario_picked(), report), "value")
        self.scenario_note = w.HTML()
        self.scenario_note.add_class("pt-help")
        self.scenario_box = w.VBox([self.scenario, self.scenario_note])
        self.seed_note = w.HTML(html.escape(CHOSEN_SEED_NOTE))     # G-3: a short seed gives the deal away
        self.seed_note.add_class("pt-help")
        low, high = REACTION_LIMITS
        self.reaction, self.reaction_help, self.reaction_box = _seconds_field(
            "Reaction time limit (seconds)", f"{low} to {high} seconds; blank: no limit",
            f"Seconds a player has to answer an action aimed at them, {low} to {high}; when the time runs out, the "
            "action happens. Blank: off (a reaction window waits for its answer).", lambda: self.reaction_limit(),
            report)
        low, high = TURN_LIMITS
        self.turn, self.turn_help, self.turn_box = _seconds_field(
            "Turn timer (seconds)", f"{low} to {high} seconds per decision; blank: off",
            f"Seconds a person has for each decision, {low} to {high}; when their time runs out, the table plays "
            "for them with a bot and says so. The host can change it during the game. Blank: off.",
            lambda: self.turn_limit(), report)
        self.links = w.HTML()
        self.links.add_class("pt-lobby-links")
        self.copy_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.copy_box.add_class("pt-copy-links")
        self.past: list[dict] = []
        self.past_box = w.HTML()
        self.past_box.add_class("pt-past-tables")
        self.tables_note = w.HTML()
        self.store_note = w.HTML(layout=w.Layout(display="none"))
        self.store_note.add_class("pt-store-problem")
        self.damaged: list[dict] = []
        self.damaged_box = w.VBox()
        self.damaged_box.add_class("pt-damaged")
        self.rows: list[tuple[w.HBox, w.HTML, w.Button]] = []
        self.row_box = w.VBox()
        self.tables = w.VBox([self.tables_note, self.row_box])
        self.tables.add_class("pt-lobby-tables")
        self.refresh_button = w.Button(description="Refresh", icon="refresh", layout=w.Layout(width="auto"))
        self.refresh_button.on_click(safe(lambda _b: self._clicked(self._refresh_all), report))
        self.export_csv = w.Button(description="Export CSV", layout=w.Layout(width="auto"),
                                   tooltip="Every finished or ended table: record, who sat where, result, feedback")
        self.export_json = w.Button(description="Export JSON", layout=w.Layout(width="auto"),
                                    tooltip=self.export_csv.tooltip)
        self.export_csv.on_click(safe(lambda _b: self._clicked(lambda: self.export("csv")), report))
        self.export_json.on_click(safe(lambda _b: self._clicked(lambda: self.export("json")), report))
        self.export_link = w.HTML()
        create = w.VBox([w.HTML("<h3>New table</h3><p>Pick the game, where it starts (a new game or a "
                                "scenario), who plays each seat (a person or a bot), the options, and the bots' "
                                "pace. Each person then opens their own seat's link on their own device.</p>"),
                         self.game, self.panel_box])
        open_tables = w.VBox([w.HTML("<h3>Open tables</h3>"), self.refresh_button, self.store_note, self.tables,
                              self.damaged_box])
        export = w.VBox([w.HTML("<h3>Results</h3><p>Every finished table's record with its players' feedback.</p>"),
                         w.HBox([self.export_csv, self.export_json, self.export_link],
                                layout=w.Layout(align_items="center"))])
        past = w.VBox([w.HTML("<h3>Past tables</h3><p>Tables whose game is over or that their host ended, newest "
                              "first. The host link of a table replays it, with every card, once it is over.</p>"),
                       self.past_box])
        self.body = w.VBox([create, self.links, self.copy_box, open_tables, past, export])
        self.message = w.HTML(layout=w.Layout(display="none"))
        self.message.add_class("pt-live-message")
        self.widget = w.VBox([style_widget(), w.HTML(STYLE), self.banner.widget, self.message, self.body])
        self.widget.add_class("pt-app")
        self.widget.add_class("pt-lobby")
        self._show_panel()
        if not self.api.available:
            self.message.value = ("<h3>No table service here</h3><p>Live tables live in a playtest server: start "
                                  "one with <code>playtest serve</code> (add <code>--ip 0.0.0.0</code> to let "
                                  "other devices on your network join) and open its lobby.</p>"
                                  + (f"<p>{note}</p>" if (note := proxied_lobby_note()) else ""))
            self.message.layout.display = None
            self.body.layout.display = "none"
        elif start:
            self.refresh()
            if refresh_every > 0:
                self._poller = spawn(self._poll(), report)

    # --- creating -----------------------------------------------------------------
    @property
    def panel(self) -> NewGamePanel:
        """The new-game panel of the game picked."""
        return self.panels[self.game.value]

    def _show_panel(self) -> None:
        name = self.game.value
        game = games()[name]
        if name not in self.panels:
            panel = NewGamePanel(game, self._create_clicked, report=self.banner.show)
            panel.build()                               # shown at once, unlike a dashboard's
            panel.start.description = "Create table"
            panel.start.icon = "users"
            children = list(panel.widget.children)      # the table's own settings, above its button
            children.insert(children.index(panel.seed) + 1, self.seed_note)
            panel.seed.tooltip = CHOSEN_SEED_NOTE
            at = children.index(panel.start)
            extra = [self.pace, self.listed, self.turn_box] + ([self.reaction_box] if has_reactions(game) else [])
            panel.widget.children = tuple([self.scenario_box] + children[:at] + extra + children[at:])
            self.panels[name] = panel
        self.panel_box.children = (self.panels[name].widget,)
        self.list_scenarios(keep=False)

    def list_scenarios(self, keep: bool = True) -> None:
        """Read the picked game's scenarios again (shipped, then the scenarios folder's:
        a file saved meanwhile appears, a removed one goes). With ``keep``, a scenario
        still listed stays picked; else, or when it is gone, "A new game" is."""
        name = self.game.value
        shipped, yours = shipped_scenarios(name), user_scenarios(name)
        picked = self.scenario.value if keep else ""
        options = [("A new game", "")] + [    # "": a Dropdown shows None as no choice
            (f"Scenario: {s.title or key} ({len(s.moves)} moves)", key) for key, s in shipped] + [
            (f"Your scenario {key}.toml: {s.title or key} ({len(s.moves)} moves)", key) for key, s in yours]
        self.scenarios = dict(shipped + yours)
        if keep and list(self.scenario.options) == options:
            return                                  # nothing changed: the form stays as it is
        self.scenario.options = options             # picks "A new game" on the way
        self.scenario.value = picked if picked in self.scenarios else ""
        self.scenario_box.layout.display = None if self.scenarios else "none"
        self._scenario_picked()

    def _scenario_picked(self) -> None:
        """A scenario was picked (or "A new game"): the inputs it decides (seats, options,
        preset, seed) show its values and are locked while it is picked. Back to "A new
        game", they show again what they held before the first scenario was picked."""
        panel = self.panels.get(self.game.value)
        if panel is None:
            return
        scenario = self.scenarios.get(self.scenario.value)
        name = self.game.value
        if scenario is not None:
            if name not in self._forms:             # leaving the new game: keep its form
                self._forms[name] = (panel.seats.value, {k: b.value for k, b in panel.inputs.items()},
                                     panel.seed.value)
            panel.seats.value = scenario.seats
            if panel.presets is not None:
                panel.presets.set_options(scenario.options)
            else:
                panel.set_options(scenario.options)
            panel.seed.value = str(scenario.seed)
        elif name in self._forms:                   # back to a new game: its form as it was
            seats, inputs, seed = self._forms.pop(name)
            panel.seats.value, panel.seed.value = seats, seed
            for key, value in inputs.items():
                panel.inputs[key].value = value
        fixed = [panel.seats, panel.seed, *panel.inputs.values()] + ([panel.presets.dropdown] if panel.presets else [])
        for box in fixed:
            box.disabled = scenario is not None
        if scenario is None:
            self.scenario_note.value = ""
            return
        fields = panel.game.Options.model_fields
        options = ", ".join(f"{option_label(k, fields[k]) if k in fields else k} = {v!r}"
                            for k, v in scenario.options.items()) or "the defaults"
        self.scenario_note.value = (
            f"The table starts where this scenario stops, after its {len(scenario.moves)} moves, with its "
            f"{scenario.seats} seats, its deal and its options ({html.escape(options)}); you choose who plays "
            f"each seat. {html.escape(' '.join(scenario.description.split()))}")

    def reaction_limit(self) -> float | None:
        """The reaction time limit the form asks for, in seconds: None when its input is
        blank (off, the default) or the game has no reaction windows (CR-7).

        Raises:
            OptionError: the text is not a number of seconds within
                :data:`~playtest.tables.service.REACTION_LIMITS`.
        """
        text = self.reaction.value.strip()
        if not text or not has_reactions(games()[self.game.value]):
            return None
        low, high = REACTION_LIMITS
        try:
            value = float(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise OptionError(f"the reaction time limit must be a number of seconds from {low} to {high} (or "
                              f"blank: no limit), not {reprlib.repr(text)}")
        return int(value) if value.is_integer() else value

    def turn_limit(self) -> float | None:
        """The turn timer the form asks for, in seconds per decision: None when its input
        is blank (off, the default).

        Raises:
            OptionError: the text is not a number of seconds within
                :data:`~playtest.tables.live.TURN_LIMITS` (said as the service says it).
        """
        text = self.turn.value.strip()
        if not text:
            return None
        try:
            value = float(text)
        except ValueError:
            value = text
        seconds = check_turn_limit(value)
        return int(seconds) if seconds.is_integer() else seconds

    def _create_clicked(self, seats: int, players: dict, options: dict, seed: int | None) -> None:
        self._active = time.monotonic()
        self.create(self.spec(seats, players, options, seed))

    def spec(self, seats: int, players: dict[int, str], options: dict[str, Any], seed: int | None) -> dict:
        """The create body for the table the form describes (see :mod:`playtest.tables`):
        the scenario's name when it starts from one (its options and seed are its own),
        else the preset's name when the options are exactly a preset's, else every option;
        the reaction time limit (:meth:`reaction_limit`) and the turn timer (:meth:`turn_limit`).

        Args:
            seats, players, options, seed: as the new-game panel's ``config()``.

        Raises:
            OptionError: no human seat (a table of bots only has nobody to play it), or a
                reaction time limit or turn timer that is not allowed.
        """
        if HUMAN not in players.values():
            raise OptionError("a live table needs at least one human seat; bot games are the balance lab's")
        presets = self.panel.presets
        preset = presets.value if presets is not None else None
        humans = [s for s in range(seats) if players[s] == HUMAN]
        # every table is listed; "open" seats get no link: the lobby's Join hands them out
        # (a seat whose link was made is never handed out twice)
        spec = {"game": self.game.value, "seats": seats, "players": [players[s] for s in range(seats)],
                "pace": self.pace.value, "listed": True, "open_seats": humans[1:] if self.listed.value else [],
                "reaction_limit": self.reaction_limit(), "turn_limit": self.turn_limit()}
        if self.scenario.value:
            spec["scenario"] = self.scenario.value
        else:
            spec.update(options={} if preset is not None else options, preset=preset, seed=seed)
        return spec

    def create(self, spec: dict) -> None:
        """Create a table (a task); its links are shown when the service answers.

        Args:
            spec: the create body (see :meth:`spec`).
        """
        self.banner.clear()
        self.panel.start.disabled = True
        spawn(self._create(spec), self._create_failed)

    async def _create(self, spec: dict) -> None:
        made = await self.api.call("POST", "tables", spec, key=True)
        self.panel.start.disabled = False
        self.made = made
        self._show_links(self.links_html(made), self.link_list(made))
        await self._refresh()

    def _create_failed(self, exc: Exception) -> None:
        self.panel.start.disabled = False
        self.banner.show(exc)

    def _show_links(self, block: str, copies: list[tuple[str, str]] = ()) -> None:
        """Show a new block of links above those this page was given before: a second
        table made (or seat joined) never hides the first one's links, which the
        service shows nowhere else. ``copies``: ``(label, path)`` of the block's links
        to offer copy buttons for (the newest block's replace the last ones)."""
        self.shown_links.insert(0, block)
        self.links.value = "<hr>".join(self.shown_links)
        self.copy_box.children = tuple(_copies(list(copies), self.folder))

    @staticmethod
    def link_list(made: dict) -> list[tuple[str, str]]:
        """The ``(label, path)`` of a table just made that get copy buttons: each seat's
        link that was handed out, and the spectator's (never the host's: it stays here)."""
        return ([(f"Seat {s['seat'] + 1}", s["path"]) for s in made["seats"] if s.get("token")]
                + [("Spectator", made["spectator_path"])])

    def links_html(self, made: dict) -> str:
        """The links of a table just made (the service's create answer): one per human
        seat, all human seats on one device (with the spectator token, so the privacy
        screen shows the public view), the spectator and the host link."""
        tid, folder = made["id"], self.folder
        humans = [s for s in made["seats"] if s.get("token")]
        rows = [_link_row(f"Seat {s['seat'] + 1}", s["path"], folder) for s in humans]
        if len(humans) > 1:
            tokens = ",".join([made["spectator_token"]] + [s["token"] for s in humans])
            rows.append(_link_row("All human seats on one device (hotseat)", f"table.ipynb?table={tid}&token={tokens}",
                                  folder))
        rows.append(_link_row("Spectator (the public view, for a projector)", made["spectator_path"], folder))
        rows.append(_link_row("Host (public view and host controls)", made["host_path"], folder))
        bots = [f"seat {s['seat'] + 1}: {s['player']} bot" for s in made["seats"] if s["player"] != HUMAN]
        open_seats = [str(s["seat"] + 1) for s in made["seats"] if s["player"] == HUMAN and not s.get("token")]
        return (f"<h3>Table {html.escape(tid)} is ready</h3>"
                "<p>Send each player their own seat's link (a link <i>is</i> the seat: whoever opens it plays "
                "it). These links are shown only on this page, while it is open (a later table's go above "
                "them): keep the host link.</p>"
                f"<table>{''.join(rows)}</table>"
                + (f"<p>Open in the lobby (Join): seat{'s' * (len(open_seats) > 1)} {', '.join(open_seats)}.</p>"
                   if open_seats else "")
                + (f"<p>Bots: {html.escape(', '.join(bots))}.</p>" if bots else ""))

    # --- the list of tables ----------------------------------------------------------
    def _clicked(self, action: Callable[[], None]) -> None:
        self._active = time.monotonic()
        if self._poller is None and self.refresh_every > 0:
            self._poller = spawn(self._poll(), self.report)
        action()

    def _refresh_all(self) -> None:
        """The Refresh button: the tables, and the scenarios a table can start from."""
        self.list_scenarios()
        self.refresh()

    def refresh(self) -> None:
        """Fetch the list of tables again (a task)."""
        spawn(self._refresh(), self.report)

    async def _refresh(self) -> None:
        data = await self.api.call("GET", "tables?status=playing", key=True)
        self.show_store(data.get("store") or {})
        self.show_tables(data.get("tables", []))
        past = await self.api.call("GET", "tables?status=over,ended", key=True)
        self.show_past(past.get("tables", []))

    def show_past(self, tables: list[dict]) -> None:
        """Show the past tables (the service's list ``?status=over,ended``), newest first,
        at most :data:`PAST_SHOWN`: game, table, date (UTC), who sat where, the result and
        how many seats gave feedback."""
        self.past = tables
        lines = []
        for table in tables[:PAST_SHOWN]:
            players = players_text(table.get("players", []))
            date = str(table.get("date", ""))[:16].replace("T", " ")
            feedback = table.get("feedback", 0)
            lines.append(f"<li><b>{html.escape(str(table.get('title', table.get('game'))))}</b> · table "
                         f"{html.escape(str(table.get('id')))} · {html.escape(date)} UTC · {html.escape(players)} · "
                         f"{table.get('moves', 0)} moves · {html.escape(_result(table))} · {feedback} "
                         f"feedback answer{'' if feedback == 1 else 's'}</li>")
        more = len(tables) - PAST_SHOWN
        self.past_box.value = ((f"<ul>{''.join(lines)}</ul>" + (f"<p>and {more} older (in the export)</p>"
                                                                if more > 0 else ""))
                               if lines else "<i>No table has finished on this server yet.</i>")

    async def _poll(self) -> None:
        try:
            await refresh_while_active(self._refresh, self.refresh_every, lambda: self._active)
        finally:
            self._poller = None

    def show_tables(self, tables: list[dict]) -> None:
        """Show the tables being played (the service's list of them, ``?status=playing``):
        game, players, moves, who is connected, free seats, and a Join button for a listed
        table with a free seat."""
        self.listing = shown = tables
        while len(self.rows) < len(shown):
            text = w.HTML(layout=w.Layout(flex="1 1 auto"))
            button = w.Button(description="Join", button_style="success", layout=w.Layout(width="auto"))
            button.add_class("pt-join")
            index = len(self.rows)
            button.on_click(safe(lambda _b, i=index: self._clicked(lambda: self._join_row(i)), self.report))
            box = w.HBox([text, button])
            box.add_class("pt-lobby-row")
            self.rows.append((box, text, button))
        for (box, text, button), table in zip(self.rows, shown):
            players = players_text(table.get("players", []))
            free = table.get("free", [])
            connected = table.get("connected", [])
            line = (f"<b>{html.escape(str(table.get('title', table.get('game'))))}</b> · table "
                    f"{html.escape(table['id'])} · {table.get('moves', 0)} moves · seats {html.escape(players)} · "
                    f"connected: {', '.join(str(s + 1) for s in connected) or 'nobody'} · "
                    + (f"free seats: {', '.join(str(s + 1) for s in free)}" if free else "no free seat"))
            text.value = line
            button.layout.display = None if free and table.get("listed", True) else "none"
            button.tooltip = f"Take seat {free[0] + 1}" if free else ""
        boxes = tuple(row[0] for row in self.rows[:len(shown)])
        if self.row_box.children != boxes:
            self.row_box.children = boxes
        self.tables_note.value = "" if shown else "<i>No table is being played on this server.</i>"

    def show_store(self, store: dict) -> None:
        """Show the store's state (the service's ``store``: ``problem``, one sentence or
        None; ``damaged``, the tables it holds but cannot replay): the sentence above
        the list, and each damaged table with its reason and a button that downloads its
        stored record."""
        problem = store.get("problem")
        self.store_note.value = f"<b>⚠ {html.escape(str(problem))}</b>" if problem else ""
        self.store_note.layout.display = None if problem else "none"
        damaged = list(store.get("damaged") or [])
        if [t.get("id") for t in damaged] == [t.get("id") for t in self.damaged]:
            return
        self.damaged = damaged
        rows = []
        for table in damaged:
            kind = "Damaged" if table.get("installed", True) else "Not installed"
            text = w.HTML(f"<b>{kind}</b> · {html.escape(str(table.get('game')))} · table "
                          f"{html.escape(str(table.get('id')))} · {table.get('moves', 0)} stored moves · "
                          f"{html.escape(str(table.get('reason')))}", layout=w.Layout(flex="1 1 auto"))
            button = w.Button(description="Record", icon="download", layout=w.Layout(width="auto"),
                              tooltip="Download the table's stored record (it cannot be played on here)")
            link = w.HTML()
            button.on_click(safe(lambda _b, t=table["id"], out=link: self._clicked(
                lambda: spawn(self._damaged_record(t, out), self.report)), self.report))
            row = w.HBox([text, button, link], layout=w.Layout(align_items="center"))
            row.add_class("pt-damaged-row")
            rows.append(row)
        head = ([w.HTML("<p>These tables are kept in the store but cannot be played on here: a damaged "
                        "table's stored move or set-up cannot be replayed; a table whose game is not installed "
                        "plays on once it is. Download a record to look at it.</p>")] if rows else [])
        self.damaged_box.children = tuple(head + rows)

    async def _damaged_record(self, table_id: str, out: w.HTML) -> None:
        record = await self.api.call("GET", f"tables/{table_id}/record", key=True)
        out.value = download_link(json.dumps(record, indent=1), f"table_{table_id}.json", "application/json",
                                  "The stored record of a damaged table", "record")

    def _join_row(self, index: int) -> None:
        if index < len(self.listing):
            self.join(self.listing[index]["id"])

    def join(self, table_id: str, seat: int | None = None) -> None:
        """Take a free seat of a listed table (a task); its link is shown.

        Args:
            seat: the seat wanted (None: the first free one).
        """
        self.banner.clear()
        spawn(self._join(table_id, seat), self.report)

    async def _join(self, table_id: str, seat: int | None) -> None:
        body = {} if seat is None else {"seat": seat}
        try:
            got = await self.api.call("POST", f"tables/{table_id}/join", body, key=True)
        except ApiError:
            await self._refresh()       # e.g. the seat went to someone quicker: the list says so
            raise
        seat = got["seat"]
        self._show_links(f"<h3>Your seat at table {html.escape(table_id)}: seat {seat + 1}</h3>"
                         "<p>Open it (a new tab), or copy the address to the device you play on. The link "
                         "is the seat: keep it to yourself.</p>"
                         f"<table>{_link_row(f'Seat {seat + 1}', got['path'], self.folder)}</table>",
                         [(f"Seat {seat + 1}", got["path"])])
        await self._refresh()

    # --- export -------------------------------------------------------------------
    def export(self, fmt: str) -> None:
        """Fetch every finished or ended table's record and feedback (a task) and offer
        it as a download.

        Args:
            fmt: "csv" or "json".

        Raises:
            ValueError: another format.
        """
        if fmt not in ("csv", "json"):
            raise ValueError(f"export format must be 'csv' or 'json', not {fmt!r}")
        spawn(self._export(fmt), self.report)

    async def _export(self, fmt: str) -> None:
        data = await self.api.call("GET", f"export?format={fmt}", key=True)
        if fmt == "csv":
            text, mime = data if isinstance(data, str) else "", "text/csv"
        else:
            text, mime = json.dumps(data, indent=1), "application/json"
        count = len(list(csv.reader(io.StringIO(text)))) - 1 if fmt == "csv" else len(data.get("tables", []))
        self.export_link.value = download_link(text, f"playtest_tables.{fmt}", mime,
                                               "Every finished or ended table, with its feedback",
                                               f"{max(count, 0)} table{'' if count == 1 else 's'} ({fmt.upper()})")


def _seconds_field(description: str, tip: str, about: str, read, report) -> tuple[w.Text, w.HTML, w.HBox]:
    """A form's seconds box (blank: off) with its help line beside it: what it does, and at
    once a warning when the text typed is not allowed (Create would refuse it).

    Args:
        description, tip: the box's label and tooltip (str). about: the help line (str).
        read: reads the box (no argument), raising OptionError for a text not allowed.
        report: shows an unexpected error (the banner's ``show``).

    Returns:
        ``(box, help, row)``: the Text, the help HTML and the HBox holding both."""
    box = w.Text(value="", placeholder="off", description=description, style={"description_width": "initial"},
                 layout=w.Layout(width="300px"), tooltip=tip)
    help_line = w.HTML()
    help_line.add_class("pt-help")

    def typed() -> None:
        try:
            read()
            problem = ""
        except OptionError as exc:
            problem = f"<b class='pt-warn'>⚠ {html.escape(str(exc))}</b> "
        help_line.value = problem + html.escape(about)
    box.observe(safe(lambda _c: typed(), report), "value")
    help_line.value = html.escape(about)        # blank, as it starts: off, always allowed
    return box, help_line, w.HBox([box, help_line], layout=w.Layout(align_items="center", flex_flow="row wrap"))

