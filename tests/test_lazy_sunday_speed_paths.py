"""Lazy Sunday's speed paths give exactly what the rules say, whatever was cached before.

* ``leaders`` re-sums only the lists that changed since its last call (compared by
  content), so it must agree with a fresh sum for any state, even one edited in place
  or belonging to another match.
* Burn and claim lists are put together from cached pieces; they must be the moves the
  rulings describe (LS-2, LS-5, LS-7, LS-8), in the documented order.
* A bot's own random stream is seeded on first use and draws as ``random.Random(seed)``.
"""
from __future__ import annotations

import itertools
import random

import pytest

from playtest.engine import Match, Move, RandomBot, Table, play_game
from playtest.games.lazy_sunday.rules import ACTIONS, _burns


def fresh_leaders(game, s):
    """LS-9: lowest cumulative score plus current list effort; the scores alone once revealed."""
    if s.phase in ("round_over", "over"):
        totals = list(s.scores)
    else:
        totals = [score + sum(game.cards.efforts[c] for c in lst) for score, lst in zip(s.scores, s.lists)]
    return tuple(seat for seat, total in enumerate(totals) if total == min(totals))


def test_leaders_agree_with_a_fresh_sum_at_every_position_and_after_edits_in_place():
    checked = ties = 0
    for seed in range(8):
        played, _ = play_game("lazy_sunday", 4, "heuristic", {"match_to": 100} if seed % 2 else {}, seed=seed)
        match = Match("lazy_sunday", 4, played.game.options, seed=seed, keep_log=False)
        game = match.game
        for move in played.moves:
            match.play(move)
            s = match.state
            assert game.leaders(s) == fresh_leaders(game, s)
            checked += 1
            ties += len(fresh_leaders(game, s)) > 1
            if s.phase == "turn" and len(s.lists[1]) > 1:
                s.lists[1].reverse()  # same cards: same effort, and the memo must still see a new list
                assert game.leaders(s) == fresh_leaders(game, s)
                s.lists[1].reverse()
        # the same game object asked about another match's state gets that state's answer
        other = Match("lazy_sunday", 4, seed=seed + 100, keep_log=False)
        heavy = max(range(len(game.cards.efforts)), key=game.cards.efforts.__getitem__)
        other.state.lists[2].append(heavy)  # an edit in place, not through a move
        assert game.leaders(other.state) == fresh_leaders(game, other.state)
        assert game.leaders(match.state) == fresh_leaders(game, match.state)
    assert checked > 400 and ties  # shared leads were among the positions checked


def rule_burns(seat, action, caller, sizes, can_draw):
    """The burn targets as LS-2/LS-8 state them, with LS-7's locked caller list."""
    own = range(sizes[seat])
    others = [t for t in range(len(sizes)) if t not in (seat, caller)]
    targets = {
        "busy": [()],
        "double_check": [(p,) for p in own], "knock_out": [(p,) for p in own],
        "nosy": [(t, p) for t in others for p in range(sizes[t])],
        "trade": [(p, t, q) for p in own for t in others for q in range(sizes[t])],
        "landlord": [(t,) for t in range(len(sizes)) if t != caller] if can_draw else [],
    }.get(action)
    if targets is None:  # switcheroo, not_my_job: two other players, the lower seat first
        targets = [(t, p, u, q) for i, t in enumerate(others) for u in others[i + 1:]
                   for p in range(sizes[t]) for q in range(sizes[u])]
    return [Move(seat, action, args) for args in targets]


@pytest.mark.parametrize("seats", [2, 3, 4, 7])
def test_burn_lists_are_the_rulings_targets_in_order(seats):
    rng = random.Random(seats)
    sizes_seen = [tuple(rng.randrange(0, 9) for _ in range(seats)) for _ in range(40)]
    for sizes in sizes_seen:
        for seat, caller, action, can_draw in itertools.product(
                range(seats), (None, *range(seats)), ACTIONS, (True, False)):
            assert list(_burns(seat, action, caller, sizes, can_draw)) == rule_burns(
                seat, action, caller, sizes, can_draw), (seat, action, caller, sizes)


def test_claim_lists_are_the_LS5_claims_at_every_position():
    for seed in range(4):
        played, _ = play_game("lazy_sunday", 4, "heuristic", seed=seed)
        match = Match("lazy_sunday", 4, seed=seed, keep_log=False)
        for move in played.moves:
            s = match.state
            for seat in range(4):
                expected = []
                if s.phase in ("turn", "drawn") and s.done:
                    for t, lst in enumerate(s.lists):  # own cards; others' need a card to give, never the caller's
                        if t == seat or (s.lists[seat] and t != s.caller):
                            expected += [Move(seat, "claim", (t, p, s.serial)) for p in range(len(lst))]
                assert match.open_moves(seat) == expected
            match.play(move)


def test_a_bot_stream_is_seeded_on_first_use_and_can_be_replaced():
    bot = RandomBot("7:2")
    reference = random.Random("7:2")
    assert [bot.rng.random() for _ in range(3)] == [reference.random() for _ in range(3)]
    bot.rng = random.Random(1)
    assert bot.rng.random() == random.Random(1).random()


def test_a_table_plays_on_from_the_replayed_state_after_a_rewind():
    """The table's views are bound to the match's state; a rewind replays into a new state
    object, and the bots must read that one (else they would decide on a stale position)."""
    straight, _ = play_game("lazy_sunday", 4, "heuristic", seed=9)
    match = Match("lazy_sunday", 4, seed=9, keep_log=False)
    table = Table(match, {seat: "heuristic" for seat in range(4)})
    assert len(table.run_bots(limit=20)) == 20
    match.goto(5)
    assert table.step_bot() is None  # rewound: the bots wait
    match.goto(len(match.moves))     # the live position again, replayed
    table.run_bots()
    assert match.moves == straight.moves and match.fingerprint() == straight.fingerprint()
