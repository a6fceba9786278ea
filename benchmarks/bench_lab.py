"""Balance-lab scale-out: the same games on 1 process, on 2 local processes, and on 2 Dask
workers started from the command line; prints each run's time and the scale-out
efficiency (speed-up / workers; the goal is 0.9 or more).

    python benchmarks/bench_lab.py                  # 4,000 four-seat heuristic Lazy Sunday games, 3 rounds
    python benchmarks/bench_lab.py --games 1000 --rounds 1

The Dask cluster is a ``dask scheduler`` and two ``dask worker`` processes (one thread each),
bound to 127.0.0.1, started by this script and stopped by it when it ends. Each round times
the three set-ups one after the other, so a burst of load on a shared machine falls on all
of them; a set-up's time is its best round (the least disturbed). The workers' CPU time is
printed beside the wall time: on a busy machine, a wall time well above the CPU time is time
spent waiting for a core, not the lab's; the CPU efficiency (the one process's CPU time over
the workers' total) is the share of the workers' work that is games, whatever the load.
"""
from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import psutil   # installed with dask[distributed]

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))   # the checkout's kit, installed or not

from playtest import simulate  # noqa: E402

GAME, SEATS, BOTS = "lazy_sunday", 4, "heuristic"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def dask_cluster(workers: int = 2):
    """A scheduler and ``workers`` one-thread workers started with the ``dask`` command on
    127.0.0.1; yields ``(client, worker processes)``; stops every process it started."""
    import distributed
    dask = shutil.which("dask") or shutil.which("dask", path=str(Path(sys.executable).parent))
    if dask is None:
        raise SystemExit("the dask command is not installed: pip install -e \".[dask]\"")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                **quiet)]
    try:
        for _ in range(workers):
            started.append(subprocess.Popen([dask, "worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                                             "--nworkers", "1", "--no-dashboard", "--no-nanny"], **quiet))
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=120)
            yield client, [psutil.Process(p.pid) for p in started[1:]]
    finally:
        for process in reversed(started):   # only the processes this script started
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def cpu_seconds(processes) -> float:
    """CPU time (user + system) of ``processes`` and their children so far."""
    total = 0.0
    for process in processes:
        try:
            for p in [process, *process.children(recursive=True)]:
                times = p.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def timed(play, cpu) -> tuple[float, float]:
    """``(wall seconds, CPU seconds)`` of ``play()``, the CPU read by ``cpu()`` before and after."""
    before = cpu()
    start = time.perf_counter()
    play()
    return time.perf_counter() - start, cpu() - before


class Setup:
    """One way to play the games: a name, its workers, ``play()`` and the CPU counter of
    the processes that play them; the wall and CPU times of each round."""

    def __init__(self, name: str, workers: int, play, cpu):
        self.name, self.workers, self.play, self.cpu = name, workers, play, cpu
        self.walls: list[float] = []
        self.cpus: list[float] = []


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="games per run (default 4000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the three set-ups (default 3)")
    args = parser.parse_args(argv)
    games = args.games
    me = psutil.Process()

    def own_cpu():
        times = me.cpu_times()
        return times.user + times.system

    def children_cpu():   # the pool's processes, counted once they end (the Dask ones are alive: not them)
        times = me.cpu_times()
        return times.children_user + times.children_system

    print(f"{GAME}, {SEATS} seats, {BOTS} bots, {games:,} games per run; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    with dask_cluster(2) as (client, dask_workers):
        simulate(GAME, SEATS, BOTS, games=40, executor=client, progress=False)   # workers import the kit
        setups = [
            Setup("1 process (this one)", 1, lambda: simulate(GAME, SEATS, BOTS, games=games, workers=1,
                                                             progress=False), own_cpu),
            Setup("2 local processes", 2, lambda: simulate(GAME, SEATS, BOTS, games=games, workers=2,
                                                          progress=False), children_cpu),
            Setup("2 Dask workers (dask scheduler, dask worker)", 2,
                  lambda: simulate(GAME, SEATS, BOTS, games=games, executor=client, progress=False),
                  lambda: cpu_seconds(dask_workers)),
        ]
        for number in range(args.rounds):
            for setup in setups:
                wall, cpu = timed(setup.play, setup.cpu)
                setup.walls.append(wall)
                setup.cpus.append(cpu)
                print(f"  round {number + 1}: {setup.name}: {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
    base = min(setups[0].walls)
    base_cpu = min(setups[0].cpus)
    print("\n| set-up | workers | best wall (s) | games/s | workers' CPU (s) | speed-up | efficiency | "
          "CPU efficiency |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for setup in setups:
        best = min(setup.walls)
        cpu = setup.cpus[setup.walls.index(best)]
        speedup = base / best
        # the one process's CPU time over the workers': the share of their work that is games (no overhead: 1.00)
        print(f"| {setup.name} | {setup.workers} | {best:.2f} | {games / best:,.0f} | {cpu:.2f} | {speedup:.2f}x | "
              f"{speedup / setup.workers:.2f} | {base_cpu / min(setup.cpus):.2f} |")
    print(f"\nload average at the end {os.getloadavg()[0]:.1f} (goal: efficiency 0.9 or more)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
