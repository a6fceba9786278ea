"""The lab's CSV reads back: lists as JSON, the run's set-up in the file, the same metrics."""
import io
import json

import pandas as pd
import pytest

from playtest import simulate
from playtest.lab import card_stats, compare, metrics, seat_win_rates
from playtest.lab.csvfile import read_csv, write_csv


@pytest.fixture(scope="module")
def games():
    return simulate("lazy_sunday", 3, ["heuristic", "random", "random"], games=16, seed=5, options={"rounds": 2},
                    workers=1, progress=False, trace=True)


def test_metrics_of_the_csv_as_pandas_reads_it_equal_the_runs(games, tmp_path):
    path = tmp_path / "games.csv"
    write_csv(games, path)
    raw = pd.read_csv(path)
    pd.testing.assert_frame_equal(metrics(raw), metrics(games))
    pd.testing.assert_frame_equal(card_stats(raw), card_stats(games))
    pd.testing.assert_frame_equal(seat_win_rates(raw, by="bot"), seat_win_rates(games, by="bot"))
    assert json.loads(raw.at[0, "winners"]) == list(games.at[0, "winners"])       # JSON lists, not Python text
    assert json.loads(raw.at[0, "winner_bots"]) == list(games.at[0, "winner_bots"])
    assert (raw["run_seed"] == 5).all() and (raw["game_name"] == "lazy_sunday").all()
    assert json.loads(raw.at[0, "options"]) == games.attrs["options"] and json.loads(raw.at[0, "options"])["rounds"] == 2


def test_read_csv_gives_back_the_rows_and_their_attrs(games):
    back = read_csv(io.StringIO(write_csv(games)))
    pd.testing.assert_frame_equal(back, games, check_dtype=False)
    assert back.attrs == games.attrs
    assert compare(back, games).attrs["A"] == "rounds=2" and compare(back, games).attrs["paired"]


def test_csv_of_an_older_version_with_python_tuples_still_reads(games, tmp_path):
    old = games.drop(columns=["score_curve", "lead_change_turns"])
    old.to_csv(tmp_path / "old.csv", index=False)                     # winners written as "(0,)"
    raw = pd.read_csv(tmp_path / "old.csv")
    assert raw.at[0, "winners"].startswith("(")
    assert metrics(raw).loc["Completion", "value"] == metrics(games).loc["Completion", "value"]
    assert read_csv(tmp_path / "old.csv")["winners"].tolist() == games["winners"].tolist()


def test_a_file_that_is_not_the_labs_csv_is_refused(tmp_path):
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not the balance lab's CSV"):
        read_csv(tmp_path / "other.csv")
    broken = tmp_path / "broken.csv"
    broken.write_text("winners,seat0_won,seat1_won\n[0,False,True\n")
    with pytest.raises(ValueError):
        metrics(pd.read_csv(broken))
