"""Scale-out: simulate on a Dask cluster (the client, or Client.get_executor()), a worker without
the kit failing the run at once with a message, and chunks in flight following an executor's
capacity through public APIs."""
import pickle
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import distributed  # the test extra installs dask[distributed]
import pandas as pd
import pytest

from playtest import simulate
from playtest.lab import simulation
from playtest.lab.simulation import Runner, WorkerError

WITHOUT_KIT = Path(__file__).with_name("dask_without_kit.py")


def test_dask_executor_gives_the_same_rows_as_one_worker():
    args = dict(game="lazy_sunday", seats=2, bots=["heuristic", "random"], games=40, seed=11, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = simulate(**args, executor=client.get_executor())
        through_client = simulate(**args, executor=client)
        workers_used = len(client.scheduler_info()["workers"])
        with Runner(client) as runner:
            assert runner.capacity() == 2     # the cluster's worker threads, read from the client
            assert runner.chunk_seconds == simulation.DASK_CHUNK_SECONDS   # chunks grow (see below)
    alone = simulate(**args, workers=1)
    pd.testing.assert_frame_equal(on_dask, alone)
    pd.testing.assert_frame_equal(through_client, alone)
    assert workers_used == 2 and len(on_dask) == 40 and not on_dask.attrs["cancelled"]


def test_a_chunk_comes_back_with_a_size_dask_reads_without_walking_its_columns():
    """Dask sizes every result several times; a DataFrame's sizeof builds a Series per column
    (1 ms for a 50-game Lazy Sunday chunk), the chunk's wrapper answers from its shape."""
    from dask.sizeof import sizeof

    for keep_records in (False, True):
        plan = simulation.make_plan("lazy_sunday", 4, "heuristic", None, 3, keep_records=keep_records)
        chunk = simulation._play_chunk(plan, 0, 20)
        pd.testing.assert_frame_equal(chunk.frame, simulation.play_games(plan, 0, 20))
        pd.testing.assert_frame_equal(pickle.loads(pickle.dumps(chunk)).frame, chunk.frame)
        assert sizeof(chunk) == sys.getsizeof(chunk)    # the object's own __sizeof__, not pandas'
        deep = chunk.frame.memory_usage(deep=True).sum()
        assert deep / 2 < sizeof(chunk) < deep * 2      # still a fair estimate, records included


def test_a_worker_without_the_kit_fails_the_run_within_seconds_saying_so():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  preload=[str(WITHOUT_KIT)]) as cluster, distributed.Client(cluster) as client:
        for executor in (client, client.get_executor()):
            started = time.monotonic()
            with pytest.raises(WorkerError, match="cannot import the playtest kit.*install the kit"):
                simulate("lazy_sunday", 2, "random", games=40, executor=executor, progress=False)
            assert time.monotonic() - started < 10


def test_chunks_in_flight_follow_a_thread_pools_capacity(monkeypatch):
    """No private attribute: while every chunk sent is running there is room for more, and a few
    wait queued behind them."""
    running, most, sent, finished, in_flight = 0, 0, 0, 0, 0
    lock = threading.Lock()
    play = simulation.play_games

    def counting(plan, start, stop):
        nonlocal running, most, finished
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        try:
            return play(plan, start, stop)
        finally:
            with lock:
                running -= 1
                finished += 1

    original_submit = ThreadPoolExecutor.submit

    def submit(self, fn, *args, **kwargs):
        nonlocal sent, in_flight
        with lock:
            sent += 1
            in_flight = max(in_flight, sent - finished)
        return original_submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(simulation, "play_games", counting)
    monkeypatch.setattr(ThreadPoolExecutor, "submit", submit)
    with ThreadPoolExecutor(4) as pool:
        df = simulate("lazy_sunday", 2, "random", games=400, seed=1, executor=pool, progress=False)
    assert len(df) == 400 and most == 4            # every worker busy ...
    assert sent >= 12 and in_flight <= 4 + 4 + 1   # ... with at most as many again queued, not every chunk at once


@pytest.mark.parametrize("seconds", [1e-9, 1000.0])
def test_chunks_grow_to_the_seconds_asked_but_shrink_as_the_run_ends(seconds, monkeypatch):
    """As on a Dask client (each chunk costs the worker, the scheduler and the client ~10 ms of
    CPU): once chunks are back, the next are sized from the measured rate, capped by half a
    worker's share of the games left; slow games (a tiny bound) keep the first chunks' size."""
    monkeypatch.setattr(simulation.os, "cpu_count", lambda: 2)
    plan = simulation.make_plan("lazy_sunday", 2, "random", None, 5)
    sent, frames = [], []
    original_submit = ThreadPoolExecutor.submit

    def submit(self, fn, plan, first, last):
        sent.append((first, last))
        return original_submit(self, fn, plan, first, last)

    with ThreadPoolExecutor(2) as pool:
        pool.submit = submit.__get__(pool)
        cancelled = simulation._run_chunks(pool, plan, 0, 1000, lambda: 2, frames, lambda n: None, None, seconds)
    sizes = [last - first for first, last in sent]
    assert not cancelled and [first for first, _ in sent] == [0, *(last for _, last in sent[:-1])]
    assert sent[-1][1] == 1000 and sizes[:4] == [50] * 4     # MAX_CHUNK (1000 / (2 workers * 8) = 63) at first
    if seconds < 1:
        assert set(sizes[:-1]) == {50}   # never past the first size (the last may be short)
    else:   # by the games left alone: (1000 - 200) / 4 = 200, then 150, 113, ... down to 50
        assert sizes[4:7] == [200, 150, 113] and sizes[-2] == 50 and len(sizes) < 1000 // 50
    pd.testing.assert_frame_equal(simulation._assemble(frames, plan, 1000, False),
                                  simulation._assemble([simulation.play_games(plan, 0, 1000)], plan, 1000, False))
