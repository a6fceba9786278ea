"""The IS-MCTS search bot (``ismcts``, playtest.engine.search) and the games' samplers
(``Game.determinizer``): a bot decides only from what its seat is shown (LS-11, CR-21;
the engine's information rule, as tests/test_bot_information.py checks for memory).

* Every sample of a seat's knowledge is a state that seat could be in: its view and bot
  view are the seat's own, its decision and open moves too, and it plays on legally to
  the end; the hidden cards differ from sample to sample.
* Two states that differ only in cards the seat cannot see give the same decisions (the
  same search, visit for visit), built with the games' pinned setups (``Game.SETUP``).
* The sampler reads a plain copy of the bot view: the state is never in reach.
* Budgets by name (``ismcts:40``, ``ismcts:5ms``), refused with a sentence when wrong.

Budgets here are tiny (speed and strength are measured in benchmarks/bench_bots.py).
"""
from __future__ import annotations

import copy
import random
import time

import pytest

from playtest.engine import ISMCTSBot, Match, Move, OptionError, Table, check_bot_name, make_bot, play_game
from playtest.engine.search import parse_budget
from fresh_process import in_fresh_process

# (game, seats, options, seeds of the games whose positions are sampled)
GAMES = [("lazy_sunday", 4, {}, 2), ("lazy_sunday", 2, {"match_to": 100}, 2), ("chore_race", 4, {}, 1),
         ("chore_race", 2, {"target_vp": 20}, 1), ("night_shift", 2, {}, 1), ("night_shift", 2, {"reshuffle": True}, 2)]
IDS = [f"{g}-{n}-{'-'.join(map(str, o.values())) or 'default'}" for g, n, o, _ in GAMES]


def positions(game, seats, options, seeds):
    """A match at every position of seeded games of heuristic and random bots (replayed)."""
    for seed in seeds:
        bots = {seat: ("heuristic", "random")[(seat + seed) % 2] for seat in range(seats)}
        played, _ = play_game(game, seats, bots, options, seed=seed)
        match = Match(game, seats, options, seed=seed, keep_log=False)
        yield match
        for move in played.moves:
            match.play(move)
            yield match


@pytest.mark.parametrize("game, seats, options, seeds", GAMES, ids=IDS)
def test_every_sample_is_a_state_the_seat_could_be_in(game, seats, options, seeds):
    rng = random.Random(1)
    checked = differ = 0
    for n, match in enumerate(positions(game, seats, options, range(seeds))):
        rules, state = match.game, match.state
        for seat in range(seats):
            view = copy.deepcopy(rules.bot_view(state, seat))  # a plain copy: the state is out of reach
            sample = rules.determinizer(view, seat)
            first, second = sample(rng), sample(rng)
            for s in (first, second):
                assert rules.bot_view(s, seat) == view
                assert rules.view(s, seat) == rules.view(state, seat)
                assert rules.decision_moves(s, seat) == rules.decision_moves(state, seat)
                assert rules.open_moves(s, seat) == rules.open_moves(state, seat)
            differ += _hidden(first) != _hidden(second)
            if n % 9 == seat:  # now and then: a copy plays on to the end; the sample is untouched
                played, before = rules.copy_state(first), _hidden(first)
                while acting := rules.to_act(played):
                    rules.apply(played, rng.choice(rules.decision_moves(played, acting[0])))
                assert rules.outcome(played) is not None and _hidden(first) == before
            checked += 1
    assert checked > 100 and differ > checked // 4  # the hidden cards really are drawn


def _hidden(state) -> str:
    from playtest.engine import fingerprint
    rng, state.rng = state.rng, random.Random(0)  # the stream is shared; compare the cards
    try:
        return fingerprint(state)
    finally:
        state.rng = rng


# pinned setups: the same for seat 0, other cards for seat 1 and the deck
TWINS = {
    "lazy_sunday": (2, {}, ["0 peek 0 1", "0 done", "1 peek 0 1", "1 done"], [
        {"lists": [["Nap", "Clean the Oven", "Make the Bed", "Feed the Fish", "Water the Plants", "Nap"],
                   ["Scrub the Bathroom", "Knock It Out", "Vacuum the Stairs", "Fold the Laundry",
                    "Load the Dishwasher", "Take Out the Bins"]],
         "done": ["Feed the Fish"], "deck_top": ["Clean the Oven", "Double Check", "Make the Bed"]},
        {"lists": [["Nap", "Clean the Oven", "Make the Bed", "Feed the Fish", "Water the Plants", "Nap"],
                   ["Water the Plants", "Make the Bed", "Feed the Fish", "Switcheroo", "Take Out the Bins",
                    "Scrub the Bathroom"]],
         "done": ["Feed the Fish"], "deck_top": ["Clean the Oven", "Not My Job", "Water the Plants"]}]),
    "chore_race": (2, {}, [], [
        {"hands": [["Done", "Done", "Inspection", "Excuse", "Chore Swap"],
                   ["Done", "Finally!", "Delegate", "Teamwork", "Excuse"]],
         "tableaus": [["Mow the Lawn", "Make Your Bed", "Feed the Cat"], ["Do the Laundry", "Wash the Dishes",
                                                                           "Clean Your Room"]],
         "deck_top": ["Done", "Family Meeting", "Finally!"], "chore_deck_top": ["Mop the Floor"]},
        {"hands": [["Done", "Done", "Inspection", "Excuse", "Chore Swap"],
                   ["Inspection", "I'll Do It Later", "Done", "Done", "Done"]],
         "tableaus": [["Mow the Lawn", "Make Your Bed", "Feed the Cat"], ["Do the Laundry", "Wash the Dishes",
                                                                           "Clean Your Room"]],
         "deck_top": ["Done", "Excuse", "Teamwork"], "chore_deck_top": ["Clean the Gutters"]}]),
    "night_shift": (2, {"reshuffle": True}, [], [
        {"hands": [["Laundry Load", "Laundry Load", "Bottle Wash", "Laundry Load", "Bottle Wash"],
                   ["Bottle Wash", "Bottle Wash", "Laundry Load", "Laundry Load", "Laundry Load"]],
         "supply_row": ["Coffee Refill", "Trade Off", "Quick Nap", "Shared Calendar", "Grandparent Visit"],
         "deck_top": [["Bottle Wash"], ["Laundry Load"]], "supply_top": ["Chore Chart"]},
        {"hands": [["Laundry Load", "Laundry Load", "Bottle Wash", "Laundry Load", "Bottle Wash"],
                   ["Laundry Load", "Laundry Load", "Laundry Load", "Laundry Load", "Laundry Load"]],
         "supply_row": ["Coffee Refill", "Trade Off", "Quick Nap", "Shared Calendar", "Grandparent Visit"],
         "deck_top": [["Laundry Load"], ["Bottle Wash"]], "supply_top": ["Sleep Training Plan"]}]),
}


@pytest.mark.parametrize("game", sorted(TWINS))
def test_states_the_seat_cannot_tell_apart_get_the_same_decisions(game):
    """Pinned setups that differ only in cards seat 0 has not seen (the other seat's, the
    decks'): seat 0's bot views are equal, the states are not, and the ismcts bot with
    one seed searches both alike, decision by decision."""
    seats, options, opening, setups = TWINS[game]
    twins = [Match(game, seats, options, seed=7, setup=setup, keep_log=False) for setup in setups]
    for twin in twins:
        for move in opening:
            twin.play(move)
    assert twins[0].fingerprint() != twins[1].fingerprint()
    decided = 0
    for _ in range(3):  # three decisions of seat 0, each the same in both
        assert twins[0].bot_view(0) == twins[1].bot_view(0)
        legal = twins[0].decision_moves(0)
        assert legal == twins[1].decision_moves(0) and len(legal) > 1
        searches = [ISMCTSBot(5, game=twin.game, iterations=40).search(dict(twin.bot_view(0)), legal)
                    for twin in twins]
        assert searches[0] == searches[1] and sum(v for v, _ in searches[0].values()) == 40
        move = max(legal, key=lambda m: searches[0].get(m, (0, 0.0)))
        for twin in twins:
            twin.play(move)
        decided += 1
        if twins[0].to_act() != (0,) or len(twins[0].decision_moves(0)) < 2:
            break
    assert decided >= 1


def test_the_sampler_gets_a_plain_copy_of_the_view_and_nothing_else():
    """The bot's one input is the view it is handed: its sampler receives a plain dict
    equal to that view (no state, no match), and a deep copy of the view searches
    exactly as the live one."""
    match = Match("chore_race", 3, seed=4, keep_log=False)
    Table(match, {0: "heuristic", 1: "heuristic", 2: "heuristic"}).run_bots(limit=25)
    seat = match.to_act()[0]
    legal = match.decision_moves(seat)
    view = match.bot_view(seat)
    seen = []

    class Spy(type(match.game)):
        def determinizer(self, view, seat):
            seen.append(view)
            return super().determinizer(view, seat)

    spied = ISMCTSBot(1, game=Spy(3), iterations=25).search(copy.deepcopy(view), legal)
    assert spied == ISMCTSBot(1, game=match.game, iterations=25).search(view, legal)
    assert len(seen) == 1 and type(seen[0]) is dict and seen[0] == view and seen[0] is not view


@pytest.mark.parametrize("game, seats", [("lazy_sunday", 3), ("chore_race", 3), ("night_shift", 2)])
def test_ismcts_games_are_legal_finished_and_reproducible(game, seats):
    bots = {0: "ismcts:8", **{s: "heuristic" for s in range(1, seats)}}
    first, outcome = play_game(game, seats, bots, seed=2)
    again = in_fresh_process(f"""
        from playtest.engine import play_game
        result = [str(m) for m in play_game({game!r}, {seats}, {bots!r}, seed=2)[0].moves]""")
    assert outcome.finished and [str(m) for m in first.moves] == again  # the same in another process
    assert any(m.seat == 0 for m in first.moves)
    assert Match.from_json(first.to_json()).fingerprint() == first.fingerprint()


def test_the_search_finds_a_clear_best_move():
    """Night Shift (NS-1, NS-10): with a Bottle Wash (+1 Care Point) in hand and Actions
    left, ending the Shift at once throws a point away; 200 iterations see it."""
    match = Match("night_shift", 2, seed=3, keep_log=False)
    view = match.bot_view(0)
    assert [c["name"] for c in view["players"][0]["hand"]].count("Bottle Wash") >= 1
    legal = match.decision_moves(0)
    stats = ISMCTSBot(0, game=match.game, iterations=200).search(view, legal)
    best = max(stats, key=lambda m: stats[m][0])
    assert best == Move(0, "play", ("Bottle Wash",)) and stats[best][1] > stats[Move(0, "end")][1]


def test_lazy_sunday_quick_discards_stay_with_the_heuristic_rule():
    """LS-5 claims are open moves, not searched: ismcts interjects exactly as the
    heuristic bot does, position by position, seat by seat."""
    from playtest.games.lazy_sunday import HeuristicBot
    played, _ = play_game("lazy_sunday", 3, "heuristic", seed=5)
    match = Match("lazy_sunday", 3, seed=5, keep_log=False)
    pairs = [(make_bot(match.game, "ismcts:5", f"5:{seat}"), HeuristicBot(f"5:{seat}")) for seat in range(3)]
    claims = 0
    for move in played.moves:
        for seat, (bot, heuristic) in enumerate(pairs):
            view, moves = match.bot_view(seat), match.open_moves(seat)
            ours = bot.interject(view, moves)
            assert ours == heuristic.interject(view, moves)
            claims += ours is not None
        match.play(move)
    assert claims >= 1


def test_simulated_lazy_sunday_seats_slap_what_the_heuristic_would():
    """Within a search, simulated seats make the quick discards (LS-5) the heuristic bot
    would make in their place (Game.search_open_move): the same claim, by one of the
    seats that would claim, and none when no seat would."""
    from playtest.games.lazy_sunday import HeuristicBot
    heuristic = HeuristicBot(0)
    slaps = 0
    for match in positions("lazy_sunday", 3, {}, (5, 6)):
        state, game = match.state, match.game
        would = {seat: claim for seat in range(3)
                 if (claim := heuristic.interject(match.bot_view(seat), match.open_moves(seat))) is not None}
        made = {game.search_open_move(state, random.Random(k)) for k in range(12)}
        if would:
            assert made <= set(would.values()) and None not in made, (made, would)
            slaps += 1
        else:
            assert made == {None}, made
    assert slaps >= 3


def test_budgets_by_name():
    game = Match("night_shift", 2, seed=0).game
    assert parse_budget(None) == parse_budget("") == (None, None)  # the game's own default
    assert parse_budget("500") == (500, None) and parse_budget("200ms") == (None, 200.0)
    plain, counted, timed = (make_bot(game, name, 0) for name in ("ismcts", "ismcts:40", "ismcts:5ms"))
    assert (plain.iterations, plain.ms) == (type(game).SEARCH_ITERATIONS, None) == (500, None)
    assert (counted.iterations, counted.ms) == (40, None) and (timed.iterations, timed.ms) == (None, 5.0)
    legal = Match("night_shift", 2, seed=0).decision_moves(0)
    timed.choose(Match("night_shift", 2, seed=0).bot_view(0), legal)
    assert timed.last_iterations >= 1
    assert make_bot(game, "ismcts:", 0).iterations == 500  # an empty budget is the default
    for bad in ("ismcts:0", "ismcts:many", "ismcts:5s", "ismcts:-3", "heuristic:40", "minimax"):
        with pytest.raises(OptionError, match="budget|unknown bot"):
            check_bot_name(type(game), bad)
        with pytest.raises(OptionError):
            make_bot(game, bad, 0)


def test_a_bot_without_its_game_is_refused_with_a_sentence():
    with pytest.raises(OptionError, match="needs the game"):
        ISMCTSBot(0)
    with pytest.raises(OptionError, match="rollout"):
        ISMCTSBot(0, game=Match("night_shift", 2, seed=0).game, rollout="greedy")


def test_simulate_takes_budgets_by_name():
    from playtest import simulate
    df = simulate("lazy_sunday", 2, ["ismcts:5", "heuristic"], games=2, workers=1, progress=False)
    assert list(df["seat0_bot"]) == ["ismcts:5", "heuristic"] and df["finished"].all()
    with pytest.raises(OptionError, match="budget"):
        simulate("lazy_sunday", 2, ["ismcts:soon", "heuristic"], games=2, workers=1, progress=False)


def test_margin_rewards_share_out_by_standing():
    from playtest.engine.search import margin_rewards
    even = margin_rewards([3, 3], 2.0)
    assert even == pytest.approx((0.5, 0.5))
    ahead = margin_rewards([5, 2, 2], 3.0)
    assert sum(ahead) == pytest.approx(1) and ahead[0] > ahead[1] == pytest.approx(ahead[2])
    assert margin_rewards([1, 0], 1.0)[0] == pytest.approx(0.731, abs=1e-3)
    for values, scale in (([1, 2], 0), ([1, 2], -1.0), ([], 1.0)):
        with pytest.raises(ValueError):
            margin_rewards(values, scale)


@pytest.mark.parametrize("game, seats", [("chore_race", 2), ("chore_race", 4), ("lazy_sunday", 2), ("lazy_sunday", 4)])
def test_evaluate_favours_the_seat_ahead(game, seats):
    """Game.evaluate: one reward per seat in 0..1, summing to 1, higher for a seat whose
    standing improves (more VP, CR-17; a lower total, LS-9), on a copy of the state."""
    checked = 0
    for n, match in enumerate(positions(game, seats, {}, [3])):
        rules, state = match.game, match.state
        if n % 3 or match.to_act() == ():
            continue
        checked += 1
        before = rules.evaluate(state)
        assert len(before) == seats and sum(before) == pytest.approx(1)
        assert all(0 <= r <= 1 for r in before)
        better = rules.copy_state(state)
        if game == "chore_race":
            better.vp[1] += 3
        else:
            better.scores[1] -= 5
        after = rules.evaluate(better)
        assert after[1] > before[1] and after[0] < before[0]
        assert rules.evaluate(state) == before  # the copy, not the state, changed
    assert checked >= 3


def test_playouts_stop_at_the_games_evaluation():
    """SEARCH_PLAYOUT_MOVES / playout=: a playout plays that many moves then asks
    Game.evaluate; playout=None plays on to the end, and a game without evaluate ignores it."""
    from playtest.games.chore_race.rules import ChoreRace
    calls = []

    class Counted(ChoreRace):
        def evaluate(self, s):
            calls.append(1)
            return super().evaluate(s)

    match = Match("chore_race", 2, seed=1, keep_log=False)
    view, legal = match.bot_view(0), match.decision_moves(0)
    counted = Counted(2)
    ISMCTSBot(0, game=counted, iterations=30, playout=0).search(view, legal)
    assert len(calls) == 30
    calls.clear()
    ISMCTSBot(0, game=counted, iterations=30, playout=None).search(view, legal)
    assert calls == []
    assert ISMCTSBot(0, game=counted).playout == ChoreRace.SEARCH_PLAYOUT_MOVES is not None
    night = Match("night_shift", 2, seed=0).game
    assert ISMCTSBot(0, game=night, playout=3).playout is None  # Night Shift has no evaluate: to the end
    with pytest.raises(OptionError, match="playout"):
        ISMCTSBot(0, game=counted, playout=-1)


def _lazy_sunday_after_peeks(seat_1_peeks="1 peek 2 4"):
    """TWINS' first Lazy Sunday deal, seat 0 peeked at its positions 0 and 1 (Nap, Clean
    the Oven), seat 1 at the two it is given."""
    match = Match("lazy_sunday", 2, seed=7, setup=TWINS["lazy_sunday"][3][0], keep_log=False)
    for move in ("0 peek 0 1", "0 done", seat_1_peeks, "1 done"):
        match.play(move)
    return match


def test_lazy_sunday_samples_give_other_seats_the_memory_the_log_shows():
    """LS-11, LS-3: ``seen_by`` names the seats remembering each spot, the same in every
    seat's bot view; a sample gives the other seat exactly that memory (the spots it
    peeked at, none of seat 0's), not two spots made up at random, so its simulated
    slaps (LS-5) are the ones it could make."""
    match = _lazy_sunday_after_peeks()
    view = match.bot_view(0)
    assert view["seen_by"] == match.bot_view(1)["seen_by"]
    assert view["seen_by"] == [[[0], [0], [], [], [], []], [[], [], [1], [], [1], []]]
    rules = match.game
    sample = rules.determinizer(copy.deepcopy(view), 0)
    for k in range(20):
        memory = rules.bot_view(sample(random.Random(k)), 1)["memory"]
        assert [name is not None for name in memory[1]] == [False, False, True, False, True, False]
        assert memory[0] == [None] * 6


def test_lazy_sunday_alike_moves_are_weighed_once_and_drawn_at_random():
    """Moves seat 0 cannot tell apart form one class (Game.search_classes): all 15 peeks
    (LS-3), a take into any of its four unknown positions (LS-4); a take into a
    remembered position is a class of its own. The bot draws its move within the best
    class, so its peeks vary with its seed (no tell in the public log)."""
    match = Match("lazy_sunday", 2, seed=7, setup=TWINS["lazy_sunday"][3][0], keep_log=False)
    peeks = match.decision_moves(0)
    assert match.game.search_classes(match.bot_view(0), peeks) == [list(peeks)]
    chosen = {make_bot(match.game, "ismcts:20", seed).choose(match.bot_view(0), peeks) for seed in range(6)}
    assert len(chosen) > 1
    match = _lazy_sunday_after_peeks()
    classes = match.game.search_classes(match.bot_view(0), match.decision_moves(0))
    assert [[str(m) for m in alike] for alike in classes] == [
        ["0 draw"], ["0 take 0"], ["0 take 1"], ["0 take 2", "0 take 3", "0 take 4", "0 take 5"], ["0 notme"]]


def test_the_flat_search_plays_every_move_out_on_the_same_samples():
    """Lazy Sunday's search is flat (Game.SEARCH_FLAT): every move is played out once on
    each sample (visits all equal). Having drawn a Clean the Oven (9) while remembering
    its own at position 1, discarding it (then slapping its twin, LS-5) is worth far more
    than keeping it in place of the Nap (0) at position 0 (LS-4)."""
    match = _lazy_sunday_after_peeks()
    match.play("0 draw")
    view = match.bot_view(0)
    assert view["drawn"]["card"]["name"] == "Clean the Oven"
    legal = match.decision_moves(0)
    stats = ISMCTSBot(0, game=match.game, iterations=90).search(view, legal)
    assert set(stats) == set(legal) and len({visits for visits, _ in stats.values()}) == 1
    assert stats[Move(0, "discard")][1] > stats[Move(0, "keep", (0,))][1] + 0.2


def test_a_deadline_stops_the_search_with_the_best_move_found_so_far():
    """A live table's time cap (Bot.deadline): a budget of a billion iterations past its
    deadline stops after the iteration under way and still plays a legal move."""
    match = Match("chore_race", 2, seed=1)
    seat = match.to_act()[0]
    legal = match.decision_moves(seat)
    bot = ISMCTSBot(0, game=match.game, iterations=10**9)
    bot.deadline = time.perf_counter() - 1
    assert bot.choose(match.bot_view(seat), legal) in legal and bot.last_iterations == 1
    bot.deadline = None
    bot.iterations = 30
    bot.choose(match.bot_view(seat), legal)
    assert bot.last_iterations == 30                   # no deadline: the whole budget
