"""A conformance check a game designer runs on their game: :func:`check_game`.

It plays seeded random games of a :class:`~playtest.engine.game.Game` through the
engine's public contract (:class:`~playtest.engine.match.Match`), checks a list of named
properties (the ``PROPERTIES`` below, one function each) and raises ``AssertionError``
naming the property that broke, with the seat count, seed and move where it broke, so
the failure can be played again. The kit's own suite runs it over every installed game
(``tests/test_conformance.py``); a designer runs it in their own tests::

    from playtest.testing import check_game
    from my_package.rules import MyGame

    def test_my_game_keeps_the_kit_contract():
        check_game(MyGame)

Like OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test``, it finds broken
contracts, not broken rules: it knows nothing of the game's rules beyond what the game
itself says (its legal moves, views, determinizer, ruling ids).
"""
from __future__ import annotations

import contextlib
import copy
import json
import random
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field

from playtest.engine import (SPECTATOR, Bot, Game, IllegalMove, Match, Move, MoveSyntaxError, OptionError,
                             PlaytestError, Record, check_bot_name, get_game, play_game)
from playtest.engine.game import RULING_ID, Searchable

CHECKED_POSITIONS = 2
"""About how many positions of each random game get the costly checks (refused moves,
views against samples of the hidden information, log lines); the setup always does."""
SAMPLES = 2
"""States drawn by the game's determinizer for each seat at a checked position."""
GARBAGE = ("", "0", "x y", "0 ", "-1 pass", "0 \x00", "0 'unclosed", "99999999999999999999 pass")
"""Move texts no game reads as a move: each is refused and changes nothing."""
SEARCH_BUDGET = "1"
"""The budget a bot that takes one (a search bot) gets in :func:`check_bots`."""


class UncheckedWarning(UserWarning):
    """:func:`check_game` could not check part of a property on this game: the warning
    says which part and what the game lacks for it (e.g. a determinizer). The game passed
    every check that ran."""


@dataclass
class Where:
    """Where a check runs: for the failure message."""

    game: type[Game]
    seats: int
    seed: int
    moves: list[Move] = field(default_factory=list)

    def __str__(self) -> str:
        at = f"after move {len(self.moves)} ({self.moves[-1]})" if self.moves else "at the setup"
        return (f"{self.game.title} ({self.game.name}), {self.seats} seats, seed {self.seed}, {at}; "
                f"replay: Match({self.game.__name__}, {self.seats}, seed={self.seed}) and the moves "
                f"{[str(m) for m in self.moves[-5:]]} (last 5 of {len(self.moves)})")


def fail(prop: str, where: Where | str, detail: str) -> None:
    """Raise the ``AssertionError`` of a broken property: ``"check_game: property
    'replay' broke: <detail> [<where>]"``."""
    raise AssertionError(f"check_game: property '{prop}' broke: {detail} [{where}]")


def first_difference(a, b, path: str = "") -> str:
    """The first place two JSON-like values differ, as ``"path: a != b"``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: present in one only ({a.get(key, '-')!r} / {b.get(key, '-')!r})"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}.{i}")
    return f"{path or 'the whole value'}: {_short(a)} != {_short(b)}"


def _short(value) -> str:
    text = json.dumps(value, default=repr)
    return text if len(text) <= 120 else text[:117] + "..."


# --- the properties: each checks one thing and raises AssertionError naming it ----------
def check_move_text(match: Match, where: Where, moves: Iterable[Move]) -> None:
    """Property ``move_text``: every legal move's text form parses back to the same move
    (``Move.parse(str(m)) == m``), so records, scenario files and typed moves name it."""
    for move in moves:
        try:
            back = Move.parse(str(move))
        except MoveSyntaxError as exc:
            fail("move_text", where, f"the legal move {move!r} has the text {str(move)!r}, which does not parse: {exc}")
        if back != move or [type(a) for a in back.args] != [type(a) for a in move.args]:
            fail("move_text", where, f"the legal move {move!r} has the text {str(move)!r}, which parses to {back!r}")


def check_views_are_json(match: Match, where: Where) -> None:
    """Property ``views_are_json``: every seat's view and the spectator's are plain JSON
    data (what a browser receives), equal to themselves after a JSON round trip."""
    for seat in [SPECTATOR, *range(match.game.seats)]:
        view = match.view(seat)
        try:
            back = json.loads(json.dumps(view))
        except (TypeError, ValueError) as exc:
            fail("views_are_json", where, f"{_who(seat)}'s view is not JSON data: {exc}")
        if back != view:
            fail("views_are_json", where, f"{_who(seat)}'s view changes in a JSON round trip: "
                                          f"{first_difference(view, back)}")


def check_refusals(match: Match, where: Where, rng: random.Random, refused: list[IllegalMove]) -> None:
    """Property ``refused_move_changes_nothing``: moves the game does not allow now (another
    seat's move, a kind not legal now, a legal move's arguments changed, a seat out of
    range, garbage text) raise ``IllegalMove`` or ``MoveSyntaxError`` and leave the
    state's fingerprint, the record and every seat's legal moves as they were. The
    ``IllegalMove`` errors go to ``refused`` for :func:`check_rulings`."""
    game = match.game
    seats = game.seats
    legal = {seat: list(match.legal_moves(seat)) for seat in range(seats)}
    before, record = match.fingerprint(), list(match.moves)
    tries: list[Move | str] = list(GARBAGE)
    tries.append(Move(seats, "pass"))
    for seat in range(seats):
        for move in rng.sample(legal[seat], min(2, len(legal[seat]))):
            tries.append(Move(rng.randrange(seats), move.kind, move.args))   # by another seat, maybe
            if move.args:                                                  # an argument changed
                args = list(move.args)
                i = rng.randrange(len(args))
                args[i] = args[i] + 1000 if isinstance(args[i], int) else args[i] + "?"
                tries.append(Move(seat, move.kind, tuple(args)))
        kinds = {m.kind for m in legal[seat]}
        other_kinds = [kind for kind in game.MOVE_ARGS if kind not in kinds]
        tries += [Move(seat, kind, tuple(range(len(game.MOVE_ARGS[kind]))))  # kinds not legal now
                  for kind in rng.sample(other_kinds, min(3, len(other_kinds)))]
    for move in tries:
        if isinstance(move, Move) and move in legal.get(move.seat, ()):
            continue
        try:
            match.play(move)
        except IllegalMove as exc:
            refused.append(exc)
        except MoveSyntaxError:
            pass
        else:
            fail("refused_move_changes_nothing", where, f"{str(move)!r} was played, but it is not among seat "
                 f"{move.seat if isinstance(move, Move) else '?'}'s legal moves")
        if match.moves != record:
            fail("refused_move_changes_nothing", where, f"refusing {str(move)!r} changed the record")
    if match.fingerprint() != before:  # once (fingerprints are dear): then find the culprit
        for move in tries:
            probe = match.branch()
            with contextlib.suppress(IllegalMove, MoveSyntaxError):
                probe.play(move)
            if probe.fingerprint() != before:
                fail("refused_move_changes_nothing", where, f"refusing {str(move)!r} changed the state's "
                     f"fingerprint: {first_difference(json.loads(before), json.loads(probe.fingerprint()))}")
        fail("refused_move_changes_nothing", where, "refusing the moves "
             f"{[str(m) for m in tries]} changed the state's fingerprint")
    for seat in range(seats):
        if list(match.game.legal_moves(match.state, seat)) != legal[seat]:
            fail("refused_move_changes_nothing", where, f"after the refusals seat {seat}'s legal moves changed")


def check_rulings(game: Game, where: Where, refused: list[IllegalMove], known: frozenset[str]) -> None:
    """Property ``rulings``: every ``IllegalMove`` the game raised carries a ruling id it
    declares (``Game.RULINGS``) or one of the engine's (``G_RULINGS``: ``G-1``..``G-4``),
    so a player is told which rule a refusal applies, in the line the game declares for it. Refusals of a move no position offers (a kind the game does not have, or
    the wrong count of arguments: ``Game.shape_problem``) may cite none."""
    for exc in refused:
        if exc.move.kind not in game.MOVE_ARGS or game.shape_problem(exc.move):
            continue
        if exc.ruling not in known:
            fail("rulings", where, f"refusing {str(exc.move)!r} cites the ruling {exc.ruling!r}, which "
                 f"{game.title} does not declare (declared: {', '.join(sorted(known)) or 'none'}); "
                 f"the refusal: {exc}")


def check_hidden_in_views(match: Match, where: Where, samples: list[list]) -> None:
    """Property ``hidden_information``, views (games with a determinizer): no seat's view,
    nor the spectator's, shows a card that seat may not see. The game's determinizer
    redraws everything seat *s* cannot see (``samples[s]``: states consistent with its
    bot view, from the full state's own view of it); the seat's view of each drawn state
    must equal its view of the real state, and so must the spectator's (a spectator sees
    less than any seat). A view that shows another seat's hand, a deck's order or a
    face-down card differs between them."""
    game = match.game
    public = match.view(SPECTATOR)
    for seat, drawn in enumerate(samples):
        real = match.view(seat)
        for sample in drawn:
            other = game.view(sample, seat)
            if other != real:
                fail("hidden_information", where, f"seat {seat}'s view differs between the real state and a state "
                     f"the game's determinizer drew from seat {seat}'s knowledge: the view shows something "
                     f"the seat may not see (or the determinizer misplaces a card it knows): "
                     f"{first_difference(real, other)}")
            other = game.view(sample, SPECTATOR)
            if other != public:
                fail("hidden_information", where, f"the spectator's view differs between the real state and a "
                     f"state the game's determinizer drew from seat {seat}'s knowledge: it shows a card "
                     f"hidden from seat {seat}: {first_difference(public, other)}")


def check_hidden_in_log(match: Match, where: Where, lines: list[list[str]], names: set[str],
                        shown: list[set[str]]) -> None:
    """Property ``hidden_information``, log lines (every game): what a seat reads in the
    log beyond the public line (``Event.private``) names no card of the full state that
    the seat's view did not show just before or just after the move: a private line
    meant for another seat, or one naming another seat's hand, fails.

    Args:
        lines: the move's log lines as each seat reads them, the spectator's (the public
            ones) last.
        names: the text values of the all-cards view (``Game.all_cards_view``: every card
            named) before and after the move.
        shown: the text values of each seat's view (the spectator's last) before the move.
    """
    public = " ".join(lines[-1])
    for seat, texts in enumerate(lines[:-1]):
        for name in names - shown[seat] - _strings(match.view(seat)):
            if not any(c.isalnum() for c in name) or _names(name, public):
                continue
            for text in texts:
                if _names(name, text):
                    fail("hidden_information", where, f"seat {seat}'s log line {text!r} names {name!r}, a card of "
                         f"the full state that seat {seat}'s view did not show before or after the move, "
                         f"and the public line does not name")


def _names(name: str, text: str) -> bool:
    """Whether ``text`` holds ``name`` as whole words."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def check_determinizer(match: Match, where: Where, samples: list, views: list[dict]) -> None:
    """Property ``determinizer``: every state the game's determinizer draws from seat
    *s*'s bot view gives that seat the same bot view and the same decision and open
    moves as the real state (``Searchable.determinizer``'s contract; the views are
    :func:`check_hidden_in_views`')."""
    game, state = match.game, match.state
    for seat, drawn in enumerate(samples):
        for sample in drawn:
            other = game.bot_view(sample, seat)
            if other != views[seat]:
                fail("determinizer", where, f"a state drawn from seat {seat}'s bot view gives it another bot view: "
                     f"{first_difference(views[seat], other)}")
            for kind in ("decision_moves", "open_moves"):
                real, drawn_moves = getattr(game, kind)(state, seat), getattr(game, kind)(sample, seat)
                if real != drawn_moves:
                    fail("determinizer", where, f"a state drawn from seat {seat}'s bot view gives it other "
                         f"{kind.replace('_', ' ')}: {[str(m) for m in drawn_moves][:8]} instead of "
                         f"{[str(m) for m in real][:8]}")


def check_replay(match: Match, where: Where) -> None:
    """Property ``replay``: the record replays byte for byte (G-3): the saved record's
    text, read back (``Record``) and replayed move by move from its text, gives the same
    state (``fingerprint``: ``dump()`` and the random stream), saves the same record
    text and ends with the same outcome and log (every seat's and the spectator's)."""
    text = match.to_json()
    record = Record.model_validate_json(text)
    again = Match(type(match.game), record.seats, record.options, record.seed, True, record.setup, record.stream)
    for n, move in enumerate(record.moves, 1):
        try:
            again.play(move)
        except (IllegalMove, MoveSyntaxError) as exc:
            fail("replay", where, f"replaying the record refuses its move {n}, {move!r}: {exc}")
    if again.fingerprint() != match.fingerprint():
        fail("replay", where, "replaying the record gives another state: "
             + first_difference(json.loads(match.fingerprint()), json.loads(again.fingerprint())))
    if again.to_json() != text:
        fail("replay", where, "the replayed match saves another record: "
             + first_difference(json.loads(text), json.loads(again.to_json())))
    if again.outcome() != match.outcome():
        fail("replay", where, f"the replay ends {again.outcome()} instead of {match.outcome()}")
    if again.log != match.log:
        fail("replay", where, "the replay logs other lines: " + first_difference(
            [(n, e.text, sorted(e.private.items())) for n, e in match.log],
            [(n, e.text, sorted(e.private.items())) for n, e in again.log]))


def check_keep_log(match: Match, where: Where) -> None:
    """Property ``keep_log``: playing the same moves with ``keep_log=False`` (as
    simulations do) accepts every move and gives the same state and outcome: the log
    changes no result (``Game.keep_log``)."""
    quiet = Match(type(match.game), match.game.seats, match.options_dict(), match.seed, keep_log=False,
                  stream=match.stream)
    for n, move in enumerate(match.moves):
        try:
            quiet.play(move)
        except IllegalMove as exc:
            fail("keep_log", where, f"with keep_log=False move {n + 1}, {move}, is refused: {exc}")
    if quiet.fingerprint() != match.fingerprint():
        fail("keep_log", where, "with keep_log=False the same moves give another state: "
             + first_difference(json.loads(match.fingerprint()), json.loads(quiet.fingerprint())))
    if quiet.outcome() != match.outcome():
        fail("keep_log", where, f"with keep_log=False the game ends {quiet.outcome()} instead of {match.outcome()}")


def check_bots(game_class: type[Game], seats: int, seeds: Iterable[int]) -> None:
    """Property ``bots_finish``: every bot the game declares (``BOTS``) plays only legal
    moves and finishes the game (an outcome with ``finished`` True: not stopped by G-4's
    ``max_turns``). A bot plays every seat; a bot that takes a budget (a search bot)
    plays one seat (``seed % seats``) with a budget of :data:`SEARCH_BUDGET`, the
    game's first bot the others."""
    names = bot_names(game_class)
    for name in names:
        budgeted = f"{name}:{SEARCH_BUDGET}"
        try:
            check_bot_name(game_class, budgeted)
        except OptionError:
            budgeted = None
        for seed in seeds:
            where = Where(game_class, seats, seed)
            bots = ({seat: names[0] for seat in range(seats)} | {seed % seats: budgeted} if budgeted
                    else {seat: name for seat in range(seats)})
            try:
                match, outcome = play_game(game_class, seats, bots, seed=seed)
            except (IllegalMove, RuntimeError) as exc:
                fail("bots_finish", where, f"the bots {bots} do not finish the game: {exc}")
            if not outcome.finished:
                fail("bots_finish", where, f"the bots {bots} reached max_turns "
                     f"({match.game.options.max_turns}) without finishing the game: {outcome.reason}")


def check_declarations(game_class: type[Game]) -> None:
    """Property ``declarations``: what the game package declares loads and holds
    (:class:`~playtest.engine.game.Game`'s ``BOTS``, ``RULINGS``, ``PRESETS``, ``BOARD``,
    ``SEATS``, ``TUTORIAL``, ``EXAMPLES``): bots are :class:`~playtest.engine.bot.Bot`
    subclasses; ruling ids have the shape ``CE-4`` (not the engine's ``G-*``) with one
    line each; presets are valid options; the board imports as a board; the first seat
    count is one the game takes; the tutorial loads and plays through and every example
    scenario replays with its expectations holding, both of this game. The tutorial and
    examples are checked for the class registered under the game's name (a subclass
    made to test, e.g. a broken view, inherits its base's and is not theirs)."""
    where = f"{game_class.title} ({game_class.name}), its declarations"
    bots = game_class.BOTS
    if not bots or not all(isinstance(n, str) and isinstance(b, type) and issubclass(b, Bot) for n, b in bots.items()):
        fail("declarations", where, f"BOTS must map bot names to Bot subclasses (weakest first), not {_short(bots)}")
    for rid, line in game_class.RULINGS.items():
        if not (isinstance(rid, str) and RULING_ID.fullmatch(rid)) or rid.startswith("G-"):
            fail("declarations", where, f"RULINGS id {rid!r} is not a ruling id of the game's own "
                                        f"(capitals, a dash and a number, e.g. 'CE-4'; G-* ids are the engine's)")
        if not (isinstance(line, str) and line.strip() and "\n" not in line):
            fail("declarations", where, f"RULINGS[{rid!r}] must be one line saying the rule, not {_short(line)}")
    for name, options in game_class.PRESETS.items():
        try:
            game_class.validate_options(options)
        except OptionError as exc:
            fail("declarations", where, f"preset {name!r} has bad options: {exc}")
    if game_class.SEATS is not None and not game_class.min_seats <= game_class.SEATS <= game_class.max_seats:
        fail("declarations", where, f"SEATS {game_class.SEATS!r} is not a seat count the game takes "
                                    f"({game_class.min_seats} to {game_class.max_seats})")
    if game_class.BOARD is not None:
        from playtest.widgets.board import board_class
        try:
            board_class(game_class)
        except OptionError as exc:
            fail("declarations", where, str(exc))
    try:
        registered = get_game(game_class.name) is game_class
    except OptionError:
        registered = False
    if registered:
        _check_tutorial_and_examples(game_class, where)


def _check_tutorial_and_examples(game_class: type[Game], where: str) -> None:
    from playtest.scenarios import Scenario, examples
    from playtest.tutorials import load_tutorial
    if game_class.TUTORIAL is not None:
        try:
            tutorial = load_tutorial(game_class.TUTORIAL)
        except PlaytestError as exc:
            fail("declarations", where, f"the tutorial {game_class.TUTORIAL} does not load: {exc}")
        if tutorial.game != game_class.name:
            fail("declarations", where, f"the tutorial {game_class.TUTORIAL} is of game {tutorial.game!r}")
    for name, path in (examples(game_class.name) if game_class.EXAMPLES is not None else {}).items():
        try:
            scenario = Scenario.load(path)
            failures = scenario.verify()
        except PlaytestError as exc:
            fail("declarations", where, f"the example scenario {name} does not replay: {exc}")
        if scenario.game != game_class.name:
            fail("declarations", where, f"the example scenario {name} is of game {scenario.game!r}")
        if failures:
            fail("declarations", where, f"the example scenario {name} has {len(failures)} failing "
                                        f"expectation(s), the first: {failures[0]}")


PROPERTIES = ("declarations", "move_text", "views_are_json", "hidden_information", "determinizer", "refused_move_changes_nothing",
              "rulings", "game_ends", "replay", "keep_log", "bots_finish")
"""The names :func:`check_game`'s failures give, in the order their checks run."""


# --- the driver -----------------------------------------------------------------------
def check_game(game_class: type[Game], seats=None, games: int = 50) -> None:
    """Check that ``game_class`` keeps the kit's game contract, by playing ``games``
    seeded random games (seeds 0..games-1) for each seat count, and running every
    property of :data:`PROPERTIES` on them.

    Args:
        game_class: a :class:`~playtest.engine.game.Game` subclass (registered or not).
        seats: a seat count, or several; None (default): every count from ``min_seats``
            to ``max_seats``.
        games: random games per seat count, 1 or more. On one core, 50 take about 2 s
            for Night Shift's one seat count, 11 s for Lazy Sunday's six and Chore Race's
            five (about 40 ms a game). Each bot plays ``max(1, games // 50)`` more.

    Warns:
        UncheckedWarning: a part of property ``hidden_information`` the game gives no
            way to check (:func:`warn_unchecked`): its views without a determinizer, its
            log lines without card names in its all-cards view.

    Raises:
        AssertionError: ``"check_game: property '<name>' broke: <what> [<game>, <n>
            seats, seed <s>, after move <k> (<move>); replay: ...]"``.
        ValueError: ``games`` is not a whole number 1 or more, or ``seats`` not seat counts.
        OptionError: a seat count the game does not take.
    """
    if not (isinstance(game_class, type) and issubclass(game_class, Game)):
        raise ValueError(f"check_game takes a Game subclass, not {game_class!r}")
    if type(games) is not int or games < 1:
        raise ValueError(f"games is the number of random games per seat count, 1 or more, not {games!r}")
    counts = (range(game_class.min_seats, game_class.max_seats + 1) if seats is None
              else [seats] if isinstance(seats, int) else list(seats))
    if not counts or not all(type(n) is int for n in counts):
        raise ValueError(f"seats is a seat count or a list of them, not {seats!r}")
    check_declarations(game_class)
    warn_unchecked(game_class, counts[0])
    known = declared_rulings(game_class)
    for n in counts:
        every = max(1, _expected_length(game_class, n) // CHECKED_POSITIONS)
        for seed in range(games):
            play_checked(game_class, n, seed, known, every)
        check_bots(game_class, n, range(max(1, games // 50)))


def warn_unchecked(game_class: type[Game], seats: int) -> None:
    """Warn (:class:`UncheckedWarning`) about the parts of property ``hidden_information``
    that ``game_class`` gives :func:`check_game` no way to check, judged at the setup of a
    ``seats``-seat game with seed 0: its views, when it is not
    :class:`~playtest.engine.game.Searchable` (the check draws the hidden cards again
    with the game's determinizer and compares the views); its log lines, when its
    all-cards view (``Game.all_cards_view``) names, as text, no card the spectator's view
    does not show (the check looks for those names in each seat's log lines)."""
    match = Match(game_class, seats, seed=0)
    title = game_class.title
    if not isinstance(match.game, Searchable):
        warnings.warn(f"check_game: {title}'s views were not checked for hidden cards (property "
                      f"'hidden_information'): the check draws each seat's hidden cards again with the game's "
                      f"determinizer and compares the views, and {title} has no copy_state and determinizer "
                      f"(Searchable). Its log lines are checked.", UncheckedWarning, stacklevel=3)
    hidden = _strings(match.all_cards_view()) - _strings(match.view(SPECTATOR))
    if not any(any(c.isalnum() for c in name) for name in hidden):
        warnings.warn(f"check_game: {title}'s log lines were checked against no hidden card (property "
                      f"'hidden_information'): at the setup, its all-cards view (Game.all_cards_view) names "
                      f"no card, as text, that the spectator's view does not show. Name every card there (the "
                      f"default puts the state's dump under 'all_cards', and card numbers are not names); a game "
                      f"that hides no card may ignore this.", UncheckedWarning, stacklevel=3)


def play_checked(game_class: type[Game], seats: int, seed: int, known: frozenset[str], every: int) -> Match:
    """Play one random game (the driver's choices seeded by ``seed`` too) and check
    every property on it, the costly ones every ``every`` moves; return the match."""
    rng = random.Random(f"check_game {seed}")
    match = Match(game_class, seats, seed=seed)
    game = match.game
    where = Where(game_class, seats, seed, match.moves)
    refused: list[IllegalMove] = []
    limit = 50 * game.options.max_turns * seats
    while True:
        acting = match.to_act()
        checked = len(match.moves) % every == 0 or not acting
        if checked:
            check_position(match, where, rng, refused, known)
        if not acting:
            break
        if len(match.moves) >= limit:
            fail("game_ends", where, f"the game did not end within {limit} moves (max_turns "
                 f"{game.options.max_turns} per seat, 50 moves a turn)")
        seat = rng.choice(acting)
        moves = match.decision_moves(seat)
        if rng.random() < 0.05:  # now and then an open move, of any seat
            other = rng.randrange(seats)
            moves = match.open_moves(other) or moves
        if not moves:
            fail("game_ends", where, f"seat {seat} is to act but has no legal move")
        move = rng.choice(moves)
        check_move_text(match, where, [move])
        if checked:
            names = _strings(match.all_cards_view())
            shown = [_strings(match.view(s)) for s in [*range(seats), SPECTATOR]]
            log_start = len(match.log)
        match.play(move)
        if checked:  # the log lines of this move, as each seat and the spectator read them
            lines = [[text for _, text in match.log_for(s, log_start)] for s in [*range(seats), SPECTATOR]]
            check_hidden_in_log(match, where, lines, names | _strings(match.all_cards_view()), shown)
    if match.outcome() is None:
        fail("game_ends", where, "no seat is to act, but the game has no outcome")
    check_replay(match, where)
    check_keep_log(match, where)
    return match


def check_position(match: Match, where: Where, rng: random.Random, refused: list[IllegalMove],
                   known: frozenset[str]) -> None:
    """The costly checks of one position: every seat's legal moves as text, views as
    JSON and against the determinizer's samples, refused moves and their rulings."""
    game, state = match.game, match.state
    for seat in range(game.seats):
        check_move_text(match, where, match.legal_moves(seat))
    check_views_are_json(match, where)
    views = [game.bot_view(state, seat) for seat in range(game.seats)]
    samples = draw_samples(game, views, rng) if match.to_act() else None
    if samples is not None:
        check_hidden_in_views(match, where, samples)
        check_determinizer(match, where, samples, views)
    refused.clear()
    check_refusals(match, where, rng, refused)
    check_rulings(game, where, refused, known)


def draw_samples(game: Game, views: list[dict], rng: random.Random) -> list[list] | None:
    """:data:`SAMPLES` states per seat drawn by the game's determinizer from a copy of
    that seat's bot view; None for a game that is not :class:`~playtest.engine.game.Searchable`."""
    if not isinstance(game, Searchable):
        return None
    samples = []
    for seat, view in enumerate(views):
        sampler = game.determinizer(copy.deepcopy(view), seat)
        samples.append([sampler(random.Random(rng.random())) for _ in range(SAMPLES)])
    return samples


def declared_rulings(game_class: type[Game]) -> frozenset[str]:
    """The ruling ids ``game_class``'s refusals may cite: the engine's ``G-*`` ids
    (:data:`~playtest.engine.G_RULINGS`) and those the game declares
    (``Game.RULINGS``), as scenarios read them
    (:func:`playtest.scenarios.scenario.known_rulings`)."""
    from playtest.scenarios.scenario import known_rulings
    return known_rulings(game_class)


def bot_names(game_class: type[Game]) -> list[str]:
    """The names of the bots the game declares (``BOTS``)."""
    return list(game_class.BOTS)


def _expected_length(game_class: type[Game], seats: int) -> int:
    """About how many moves a random game takes (one unchecked game, seed 0), so the
    costly checks land on about :data:`CHECKED_POSITIONS` positions of each game."""
    rng, match = random.Random(0), Match(game_class, seats, seed=0, keep_log=False)
    while (acting := match.to_act()) and len(match.moves) < 100_000:
        seat = rng.choice(acting)
        moves = match.decision_moves(seat) or match.open_moves(seat)
        if not moves:
            break
        match.play(rng.choice(moves))
    return len(match.moves)


def _strings(value) -> set[str]:
    """Every text value inside a JSON-like value (not its keys)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"
