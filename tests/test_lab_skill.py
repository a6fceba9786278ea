"""The skill ladder (playtest.lab.skill): each bot against the one below it, win rates
with Wilson intervals beside the fair share, one sentence; `playtest skill`."""
import pandas as pd
import pytest

from playtest.cli import main
from playtest.engine import OptionError
from playtest.lab import simulate, skill_ladder, skill_sentence, wilson

RESHUFFLE = {"reshuffle": True}  # Night Shift with NS-5's reshuffle: bought cards come back, skill shows


def test_each_step_is_the_stronger_bot_in_one_seat_against_the_weaker():
    table = skill_ladder("night_shift", 2, 12, ("random", "heuristic"), RESHUFFLE, seed=3)
    assert list(table.index) == ["heuristic vs random"]
    row = table.iloc[0]
    # the same games as simulate() plays with that line-up (seats rotating)
    games = simulate("night_shift", 2, ["heuristic", "random"], games=12, options=RESHUFFLE, seed=3, progress=False)
    wins = sum(bots.count("heuristic") / len(bots) for bots in games["winner_bots"] if bots)
    no_winner = (games["winners"].apply(len) == 0).mean()
    assert row["games"] == 12 and row["wins"] == pytest.approx(wins) and row["rate"] == pytest.approx(wins / 12)
    assert (row["low"], row["high"]) == pytest.approx(wilson(round(wins), 12))
    assert row["fair"] == pytest.approx((1 - no_winner) / 2)
    assert row["ratio"] == pytest.approx(row["rate"] / row["fair"])
    assert row["points"] == pytest.approx(100 * (row["rate"] - row["fair"]))
    assert row["rate"] >= 0.9 and table.attrs["sentence"].startswith("skill matters: +")
    assert table.attrs["ladder"] == ["random", "heuristic"] and table.attrs["options"]["reshuffle"] is True


def test_the_sentence_says_whether_skill_shows():
    def table(rates, lows):
        return pd.DataFrame({"rate": rates, "low": lows, "fair": [0.5] * len(rates),
                             "points": [100 * (r - 0.5) for r in rates]})
    assert skill_sentence(table([0.9, 0.7], [0.8, 0.55])) == "skill matters: +30 points per step"
    assert skill_sentence(table([0.55, 0.52], [0.45, 0.40])) == "no measurable effect of skill"
    assert skill_sentence(table([], [])) == "no measurable effect of skill"


def test_a_step_between_equal_bots_shows_no_effect():
    """The heuristic bot against itself in Night Shift as written (NS-5: bought cards
    never come back, so the deal decides and most games are draws): the stronger seat's
    wins are counted by its seat, not its name, and stay within the fair share."""
    table = skill_ladder("night_shift", 2, 12, ("heuristic", "heuristic"), seed=1)
    row = table.iloc[0]
    assert row["fair"] < 0.25 and row["low"] <= row["fair"] <= row["high"]
    assert table.attrs["sentence"] == "no measurable effect of skill"


def test_bad_ladders_are_refused_before_any_game():
    with pytest.raises(OptionError, match="two or more bots"):
        skill_ladder("lazy_sunday", 2, 5, ["heuristic"])
    with pytest.raises(OptionError, match="unknown bot"):
        skill_ladder("lazy_sunday", 2, 5, ["random", "heuristic", "genius"])
    with pytest.raises(OptionError, match="budget"):
        skill_ladder("lazy_sunday", 2, 5, ["random", "ismcts:lots"])
    with pytest.raises(OptionError, match="games"):
        skill_ladder("lazy_sunday", 2, 0, ["random", "heuristic"])


def test_playtest_skill_prints_the_ladder_and_the_sentence(capsys):
    """The set-up of the first test (heuristic against random with the reshuffle, seed 3,
    where the heuristic bot wins 90% or more): the command says skill matters, by as
    many points as the ladder it prints."""
    code = main(["skill", "night_shift", "--games", "12", "--seed", "3", "--ladder", "random,heuristic",
                 "--option", "reshuffle=true", "--no-progress", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Night Shift, 2 seats, 12 games per step, seed 3" in out and "heuristic vs random" in out
    row = next(line.split() for line in out.splitlines() if line.startswith("heuristic vs random"))
    points = float(row[-1])
    assert points >= 40 and out.rstrip().endswith(f"skill matters: +{points:.0f} points per step")
    assert main(["skill", "night_shift", "--ladder", "random,wizard", "--no-progress"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
