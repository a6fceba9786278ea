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
