"""The design health report: a standard battery of bot games and checks, and the findings
they turn up, each with its evidence::

    report = health_report("night_shift", 2, "heuristic", games=1000)
    print(report.text())               # the findings, then every check and what it found
    report.save_html("health.html")    # the same with its plots, one self-contained file
    report.save_markdown("health.md")  # Markdown, the plots beside it as PNG files

From a terminal: ``playtest report night_shift --games 1000 --html health.html``.

The checks (:data:`THRESHOLDS` holds their limits):

* draws: more finished games without a winner than ``draws``;
* unfinished: more games stopped by the G-4 cap than ``unfinished``;
* first seat: AdvantageP1's interval (Ludii's: the first seat's place, fair = 0.5) excludes
  the fair 0.5;
* cards: a card no seat ever played (or bought), and a card bought but never played;
* endings: an ending of the rules (``Game.end_conditions``) no game reached;
* resources: a bound of a resource (``HasResources.resources``, e.g. Patience's 0) no seat reached;
  these three also count the games of random bots (``explore_games``), which try every
  move sooner or later: what they never do either, the rules may not allow at all;
* stalls: more than ``stall_share`` of the games with ``stall_turns`` turns or more in a
  row in which no seat's score changed;
* skill: each bot of a short ladder against the one below it (:mod:`playtest.lab.skill`,
  when it is installed): no step wins measurably more than its fair share.

A finding is evidence for a designer to look at, not a verdict: bots are not people.
"""
from __future__ import annotations

import base64
import html
import io
import math
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from playtest.engine import HasResources, OptionError, get_game

from .presets import describe_options
from .simulation import simulate
from .stats import CHOICE, card_stats, metrics

THRESHOLDS: dict[str, float] = {"draws": 0.10, "unfinished": 0.01, "stall_turns": 10, "stall_share": 0.10}
"""The limits of the checks: share of draws, share of unfinished games, turns in a row
without a score change that make a stall, and share of games with a stall."""
SKILL_LADDER = ("random", "heuristic")
"""The bots of the skill check, weakest first (a search bot adds minutes: pass it)."""


@dataclass
class Finding:
    """One thing the battery turned up.

    Attributes:
        check: the check's key (``draws``, ``unfinished``, ``first_seat``, ``never_played``,
            ``bought_never_played``, ``never_bought``, ``ending``, ``resource``,
            ``stalls``, ``skill``).
        title: one line saying what is wrong.
        evidence: the numbers behind it, with their intervals.
    """

    check: str
    title: str
    evidence: str


@dataclass
class HealthReport:
    """The result of :func:`health_report`.

    Attributes:
        game: the Game class. seats, bots, games, seed, options: the run (options: all
            of them, defaults included).
        findings: the :class:`Finding` list, most serious first.
        checks: every check run, as ``(name, what it found)``; a check not run says why.
        rows: the traced games (:func:`~playtest.lab.simulate` rows).
        metrics: :func:`~playtest.lab.metrics` of the rows.
        explored: the random bots' traced games (None when ``explore_games`` was 0).
        skill: the skill ladder's table, or None.
    """

    game: Any
    seats: int
    bots: list[str]
    games: int
    seed: int
    options: dict
    findings: list[Finding]
    checks: list[tuple[str, str]]
    rows: pd.DataFrame
    metrics: pd.DataFrame
    explored: pd.DataFrame | None = None
    skill: pd.DataFrame | None = None
    _figures: dict = field(default_factory=dict, repr=False)
    _pngs: dict = field(default_factory=dict, repr=False)

    def headline(self) -> str:
        """One line: the game, seats, bots, games, seed and options."""
        explored = f" (and {len(self.explored):,} of random bots)" if self.explored is not None else ""
        return (f"{self.game.title}, {self.seats} seats, bots {', '.join(self.bots)} (rotating seats), "
                f"{len(self.rows):,} games{explored}, seed {self.seed}; "
                f"options: {describe_options(self.game, self.options)}")

    def text(self) -> str:
        """The report as plain text: the headline, the findings with their evidence, the checks."""
        lines = [f"Design health report: {self.headline()}", ""]
        if self.findings:
            lines.append(f"{len(self.findings)} finding{'s' if len(self.findings) != 1 else ''}:")
            for number, finding in enumerate(self.findings, 1):
                lines += [f"{number}. {finding.title}", f"   Evidence: {finding.evidence}"]
        else:
            lines.append("No finding: every check passed.")
        lines += ["", "Checks:"]
        width = max(len(name) for name, _ in self.checks)
        lines += [f"  {name:<{width}}  {verdict}" for name, verdict in self.checks]
        lines += ["", "Bots are not people: a finding is evidence to look at, not a verdict."]
        return "\n".join(lines)

    def figures(self) -> dict[str, Any]:
        """The report's plots (matplotlib Figures), by name: win rates, lengths, score
        curves, lead changes, places, card impact (those the game's hooks allow)."""
        if not self._figures:
            from . import plots
            from .curves import plot_lead_changes, plot_ranks, plot_score_curves
            makers = {"win_rates": plots.plot_win_rates, "lengths": plots.plot_lengths, "places": plot_ranks,
                      "score_curves": plot_score_curves, "lead_changes": plot_lead_changes,
                      "card_impact": plots.plot_card_impact}
            for name, make in makers.items():
                try:
                    self._figures[name] = make(self.rows)
                except ValueError:   # a game without the hooks that plot needs
                    continue
        return self._figures

    def png(self, name: str) -> bytes:
        """The plot ``name`` of :meth:`figures` as PNG bytes (drawn once: Markdown and HTML share them)."""
        if name not in self._pngs:
            buffer = io.BytesIO()
            self.figures()[name].savefig(buffer, format="png", dpi=90)
            self._pngs[name] = buffer.getvalue()
        return self._pngs[name]

    def markdown(self, images: str | Path | None = None) -> str:
        """The report as Markdown; with ``images`` (a folder), its plots are saved there as
        PNG files and linked (relative to the folder's parent)."""
        out = [f"# Design health report: {self.game.title}", "", self.headline(), ""]
        if self.findings:
            out += [f"## Findings ({len(self.findings)})", ""]
            for finding in self.findings:
                out += [f"- **{finding.title}**  ", f"  Evidence: {finding.evidence}"]
        else:
            out += ["## No finding", "", "Every check passed."]
        out += ["", "## Checks", "", "| check | result |", "|---|---|"]
        out += [f"| {name} | {verdict.replace('|', '/')} |" for name, verdict in self.checks]
        out += ["", "## Metrics", "", _markdown_table(self.metrics)]
        if images is not None:
            folder = Path(images)
            folder.mkdir(parents=True, exist_ok=True)
            out += ["", "## Plots", ""]
            for name in self.figures():
                (folder / f"{name}.png").write_bytes(self.png(name))
                out += [f"![{name.replace('_', ' ')}]({folder.name}/{name}.png)", ""]
        out += ["", "_Bots are not people: a finding is evidence to look at, not a verdict._", ""]
        return "\n".join(out)

    def html(self) -> str:
        """The report as one self-contained HTML page, its plots embedded as PNG."""
        esc = html.escape
        parts = ["<!doctype html><meta charset='utf-8'>",
                 f"<title>Design health report: {esc(self.game.title)}</title>",
                 "<style>body{font-family:sans-serif;max-width:980px;margin:2em auto;line-height:1.4}"
                 "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 8px}"
                 ".finding{margin:0 0 .8em}.evidence{color:#444}img{max-width:100%}</style>",
                 f"<h1>Design health report: {esc(self.game.title)}</h1>", f"<p>{esc(self.headline())}</p>"]
        parts.append(f"<h2>Findings ({len(self.findings)})</h2>" if self.findings else "<h2>No finding</h2>")
        parts += [f"<div class='finding'><b>{esc(f.title)}</b><br><span class='evidence'>Evidence: "
                  f"{esc(f.evidence)}</span></div>" for f in self.findings]
        parts.append("<h2>Checks</h2><table>" + "".join(f"<tr><td>{esc(n)}</td><td>{esc(v)}</td></tr>"
                                                        for n, v in self.checks) + "</table>")
        shown = self.metrics[["value", "low", "high", "n", "meaning", "note"]]
        parts.append("<h2>Metrics</h2>" + shown.to_html(float_format=lambda x: f"{x:.4g}", na_rep=""))
        parts.append("<h2>Plots</h2>")
        for name in self.figures():
            parts.append(f"<p><img alt='{esc(name)}' src='data:image/png;base64,"
                         f"{base64.b64encode(self.png(name)).decode()}'></p>")
        parts.append("<p><i>Bots are not people: a finding is evidence to look at, not a verdict.</i></p>")
        return "\n".join(parts)

    def save_html(self, path: str | Path) -> Path:
        """Write :meth:`html` to ``path``; returns it. Raises: OSError."""
        path = Path(path)
        path.write_text(self.html(), encoding="utf-8")
        return path

    def save_markdown(self, path: str | Path) -> Path:
        """Write :meth:`markdown` to ``path``, its plots in a folder beside it
        (``<name>_plots/``); returns the path. Raises: OSError."""
        path = Path(path)
        path.write_text(self.markdown(path.with_name(path.stem + "_plots")), encoding="utf-8")
        return path


def _markdown_table(table: pd.DataFrame) -> str:
    rows = ["| metric | value | low | high | n | meaning |", "|---|---:|---:|---:|---:|---|"]
    for name, row in table.iterrows():
        cells = [f"{row[c]:.4g}" if isinstance(row[c], float) and not math.isnan(row[c]) else "" for c in
                 ("value", "low", "high")]
        rows.append(f"| {name} | {' | '.join(cells)} | {int(row['n'])} | {row['meaning']} |")
    return "\n".join(rows)


def health_report(game, seats: int | None = None, bots: str | Sequence[str] = "heuristic", games: int = 1000,
                  options: Mapping[str, Any] | str | None = None, seed: int = 0,
                  thresholds: Mapping[str, float] | None = None, skill: bool | Sequence[str] = True,
                  skill_games: int = 200, explore_games: int = 200,
                  progress: bool | Callable[[int, int], Any] = True,
                  cancel: threading.Event | None = None, executor: Any = None,
                  workers: int | None = None) -> HealthReport:
    """Run the standard battery on a game and list what it finds.

    Args:
        game: a registry name or Game class. seats: the seat count (default: the game's
            smallest). bots, games, options, seed, executor, workers, cancel: as
            :func:`~playtest.lab.simulate` (the games are traced).
        thresholds: overrides of :data:`THRESHOLDS` (same keys).
        skill: True runs the skill check on :data:`SKILL_LADDER`; a list of bots (names
            or Bot factories, weakest first) runs it on that ladder; False leaves it out. It needs
            :mod:`playtest.lab.skill`; without it the check says it was not run.
        skill_games: games per step of the skill ladder.
        explore_games: games of random bots for the card, ending and resource checks
            (0: none).
        progress: as :func:`~playtest.lab.simulate` (the main run; the others are silent).

    Returns:
        :class:`HealthReport`.

    Raises:
        OptionError: as :func:`~playtest.lab.simulate`; an unknown threshold.
    """
    game_type = get_game(game)
    seats = seats or game_type.min_seats
    limits = dict(THRESHOLDS)
    for key, value in (thresholds or {}).items():
        if key not in THRESHOLDS:
            raise OptionError(f"unknown threshold {key!r}; thresholds: {', '.join(THRESHOLDS)}")
        limits[key] = value
    rows = simulate(game_type, seats, bots, games=games, options=options, seed=seed, progress=progress,
                    cancel=cancel, executor=executor, workers=workers, trace=True)
    rules = game_type(seats, rows.attrs["options"])
    runs = {f"{'/'.join(dict.fromkeys(rows.attrs['bots']))} games": rows}
    explored = None
    if explore_games and not (cancel is not None and cancel.is_set()):
        explored = simulate(game_type, seats, "random", games=explore_games, options=rows.attrs["options"],
                            seed=seed, progress=False, cancel=cancel, executor=executor, workers=workers, trace=True)
        runs["random-bot games"] = explored
    table = metrics(rows)
    findings: list[tuple[int, Finding]] = []   # (order of seriousness, finding)
    checks: list[tuple[str, str]] = []

    def found(rank: int, finding: Finding) -> None:
        findings.append((rank, finding))

    n = len(rows)
    _check_draws(table, limits, found, checks)
    _check_first_seat(table, found, checks)
    _check_cards(runs, found, checks)
    _check_endings(runs, rules, found, checks)
    _check_resources(runs, rules, found, checks)
    _check_stalls(rows, limits, found, checks)
    skill_table = _check_skill(game_type, seats, rows.attrs["options"], seed, skill, skill_games, executor, workers,
                               found, checks) if n else None
    findings.sort(key=lambda pair: pair[0])
    return HealthReport(game_type, seats, list(rows.attrs["bots"]), games, seed, rows.attrs["options"],
                        [f for _, f in findings], checks, rows, table, explored, skill_table)


def _interval(row: pd.Series, percent: bool = True) -> str:
    if percent:
        return f"{row['value']:.1%} [{row['low']:.1%}, {row['high']:.1%}]"
    return f"{row['value']:.3f} [{row['low']:.3f}, {row['high']:.3f}]"


def _check_draws(table, limits, found, checks) -> None:
    n = int(table.at["Drawishness", "n"])
    draws, stopped = table.loc["Drawishness"], table.loc["Timeouts"]
    if n and draws["value"] > limits["draws"]:
        found(0, Finding("draws", f"Draws: {draws['value']:.1%} of games end without a winner "
                                  f"(more than {limits['draws']:.0%})",
                         f"Drawishness {_interval(draws)} over {n:,} games; Completion (games with a winner) "
                         f"{_interval(table.loc['Completion'])}"))
        checks.append(("draws", f"flagged: {_interval(draws)}"))
    else:
        checks.append(("draws", f"ok: {_interval(draws)} (limit {limits['draws']:.0%})" if n else "no games"))
    if n and stopped["value"] > limits["unfinished"]:
        found(0, Finding("unfinished", f"Unfinished games: {stopped['value']:.1%} stopped by the G-4 turn cap "
                                       f"(more than {limits['unfinished']:.0%})",
                         f"Timeouts {_interval(stopped)} over {n:,} games; mean length of the finished games "
                         f"{table.at['DurationTurnsNotTimeouts', 'value']:.1f} turns"))
        checks.append(("unfinished", f"flagged: {_interval(stopped)}"))
    else:
        checks.append(("unfinished", f"ok: {_interval(stopped)} (limit {limits['unfinished']:.0%})" if n else "no games"))


def _check_first_seat(table, found, checks) -> None:
    row, wins = table.loc["AdvantageP1"], table.loc["FirstSeatWins"]
    if not row["n"]:
        checks.append(("first seat", "no games"))
        return
    if row["low"] > 0.5 or row["high"] < 0.5:
        side = "advantage" if row["low"] > 0.5 else "disadvantage"
        found(1, Finding("first_seat", f"First-seat {side}: AdvantageP1 {row['value']:.3f}, its interval "
                                       f"excludes the fair 0.5",
                         f"AdvantageP1 {_interval(row, False)} over {int(row['n']):,} games (Ludii's: the first "
                         f"seat's place, 1 won, 0 last, part wins between); the first seat won "
                         f"{_interval(wins)} of them"))
        checks.append(("first seat", f"flagged: AdvantageP1 {_interval(row, False)}"))
    else:
        checks.append(("first seat", f"ok: AdvantageP1 {_interval(row, False)} holds the fair 0.5"))


def _games(runs: Mapping[str, pd.DataFrame]) -> str:
    return " and ".join(f"{len(df):,} {label}" for label, df in runs.items())


def _check_cards(runs: Mapping[str, pd.DataFrame], found, checks) -> None:
    tables = {label: card_stats(df) for label, df in runs.items() if len(df)}
    totals = None   # per (counter, card): times done in all the runs
    for label, stats in tables.items():
        done = stats.loc[stats["kind"] == CHOICE, "per_game"] * len(runs[label])
        totals = done if totals is None else totals.add(done, fill_value=0)
    if totals is None or not len(totals):
        checks.append(("cards", "not run: this game counts no cards played (CountsCards.card_counts)"))
        return
    counters = list(dict.fromkeys(totals.index.get_level_values("counter")))
    per_run = {label: stats["per_game"] * len(runs[label]) for label, stats in tables.items()}

    def times(counter: str, cards: Sequence[str]) -> str:
        return "; ".join(f"{label}: {int(round(float(t.loc[counter].reindex(cards).fillna(0).sum()))):,}"
                         for label, t in per_run.items())

    flagged = []
    bought = totals.loc["bought"] if "bought" in counters else pd.Series(dtype=float)
    if {"played", "bought"} <= set(counters):
        dead = [card for card in bought.index if bought[card] > 0 and totals.loc["played"].get(card, 0) == 0]
        if dead:
            found(1, Finding("bought_never_played", f"Cards bought but never played: {len(dead)} card"
                                                    f"{'s' if len(dead) != 1 else ''} ({', '.join(dead)})",
                             f"bought ({times('bought', dead)}), played 0 times in {_games(runs)}: do bought "
                             "cards ever reach a hand?"))
            flagged.append("bought, never played")
    for counter in counters:
        never = [card for card in totals.loc[counter].index if totals.loc[counter][card] == 0]
        if counter == "played":   # a card bought and never played is said above; one never bought, below
            never = [card for card in never if card not in bought.index]
        if never:
            key = "never_bought" if counter == "bought" else "never_played"
            also = " (so never played either)" if counter == "bought" and "played" in counters else ""
            found(2, Finding(key, f"Cards never {counter}{also}: {len(never)} of {len(totals.loc[counter])} "
                                  f"({', '.join(never)})", f"{counter} 0 times in {_games(runs)}"))
            flagged.append(f"never {counter}")
    checks.append(("cards", f"flagged: {', '.join(flagged)}" if flagged else
                   f"ok: every card {' and '.join(counters)} at least once"))


def _check_endings(runs: Mapping[str, pd.DataFrame], rules, found, checks) -> None:
    endings = dict(rules.end_conditions())
    if not endings:
        checks.append(("endings", "not run: the game does not name its endings (Game.end_conditions)"))
        return
    finished = pd.concat([df[df["finished"].astype(bool)] for df in runs.values()], ignore_index=True)
    seen = finished["end_condition"].value_counts()
    never = [key for key in endings if seen.get(key, 0) == 0]
    summary = ", ".join(f"{endings.get(k, k)}: {int(c):,}" for k, c in seen.items()) or "no finished game"
    for key in never:
        found(1, Finding("ending", f"An ending no game reached: {endings[key]}",
                         f"0 of {len(finished):,} finished games ({_games(runs)}) ended so; how they ended: "
                         f"{summary}"))
    checks.append(("endings", f"flagged: {len(never)} of {len(endings)} never reached" if never else
                   f"ok: every ending reached ({summary})"))


def _check_resources(runs: Mapping[str, pd.DataFrame], rules, found, checks) -> None:
    bounds = dict(rules.resource_bounds()) if isinstance(rules, HasResources) else {}
    if not bounds:
        checks.append(("resources", "not run: the game names no resource (HasResources.resources)"))
        return
    notes = []
    everything = pd.concat(list(runs.values()), ignore_index=True)
    for name, (low, high) in bounds.items():
        least, most = everything.get(f"min_{name}"), everything.get(f"max_{name}")
        if least is None or least.isna().all():
            continue
        for bound, seen, word in ((low, least.min(), "below"), (high, most.max(), "above")):
            if bound is None:
                continue
            reached = seen <= bound if word == "below" else seen >= bound
            if not reached:
                allowed = (f"{low:g} to {high:g}" if None not in (low, high) else
                           f"{low:g} or more" if high is None else f"{high:g} or less")
                most_or_least = "least" if word == "below" else "most"
                found(1, Finding("resource", f"{name.capitalize()} never reaches {bound:g}, a bound the rules "
                                             f"allow",
                                 f"in {_games(runs)} the {most_or_least} {name} any seat held was {seen:g} "
                                 f"(the rules allow {allowed})"))
                notes.append(f"{name} never {bound:g}")
    checks.append(("resources", f"flagged: {', '.join(notes)}" if notes else
                   f"ok: every bound of {', '.join(bounds)} reached"))


def _check_stalls(rows, limits, found, checks) -> None:
    stalls = pd.to_numeric(rows.get("longest_stall"), errors="coerce") if "longest_stall" in rows else None
    if stalls is None or stalls.isna().all():
        checks.append(("stalls", "not run: the game does not say its scores (Scores.scores)"))
        return
    long = stalls >= limits["stall_turns"]
    share = float(long.mean())
    evidence = (f"in {share:.0%} of {len(rows):,} games ({int(long.sum()):,}) no seat's score changed for "
                f"{limits['stall_turns']:g}+ turns in a row; the longest such run {int(stalls.max())} turns, "
                f"median game {pd.to_numeric(rows['turns'], errors='coerce').median():g} turns")
    if share > limits["stall_share"]:
        found(2, Finding("stalls", f"Stalls: long runs of turns where no score changes in {share:.0%} of games",
                         evidence))
        checks.append(("stalls", f"flagged: {share:.0%} of games"))
    else:
        checks.append(("stalls", f"ok: {evidence}"))


def fair_share_text(fair: float, seats: int) -> str:
    """What a skill step's fair share is, in words: ``"the 98.4% of games with a winner,
    split over 2 seats"`` (:func:`~playtest.lab.skill_ladder`'s ``fair``: the games
    nobody won, draws and unfinished ones, are no seat's share)."""
    if fair * seats >= 1 - 1e-9:
        return f"every game had a winner, split over {seats} seats"
    return f"the {fair * seats:.1%} of games with a winner, split over {seats} seats"


def _check_skill(game_type, seats, options, seed, skill, skill_games, executor, workers, found, checks):
    if skill is False:
        checks.append(("skill gradient", "not run (skill=False)"))
        return None
    try:
        from .skill import skill_ladder
    except ImportError:
        checks.append(("skill gradient", "not run: the skill ladder (playtest.lab.skill) is not installed"))
        return None
    ladder = list(SKILL_LADDER if skill is True else skill)
    known = game_type.BOTS
    if any(isinstance(name, str) and name.split(":")[0] not in known for name in ladder):
        checks.append(("skill gradient", f"not run: {game_type.title} has not every bot of {', '.join(ladder)}"))
        return None
    table = skill_ladder(game_type, seats, games=skill_games, ladder=ladder, options=options, seed=seed,
                         executor=executor, workers=workers)
    steps = "; ".join(f"{name}: {row['rate']:.1%} [{row['low']:.1%}, {row['high']:.1%}] vs fair share "
                      f"{row['fair']:.1%} ({fair_share_text(row['fair'], seats)})" for name, row in table.iterrows())
    if not ((table["low"] > table["fair"]) & (table["points"] > 0)).any():
        found(2, Finding("skill", "Skill gradient flat: no stronger bot wins measurably more than its fair share",
                         f"{skill_games:,} games per step: {steps}"))
        checks.append(("skill gradient", f"flagged: {table.attrs.get('sentence', '')}"))
    else:
        checks.append(("skill gradient", f"ok: {table.attrs.get('sentence', '')} ({steps})"))
    return table
