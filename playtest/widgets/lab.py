"""The balance lab app: thousands of bot games of one game, from a dashboard.

Pick a game, the seat count, a bot per seat and the options (inputs from the new-game
panel, or a preset), or two option sets A and B for an A/B comparison on the same seeds;
the number of games, the seed and the worker processes. Run plays them with
:func:`playtest.simulate` in a background thread, so the page stays live: a progress bar
with the rate and the time left, and a Cancel button. Then it shows the metrics, the
seat win rates, the card statistics and the plots of :mod:`playtest.lab` (of each variant,
labelled with its options, in an A/B run), and a link to download one CSV row per game
(the lab's CSV: it reads back with :func:`playtest.lab.read_csv`).

Two more kinds of run: a **sweep** plays the same seeds at every value of one option
(:func:`playtest.lab.sweep`: every metric with its interval per value, a panel per
metric), and **until decided** plays batches until a metric's interval is as narrow as
asked (:func:`playtest.lab.simulate_until`; Games is the cap, the status shows the current
interval). The **Health report** tab runs the design health report on the same set-up
(:func:`playtest.lab.health_report`): its findings with their evidence, its plots, and
the report as one HTML file to download. The **People's games** tab reads the live
tables' export (the lobby's Results, JSON or CSV) for the Runs tab's game and seat count
(:func:`playtest.lab.read_tables`): the report ``playtest tables-report`` prints, and bot
games played beside them (:func:`playtest.lab.compare_people_and_bots`).
"""
from __future__ import annotations

import html
import io
import json
import os
import threading
import time
import warnings
from typing import Any, Callable, Mapping

import ipywidgets as w
from tqdm.auto import tqdm

from ..engine import OptionError, RecordError, get_game, limits
from ..engine.registry import games as all_games
from ..lab.cli import games_text
from .components import ErrorBanner, download_link, safe, style_widget
from .newgame import PresetPicker, default_bot, option_input, read_whole_number
from .upload import LimitedUpload

MAX_GAMES = 100_000
"""The most games one run may ask for (the simulation keeps one row per game)."""

SHOWN_COLUMNS = {
    "compare": ["A", "B", "difference", "low", "high", "n", "interval", "note"],
    "metrics": ["value", "low", "high", "n", "meaning", "note"],
    "seats": ["wins", "games", "rate", "low", "high"],
    "bots": ["wins", "games", "rate", "low", "high"],
    "cards": ["per_game", "share_of_games", "seat_games", "win_rate", "low", "high", "vs_overall"],
    "skill": ["games", "wins", "rate", "low", "high", "fair", "ratio", "points"],
    "people": ["bots", "people", "people − bots", "low", "high", "n", "interval", "note"],
}
"""The columns of each result table shown on the page (the CSV and ``result`` keep all)."""

LAB_STYLE = """<style>
.pt-lab-table table { border-collapse: collapse; font-size: 12px; margin: 4px 0 10px; }
.pt-lab-table th, .pt-lab-table td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
.pt-lab-table thead th { background: #f3f1ea; }
.pt-lab-table td:last-child { text-align: left; }
.pt-lab-status .widget-html-content { font-size: 13px; }
</style>"""


class OptionsForm:
    """One variant's option inputs (the new-game panel's :func:`option_input` per field
    of ``game.Options``) with a :class:`PresetPicker` of ``game.PRESETS``.

    Args:
        game: the Game class. title: the heading, e.g. "Variant A".

    Attributes:
        widget: the box to display. inputs: option name -> its input widget.
        presets: the preset picker (None for a game without PRESETS).
    """

    def __init__(self, game, title: str):
        self.game = game
        # PresetPicker puts its dropdown right after `player_box`: here, the heading
        self.player_box = w.HTML(f"<b>{html.escape(title)}</b>")
        self.inputs: dict[str, w.Widget] = {}
        self._readers: dict[str, Callable[[], Any]] = {}
        rows = []
        for name, field in game.Options.model_fields.items():
            self.inputs[name], self._readers[name] = option_input(name, field)
            rows.append(self.inputs[name])
        self.widget = w.VBox([self.player_box, *rows], layout=w.Layout(margin="0 16px 0 0"))
        self.presets = PresetPicker(self) if game.PRESETS else None

    def use_preset(self, name: str) -> None:
        """Set the inputs to the game's preset ``name`` (any case, e.g. "quick game").

        Raises:
            OptionError: no such preset; the message lists the game's presets.
        """
        from ..lab.presets import find_preset
        preset = find_preset(self.game, name)
        self.presets.apply(preset)

    def options(self) -> dict[str, Any]:
        """The options whose inputs differ from the game's defaults (name -> value), not
        validated yet."""
        fields = self.game.Options.model_fields
        return {name: value for name, read in self._readers.items()
                if (value := read()) != fields[name].default}

    def config(self) -> tuple[None, None, dict[str, Any], None]:
        """``(_, _, options, _)``, shaped as the new-game panel's, for the preset picker."""
        return None, None, {name: read() for name, read in self._readers.items()}, None

    def label(self) -> str:
        """A short name of the options: the preset they match, else ``key=value`` pairs."""
        preset = self.presets.matching() if self.presets else None
        if preset is not None:
            return preset
        return ", ".join(f"{k}={v}" for k, v in self.options().items()) or "defaults"


class ExportUpload(LimitedUpload):
    """The kit's upload button (:class:`~playtest.widgets.upload.LimitedUpload`: a file
    over the limit is refused in the browser, never sent) for the live tables' export,
    whose refusal names table exports and says what reads a bigger one."""

    def refusal(self, name: str, size: str) -> str:
        """The message for an export ``name`` of ``size`` over ``max_bytes``: one sentence
        with the limit and where a bigger export is read."""
        limit = limits.SIZE_TEXT if self.max_bytes == limits.MAX_BYTES else limits.human_size(self.max_bytes)
        return (f"{name} is {size}: the dashboard reads table exports of at most {limit} ({self.max_bytes:,} "
                "bytes), nothing was loaded; read a bigger one with playtest tables-report FILE or read_tables.")


def read_export(content: bytes | memoryview, name: str) -> Any:
    """The live tables' export in an uploaded file, parsed as
    :func:`playtest.lab.read_tables` parses a file: JSON (a name ending ``.json``, or
    text starting with ``{`` or ``[``) or the export's CSV.

    Args:
        content: the file's bytes. name: the file's name, for the format and the messages.

    Returns:
        What :func:`~playtest.lab.read_tables` reads: the parsed JSON, or the CSV's tables.

    Raises:
        RecordError: over the input limits (a ``LimitError``: size, not UTF-8 text), empty,
            not valid JSON, or not the export's CSV; the message names the file.
    """
    from ..lab.tables import parse_export
    return parse_export(limits.decode(content, name), name)


class BalanceLab:
    """The balance-lab app (``.widget``) for every installed game.

    Args:
        game: registry name of the game shown first.
        seats: its seat count (default: the game's smallest).
        games: number of games per variant, 1..:data:`MAX_GAMES`.
        seed: seed of the run, 0 or more (G-3): game ``i``'s seed comes from ``(seed, i)``
            alone, so a run repeats.
        workers: local worker processes (1 = in this kernel).
        preset: a preset of the game for the options (variant A), any case.

    Attributes:
        widget: the root box. banner: the :class:`ErrorBanner`. result: after a run, a
            dict with ``"rows"`` (the DataFrame of every game, a ``variant`` column in an
            A/B run) and the tables shown (``"metrics"``, ``"seats"``, ``"cards"``,
            ``"bots"`` (win rate per bot) when the seats have different bots, and
            ``"compare"`` in an A/B run, where the other tables hold both variants, indexed
            by variant label first); None before, and after a refused Run.
        variant_a, variant_b: the :class:`OptionsForm` of each variant.
        people_result: after an export is loaded on the People's games tab
            (:meth:`load_export`), a dict with ``"rows"`` (people's games, from
            :func:`~playtest.lab.read_tables`), ``"notes"`` (the tables left out, in
            words) and, with rows, the tables shown (``"metrics"``, ``"seats"``,
            ``"bots"``), then ``"compare"`` and ``"bot_rows"`` after
            :meth:`run_people_beside_bots`; None before.

    Numbers out of range (games, seed, workers, options) are refused with a message
    saying what is allowed, never clamped.

    Raises:
        OptionError: an unknown game or ``preset`` (the message lists the presets).
    """

    def __init__(self, game: str = "lazy_sunday", seats: int | None = None, games: int = 1000,
                 seed: int = 0, workers: int = 1, preset: str | None = None):
        self.banner = ErrorBanner()
        report = self.banner.show
        self.games_found = all_games()
        self.game = w.Dropdown(options=[(cls.title, name) for name, cls in self.games_found.items()],
                               value=get_game(game).name, description="Game")
        self.seats = w.Dropdown(description="Seats")
        self.bot_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.bots: list[w.Dropdown] = []
        self.mode = w.ToggleButtons(options=[("One variant", "one"), ("A/B comparison", "ab"), ("Sweep", "sweep"),
                                             ("Until decided", "until")],
                                    tooltips=["Play every game under one set of options",
                                              "Play the same seeds under options A and under options B",
                                              "Play the same seeds at every value of one option",
                                              "Play batches until a metric's interval is narrow enough"])
        self.variant_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.variant_a: OptionsForm | None = None
        self.variant_b: OptionsForm | None = None
        # a sweep: one option over values (the options form sets the others); until decided: a metric and a width
        self.sweep_option = w.Dropdown(description="Sweep", tooltip="the option to play at every value")
        self.sweep_values = w.Text(description="Values", placeholder="e.g. 10, 15, 20",
                                   tooltip="the values, separated by commas (each read as JSON where it parses)")
        from ..lab.stats import SPECS
        self.until_metric = w.Dropdown(options=list(SPECS), value="AdvantageP1", description="Until",
                                       tooltip="the metric whose interval decides")
        # text boxes, read strictly by plan(): a browser's number box cuts "2e3" to 2 without a word
        self.until_width = w.Text(value="0.05", description="is within",
                                  tooltip="stop once its 95% interval is at most this wide (a decimal number above "
                                          "0, e.g. 0.05); Games is the cap")
        self.sweep_box = w.VBox([w.HTML("<b>Sweep</b>"), self.sweep_option, self.sweep_values])
        self.until_box = w.VBox([w.HTML("<b>Until decided</b>"), self.until_metric, self.until_width])
        # text read whole by plan() (newgame.read_whole_number): a browser's number box cuts
        # "2e3" to 2 without a word, and a bounded one clamps; a wrong number is refused instead
        self.games = w.Text(value=str(games), description="Games", tooltip=f"games per variant, 1 to {MAX_GAMES:,}")
        self.seed = w.Text(value=str(seed), description="Seed",
                           tooltip="0 or more (G-3: the same seed gives the same games)")
        self.cores = os.cpu_count() or 1
        self.workers = w.Text(value=str(min(workers, self.cores)), description="Workers",
                              tooltip=f"local worker processes, 1 to {self.cores} (1 = in this kernel)")
        self.run_button = w.Button(description="Run", button_style="primary", icon="play")
        self.cancel_button = w.Button(description="Cancel", icon="stop", disabled=True)
        self.skill_button = w.Button(description="Skill ladder", icon="signal",
                                     tooltip="each bot (random, heuristic, ismcts:100, ismcts) against the one below "
                                             "it: Games games per step, with these options")
        self.skill_button.on_click(safe(lambda _b: self.run_skill(), report))
        self.run_button.on_click(safe(lambda _b: self.run(), report))
        self.cancel_button.on_click(safe(lambda _b: self.cancel(), report))
        self.progress = w.IntProgress(value=0, min=0, max=1, description="Progress",
                                      layout=w.Layout(width="420px"))
        self.status = w.HTML()
        self.status.add_class("pt-lab-status")
        self.tables = {name: w.HTML() for name in ("compare", "metrics", "seats", "bots", "cards", "skill")}
        for table in self.tables.values():
            table.add_class("pt-lab-table")
        self.plots = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.download = w.HTML()
        self.result: dict | None = None
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._until_text = ""   # a run until decided: its current interval, shown with the progress
        self._running_workers = 1   # the run's worker processes (what Cancel waits for)
        self._last_shown = 0.0

        self.game.observe(safe(lambda _c: self._build_game(), report), "value")
        self.seats.observe(safe(lambda _c: self._show_bots(), report), "value")
        self.mode.observe(lambda _c: self._show_variants(), "value")
        rotation = w.HTML("Bots per seat in the first game; the line-up shifts one seat each game, so every "
                          "bot plays every seat equally often.")
        rotation.add_class("pt-help")
        self.setup = w.VBox([w.HBox([self.game, self.seats]), self.bot_box, rotation, self.mode, self.variant_box,
                             w.HBox([self.games, self.seed, self.workers], layout=w.Layout(flex_flow="row wrap")),
                             w.HBox([self.run_button, self.skill_button, self.cancel_button, self.progress])])
        self._locked: dict[w.Widget, bool] = {}   # during a run: each input -> its state before
        results = w.VBox([self.status, self.tables["skill"], self.download, self.tables["compare"],
                          self.tables["metrics"], self.tables["seats"], self.tables["bots"], self.plots,
                          self.tables["cards"]])
        results.add_class("pt-lab-results")
        self.report_button = w.Button(description="Start report", button_style="primary", icon="stethoscope",
                                      tooltip="the standard battery on the Runs tab's game, seats, bots, options, "
                                              "games and seed")
        self.report_button.on_click(safe(lambda _b: self.run_report(), report))
        self.report_cancel = w.Button(description="Cancel", icon="stop", disabled=True)
        self.report_cancel.on_click(safe(lambda _b: self.cancel(), report))
        self.report_status = w.HTML()
        self.report_download = w.HTML()
        self.report_out = w.HTML()
        self.report_out.add_class("pt-lab-report")
        about = w.HTML("The design health report plays the game, seats, bots, options (of variant A), games and "
                       "seed set on the <b>Runs</b> tab, with random bots beside them and a skill ladder, and lists "
                       "what it finds: draws or unfinished games, a first-seat edge, cards never played, endings "
                       "and resource bounds never reached, stalls, a flat skill gradient; each with its evidence.")
        about.add_class("pt-help")
        self.report_tab = w.VBox([about, w.HBox([self.report_button, self.report_cancel]), self.report_status,
                                  self.report_download, self.report_out])
        # people's games: the live tables' export, read for the Runs tab's game and seats
        self.people_upload = ExportUpload(accept=".json,.csv", description="Load tables export",
                                          hint=f"The lobby's Results export (JSON or CSV), up to {limits.SIZE_TEXT}")
        self.people_upload.observe(safe(self._people_uploaded, report), "value")
        self.people_upload.observe(lambda c: c["new"] is not None and self.banner.clear(), "refused")
        self.people_button = w.Button(description="Play bot games beside them", icon="balance-scale", disabled=True,
                                      tooltip="Games games of the Runs tab's bots and seed, with the tables' options; "
                                              "then game length and first-seat results, bots against people")
        self.people_button.on_click(safe(lambda _b: self.run_people_beside_bots(), report))
        self.people_cancel = w.Button(description="Cancel", icon="stop", disabled=True)
        self.people_cancel.on_click(safe(lambda _b: self._cancel_people(), report))
        self.people_status = w.HTML()
        self.people_notes = w.HTML()
        self.people_tables = {name: w.HTML() for name in ("compare", "metrics", "time", "seats", "bots", "feedback")}
        for table in self.people_tables.values():
            table.add_class("pt-lab-table")
        self.people_plots = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.people_result: dict | None = None
        self._export: tuple[str, Any] | None = None   # the export loaded: (file name, parsed)
        self._people_read_as: tuple[str, int] | None = None   # the (game, seats) its rows are of
        about = w.HTML("Load the live tables' export (the lobby's <b>Results</b>, JSON or CSV) to measure people's "
                       "games as the lab measures bot games: its finished tables of the <b>Game</b> and <b>Seats</b> "
                       "set on the <b>Runs</b> tab (change them there to read other tables), with 'human' beside the "
                       "bots. <b>Play bot games beside them</b> plays <b>Games</b> games of the Runs tab's bots and "
                       "seed with the tables' options, and sets bots beside people.")
        about.add_class("pt-help")
        self.people_tab = w.VBox([about, self.people_upload, w.HBox([self.people_button, self.people_cancel]),
                                  self.people_status, self.people_notes, self.people_tables["compare"],
                                  self.people_plots, self.people_tables["metrics"], self.people_tables["time"],
                                  self.people_tables["seats"],
                                  self.people_tables["bots"], self.people_tables["feedback"]])
        self.people_tab.add_class("pt-lab-people")
        self.tabs = w.Tab(children=[w.VBox([self.setup, results]), self.report_tab, self.people_tab])
        self.tabs.titles = ("Runs", "Health report", "People's games")
        self.widget = w.VBox([style_widget(), w.HTML(LAB_STYLE), self.banner.widget, self.tabs])
        self.widget.add_class("pt-app")
        self.widget.add_class("pt-lab")
        self._build_game(seats)
        # after _build_game's own observers: an export loaded is read again for the new game or seats
        self.game.observe(safe(lambda _c: self._reread_people(), report), "value")
        self.seats.observe(safe(lambda _c: self._reread_people(), report), "value")
        if preset is not None:
            self.variant_a.use_preset(preset)

    # --- set-up --------------------------------------------------------------------
    @property
    def game_class(self):
        """The Game class picked."""
        return self.games_found[self.game.value]

    def _build_game(self, seats: int | None = None) -> None:
        """Rebuild the seat, bot and option inputs for the game picked."""
        game = self.game_class
        self.seats.options = list(range(game.min_seats, game.max_seats + 1))
        self.seats.value = seats if seats is not None else game.min_seats
        # simulate() shifts this line-up one seat per game: every bot plays every seat
        self.bots = [w.Dropdown(options=list(game.BOTS), value=default_bot(game), description=f"Seat {s}",
                                tooltip="the bot at this seat in game 1; the line-up shifts one seat each game",
                                layout=w.Layout(width="200px")) for s in range(game.max_seats)]
        self.variant_a, self.variant_b = OptionsForm(game, "Variant A options"), OptionsForm(game, "Variant B options")
        self.sweep_option.options = [name for name in game.Options.model_fields if name != "max_turns"]
        for box in [*self.bots, *self.variant_a.inputs.values(), *self.variant_b.inputs.values()]:
            box.observe(lambda _c: self._forget_results(), "value")
        self._show_bots()
        self._show_variants()

    def _forget_results(self) -> None:
        """The set-up changed (game, seats, bots, mode or an option): the results on show
        are another set-up's, so they go; never during a run (its results are this one's)."""
        if self.result is not None and not self.running:
            self._clear_results()

    def _show_bots(self) -> None:
        self.bot_box.children = tuple(self.bots[:self.seats.value])
        self._forget_results()

    def _show_variants(self) -> None:
        self._forget_results()
        mode = self.mode.value
        self.variant_a.player_box.value = "<b>Variant A options</b>" if mode == "ab" else "<b>Options</b>"
        forms = [self.variant_a] + ([self.variant_b] if mode == "ab" else [])
        extra = {"sweep": [self.sweep_box], "until": [self.until_box]}.get(mode, [])
        self.variant_box.children = tuple(f.widget for f in forms) + tuple(extra)

    def plan(self, mode: str | None = None) -> dict:
        """What Run would play, checked: ``mode`` (``"one"``, ``"ab"``, ``"sweep"`` or
        ``"until"``; default the toggle's), ``game`` (name), ``seats``, ``bots`` (one
        name per seat), ``games``, ``seed``, ``workers``, ``variants`` (label -> options,
        one or two), and for a sweep ``sweep`` (``(option, values)``), for a run until
        decided ``until`` (``(metric, width)``).

        Raises:
            OptionError: a box's text that is not a whole number in ASCII digits (Games,
                Seed, Workers: :func:`~playtest.widgets.newgame.read_whole_number`) or a
                decimal number (the width: :func:`playtest.arguments.read_width`), a number
                out of range, a bad option (the command line's words, see
                ``Game.validate_options``), two variants with the same options, no sweep
                option, no sweep values, one over the input limits
                (:func:`playtest.arguments.parse_values`) or one the game refuses, a width not
                above 0.
        """
        mode = mode or self.mode.value
        game, seats = self.game_class, self.seats.value
        numbers = {}
        for box, low, high, what in ((self.games, 1, MAX_GAMES, "games per variant"),
                                     (self.seed, 0, None, "a whole number"),
                                     (self.workers, 1, self.cores, "worker processes on this machine")):
            allowed = f"{low} or more" if high is None else f"{low:,} to {high:,}"
            numbers[box] = value = read_whole_number(box.value, box.description, allowed)
            if value < low or (high is not None and value > high):
                raise OptionError(f"{box.description} must be {allowed} ({what}), not {value}")
        forms = [self.variant_a] + ([self.variant_b] if mode == "ab" else [])
        variants = {}
        for form, letter in zip(forms, "AB"):
            options = form.options()
            try:
                _check_options(game, seats, options)
            except OptionError as exc:
                raise OptionError(f"{'variant ' + letter + ': ' if len(forms) > 1 else ''}{exc}") from None
            variants[f"{letter}: {form.label()}" if len(forms) > 1 else form.label()] = options
        if len(forms) > 1 and len({repr(sorted(o.items())) for o in variants.values()}) == 1:
            raise OptionError("variants A and B have the same options: change one of them to compare")
        plan = {"mode": mode, "game": game.name, "seats": seats, "bots": [b.value for b in self.bots[:seats]],
                "games": numbers[self.games], "seed": numbers[self.seed], "workers": numbers[self.workers],
                "variants": variants}
        if mode == "sweep":
            from ..arguments import parse_values
            name, options = self.sweep_option.value, next(iter(variants.values()))
            if name is None:
                raise OptionError("pick the option to sweep (the Sweep list), then give its values")
            values = parse_values(self.sweep_values.value, name) if self.sweep_values.value.strip() else []
            if not values:
                raise OptionError(f"give the values of {name} to sweep, separated by commas (e.g. 1, 2, 3)")
            for value in values:
                try:
                    _check_options(game, seats, {**options, name: value})
                except OptionError as exc:
                    raise OptionError(f"sweep value {name}={value!r}: {exc}") from None
            plan["sweep"] = (name, values)
        elif mode == "until":
            from ..arguments import read_width
            plan["until"] = (self.until_metric.value, read_width(self.until_width.value, "is within: the width"))
        return plan

    # --- running -------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """Whether a run is going on."""
        return self._thread is not None and self._thread.is_alive()

    def _fresh_plan(self) -> dict:
        """The set-up's :meth:`plan` for a new run, the last run's results cleared.

        Raises:
            OptionError: a run is going on already, or a bad option (results cleared all the same).
        """
        if self.running:
            raise OptionError("a run is going on already: wait for it to finish, or press Cancel")
        try:
            plan = self.plan()
        finally:
            self._clear_results()   # refused or not, the last run's results are no longer this set-up's
        self.banner.clear()
        return plan

    def run(self) -> None:
        """Start a run in a background thread (returns at once; :meth:`wait` waits).

        Raises:
            OptionError: a run is going on already, or a bad option (nothing is run).
        """
        plan = self._fresh_plan()
        total = plan["games"] * (len(plan["sweep"][1]) if plan["mode"] == "sweep" else len(plan["variants"]))
        self.progress.max, self.progress.value, self.progress.bar_style = total, 0, ""
        self.status.value = f"Playing {games_text(total)}…"
        self._cancel = threading.Event()
        self._running_workers = plan["workers"]
        self._set_running(True)
        self._thread = threading.Thread(target=self._work, args=(plan,), daemon=True, name="balance-lab")
        self._thread.start()

    def run_skill(self) -> None:
        """Start the skill ladder (:func:`playtest.lab.skill_ladder`: each bot of its
        ``LADDER`` against the one below it, Games games per step, the options of
        variant A) in a background thread; the result table and its sentence show under
        the status, and ``result["skill"]`` holds the table.

        Raises:
            OptionError: a run is going on already, or a bad option (nothing is run).
        """
        from ..lab import skill
        plan = self._fresh_plan()
        ladder = list(skill.LADDER)
        total = plan["games"] * (len(ladder) - 1)
        self.progress.max, self.progress.value, self.progress.bar_style = total, 0, ""
        self.status.value = f"Skill ladder: {games_text(total)} ({' < '.join(ladder)})…"
        self._cancel = threading.Event()
        self._running_workers = plan["workers"]
        self._set_running(True)
        self._thread = threading.Thread(target=self._skill_work, args=(plan, ladder), daemon=True,
                                        name="balance-lab skill ladder")
        self._thread.start()

    def _skill_work(self, plan: dict, ladder: list[str]) -> None:
        from ..lab.skill import skill_ladder
        started = time.monotonic()
        try:
            options = next(iter(plan["variants"].values()))
            table = skill_ladder(plan["game"], plan["seats"], plan["games"], ladder, options, plan["seed"],
                                 progress=lambda done, _total: self._tick(done, started),
                                 workers=plan["workers"], cancel=self._cancel)
            self.tables["skill"].value = (_table_html("Skill ladder: each bot against the one below it (95% "
                                                      "Wilson intervals; fair = its share if skill did not matter)",
                                                      table, "skill")
                                          + f"<p><b>{html.escape(table.attrs['sentence'].capitalize())}.</b></p>")
            self.result = {"skill": table}
            cancelled = table.attrs["cancelled"]
            self.progress.bar_style = "warning" if cancelled else "success"
            played = games_text(int(table['games'].sum()))
            self.status.value = (f"{'Cancelled after' if cancelled else 'Played'} {played}"
                                 f" in {tqdm.format_interval(time.monotonic() - started)}.")
        except Exception as exc:  # noqa: BLE001 - the thread's errors must reach the screen
            self.banner.show(exc)
            self.status.value = "The skill ladder failed: see the error above."
            self.progress.bar_style = "danger"
        finally:
            self._set_running(False)

    def run_report(self) -> None:
        """Start the design health report (:func:`playtest.lab.health_report`) on the Runs
        tab's set-up (variant A's options) in a background thread; the findings, the
        checks and the plots show on the Health report tab, with the report as an HTML
        file to download; ``result["report"]`` holds the :class:`~playtest.lab.HealthReport`.

        Raises:
            OptionError: a run is going on already, or a bad option (nothing is run).
        """
        if self.running:
            raise OptionError("a run is going on already: wait for it to finish, or press Cancel")
        plan = self.plan(mode="one")
        self.banner.clear()
        self.report_out.value = self.report_download.value = ""
        self.report_status.value = f"Playing {games_text(plan['games'])} and the checks' own games…"
        self._cancel = threading.Event()
        self._running_workers = plan["workers"]
        self._set_running(True)
        self.report_button.disabled, self.report_cancel.disabled = True, False
        self._thread = threading.Thread(target=self._report_work, args=(plan,), daemon=True,
                                        name="balance-lab health report")
        self._thread.start()

    def _report_work(self, plan: dict) -> None:
        from ..lab.report import health_report
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            self.report_status.value = f"Playing: {done:,} of {total:,} games…"
        try:
            report = health_report(plan["game"], plan["seats"], plan["bots"], plan["games"],
                                   options=next(iter(plan["variants"].values())), seed=plan["seed"],
                                   skill_games=min(200, plan["games"]), explore_games=min(200, plan["games"]),
                                   workers=plan["workers"], cancel=self._cancel, progress=progress)
            if self._cancel.is_set():
                self.report_status.value = "Cancelled: no report."
                return
            page = report.html()
            body = page[page.index("<h1>"):]   # the page's own title and style stay out of the dashboard
            self.report_out.value = body
            self.report_download.value = download_link(page, f"health_report_{plan['game']}.html", "text/html",
                                                       "The report with its plots, one HTML file", "HTML report")
            self.result = {"report": report}
            self.report_status.value = (f"{len(report.findings)} finding{'s' if len(report.findings) != 1 else ''} "
                                        f"in {tqdm.format_interval(time.monotonic() - started)}.")
        except Exception as exc:  # noqa: BLE001 - the thread's errors must reach the screen
            self.banner.show(exc)
            self.report_status.value = "The report failed: see the error above."
        finally:
            self._set_running(False)
            self.report_button.disabled, self.report_cancel.disabled = False, True

    # --- people's games ------------------------------------------------------------
    def load_export(self, content: bytes | memoryview, name: str = "the tables export") -> None:
        """Read the live tables' export (the bytes of its JSON or CSV file) for the Runs
        tab's game and seat count, and show the report ``playtest tables-report`` prints
        on the People's games tab: the tables left out (other games, other seat counts,
        ended early) in plain words, the metrics with their intervals and notes, the win
        rates per seat and per player ("human" beside the bots), and the feedback.
        ``people_result`` then holds ``"rows"`` (:func:`~playtest.lab.read_tables`'s),
        ``"notes"``, ``"metrics"``, ``"seats"`` and ``"bots"``. A later change of game or
        seats reads the same export again.

        Raises:
            RecordError: the file is not a table export, or a table of this game and seat
                count does not replay (see :func:`read_export` and
                :func:`~playtest.lab.read_tables`); the results on show stay.
            OptionError: a run is going on.
        """
        if self.running:
            raise OptionError("a run is going on: wait for it to finish, or press Cancel, then load the export")
        data = read_export(content, name)
        df, notes = self._read_people(data)    # a bad file raises here: nothing has changed yet
        self._export = (name, data)
        self.banner.clear()
        self._show_people(df, notes)

    def _people_uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        name = str(files[0].get("name") or "the uploaded file")
        self.people_upload.value = ()
        try:
            self.load_export(files[0]["content"], name)
        except limits.LimitError as exc:
            if exc.limit == "MAX_BYTES":     # said beside the button, as the browser says it
                self.people_upload.message = self.people_upload.refusal(
                    name, limits.human_size(len(files[0]["content"])))
            else:
                self.people_upload.message = f"{name} was not loaded: {exc}"
            self.banner.show(exc, label=f"{name} was not loaded")
        except Exception as exc:  # noqa: BLE001 - any refusal of a hostile file: one sentence, nothing changed
            # beside the button too: the tab still shows the last export's report below it
            self.people_upload.message = f"{name} was not loaded: {exc}"
            self.banner.show(exc, label=f"{name} was not loaded")
        else:
            self.people_upload.message = ""

    def _read_people(self, data) -> tuple[Any, list[str]]:
        """The rows of the export's tables of the game and seats picked, and what
        read_tables said about the others (its warnings, in its words)."""
        from ..lab.tables import read_tables
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            df = read_tables(data, game=self.game.value, seats=self.seats.value)
        return df, list(dict.fromkeys(str(c.message) for c in caught))

    def _reread_people(self) -> None:
        """Game or seats changed: the export loaded is read again for them."""
        if self._export is None or (self.game.value, self.seats.value) == self._people_read_as:
            return
        self._clear_people()
        self._show_people(*self._read_people(self._export[1]))

    def _show_people(self, df, notes: list[str]) -> None:
        from .. import lab
        from ..lab.cli import metric_notes
        self._clear_people()
        name = self._export[0] if self._export else "the export"
        game, seats = self.game_class, self.seats.value
        self._people_read_as = (self.game.value, seats)
        notes = [n.replace(" (include_unfinished=True keeps them)", "") for n in notes]   # a Python argument
        self.people_result = {"rows": df, "notes": notes}
        hint = (" Set Game and Seats on the Runs tab to read the tables of another game or seat count."
                if any("of other" in n for n in notes) else "")
        self.people_notes.value = (("<p>" + "<br>".join(html.escape(n[0].upper() + n[1:]) + "." for n in notes)
                                    + html.escape(hint) + "</p>") if notes else "")
        if not len(df):
            self.people_status.value = (f"{html.escape(name)}: no finished table of {html.escape(game.title)} with "
                                        f"{seats} seats: nothing to measure.")
            return
        tables = {"metrics": lab.metrics(df), "seats": lab.seat_win_rates(df), "bots": lab.seat_win_rates(df, by="bot")}
        self.people_result.update(tables)
        self.people_status.value = (f"{html.escape(name)}: {html.escape(game.title)}, {seats} seats, "
                                    f"{len(df):,} finished table{'s' if len(df) != 1 else ''}, "
                                    f"{int(df['humans'].sum()):,} seat{'s' if int(df['humans'].sum()) != 1 else ''} "
                                    f"played by people.")
        said = "".join(f"<p>{html.escape(line)}</p>" for line in metric_notes(tables["metrics"]))
        self.people_tables["metrics"].value = _table_html("Metrics of people's games (95% intervals)",
                                                          tables["metrics"], "metrics") + said
        self.people_tables["seats"].value = _table_html("Win rate per seat (95% Wilson intervals)",
                                                        tables["seats"], "seats")
        self.people_tables["bots"].value = _table_html("Win rate per player: human (people) and each bot, every "
                                                       "seat it played", tables["bots"], "bots")
        self.people_tables["time"].value = _time_html(df)
        self.people_tables["feedback"].value = _feedback_html(df)
        self.people_button.disabled = self.running

    def _clear_people(self) -> None:
        self.people_result, self._people_read_as = None, None
        for table in self.people_tables.values():
            table.value = ""
        self.people_plots.children, self.people_status.value, self.people_notes.value = (), "", ""
        self.people_button.disabled = True

    def run_people_beside_bots(self) -> None:
        """Play bot games beside the people's games loaded (:meth:`load_export`): Games
        games of the Runs tab's bots, seed and workers, for the same game and seat count,
        with the options the tables played (variant A's when they played several), in a
        background thread; then :func:`~playtest.lab.compare_people_and_bots` shows game
        length and first-seat results, bots beside people, with the difference and its
        interval. ``people_result`` gains ``"compare"`` (its table: A = bots, B = people)
        and ``"bot_rows"``.

        Raises:
            OptionError: no export with finished tables of this game and seat count is
                loaded, a run is going on, or a bad number or option (nothing is run).
        """
        if self.running:
            raise OptionError("a run is going on already: wait for it to finish, or press Cancel")
        people = (self.people_result or {}).get("rows")
        if people is None or not len(people):
            raise OptionError("load a tables export with finished tables of this game and seat count first "
                              "(Load tables export): the bot games are set beside them")
        plan = self.plan(mode="one")
        options = people.attrs.get("options")
        said = "the tables' options"
        if options is None:
            options, said = next(iter(plan["variants"].values())), "the Runs tab's options (the tables played several)"
        self.banner.clear()
        self.people_tables["compare"].value, self.people_plots.children = "", ()
        self.people_status.value = f"Playing {games_text(plan['games'])} of bots beside the people's…"
        self._cancel = threading.Event()
        self._running_workers = plan["workers"]
        self._set_running(True)
        self.people_button.disabled = self.people_upload.disabled = True
        self.people_cancel.disabled = False
        self._thread = threading.Thread(target=self._people_work, args=(plan, options, said, people), daemon=True,
                                        name="balance-lab people beside bots")
        self._thread.start()

    def _cancel_people(self) -> None:
        self.cancel()
        self.people_status.value = self.status.value

    def _people_work(self, plan: dict, options: dict, said: str, people) -> None:
        from .. import lab
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            self.people_status.value = f"Playing bot games: {done:,} of {total:,}…"
        try:
            bots = self._simulate(plan, options, progress)
            cancelled = self._cancel.is_set() or bool(bots.attrs.get("cancelled"))
            if not len(bots):
                self.people_status.value = "Cancelled before any bot game finished: no comparison."
                return
            table = lab.compare_people_and_bots(people, bots)
            shown = table.rename(columns={"A": "bots", "B": "people", "difference": "people − bots"})
            self.people_tables["compare"].value = _table_html(
                f"Bots ({games_text(len(bots))}) beside people ({len(people):,} "
                f"table{'s' if len(people) != 1 else ''}):"
                " people − bots, 95% intervals (independent samples, never paired by seed)", shown, "people")
            self.people_plots.children = (w.Image(value=png(lab.plot_compare(table)), format="png",
                                                  layout=w.Layout(max_width="540px")),)
            self.people_result.update(compare=table, bot_rows=bots)
            self.people_status.value = (f"{'Cancelled after' if cancelled else 'Played'} {games_text(len(bots))} of "
                                        f"bots in {tqdm.format_interval(time.monotonic() - started)}, with "
                                        f"{html.escape(said)}; bots in the first game: "
                                        f"{html.escape(', '.join(plan['bots']))} (then rotating).")
        except Exception as exc:  # noqa: BLE001 - the thread's errors must reach the screen
            self.banner.show(exc)
            self.people_status.value = "The bot games failed: see the error above."
        finally:
            self._set_running(False)
            self.people_upload.disabled, self.people_cancel.disabled = False, True
            self.people_button.disabled = self.people_result is None or not len(self.people_result["rows"])

    def _clear_results(self) -> None:
        self.result = None
        for table in self.tables.values():
            table.value = ""
        self.plots.children, self.download.value, self.status.value = (), "", ""
        self.progress.value, self.progress.bar_style = 0, ""

    def cancel(self) -> None:
        """Ask the run to stop; it shows the games played so far. In this kernel (1
        worker) the game being played finishes first; worker processes finish the games
        they hold (up to 50 each), which with slow bots takes a while: the status says so."""
        self._cancel.set()
        workers = self._running_workers
        self.status.value = ("Cancelling… (the game being played finishes first)" if workers <= 1 else
                             f"Cancelling… (the {workers} worker processes finish the games they hold first, up to "
                             f"50 each: with slow bots this takes a while)")

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the run to end; returns False if it is still going after ``timeout``
        seconds."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running

    def _set_running(self, running: bool) -> None:
        """Lock every input of the set-up during a run (the form must keep showing what
        the results are of), and give each back its own state after."""
        if running:
            self._locked = {control: control.disabled for control in _inputs(self.setup)
                            if control is not self.cancel_button}
            for control in self._locked:
                control.disabled = True
        else:
            for control, disabled in self._locked.items():
                control.disabled = disabled
            self._locked = {}
        self.cancel_button.disabled = not running

    def _work(self, plan: dict) -> None:
        """The background thread: play the variants side by side (A/B: both at once, on
        one pool of workers), so that a Cancel leaves as many games of B as of A to
        compare; then show the results."""
        if plan["mode"] in ("sweep", "until"):
            return self._work_on(plan)
        started = time.monotonic()
        variants = plan["variants"]
        done = dict.fromkeys(variants, 0)
        frames: dict[str, Any] = {}
        failures: list[BaseException] = []

        def play(label: str, options: dict, executor) -> None:
            def progress(n: int, _total: int) -> None:
                done[label] = n
                self._tick(sum(done.values()), started)
            try:
                frames[label] = self._simulate(plan, options, progress, executor)
            except BaseException as exc:  # noqa: BLE001 - reported below, and the other variant stopped
                failures.append(exc)
                self._cancel.set()

        try:
            with _executor(plan["workers"] if len(variants) > 1 else 0) as executor:
                threads = [threading.Thread(target=play, args=(label, options, executor), daemon=True,
                                            name=f"balance-lab {label}") for label, options in variants.items()]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
            if failures:
                raise failures[0]
            frames = {label: frames[label] for label in variants}   # A then B, whichever finished first
            if len(frames) > 1:   # cancelled: compare the games both variants played (the same seeds)
                common = set.intersection(*(set(f["game"]) for f in frames.values()))
                frames = {label: f[f["game"].isin(common)].reset_index(drop=True) for label, f in frames.items()}
            self._show_results(plan, frames, time.monotonic() - started)
        except Exception as exc:  # noqa: BLE001 - the thread's errors must reach the screen
            self.banner.show(exc)
            self.status.value = "The run failed: see the error above."
            self.progress.bar_style = "danger"
        finally:
            self._set_running(False)

    def _work_on(self, plan: dict) -> None:
        """The background thread of a sweep or a run until decided."""
        from .. import lab
        started = time.monotonic()
        options = next(iter(plan["variants"].values()))
        common = dict(seed=plan["seed"], workers=plan["workers"], cancel=self._cancel,
                      progress=lambda done, _total: self._tick(done, started))
        try:
            if plan["mode"] == "sweep":
                name, values = plan["sweep"]
                result = lab.sweep(plan["game"], plan["seats"], plan["bots"], plan["games"], name, values,
                                   options=options, **common)
                self._show_sweep(plan, result, time.monotonic() - started)
            else:
                metric, width = plan["until"]

                def look(at) -> None:   # the current interval, beside the bar, at once
                    self._until_text = (f"{metric} {at.value:.4g} [{at.low:.4g}, {at.high:.4g}] after "
                                        f"{games_text(at.games)} (stops at a width of {width:g})")
                    self._last_shown = 0.0
                    self._tick(at.games, started)
                df = lab.simulate_until(plan["game"], plan["seats"], plan["bots"], metric, width,
                                        max_games=plan["games"], options=options, on_look=look, **common)
                self._show_results(plan, {next(iter(plan["variants"])): df}, time.monotonic() - started)
                self.status.value = html.escape(df.attrs["until"]["reason"].capitalize()) + ". " + self.status.value
        except Exception as exc:  # noqa: BLE001 - the thread's errors must reach the screen
            self.banner.show(exc)
            self.status.value = "The run failed: see the error above."
            self.progress.bar_style = "danger"
        finally:
            self._until_text = ""
            self._set_running(False)

    def _show_sweep(self, plan: dict, result, seconds: float) -> None:
        import pandas as pd

        from ..lab.cli import sweep_text
        from ..lab.csvfile import run_columns
        from ..lab.sweeps import plot_sweep
        name = result.options[0]
        played = sum(len(f) for f in result.runs.values())
        cancelled = self._cancel.is_set() or any(f.attrs.get("cancelled") for f in result.runs.values())
        table = result.table[result.table["interval"] != ""]
        cells = table.assign(cell=[f"{v:.3f} [{lo:.3f}, {hi:.3f}]" for v, lo, hi in
                                   zip(table["value"], table["low"], table["high"])])
        wide = cells.pivot(index="metric", columns=name, values="cell").reindex(
            index=list(dict.fromkeys(table["metric"])))
        wide.columns = [f"{name}={v}" for v in wide.columns]
        self.tables["metrics"].value = (f"<h4>Sweep of {html.escape(name)}: every value on the same seeds "
                                        f"(95% intervals)</h4>" + wide.to_html(na_rep=""))
        figures = [plot_sweep(result)] if len(result.table) else []
        self.plots.children = tuple(w.Image(value=png(fig), format="png", layout=w.Layout(max_width="100%"))
                                    for fig in figures)
        rows = pd.concat([run_columns(f).assign(**{name: combo[0]}) for combo, f in result.runs.items()],
                         ignore_index=True) if result.runs else pd.DataFrame()
        self.download.value = csv_link(rows, f"balance_lab_{plan['game']}_sweep_{name}.csv") if len(rows) else ""
        self.result = {"rows": rows, "sweep": result.table, "text": sweep_text(result)}
        self.progress.value = played
        self.progress.bar_style = "warning" if cancelled else "success"
        self.status.value = (f"{'Cancelled after' if cancelled else 'Played'} {games_text(played)} in "
                             f"{tqdm.format_interval(seconds)}: {len(result.runs)} value"
                             f"{'s' if len(result.runs) != 1 else ''} of {html.escape(name)}.")

    def _simulate(self, plan: dict, options: dict, progress: Callable[[int, int], None], executor=None):
        from ..lab import simulate
        return simulate(plan["game"], plan["seats"], bots=plan["bots"], games=plan["games"], options=options,
                        seed=plan["seed"], workers=None if executor else plan["workers"], executor=executor,
                        progress=progress, cancel=self._cancel)

    def _tick(self, done: int, started: float) -> None:
        """Progress: at most ten updates a second reach the page, and the last one."""
        now = time.monotonic()
        if done < self.progress.max and now - self._last_shown < 0.1:
            return
        self._last_shown = now
        self.progress.value = done
        elapsed = now - started
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.progress.max - done) / rate if rate > 0 else None
        self.status.value = (f"{done} of {self.progress.max} games · {rate:,.0f} games/s · "
                             f"elapsed {tqdm.format_interval(elapsed)}"
                             + (f" · about {tqdm.format_interval(left)} left" if left is not None else "")
                             + (f" · {html.escape(self._until_text)}" if self._until_text else ""))

    def _show_results(self, plan: dict, frames: Mapping[str, Any], seconds: float) -> None:
        import pandas as pd

        from .. import lab
        from ..lab.csvfile import run_columns

        cancelled = self._cancel.is_set() or any(f.attrs.get("cancelled") for f in frames.values())
        played = sum(len(f) for f in frames.values())
        ab = len(plan["variants"]) > 1
        ran = {name: f for name, f in frames.items() if len(f)}   # a run cancelled at once may have none
        tables: dict[str, Any] = {}
        figures = []
        if ab and len(ran) == 2:
            tables["compare"] = lab.compare(*ran.values())
            figures.append(lab.plot_compare(tables["compare"]))
        rows = (pd.concat([f.assign(variant=name) for name, f in frames.items()], ignore_index=True)
                if ab else next(iter(frames.values())))
        # the download: each variant's rows with its own options (the lab's CSV, see playtest.lab.csvfile)
        download = (pd.concat([run_columns(f).assign(variant=name) for name, f in frames.items()], ignore_index=True)
                    if ab else rows)
        # per variant: name -> {table name -> DataFrame}; in an A/B run each is labelled with its options
        per_variant = {name: {"metrics": lab.metrics(f), "seats": lab.seat_win_rates(f), "cards": lab.card_stats(f)}
                       | ({"bots": lab.seat_win_rates(f, by="bot")} if len(set(plan["bots"])) > 1 else {})
                       for name, f in ran.items()}
        for name, f in ran.items():
            for fig in (lab.plot_win_rates(f), lab.plot_lengths(f), lab.plot_card_impact(f)):
                if ab:
                    fig.suptitle(f"Variant {name}", fontweight="bold")
                figures.append(fig)
        for table in ("metrics", "seats", "bots", "cards"):
            found = {name: t[table] for name, t in per_variant.items() if table in t}
            if found:
                tables[table] = pd.concat(found, axis=0) if ab else found.popitem()[1]
        if "compare" in tables:
            self.tables["compare"].value = _table_html(
                f"A/B comparison (B − A, 95% intervals; {html.escape(tables['compare'].attrs['pairing'])})",
                tables["compare"], "compare")
        if "metrics" in tables:
            self.tables["metrics"].value = _table_html("Metrics (95% intervals)", tables["metrics"], "metrics")
        titles = {"seats": "Seat win rates", "bots": "Bot win rates, every seat it played", "cards": "Card statistics"}
        for table, title in titles.items():
            sections = [_table_html(f"{title} ({html.escape(name)})", t[table], table)
                        for name, t in per_variant.items() if table in t]
            if sections:   # A and B side by side where the page is wide enough
                self.tables[table].value = ("<div style='display:flex; flex-wrap:wrap; gap:24px'>"
                                            + "".join(f"<div>{s}</div>" for s in sections) + "</div>")
        self.plots.children = tuple(w.Image(value=png(fig), format="png", layout=w.Layout(max_width="540px"))
                                    for fig in figures)
        self.download.value = csv_link(download, f"balance_lab_{plan['game']}.csv") if len(rows) else ""
        self.result = {"rows": rows, **tables}
        self.progress.value = played
        self.progress.bar_style = "warning" if cancelled else "success"
        self.status.value = (f"{'Cancelled after' if cancelled else 'Played'} {games_text(played)} in "
                             f"{tqdm.format_interval(seconds)}, bots in the first game: "
                             f"{html.escape(', '.join(plan['bots']))} (then rotating)."
                             + (" No game finished under both variants: no comparison." if ab and len(ran) < 2 else ""))


def _executor(workers: int):
    """A pool of ``workers`` local processes shared by the variants of an A/B run (a
    context manager), or None (each run picks its own: one variant, or one worker)."""
    from concurrent.futures import ProcessPoolExecutor
    from contextlib import nullcontext
    return ProcessPoolExecutor(max_workers=workers) if workers > 1 else nullcontext(None)


def _inputs(box: w.Widget):
    """Every widget inside ``box`` (depth first) that can be disabled: the inputs and buttons."""
    for child in getattr(box, "children", ()):
        if child.has_trait("disabled"):
            yield child
        yield from _inputs(child)


def _table_html(title: str, table, name: str) -> str:
    """A result table as HTML under an ``<h4>`` title, only its :data:`SHOWN_COLUMNS`."""
    shown = table[[c for c in SHOWN_COLUMNS[name] if c in table.columns]]
    return f"<h4>{title}</h4>" + shown.to_html(float_format=lambda x: f"{x:.3f}", na_rep="")


def _time_html(df) -> str:
    """People's and bots' think time per decision (the median over the tables of each
    table's :func:`~playtest.lab.read_tables` ``think_human_s`` / ``think_bot_s``, with
    how many tables tell it) and the game length (median moves and turns), as HTML."""
    rows = []
    for who, column in (("people", "think_human_s"), ("bots", "think_bot_s")):
        known = df[column].dropna() if column in df.columns else df.iloc[0:0]
        rows.append(f"<tr><td>{who}</td><td>{known.median():.1f} s</td><td>{len(known)}</td></tr>" if len(known)
                    else f"<tr><td>{who}</td><td>not known</td><td>0</td></tr>")
    turns = df["turns"].dropna()
    length = (f"<p>Game length: median {df['moves'].median():.0f} moves"
              + (f", {turns.median():.0f} turns" if len(turns) else "") + f" over {len(df)} tables.</p>")
    return ("<h4>Think time per decision (median of the tables' medians)</h4><table><tr><th>seat played by</th>"
            "<th>think time</th><th>tables</th></tr>" + "".join(rows) + "</table>" + length)


def _feedback_html(df) -> str:
    """The people's feedback of the tables read: how many answers and ratings, the mean
    rating, and what confused them and their notes (each with its table), escaped."""
    answers = [(_who(table, entry.get("seat"), json.loads(names)), entry)
               for table, text, names in zip(df["table"], df["feedback"], df["names"]) for entry in json.loads(text)]
    if not answers:
        return "<h4>Feedback</h4><p>No feedback was given at these tables.</p>"
    ratings = [a["rating"] for _, a in answers if a.get("rating") is not None]
    mean = f", mean rating {sum(ratings) / len(ratings):.1f} of 5 ({len(ratings)} rated)" if ratings else ", no rating"
    lines = [f"<p>{len(answers)} answer{'s' if len(answers) != 1 else ''}{mean}.</p>"]
    for key, title in (("confused", "What confused them"), ("notes", "Notes")):
        said = [(table, str(a[key]).strip()) for table, a in answers if str(a.get(key) or "").strip()]
        if said:
            lines.append(f"<p><b>{title}:</b></p><ul>" + "".join(
                f"<li>{html.escape(text)} <i>({html.escape(who)})</i></li>" for who, text in said[:30])
                + (f"<li>… and {len(said) - 30} more</li>" if len(said) > 30 else "") + "</ul>")
    return "<h4>Feedback</h4>" + "".join(lines)


def _who(table: str, seat: Any, names: list[str]) -> str:
    """Who gave a feedback answer: "table 3f2a, seat 2 (Ana)" (seats counted from 1)."""
    if not isinstance(seat, int) or not 0 <= seat < len(names):
        return f"table {table}"
    return f"table {table}, seat {seat + 1}" + (f" ({names[seat]})" if names[seat] else "")


def _check_options(game, seats: int, options: Mapping[str, Any]) -> None:
    """Validate ``options`` for ``seats`` seats of ``game``, as the command line does.

    Raises:
        OptionError: ``Game.validate_options``'s message (the command line's, in plain
            words: "max_turns: must be 1 or more (got 0). Allowed: max_turns (default
            1000) ..."), naming each bad option and only that option's RULINGS line.
    """
    game.validate_options(options)
    game(seats, options)   # the seat count, and options that depend on it (first_player)


def png(figure) -> bytes:
    """A matplotlib Figure as PNG bytes (drawn in the run's thread; an Image widget
    shows it, where an Output widget would need the kernel's main thread)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    return buffer.getvalue()


def csv_link(rows, filename: str) -> str:
    """An HTML download link (a ``data:`` URI) of ``rows`` (a DataFrame) as the lab's CSV
    (:func:`playtest.lab.write_csv`: lists as JSON, the run's game, seed and options)."""
    from ..lab.csvfile import write_csv
    return download_link(write_csv(rows), filename, "text/csv", "One row per game", f"CSV ({games_text(len(rows))})")


def make_lab(**kwargs) -> BalanceLab:
    """A balance lab app; ``kwargs`` as :class:`BalanceLab` (``game``, ``seats``,
    ``games``, ``seed``, ``workers``, ``preset``). Display its ``.widget``.

    Raises:
        OptionError: an unknown game or preset (the message lists the presets).
    """
    return BalanceLab(**kwargs)
