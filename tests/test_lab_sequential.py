"""Runs until decided: a metric's interval narrow enough, an A/B difference that excludes zero
under a group-sequential bound, the cap, the progress bar's current interval, bad input."""
import pandas as pd
import pytest

from playtest import simulate
from playtest.engine import OptionError
from playtest.lab.sequential import Look, ab_until, simulate_until, spending_bounds


def test_simulate_until_stops_once_the_interval_is_narrow_enough():
    looks = []
    df = simulate_until("lazy_sunday", 2, "random", metric="DurationTurns", width=4.0, max_games=400, batch=25,
                        workers=1, progress=False, on_look=looks.append)
    until = df.attrs["until"]
    assert until["decided"] and until["reason"].startswith(f"decided after {len(df)} games")
    assert [look.games for look in looks] == list(range(25, len(df) + 1, 25))
    assert looks[-1].high - looks[-1].low <= 4.0 < looks[-2].high - looks[-2].low   # stopped at the first narrow one
    assert all(isinstance(look, Look) for look in looks) and len(until["looks"]) == len(looks)
    # the same games simulate plays first with that seed
    pd.testing.assert_frame_equal(df, simulate("lazy_sunday", 2, "random", games=len(df), workers=1, progress=False),
                                  check_like=True, check_dtype=False, check_flags=False, obj="rows")


def test_simulate_until_stops_at_the_cap_and_says_so(capsys):
    df = simulate_until("lazy_sunday", 2, "random", metric="Win rate seat 0", width=0.01, max_games=60, batch=30,
                        workers=1, progress=True)
    until = df.attrs["until"]
    assert len(df) == 60 and not until["decided"] and "the cap of 60 games" in until["reason"]
    assert "Win rate seat 0 " in capsys.readouterr().err     # the bar shows the current interval


def test_ab_until_decides_a_real_difference_at_the_first_look():
    result = ab_until("lazy_sunday", 2, "random", None, {"rounds": 2}, metric="DurationTurns", max_games=200,
                      looks=4, workers=1, progress=False)
    assert result.decided and result.looks.index.tolist() == [1] and len(result.a) == len(result.b) == 50
    first = result.looks.loc[1]
    assert first["bound"] == pytest.approx(spending_bounds(4)[0]) and abs(first["z"]) >= first["bound"]
    assert first["low"] > 0 and "B has more DurationTurns than A" in result.reason
    assert result.comparison.attrs["paired"]


def test_ab_until_does_not_decide_when_the_variants_are_the_same_game():
    # rounds=1 is the default: A and B play the very same games, every difference is 0
    result = ab_until("lazy_sunday", 2, "random", None, {"rounds": 1}, metric="Completion", max_games=40, looks=2,
                      workers=1, progress=False)
    assert not result.decided and result.looks.index.tolist() == [1, 2] and len(result.a) == 40
    assert "not decided at the cap" in result.reason and (result.looks["difference"] == 0).all()


@pytest.mark.parametrize("kwargs, message", [
    (dict(metric="Fun"), "unknown metric 'Fun'"),
    (dict(width=0), "width must be a number above 0"),
    (dict(max_games=10, batch=20), "batch must be a whole number"),
    (dict(max_games=0), "max_games must be"),
])
def test_simulate_until_refuses_bad_input(kwargs, message):
    with pytest.raises(OptionError, match=message):
        simulate_until("lazy_sunday", 2, "random", **{"workers": 1, "progress": False, **kwargs})


@pytest.mark.parametrize("kwargs, message", [
    (dict(metric="Balance"), "unknown metric 'Balance'"),
    (dict(spending="haybittle"), "spending must be one of"),
    (dict(looks=100, max_games=10), "looks must be"),
    (dict(alpha=2), "alpha must be"),
])
def test_ab_until_refuses_bad_input(kwargs, message):
    with pytest.raises(OptionError, match=message):
        ab_until("lazy_sunday", 2, "random", None, {"rounds": 2}, **{"workers": 1, "progress": False, **kwargs})
