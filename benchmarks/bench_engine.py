"""Engine speed: random-bot and heuristic-bot playouts, in moves/s and games/s.

Run: ``python benchmarks/bench_engine.py [--games N] [--game NAME]``. Prints one row per
(game, seats, bot) and the ratio to the engine's target of 50,000 random-bot moves/s on
one core. A benchmark, not a test: figures vary with the machine and its load.
"""
from __future__ import annotations

import argparse
import time

from playtest.engine import get_game, games, play_game

TARGET_MOVES_PER_S = 50_000


def measure(game: str, seats: int, bots: str, n_games: int) -> tuple[float, float, float]:
    """Play ``n_games`` games; return (moves/s, games/s, mean moves per game)."""
    moves = 0
    start = time.perf_counter()
    for seed in range(n_games):
        match, _ = play_game(game, seats, bots, seed=seed)
        moves += len(match.moves)
    elapsed = time.perf_counter() - start
    return moves / elapsed, n_games / elapsed, moves / n_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per row (default 300)")
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args()
    names = args.game or list(games())
    print(f"{'game':<14}{'seats':>6}{'bots':>11}{'moves/s':>10}{'games/s':>9}{'moves/game':>12}{'vs target':>11}")
    for name in names:
        game = get_game(name)
        seat_counts = sorted({game.min_seats, min(4, game.max_seats), game.max_seats})
        for seats in seat_counts:
            for bots in game.BOTS if hasattr(game, "BOTS") else ("random",):
                mps, gps, per_game = measure(name, seats, bots, args.games)
                ratio = f"{mps / TARGET_MOVES_PER_S:.2f}x" if bots == "random" else ""
                print(f"{name:<14}{seats:>6}{bots:>11}{mps:>10,.0f}{gps:>9,.1f}{per_game:>12,.0f}{ratio:>11}")


if __name__ == "__main__":
    main()
