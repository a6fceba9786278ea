"""Engine speed in one run: random playouts beside RLCard and OpenSpiel, bot games, and
the balance lab's 10,000 Lazy Sunday rounds.

Run: ``python benchmarks/bench_engine.py [--seconds S] [--lab-games N] [--workers W]``.
The reference engines come with the ``bench`` extra (``pip install -e ".[bench]"``); a
missing one is skipped with a note. A benchmark, not a test: the figures depend on the
machine and on what else runs on it, so every ratio is taken between rows measured in
this same run (CPU time of this process, in interleaved rounds; the median of the
rounds' ratios), and the machine's load is printed beside them.

Three tables:

1. Random playouts, one loop shape for every engine: from a new game to its end, pick a
   uniformly random legal action of the player to act at each step and apply it. For
   playtest that is ``Match.play(rng.choice(match.decision_moves(seat)))``, every move
   checked for legality as in any game; RLCard's UNO goes through its ``env.step``;
   OpenSpiel's C++ crazy_eights through ``state.apply_action`` (chance steps, the deal
   and the draws, are sampled and timed but not counted as moves). Targets: every
   playtest game at least 4x RLCard UNO and at least 0.25x OpenSpiel crazy_eights.
   Every playtest game is played twice, dealt from the old stream and from the keyed
   stream of games with a drawn seed (G-3), and the keyed/old ratio is printed.
2. Whole games with the games' own bots (``play_game``), moves/s and games/s per core.
3. ``playtest.simulate("lazy_sunday", 4, "heuristic", games=10_000, workers=2)``:
   target at most 20 s on 2 cores. Wall time is printed with the CPU time the workers
   used, since on a shared machine the wall time also counts waiting for a core.

docs/speed.md keeps the latest figures, with the instruction counts behind them (which
do not swing with the machine's load) and where the remaining time goes.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from typing import Callable

from playtest.engine import Match, get_game, play_game

PLAYTEST_GAMES = (("lazy_sunday", 4), ("chore_race", 4), ("night_shift", 2))
RLCARD_TARGET = 4.0       # playtest moves/s at least 4x RLCard UNO's
OPENSPIEL_TARGET = 0.25   # and at least a quarter of OpenSpiel crazy_eights'
LAB_TARGET_S = 20.0       # 10,000 four-seat Lazy Sunday rounds, heuristic bots, 2 cores

Playout = Callable[[int, random.Random], int]
"""Plays one game from its seed with random legal actions; returns the moves made."""


def playtest_playout(game: str, seats: int, stream: str = "mt") -> Playout:
    """A playout of ``game`` dealt from ``stream`` (G-3: "mt", as every seeded game before,
    or "keyed", as every game with a drawn seed)."""
    def playout(seed: int, rng: random.Random) -> int:
        match = Match(game, seats, seed=seed, keep_log=False, stream=stream)
        while to_act := match.to_act():
            match.play(rng.choice(match.decision_moves(to_act[0])))
        return len(match.moves)
    return playout


def rlcard_playout() -> tuple[str, Playout] | str:
    """RLCard's UNO environment, or a note saying why it is missing."""
    try:
        import rlcard
    except ImportError:
        return "RLCard is not installed (pip install -e \".[bench]\")"
    env = rlcard.make("uno", config={"seed": 0})

    def playout(seed: int, rng: random.Random) -> int:
        state, _ = env.reset()
        moves = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            moves += 1
        return moves
    return f"RLCard uno ({env.num_players} players)", playout


def openspiel_playout() -> tuple[str, Playout] | str:
    """OpenSpiel's C++ crazy_eights (default parameters), or a note saying why it is missing."""
    try:
        import pyspiel
    except ImportError:
        return "OpenSpiel is not installed (pip install -e \".[bench]\")"
    game = pyspiel.load_game("crazy_eights")

    def playout(seed: int, rng: random.Random) -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves
    return f"OpenSpiel crazy_eights ({game.num_players()} players)", playout


ROUNDS = 10
"""The playout rows are measured in this many rounds; each round gives every row one
slice in turn, so a change in the machine's load falls on the rows of a round alike.
A ratio is the median over the rounds of the ratio within each round."""


def measure(playout: Playout, seconds: float, first_seed: int = 0,
            rng: random.Random | None = None) -> tuple[int, int, float]:
    """Play seeded games ``first_seed``, ``first_seed + 1``, ... for about ``seconds`` of
    this process's CPU time; returns (games, moves, CPU seconds taken). CPU time, not wall
    time: on a shared machine the time spent waiting for a core is not the engine's."""
    rng = rng or random.Random(0)
    games = moves = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        moves += playout(first_seed + games, rng)
        games += 1
    return games, moves, elapsed


def playout_table(seconds: float) -> None:
    rows = [(f"playtest {name} ({seats} seats)", playtest_playout(name, seats)) for name, seats in PLAYTEST_GAMES]
    rows += [(f"playtest {name} ({seats} seats, keyed)", playtest_playout(name, seats, "keyed"))
             for name, seats in PLAYTEST_GAMES]
    ours = len(rows)
    for found in (rlcard_playout(), openspiel_playout()):
        if isinstance(found, str):
            print(f"note: {found}; its ratio is left out")
        else:
            rows.append(found)
    print(f"\n1. Random playouts ({seconds:g} CPU-s per engine in {ROUNDS} rounds; the same loop for every "
          f"engine; ratios: median over the rounds)")
    totals = [[0, 0, 0.0] for _ in rows]   # games, moves, CPU seconds
    rates = [[] for _ in rows]             # moves/s of each round
    rngs = [random.Random(0) for _ in rows]
    for _ in range(ROUNDS):
        for (label, playout), total, rate, rng in zip(rows, totals, rates, rngs):
            games, moves, elapsed = measure(playout, seconds / ROUNDS, total[0], rng)
            total[0] += games
            total[1] += moves
            total[2] += elapsed
            rate.append(moves / elapsed)
    reference = {label.split(" (")[0]: i for i, (label, _) in enumerate(rows[ours:], ours)}
    uno, eights = reference.get("RLCard uno"), reference.get("OpenSpiel crazy_eights")
    print(f"{'engine':<38}{'games':>8}{'moves':>10}{'moves/s':>11}{'vs UNO':>12}{'vs C8':>12}")
    for i, ((label, _), (games, moves, elapsed)) in enumerate(zip(rows, totals)):
        vs_uno = _ratio(rates[i], rates[uno] if uno else None, RLCARD_TARGET) if i < ours else ""
        vs_c8 = _ratio(rates[i], rates[eights] if eights else None, OPENSPIEL_TARGET) if i < ours else ""
        print(f"{label:<38}{games:>8,}{moves:>10,}{moves / elapsed:>11,.0f}{vs_uno:>12}{vs_c8:>12}")
    print(f"targets: at least {RLCARD_TARGET:g}x RLCard UNO and {OPENSPIEL_TARGET:g}x OpenSpiel crazy_eights "
          f"(ok / LOW after each ratio)")
    games = len(PLAYTEST_GAMES)
    print("keyed stream (games with a drawn seed) vs the old stream, same run: " + ", ".join(
        f"{name} {statistics.median(k / m for k, m in zip(rates[games + i], rates[i])):.2f}x"
        for i, (name, _) in enumerate(PLAYTEST_GAMES)))


def _ratio(rates: list[float], reference: list[float] | None, target: float) -> str:
    """The median over the rounds of ``rates[r] / reference[r]``, marked against ``target``."""
    if reference is None:
        return "-"
    ratio = statistics.median(ours / theirs for ours, theirs in zip(rates, reference))
    return f"{ratio:.2f}x {'ok' if ratio >= target else 'LOW'}"


def bot_table(seconds: float) -> None:
    print(f"\n2. Whole games with bots (play_game, one core, {seconds:g} s per row)")
    print(f"{'game':<14}{'seats':>6}{'bots':>11}{'games':>8}{'moves/s':>10}{'games/s':>9}{'moves/game':>12}")
    for name, seats in PLAYTEST_GAMES:
        for bots in getattr(get_game(name), "BOTS", {"random": None}):
            if bots == "ismcts":  # the search bot thinks up to a second a move: benchmarks/bench_bots.py
                continue
            def playout(seed, rng, name=name, seats=seats, bots=bots):
                return len(play_game(name, seats, bots, seed=seed)[0].moves)
            games, moves, elapsed = measure(playout, seconds)
            print(f"{name:<14}{seats:>6}{bots:>11}{games:>8,}{moves / elapsed:>10,.0f}{games / elapsed:>9,.1f}"
                  f"{moves / games:>12,.1f}")


def lab_run(games: int, workers: int) -> None:
    from playtest import simulate

    print(f"\n3. Balance lab: simulate('lazy_sunday', 4, 'heuristic', games={games:,}, workers={workers})")
    before = os.times()
    start = time.perf_counter()
    df = simulate("lazy_sunday", 4, "heuristic", games=games, seed=1, workers=workers, progress=False)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = sum(after[i] - before[i] for i in range(4))  # user + system, this process and its workers
    verdict = "ok" if wall * 10_000 / games <= LAB_TARGET_S else "LOW"
    print(f"{games:,} one-round matches ({int(df['finished'].sum()):,} finished, {int(df['moves'].sum()):,} moves) "
          f"in {wall:.1f} s wall, {cpu:.1f} CPU-s ({cpu / workers:.1f} s per worker if each had its own core)")
    print(f"per 10,000 rounds: {wall * 10_000 / games:.1f} s wall, {cpu / workers * 10_000 / games:.1f} s of "
          f"CPU per worker; target {LAB_TARGET_S:g} s on {workers} cores: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per playout row (default 3)")
    parser.add_argument("--lab-games", type=int, default=10_000, help="games of the balance-lab run (default 10,000; 0 skips it)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the balance-lab run (default 2)")
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Python {platform.python_version()} on {os.cpu_count()} CPUs; load average {load} "
          f"(a busy machine lowers every figure; ratios are within this run)")
    playout_table(args.seconds)
    bot_table(args.seconds)
    if args.lab_games:
        lab_run(args.lab_games, args.workers)


if __name__ == "__main__":
    main()
