"""The search bot's speed and strength (issue #13), in one run on one core.

Run: ``python benchmarks/bench_bots.py [--games N] [--only WORD ...] [--seconds S]
[--bot ismcts] [--no-speed]``; ``--games 0`` prints the speed tables alone (a minute or
two); the strength rows take hours at 200 games (``--only chore`` runs some of them).

A benchmark, not a test: the figures depend on the machine and its load (printed). Times
are CPU seconds of this process (on a shared machine, waiting for a core is not the
bot's).

1. State copy and playout, per game: ``Searchable.copy_state`` of positions met in seeded
   heuristic games, a copy plus a random playout from there to the end (what a search
   iteration costs besides its tree), one sample of a seat's knowledge
   (``Searchable.determinizer``), beside the engine's own random playout through ``Match.play``
   (benchmarks/bench_engine.py's loop, every move checked).
2. IS-MCTS iterations per second and CPU seconds per decision at the bot's budget, per
   game, from the same positions.
3. Strength with the balance lab (``playtest.simulate``, seats rotating, one process):
   the bot in one seat against the heuristic bot in the others. Targets: in 2-seat
   games at least 60% wins with the 95% Wilson interval above 50%; in 4-seat games at
   least 1.5x the fair share (a quarter of the games with a winner); at most 1 s per
   decision.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from playtest.engine import ISMCTSBot, Match, get_game, make_bot, play_game

GAMES = (("lazy_sunday", 4), ("chore_race", 4), ("night_shift", 2))
STRENGTH = (  # (label, game, seats, options)
    ("Lazy Sunday, 2 seats", "lazy_sunday", 2, {}),
    ("Chore Race, 2 seats", "chore_race", 2, {}),
    ("Night Shift (as written)", "night_shift", 2, {}),
    ("Night Shift, with reshuffle", "night_shift", 2, {"reshuffle": True}),
    ("Lazy Sunday, 4 seats", "lazy_sunday", 4, {}),
    ("Chore Race, 4 seats", "chore_race", 4, {}),
)
TWO_SEAT_TARGET = 0.60
SHARE_TARGET = 1.5
DECISION_TARGET_S = 1.0


def positions(game: str, seats: int, count: int = 40) -> list[Match]:
    """Matches at ``count`` positions spread over seeded heuristic games (each a match of
    its own, replayed to that position), with a seat to act that has a choice."""
    found: list[Match] = []
    seed = 0
    while len(found) < count:
        played, _ = play_game(game, seats, "heuristic", seed=seed)
        for n in range(0, len(played.moves), max(1, len(played.moves) // 8)):
            match = Match(game, seats, seed=seed, keep_log=False)
            for move in played.moves[:n]:
                match.play(move)
            acting = match.to_act()
            if acting and len(match.decision_moves(acting[0])) > 1:
                found.append(match)
        seed += 1
    return found[:count]


def rate(work, seconds: float) -> tuple[int, float]:
    """Call ``work()`` for about ``seconds`` of CPU time; returns (calls, CPU seconds)."""
    calls, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        work()
        calls += 1
    return calls, elapsed


def copy_table(seconds: float) -> None:
    print(f"\n1. State copy and playout ({seconds:g} CPU-s a row; positions from seeded heuristic games)")
    print(f"{'game':<14}{'seats':>6}{'copies/s':>11}{'copy+playout/s':>16}{'moves/s':>10}{'samples/s':>11}"
          f"{'engine moves/s':>16}")
    for name, seats in GAMES:
        spots = positions(name, seats)
        game = spots[0].game
        rng = random.Random(0)
        i = 0

        def copy():
            nonlocal i
            game.copy_state(spots[i % len(spots)].state)
            i += 1
        copies, t_copy = rate(copy, seconds / 4)
        moves = 0

        def playout():
            nonlocal i, moves
            state = game.copy_state(spots[i % len(spots)].state)
            i += 1
            state.rng = rng  # the copy's own stream: the original stays as it was
            while acting := game.to_act(state):
                legal = game.decision_moves(state, acting[0])
                game.apply(state, legal[rng.randrange(len(legal))])
                moves += 1
        playouts, t_play = rate(playout, seconds / 4)
        samplers = [game.determinizer(dict(m.bot_view(m.to_act()[0])), m.to_act()[0]) for m in spots]

        def sample():
            nonlocal i
            samplers[i % len(samplers)](rng)
            i += 1
        samples, t_sample = rate(sample, seconds / 4)
        engine_moves = 0

        def engine():
            nonlocal i, engine_moves
            match = Match(name, seats, seed=i, keep_log=False)
            i += 1
            while acting := match.to_act():
                match.play(rng.choice(match.decision_moves(acting[0])))
                engine_moves += 1
        _, t_engine = rate(engine, seconds / 4)
        print(f"{name:<14}{seats:>6}{copies / t_copy:>11,.0f}{playouts / t_play:>16,.0f}{moves / t_play:>10,.0f}"
              f"{samples / t_sample:>11,.0f}{engine_moves / t_engine:>16,.0f}")


def search_table(bot_name: str, seconds: float) -> None:
    print(f"\n2. IS-MCTS ({bot_name}): iterations per second and CPU seconds per decision")
    print(f"{'game':<14}{'seats':>6}{'iterations/s':>14}{'decisions':>11}{'mean s':>9}{'max s':>8}")
    for name, seats in GAMES + (("lazy_sunday", 2), ("chore_race", 2)):
        spots = positions(name, seats, 20)
        per_decision, iterations, spent = [], 0, 0.0
        start = time.process_time()
        for n, match in enumerate(spots):
            seat = match.to_act()[0]
            bot = make_bot(match.game, bot_name, f"bench:{n}")
            t0 = time.process_time()
            bot.choose(match.bot_view(seat), match.decision_moves(seat))
            per_decision.append(time.process_time() - t0)
            iterations += bot.last_iterations
            if time.process_time() - start > seconds:
                break
        spent = sum(per_decision)
        print(f"{name:<14}{seats:>6}{iterations / spent:>14,.0f}{len(per_decision):>11}"
              f"{statistics.mean(per_decision):>9.3f}{max(per_decision):>8.3f}")


class TimedISMCTS(ISMCTSBot):
    """The search bot, timing each decision it searches (CPU seconds, into ``TIMES``)."""

    TIMES: list[float] = []

    def choose(self, view, legal):
        start = time.process_time()
        move = super().choose(view, legal)
        if len(legal) > 1:
            TimedISMCTS.TIMES.append(time.process_time() - start)
        return move


def strength_table(bot_name: str, games: int, only: list[str] | None) -> None:
    from playtest import simulate
    from playtest.engine.search import parse_budget
    from playtest.lab import wilson

    iterations, ms = parse_budget(bot_name.partition(":")[2] or None)
    print(f"\n3. Strength: {bot_name} in one seat, heuristic in the others ({games} games a row, seats rotating, "
          f"one process)")
    print(f"{'':<30}{'games':>6}{'wins':>7}{'rate':>7}{'95% interval':>16}{'fair':>7}{'x fair':>7}"
          f"{'s/decision':>11}{'max':>7}{'CPU s':>8}  verdict")
    for label, name, seats, options in STRENGTH:
        if only and not any(word.lower() in label.lower() for word in only):
            continue
        rules = get_game(name)(seats, options)

        def factory(seed, rules=rules):
            return TimedISMCTS(seed, game=rules, iterations=iterations, ms=ms)
        factory.name = bot_name
        TimedISMCTS.TIMES = []
        start = time.process_time()
        df = simulate(name, seats, [factory] + ["heuristic"] * (seats - 1), games=games, options=options, seed=0,
                      workers=1, progress=False)
        cpu = time.process_time() - start
        upper = [bool(row[f"seat{g % seats}_won"]) for g, (_, row) in zip(df["game"], df.iterrows())]
        wins = sum(1 / len(w) for won, w in zip(upper, df["winners"]) if won)
        n = len(df)
        low, high = wilson(round(wins), n)
        fair = (1 - (df["winners"].apply(len) == 0).mean()) / seats
        times = TimedISMCTS.TIMES or [0.0]
        slow = max(times) > DECISION_TARGET_S
        if seats == 2:
            ok = wins / n >= TWO_SEAT_TARGET and low > 0.5
        else:
            ok = fair > 0 and wins / n >= SHARE_TARGET * fair
        verdict = ("ok" if ok else "LOW") + (", slow" if slow else "")
        print(f"{label:<30}{n:>6}{wins:>7.1f}{wins / n:>7.1%}{f'{low:.1%}-{high:.1%}':>16}{fair:>7.1%}"
              f"{(wins / n / fair if fair else float('nan')):>7.2f}{statistics.mean(times):>11.3f}"
              f"{max(times):>7.2f}{cpu:>8.0f}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per strength row (default 200; 0 skips them)")
    parser.add_argument("--only", nargs="*", help="strength rows whose label holds one of these words")
    parser.add_argument("--seconds", type=float, default=8.0, help="CPU seconds per speed row (default 8)")
    parser.add_argument("--bot", default="ismcts", help="the search bot and its budget (default: ismcts)")
    parser.add_argument("--no-speed", action="store_true", help="skip tables 1 and 2")
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Python {platform.python_version()} on {os.cpu_count()} CPUs; load average {load}")
    if not args.no_speed:
        copy_table(args.seconds)
        search_table(args.bot, args.seconds * 2)
    if args.games:
        strength_table(args.bot, args.games, args.only)


if __name__ == "__main__":
    main()
