"""The speed paths change nothing a player could see.

* ``Game.keep_log``: a match that keeps no log lets the game skip building event text;
  position by position it must be the same game as one that keeps its log, and the log
  that is kept must not depend on the flag of any other match.
* ``Match.open_moves`` is listed once per position, and a move found in that list is
  accepted without a second listing; anything else still goes through the full check.
"""
from __future__ import annotations

import pytest

from playtest.engine import IllegalMove, Match, Move, play_game

GAMES = [("lazy_sunday", 4, "heuristic", 3), ("lazy_sunday", 3, "random", 5), ("chore_race", 4, "heuristic", 3),
         ("chore_race", 3, "random", 2), ("night_shift", 2, "heuristic", 2), ("night_shift", 2, "random", 1)]


@pytest.mark.parametrize("game, seats, bots, seed", GAMES, ids=[f"{g}-{b}" for g, _, b, _ in GAMES])
def test_a_match_without_a_log_is_the_same_game_at_every_position(game, seats, bots, seed):
    played, _ = play_game(game, seats, bots, seed=seed, keep_log=True)
    quiet = Match(game, seats, seed=seed, keep_log=False)
    logged = Match(game, seats, seed=seed, keep_log=True)
    assert not quiet.game.keep_log and logged.game.keep_log
    for move in played.moves:
        events = logged.play(move)
        quiet.play(move)
        assert events, f"{move} logged nothing"
        assert quiet.fingerprint() == logged.fingerprint()
        assert quiet.to_act() == logged.to_act() and quiet.outcome() == logged.outcome()
    assert not quiet.log
    # the kept log is the same text, line for line, as the bot game's own log
    assert [(n, e.text, dict(e.private)) for n, e in logged.log] == [
        (n, e.text, dict(e.private)) for n, e in played.log]


def test_a_listed_open_move_is_accepted_and_anything_else_is_still_checked():
    match = Match("lazy_sunday", 3, seed=11, keep_log=False)
    for text in ("0 peek 0 1", "0 done", "1 peek 2 3", "1 done", "2 peek 4 5", "2 done"):
        match.play(text)
    serial = match.state.serial
    listed = match.open_moves(1)
    assert listed and listed is match.open_moves(1)            # listed once for this position
    before = match.fingerprint()
    for bad in (Move(1, "claim", (1, 9, serial)), Move(1, "claim", (0, 0, serial + 1)), Move(1, "draw")):
        with pytest.raises(IllegalMove):
            match.play(bad)
        assert match.fingerprint() == before and len(match.moves) == 6
    match.play(listed[0])                                       # a listed claim: played
    assert match.moves[-1] == listed[0]
    match.play("0 draw")
    match.play("0 discard")                                     # a new DONE top: serial + 1
    assert match.state.serial > serial
    # a claim on an older DONE top is legal (returned, no penalty: LS-5) though no list holds it
    late, cards = Move(2, "claim", (2, 0, serial)), len(match.state.lists[2])
    assert late not in match.open_moves(2)
    match.play(late)
    assert match.moves[-1] == late and len(match.state.lists[2]) == cards


def _chore_race_play_moves_by_the_rules(game, s, seat):
    """Chore Race's play-step moves read straight off the rules (CR-4, CR-5, CR-7..CR-13,
    CR-16, CR-2 Clean Your Room), in the documented order, with no cache."""
    held = {game.akey[c] for c in s.hands[seat]}
    own = s.tableaus[seat]
    others = [o for o in range(game.seats) if o != seat]
    open_ = [o for o in others if not s.protected[o]]
    moves = []
    if not s.slots[0]:
        moves += [Move(seat, key, (p,)) for key in ("done", "finally") if key in held for p in range(len(own))]
        moves += [Move(seat, "discard", ("progress", key)) for key in game.order if key in held]
    if not s.slots[1]:
        if "inspection" in held:
            moves += [Move(seat, "inspection", (o, q)) for o in open_
                      for q, e in enumerate(s.tableaus[o]) if e[1] > 0]
        if own and "delegate" in held:
            moves += [Move(seat, "delegate", (o,)) for o in open_
                      if all(game.chores[e[0]].ability != "no_delegate" for e in s.tableaus[o])]
        if own and "teamwork" in held:
            moves += [Move(seat, "teamwork", (o,)) for o in others]
        if "swap" in held:
            mine = [p for p, e in enumerate(own) if e[1] > 0 or not game.options.chore_swap_needs_progress]
            moves += [Move(seat, "swap", (p, o, q)) for p in mine for o in open_ for q in range(len(s.tableaus[o]))]
        if "meeting" in held:
            moves.append(Move(seat, "meeting"))
        if "later" in held:
            moves += [Move(seat, "later", (p,)) for p in range(len(own))]
        moves += [Move(seat, "discard", ("action", key)) for key in game.order if key in held]
    return moves + [Move(seat, "end")]


@pytest.mark.parametrize("seats, options, seed", [
    (4, {}, 1), (2, {"tableau_size": 4}, 2), (3, {"chore_swap_needs_progress": True}, 3),
    (6, {"chore_swap_needs_progress": True, "target_vp": 20}, 4), (5, {"action_deck": "74"}, 5)])
def test_chore_race_cached_play_moves_are_the_rules_at_every_play_position(seats, options, seed):
    import random
    rng = random.Random(seed)
    seen = {"protected": 0, "needs_progress_cut": 0, "no_delegate_cut": 0, "positions": 0}
    for game_seed in range(6):
        match = Match("chore_race", seats, options, seed=100 * seed + game_seed, keep_log=False)
        game, s = match.game, match.state
        while to_act := match.to_act():
            seat = to_act[0]
            if s.phase == "play":
                expected = _chore_race_play_moves_by_the_rules(game, s, seat)
                assert match.legal_moves(seat) == expected, (game_seed, len(match.moves))
                seen["positions"] += 1
                seen["protected"] += any(s.protected)
                swaps = {m.args[0] for m in expected if m.kind == "swap"}
                seen["needs_progress_cut"] += bool(swaps) and len(swaps) < len(s.tableaus[seat])
                seen["no_delegate_cut"] += any(
                    game.chores[e[0]].ability == "no_delegate" for t in s.tableaus for e in t)
            match.play(rng.choice(match.decision_moves(seat)))
    # the positions checked include the cases the cache keys must tell apart
    assert seen["positions"] > 100 and seen["protected"] and seen["no_delegate_cut"]
    assert bool(seen["needs_progress_cut"]) == bool(options.get("chore_swap_needs_progress"))
