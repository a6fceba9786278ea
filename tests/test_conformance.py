"""``playtest.testing.check_game``, the conformance check (issue 27): every installed game
passes it, and a game that breaks one property of the contract fails it, with an
``AssertionError`` naming that property and where it broke.

The broken games are Night Shift (2 seats, short games, a determinizer) with one thing
changed each, so that everything else about them passes."""
from __future__ import annotations

import random
import warnings
from importlib.metadata import entry_points

import pytest

from playtest.engine import Event, Game, Move, RandomBot, get_game
from playtest.games.night_shift.bots import HeuristicBot
from playtest.games.night_shift.rules import NightShift
from playtest.testing import PROPERTIES, UncheckedWarning, check_game

GAMES = 10
"""Random games per seat count in the suite (a designer's default is 50)..."""
SPREAD = 60
"""... but a game of many seat counts plays about SPREAD games spread over them, at
least MINIMUM per count: Crazy Eights takes 2 to 15 seats (14 counts), so 4 games each
(56, instead of 140 that took four times Chore Race's time). Every seat count is still
played and checked: each game checks every move's text and, on about
``CHECKED_POSITIONS`` positions and at the setup, the views, the log lines, refused moves
and the determinizer, then its replay and ``keep_log``, and each count's bots play a game.
What depends on the seat count (the deal, whose turn follows whose, the end) shows in any
game at that count; more games at one count add other deals of the same rules."""
MINIMUM = 4


def games_per_count(game) -> int:
    """Random games per seat count for ``game`` in the suite (:data:`SPREAD`)."""
    counts = game.max_seats - game.min_seats + 1
    return max(MINIMUM, min(GAMES, SPREAD // counts))


INSTALLED = sorted(ep.name for ep in entry_points(group="playtest.games"))
"""The installed games, by their entry points (Crazy Eights too: the suite installs it,
tests/example_install.py). A game registered in a test process, such as the toy game of
tests/toy_game.py (no determinizer: its views cannot be checked), is not one."""


@pytest.mark.parametrize("name", INSTALLED)
def test_every_installed_game_keeps_the_contract(name):
    game = get_game(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UncheckedWarning)        # and every part of it is checked
        check_game(game, games=games_per_count(game))


def test_the_toy_game_keeps_the_contract_and_is_told_what_could_not_be_checked():
    """tests/toy_game.py (every decision shape: reaction windows, secret simultaneous
    choices, open moves; no determinizer, an all-cards view of numbers) passes, with
    the two parts of hidden_information it gives no way to check named."""
    from toy_game import Toy
    with pytest.warns(UncheckedWarning) as caught:
        check_game(Toy, games=GAMES)
    said = sorted(str(w.message) for w in caught if w.category is UncheckedWarning)
    assert len(said) == 2, said
    assert "Toy's log lines were checked against no hidden card" in said[0]
    assert "Toy's views were not checked for hidden cards" in said[1]


class NoDeterminizer(NightShift):
    """Night Shift without its determinizer (not Searchable), its all-cards view the
    default (the state's dump: card ids, no names)."""

    copy_state = determinizer = None
    all_cards_view = Game.all_cards_view
    BOTS = {"random": RandomBot, "heuristic": HeuristicBot}        # a search bot needs the determinizer


def test_what_check_game_cannot_check_it_says_in_a_warning():
    """A game that is not Searchable gets its views unchecked, and one whose all-cards
    view names no hidden card gets its log lines checked against none: check_game says
    so (UncheckedWarning), and passes on what it could check; Night Shift as it is gets
    neither warning (the test above)."""
    with pytest.warns(UncheckedWarning) as caught:
        check_game(NoDeterminizer, games=2)
    said = [str(w.message) for w in caught if w.category is UncheckedWarning]
    assert len(said) == 2, said
    assert "Night Shift's views were not checked for hidden cards" in said[0] and "determinizer" in said[0]
    assert "log lines were checked against no hidden card" in said[1] and "all_cards_view" in said[1]


class LeakyView(NightShift):
    """Shows each seat the other seat's hand."""

    def view(self, state, seat):
        view = super().view(state, seat)
        if seat is not None:
            other = view["players"][1 - seat]
            other["hand"] = [self.cards[c].name for c in state.hands[1 - seat]]
        return view


class LeakyLog(NightShift):
    """Tells each seat, in its own log line, the face-down top card of the Household
    Supply after every move."""

    def apply(self, state, move):
        events = super().apply(state, move)
        top = self.cards[state.supply[-1]].name if state.supply else "nothing"
        return events + [Event("The supply waits.", {seat: f"The supply's next card is {top}." for seat in (0, 1)})]


class LeakySpectator(NightShift):
    """Shows the spectator seat 0's hand."""

    def view(self, state, seat):
        view = super().view(state, seat)
        if seat is None:
            view["players"][0]["hand"] = [self.cards[c].name for c in state.hands[0]]
        return view


UNSEEDED = random.Random()  # a stream the record does not name


class ReplayDiffers(NightShift):
    """Shuffles the Household Supply with a stream of its own at the setup (not G-3's)."""

    def new_state(self, rng):
        state = super().new_state(rng)
        UNSEEDED.shuffle(state.supply)
        return state


class RefusalChangesState(NightShift):
    """Draws from the game's stream while explaining a refusal."""

    def explain(self, state, move):
        state.rng.random()
        return super().explain(state, move)


class NoRuling(NightShift):
    """Refuses every move without citing a ruling."""

    def explain(self, state, move):
        return "", super().explain(state, move)[1]


class OtherGamesRuling(NightShift):
    """Refuses every move citing a ruling id Night Shift does not declare (Chore Race's)."""

    def explain(self, state, move):
        return "CR-7", super().explain(state, move)[1]


class DeclaresItsRuling(OtherGamesRuling):
    """The same refusals, with the id they cite declared among its own."""

    RULINGS = {**NightShift.RULINGS, "CR-7": "a ruling this variant borrows"}


class LogChangesResult(NightShift):
    """Draws from the game's stream only when the log is kept."""

    def apply(self, state, move):
        if self.keep_log:
            state.rng.random()
        return super().apply(state, move)


class NumberNames(NightShift):
    """Offers its moves with each card named by its number, as a word (``"3"``): the text
    ``0 play 3`` reads back with the number 3, not the word."""

    def legal_moves(self, state, seat):
        number = {card.name: str(n) for n, card in enumerate(self.cards)}
        return [Move(m.seat, m.kind, tuple(number.get(a, a) for a in m.args)) for m in super().legal_moves(state, seat)]


class StuckBot(HeuristicBot):
    """Plays a move that is never legal."""

    name = "stuck"

    def choose(self, view, legal):
        return Move(legal[0].seat, "nonsense")


class BadBot(NightShift):
    BOTS = {**NightShift.BOTS, "stuck": StuckBot}


@pytest.mark.parametrize("game, prop, words", [
    (LeakyView, "hidden_information", "seat 0's view differs"),
    (LeakyLog, "hidden_information", "log line"),
    (LeakySpectator, "hidden_information", "the spectator's view differs"),
    (ReplayDiffers, "replay", "another state"),
    (RefusalChangesState, "refused_move_changes_nothing", "changed the state's fingerprint"),
    (NoRuling, "rulings", "cites the ruling ''"),
    (OtherGamesRuling, "rulings", "cites the ruling 'CR-7', which Night Shift does not declare"),
    (LogChangesResult, "keep_log", "keep_log=False"),
    (NumberNames, "move_text", "parses to"),
    (BadBot, "bots_finish", "stuck"),
], ids=lambda value: value.__name__ if isinstance(value, type) else None)
def test_a_broken_game_fails_naming_the_property(game, prop, words):
    assert prop in PROPERTIES
    with pytest.raises(AssertionError) as failure:
        check_game(game, games=3)
    message = str(failure.value)
    assert message.startswith(f"check_game: property '{prop}' broke:"), message
    assert words in message and "seed " in message and "Night Shift" in message, message


def test_a_refusal_may_cite_an_id_the_game_declares_of_any_prefix():
    check_game(DeclaresItsRuling, games=2)            # OtherGamesRuling, but declaring CR-7


def test_the_seed_and_moves_in_the_message_replay_the_failure():
    with pytest.raises(AssertionError) as failure:
        check_game(LeakyView, games=3)
    message = str(failure.value)
    assert "2 seats, seed 0, at the setup" in message  # the first position of the first game
    check_game(NightShift, seats=2, games=1)          # the unbroken game passes the same game


def test_bad_arguments_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="Game subclass"):
        check_game("night_shift")
    with pytest.raises(ValueError, match="1 or more"):
        check_game(NightShift, games=0)
    with pytest.raises(ValueError, match="seat count"):
        check_game(NightShift, seats=[])


class NotABot:
    name = "plain"


def _broken(**declarations):
    """Night Shift with some of its declarations changed (a subclass, not registered)."""
    return type("Broken", (NightShift,), declarations)


@pytest.mark.parametrize("declarations, words", [
    ({"BOTS": {"plain": NotABot}}, "BOTS must map bot names to Bot subclasses"),
    ({"BOTS": {}}, "BOTS must map"),
    ({"RULINGS": {"G-1": "seats from 0"}}, "'G-1' is not a ruling id of the game's own"),
    ({"RULINGS": {"NS 4": "buy"}}, "'NS 4' is not a ruling id"),
    ({"RULINGS": {"NS-4": "buy\nfrom the row"}}, "must be one line"),
    ({"PRESETS": {"broken": {"turn_limit": 0}}}, "preset 'broken' has bad options"),
    ({"SEATS": 3}, "SEATS 3 is not a seat count the game takes (2 to 2)"),
    ({"BOARD": "playtest.games.night_shift.widget:NoSuchBoard"}, "does not load"),
    ({"BOARD": "playtest.games.night_shift.widget:SeatPanel"}, "is not a GameBoard subclass"),
])
def test_a_broken_declaration_fails_naming_it(declarations, words):
    with pytest.raises(AssertionError) as failure:
        check_game(_broken(**declarations), games=1)
    message = str(failure.value)
    assert message.startswith("check_game: property 'declarations' broke:") and words in message, message
    assert "Night Shift (night_shift), its declarations" in message


def test_a_registered_games_tutorial_and_examples_are_checked(tmp_path, monkeypatch):
    """The class registered under its name has its tutorial and example scenarios
    loaded and replayed; one that fails its expectations fails the check."""
    from playtest.engine import registry
    from playtest.scenarios import examples
    folder = tmp_path / "scenarios"
    folder.mkdir()
    text = examples("night_shift")["night_shift_last_shift"].read_text(encoding="utf-8")
    assert "[[expect]]" in text
    broken = text.replace("[[expect]]", '[[expect]]\nafter = 0\nview = { "shift" = 999 }\n\n[[expect]]', 1)
    (folder / "night_shift_wrong.toml").write_text(broken, encoding="utf-8")
    game = _broken(EXAMPLES=folder)
    monkeypatch.setitem(registry._registered, "night_shift", game)
    with pytest.raises(AssertionError, match="the example scenario night_shift_wrong has 1 failing expectation"):
        check_game(game, games=1)
    (folder / "night_shift_wrong.toml").write_text(text.replace('game = "night_shift"', 'game = "lazy_sunday"'),
                                                    encoding="utf-8")
    with pytest.raises(AssertionError, match="night_shift_wrong (does not replay|is of game 'lazy_sunday')"):
        check_game(game, games=1)
