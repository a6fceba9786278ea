"""The balance lab shows no results of another set-up: changing the game, the seat
count, a bot, the mode or an option clears them (they would be read as this one's)."""
from __future__ import annotations

from widget_support import fresh_widgets  # noqa: F401 (autouse fixture)

from playtest.widgets.lab import BalanceLab


def ran(lab: BalanceLab) -> BalanceLab:
    lab.run_button.click()
    assert lab.wait(120) and lab.result is not None, lab.banner.message
    assert lab.tables["metrics"].value and lab.status.value
    return lab


def cleared(lab: BalanceLab) -> bool:
    return lab.result is None and not lab.tables["metrics"].value and not lab.download.value


def test_results_of_another_game_or_set_up_are_cleared():
    lab = ran(BalanceLab("lazy_sunday", seats=2, games=4))
    lab.game.value = "night_shift"                      # another game
    assert cleared(lab)
    ran(lab)
    lab.bots[1].value = "random" if lab.bots[1].value != "random" else "heuristic"   # another bot
    assert cleared(lab)
    ran(lab)
    name = next(n for n, box in lab.variant_a.inputs.items() if n == "turn_limit")
    lab.variant_a.inputs[name].value = "30"              # another option
    assert cleared(lab)
    lab = ran(BalanceLab("chore_race", seats=2, games=4))
    lab.seats.value = 3                                  # another seat count
    assert cleared(lab)
    ran(lab)
    lab.games.value = "5"                                 # the number of games is no set-up: kept
    assert lab.result is not None
