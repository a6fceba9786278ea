"""Lazy Sunday bots: the heuristic bot beats random bots, plays only legal moves from
its bot_view (LS-11 memory), and claims matches it remembers (LS-5)."""
from collections import Counter

import pytest

from playtest.engine import Match, Move, Table, play_game
from playtest.games.lazy_sunday import HeuristicBot, LazySunday
from fresh_process import in_fresh_process


def test_heuristic_beats_random_over_200_games():
    """Two seats, 200 games, seats alternating: the heuristic bot wins clearly more than
    half (a coin would give ~100) and scores lower on average."""
    wins, mine, theirs = 0, 0, 0
    for seed in range(200):
        h = seed % 2
        _, outcome = play_game(LazySunday, 2, {h: "heuristic", 1 - h: "random"}, seed=seed)
        wins += h in outcome.winners
        mine += outcome.scores[h]
        theirs += outcome.scores[1 - h]
    assert wins >= 150, wins
    assert mine < theirs / 2


def test_heuristic_beats_random_at_a_full_table():
    """Five seats, one heuristic bot: it wins far more than its 1-in-5 share."""
    wins = sum(seed % 5 in play_game(LazySunday, 5, {s: "heuristic" if s == seed % 5 else "random"
                                                     for s in range(5)}, seed=seed)[1].winners
               for seed in range(100))
    assert wins >= 45, wins


@pytest.mark.parametrize("seats", [2, 3, 7])
def test_heuristic_games_end_with_legal_moves_and_options(seats):
    """All-heuristic matches (match_to 100, great_escape) replay from their record: every
    move the bots chose was legal, and they finish."""
    finished = 0
    for seed in range(4):
        match, outcome = play_game(LazySunday, seats, "heuristic", seed=seed,
                                   options={"match_to": 100, "great_escape": True, "max_turns": 3000})
        assert Match.from_json(match.to_json()).fingerprint() == match.fingerprint()
        finished += outcome.finished
    assert finished >= 3


def test_heuristic_claims_a_remembered_match_and_only_then():
    """LS-5: the bot interjects a claim on a card its memory says matches the DONE top
    (own cards first); with no remembered match it lets play go on."""
    match = Match(LazySunday, 2, seed=0)
    table = Table(match, {})
    bot = HeuristicBot(0)
    s = match.state
    s.phase, s.turn, s.actor, s.peekers = "turn", 0, 0, []
    name = LazySunday(2).cards.names
    assert bot.interject(match.bot_view(1), table.open_moves(1)) is None
    twin = next(c for c in range(54) if name[c] == name[s.done[-1]] and c != s.done[-1])
    if twin in s.deck:  # move it into seat 0's list, position 2
        s.deck[s.deck.index(twin)], s.lists[0][2] = s.lists[0][2], twin
    where = next((t, lst.index(twin)) for t, lst in enumerate(s.lists) if twin in lst)
    s.known[twin] |= 1 << 1  # seat 1 remembers it
    move = bot.interject(match.bot_view(1), table.open_moves(1))
    assert move == Move(1, "claim", (*where, s.serial))
    match.play(move)
    assert match.state.lists[where[0]].count(twin) == 0


def test_heuristic_uses_only_the_bot_view():
    """The bot decides from bot_view data alone: a plain dict copy of it gives the same
    choice (to a twin bot of the same seed: the bot draws its peeks from its stream)."""
    match = Match(LazySunday, 3, seed=2)
    bot, twin = HeuristicBot(1), HeuristicBot(1)
    for _ in range(60):
        if match.outcome():
            break
        seat = match.to_act()[0]
        legal = Table(match, {}).decision_moves(seat)
        view = match.bot_view(seat)
        move = bot.choose(view, legal)
        assert move in legal
        assert twin.choose(dict(view), legal) == move
        match.play(move)


def test_heuristic_peeks_at_varied_positions():
    """LS-3: any two cards of its own list are unknown alike, so the bot peeks at two
    drawn from its own stream: over 40 games the public log shows many different
    pairs, no pair in most of them, and a seed always gives the same pair."""
    pairs = Counter()
    games = []
    for seed in range(40):
        match, _ = play_game(LazySunday, 2, "heuristic", seed=seed)
        peeks = [move.args for move in match.moves if move.kind == "peek"]
        assert len(peeks) == 2
        pairs.update(peeks)
        games.append([str(m) for m in match.moves])
    assert len(pairs) >= 10 and max(pairs.values()) <= 20, pairs
    assert games == in_fresh_process("""
        from playtest.engine import play_game
        result = [[str(m) for m in play_game("lazy_sunday", 2, "heuristic", seed=seed)[0].moves] for seed in range(40)]""")


def test_the_gentle_bot_leaves_not_me_to_the_others_for_its_first_four_turns_of_each_round():
    """The gentle bot (the tutorial finale's) never calls NOT ME! (LS-7) in its first
    GENTLE_TURNS turns of a round, though it was offered, calls it later, and finishes
    2-round matches; the random bot in its place calls early in some of the same games."""
    from playtest.games.lazy_sunday.bots import GENTLE_TURNS
    from playtest.tutorials import load_tutorial
    assert load_tutorial("lazy_sunday").finale.bot == "gentle"
    early = {"gentle": 0, "random": 0}
    later_calls = 0
    for bot in ("gentle", "random"):
        for seed in range(40):
            match, outcome = play_game(LazySunday, 3, {0: bot, 1: bot, 2: bot}, seed=seed, options={"rounds": 2})
            assert outcome.finished, (bot, seed)
            turns = Counter()                                  # (seat, round) -> its turns so far
            replay = Match(LazySunday, 3, {"rounds": 2}, seed=seed)
            for move in match.moves:
                view = replay.view(move.seat)
                if view["phase"] == "turn" and move.seat == view["turn_seat"] and move.kind != "claim":
                    turns[move.seat, view["round"]] += 1
                    if move.kind == "notme":
                        if turns[move.seat, view["round"]] <= GENTLE_TURNS:
                            early[bot] += 1
                        elif bot == "gentle":
                            later_calls += 1
                replay.play(move)
    assert early["gentle"] == 0 and later_calls > 0
    assert early["random"] > 0
