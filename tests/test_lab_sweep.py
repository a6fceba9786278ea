"""Sweeps: one option over values (or two over a grid) on the same seeds, every metric with its
interval per value, a panel per metric."""
import pytest
from matplotlib.figure import Figure

from playtest.engine import OptionError
from playtest.lab import compare, metrics
from playtest.lab.sweeps import SHOWN, plot_sweep, sweep


@pytest.fixture(scope="module")
def rounds():
    return sweep("lazy_sunday", 2, "random", 12, "rounds", [1, 2, 3], seed=4, workers=1, progress=False)


def test_every_value_plays_the_same_seeds_and_has_every_metric(rounds):
    assert rounds.options == ("rounds",) and list(rounds.runs) == [(1,), (2,), (3,)]
    seeds = [df["seed"].tolist() for df in rounds.runs.values()]
    assert seeds[0] == seeds[1] == seeds[2] and len(seeds[0]) == 12
    assert [df.attrs["options"]["rounds"] for df in rounds.runs.values()] == [1, 2, 3]
    table = rounds.table
    one = table[(table["rounds"] == 2)].set_index("metric")
    expected = metrics(rounds.runs[(2,)])
    assert one.loc["DurationTurns", ["value", "low", "high"]].tolist() == pytest.approx(
        expected.loc["DurationTurns", ["value", "low", "high"]].tolist())
    assert {"Win rate seat 0", "Win rate seat 1", "AdvantageP1", "Completion"} <= set(one.index)
    lengths = table[table["metric"] == "DurationTurns"]["value"].tolist()
    assert lengths == sorted(lengths) and lengths[0] < lengths[-1]          # more rounds, longer games
    assert compare(rounds.runs[(1,)], rounds.runs[(3,)]).attrs["paired"]   # any two values pair by seed


def test_the_module_does_not_shadow_the_function():
    import playtest.lab
    import playtest.lab.sweeps  # noqa: F401 (a submodule named like the function would replace it)
    assert playtest.lab.sweep is sweep and callable(playtest.lab.sweep)


def test_a_plot_per_metric(rounds):
    figure = plot_sweep(rounds)
    shown = [ax for ax in figure.axes if ax.get_visible()]
    assert isinstance(figure, Figure) and [ax.get_title() for ax in shown] == [m for m in SHOWN]
    assert [t.get_text() for t in shown[0].get_xticklabels()] == ["1", "2", "3"]
    assert len(plot_sweep(rounds, ["DurationTurns"]).axes[0].lines) >= 1
    with pytest.raises(ValueError, match="no metric Fun"):
        plot_sweep(rounds, ["Fun"])


def test_two_options_sweep_a_grid():
    grid = sweep("lazy_sunday", 2, "random", 6, {"rounds": [1, 2], "great_escape": [False, True]}, workers=1,
                 progress=False)
    assert list(grid.runs) == [(1, False), (1, True), (2, False), (2, True)]
    assert set(grid.table.columns[:2]) == {"rounds", "great_escape"}
    panel = plot_sweep(grid, ["DurationTurns"]).axes[0]
    assert len(panel.get_legend().get_texts()) == 2          # a line per value of the second option


@pytest.mark.parametrize("option, values, message", [
    ("no_such", [1], "has no option 'no_such'"),
    ("rounds", [], "one or more values"),
    ("rounds", None, "over which values"),
    ("rounds", [1, 0], "sweep value rounds=0"),
    ({"rounds": [1], "match_to": [None], "great_escape": [True]}, None, "one option, or two"),
])
def test_bad_sweeps_are_refused_before_any_game(option, values, message):
    with pytest.raises(OptionError, match=message):
        sweep("lazy_sunday", 2, "random", 4, option, values, workers=1, progress=False)
