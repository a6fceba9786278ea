"""The documented scale-out path: simulate on a Dask cluster through Client.get_executor()."""
import distributed  # the test extra installs dask[distributed]
import pandas as pd

from playtest import simulate


def test_dask_executor_gives_the_same_rows_as_one_worker():
    args = dict(game="lazy_sunday", seats=2, bots=["heuristic", "random"], games=40, seed=11, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = simulate(**args, executor=client.get_executor())
        workers_used = len(client.scheduler_info()["workers"])
    pd.testing.assert_frame_equal(on_dask, simulate(**args, workers=1))
    assert workers_used == 2 and len(on_dask) == 40 and not on_dask.attrs["cancelled"]
