"""Speed work must not change a single game: these seeded bot games are pinned.

Each case plays one whole game with bots (``play_game``) and compares the record's moves
(as a digest of their text forms), the number of moves, the game's random stream at the
end (G-3: every random event drew from it in the same order) and the outcome with pinned
values taken before the engine was optimised (the Lazy Sunday ones retaken twice, each a
deliberate change of what the bots do: when the table stopped asking bots for open moves
in seat order, see ``Table.step_bot``; and when the heuristic bot began to peek at two
positions drawn from its own stream, LS-3, where it had always peeked at 0 and 1). A
failure here means an optimisation
changed what the rules or the bots do, which replays of saved games would notice.
"""
from __future__ import annotations

import hashlib

import pytest

from playtest.engine import IllegalMove, Match, Move, RandomBot, Table, play_game

MIXED_3 = {0: "heuristic", 1: "random", 2: "heuristic"}
MIXED_6 = {seat: ("heuristic", "random")[seat % 2] for seat in range(6)}

# (game, seats, bots, options, seed) -> (moves, digest of the move texts, digest of the
# random stream's final state, winners, scores)
PINNED = [
    (("lazy_sunday", 2, "random", {}, 1), (11, "bd92fbb8762ee7a9", "36cad67b19ad913d", (0,), (0, 48))),
    (("lazy_sunday", 4, "random", {}, 2), (26, "569268b626b2bc5b", "192480326beeda31", (0,), (26, 51, 38, 50))),
    (("lazy_sunday", 4, "heuristic", {}, 3), (59, "2bf892c4fa5e43cb", "ca9307feb2aed242", (2,), (34, 50, 5, 29))),
    (("lazy_sunday", 7, "heuristic", {}, 4),
     (131, "0e14b241557b1f70", "e5342279c2e4222e", (6,), (18, 23, 25, 5, 12, 18, 0))),
    (("lazy_sunday", 3, MIXED_3, {"match_to": 100}, 5),
     (94, "68b2e0ca8660706a", "ca6420e744a809c0", (2,), (77, 141, 47))),
    (("chore_race", 2, "random", {}, 1), (139, "3997671e8fb5e614", "73340cbb33bec52a", (0,), (15.0, 8.0))),
    (("chore_race", 4, "random", {}, 2),
     (263, "aff0bf53d3e6aee8", "7ea9832d6644e420", (3,), (7.0, 10.0, 4.0, 16.0))),
    (("chore_race", 4, "heuristic", {}, 3),
     (148, "604a9b43bdaeb4ff", "1c4eb87112615c19", (1,), (11.0, 16.0, 14.0, 14.0))),
    (("chore_race", 6, MIXED_6, {}, 4),
     (188, "0cfae927ea2021b0", "9fa91ea822cdcb4c", (2,), (8.0, 4.0, 17.0, 5.0, 12.0, 2.0))),
    (("night_shift", 2, "random", {}, 1), (55, "446d4ee55f79c4b0", "6a47c3fe24604da0", (), (1, 1))),
    (("night_shift", 2, "heuristic", {}, 2), (62, "0bea0f7b870f5781", "192480326beeda31", (), (4, 4))),
    (("night_shift", 2, {0: "heuristic", 1: "random"}, {}, 3),
     (59, "d9ee60c9a8d79fbf", "0f05feacd40951c3", (0,), (4, 1))),
]
IDS = [f"{game}-{seats}-{bots if isinstance(bots, str) else 'mixed'}-{seed}"
       for (game, seats, bots, _, seed), _ in PINNED]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("case, pinned", PINNED, ids=IDS)
def test_seeded_bot_games_play_exactly_as_pinned(case, pinned):
    game, seats, bots, options, seed = case
    match, outcome = play_game(game, seats, bots, options, seed=seed)
    got = (len(match.moves), digest("\n".join(map(str, match.moves))),
           digest(repr(match.state.rng.getstate())), outcome.winners, outcome.scores)
    assert got == pinned


@pytest.mark.parametrize("case, pinned", PINNED[::2], ids=IDS[::2])
def test_the_log_setting_changes_nothing_and_the_record_replays_identically(case, pinned):
    game, seats, bots, options, seed = case
    quiet, _ = play_game(game, seats, bots, options, seed=seed, keep_log=False)
    logged, _ = play_game(game, seats, bots, options, seed=seed, keep_log=True)
    assert quiet.moves == logged.moves
    assert quiet.fingerprint() == logged.fingerprint()
    assert not quiet.log and logged.log
    replayed = Match.from_json(quiet.to_json())
    assert replayed.fingerprint() == quiet.fingerprint()
    assert [str(m) for m in replayed.moves] == [str(m) for m in quiet.moves]


def reachable_states(game: str, seats: int, seeds=range(6), bots="random"):
    """Matches at every position of a few seeded bot games (rebuilt by replay)."""
    for seed in seeds:
        played, _ = play_game(game, seats, bots, seed=seed)
        match = Match(game, seats, seed=seed, keep_log=False)
        yield match
        for move in played.moves:
            match.play(move)
            yield match


@pytest.mark.parametrize("game, seats", [("lazy_sunday", 4), ("lazy_sunday", 2), ("chore_race", 3), ("night_shift", 2)])
def test_decision_and_open_moves_split_the_legal_moves_exactly(game, seats):
    for match in reachable_states(game, seats):
        open_kinds = match.game.OPEN_MOVES
        for seat in range(seats):
            legal, decision, open_ = match.legal_moves(seat), match.decision_moves(seat), match.open_moves(seat)
            assert sorted(decision + open_) == sorted(legal) and len(set(legal)) == len(legal)
            assert all(m.kind not in open_kinds for m in decision) and all(m.kind in open_kinds for m in open_)
            if seat in match.to_act():
                assert decision, f"seat {seat} must decide but has no decision move"


def test_a_cached_decision_list_never_lets_an_illegal_move_through():
    match = Match("lazy_sunday", 3, seed=11, keep_log=False)
    for text in ("0 peek 0 1", "0 done", "1 peek 2 3", "1 done", "2 peek 4 5", "2 done"):
        match.play(text)
    assert match.decision_moves(0) and not match.decision_moves(1)   # seat 0 draws; both lists cached
    before = match.fingerprint()
    top_serial = match.view(None)["done"]["serial"]
    for bad in (Move(1, "draw"), Move(0, "keep", (0,)), Move(0, "claim", (0, 9, top_serial)),
                Move(0, "claim", (0, 0, top_serial + 1)), Move(3, "draw"), Move(True, "draw")):
        with pytest.raises(IllegalMove):
            match.play(bad)
        assert match.fingerprint() == before and len(match.moves) == 6
    with pytest.raises(IndexError):
        match.decision_moves(True)


def test_a_bot_cannot_play_an_illegal_move_through_the_table():
    class Cheat(RandomBot):
        def choose(self, view, legal):
            return Move(1 - view["viewer"], "end") if view["viewer"] == 0 else super().choose(view, legal)

    match = Match("night_shift", 2, seed=1, keep_log=False)
    table = Table(match, {0: Cheat(0), 1: "random"})
    before = match.fingerprint()
    with pytest.raises(IllegalMove):
        table.run_bots()
    assert match.fingerprint() == before and not match.moves


def test_bots_always_read_the_view_of_the_position_they_decide_in():
    """The table rebuilds a bot's view after every move, however it was read before."""
    from playtest.games.lazy_sunday.bots import HeuristicBot

    seen = []

    class Checking(HeuristicBot):
        def interject(self, view, open_moves):
            seat = view["viewer"]
            assert dict(view) == dict(match.bot_view(seat)) and list(open_moves) == match.open_moves(seat)
            seen.append(seat)
            return super().interject(view, open_moves)

        def choose(self, view, legal):
            assert dict(view) == dict(match.bot_view(view["viewer"]))
            assert legal == match.decision_moves(view["viewer"])
            return super().choose(view, legal)

    match = Match("lazy_sunday", 3, seed=4, keep_log=False)
    Table(match, {seat: Checking(f"4:{seat}") for seat in range(3)}).run_bots()
    assert match.outcome() is not None and len(seen) > 3 * 10


def test_lazy_sunday_bot_glance_agrees_with_the_bot_view_whichever_key_is_read_first():
    from playtest.engine.bots import LazyView

    for match in reachable_states("lazy_sunday", 4, seeds=range(3), bots="heuristic"):
        game, state = match.game, match.state
        for seat in range(4):
            full = game.bot_view(state, seat)
            assert full == {**game.view(state, seat), "memory": full["memory"], "seen_by": full["seen_by"]}
            glance = game.bot_glance(state, seat)
            assert {key: full[key] for key in glance} == glance
            for first in ("memory", "claims_open", "phase", "lists"):
                view = LazyView(lambda: game.bot_view(state, seat), [], lambda: game.bot_glance(state, seat))
                assert view[first] == full[first]
                assert dict(view) == full and len(view) == len(full) and set(view) == set(full)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 54, 55, 64, 65, 200])
def test_the_engine_shuffle_draws_exactly_as_random_shuffle(size):
    import random

    from playtest.engine.rng import shuffle

    for seed in range(50):
        theirs, ours = list(range(size)), list(range(size))
        their_rng, our_rng = random.Random(seed), random.Random(seed)
        their_rng.shuffle(theirs)
        shuffle(our_rng, ours)
        assert ours == theirs
        assert our_rng.getstate() == their_rng.getstate()  # the stream goes on alike (G-3)


def test_the_engine_shuffle_leaves_a_random_subclass_to_its_own_shuffle():
    import random

    from playtest.engine.rng import shuffle

    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    cards = [1, 2, 3]
    shuffle(Reversing(0), cards)
    assert cards == [3, 2, 1]
