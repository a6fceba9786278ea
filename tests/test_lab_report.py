"""The design health report: Night Shift as written flagged with its three problems, the
first-seat check on Chore Race's measured edge, a flat skill gradient, the text, Markdown
and HTML outputs, and `playtest report`."""
import importlib.util

import pandas as pd
import pytest

from playtest.cli import main
from playtest.engine import RandomBot
from playtest.lab.report import THRESHOLDS, _check_first_seat, health_report
from playtest.lab.stats import metrics

HAS_SKILL = importlib.util.find_spec("playtest.lab.skill") is not None   # the skill ladder, another engineer's


@pytest.fixture(scope="module")
def night_shift():
    return health_report("night_shift", games=120, explore_games=100, skill_games=30, workers=1, progress=False)


def test_night_shift_as_written_is_flagged_with_its_three_problems(night_shift):
    by_check = {}
    for finding in night_shift.findings:
        by_check.setdefault(finding.check, []).append(finding)
    # 1. most games are draws
    draws = by_check["draws"][0]
    assert night_shift.metrics.at["Drawishness", "value"] > 0.8 and "Drawishness" in draws.evidence
    # 2. bought Supply cards are never played: without the NS-5 reshuffle a bought card is never drawn
    dead = by_check["bought_never_played"][0]
    assert "Trade Off" in dead.title and "played 0 times" in dead.evidence
    assert night_shift.explored["seat0_bought:Trade Off"].sum() > 0
    # 3. no one can lose: no game ends at 0 Patience, and no seat's Patience ever gets there
    assert any("0 Patience" in f.title for f in by_check["ending"])
    patience = by_check["resource"][0]
    assert "Patience never reaches 0" in patience.title and "the least patience any seat held was" in patience.evidence
    assert night_shift.findings[0].check == "draws"           # the most serious first


def test_every_check_says_what_it_found(night_shift):
    names = [name for name, _ in night_shift.checks]
    assert names == ["draws", "unfinished", "first seat", "cards", "endings", "resources", "stalls", "skill gradient"]
    verdicts = dict(night_shift.checks)
    assert verdicts["unfinished"].startswith("ok") and verdicts["draws"].startswith("flagged")
    if HAS_SKILL:
        assert verdicts["skill gradient"].startswith(("ok", "flagged"))
        assert night_shift.skill is not None and list(night_shift.skill.index) == ["heuristic vs random"]
    else:   # the finding is left out, and the report says so
        assert verdicts["skill gradient"] == "not run: the skill ladder (playtest.lab.skill) is not installed"


def test_the_report_as_text_markdown_and_html(night_shift, tmp_path):
    text = night_shift.text()
    assert text.startswith("Design health report: Night Shift, 2 seats")
    assert all(f.title in text and f.evidence in text for f in night_shift.findings)
    path = night_shift.save_markdown(tmp_path / "health.md")
    markdown = path.read_text()
    assert "## Findings" in markdown and "| draws | flagged" in markdown
    plots = sorted(p.name for p in (tmp_path / "health_plots").iterdir())
    assert {"score_curves.png", "win_rates.png", "places.png"} <= set(plots)
    assert all(f"health_plots/{name}" in markdown for name in plots)
    page = night_shift.save_html(tmp_path / "health.html").read_text()
    assert page.count("data:image/png;base64,") == len(plots) and "Patience never reaches 0" in page


def test_first_seat_check_flags_chore_races_measured_edge():
    # Chore Race, 2 seats: the first seat won 2,223 of 4,000 games (0.556), no draws
    n, wins = 4000, 2223
    df = pd.DataFrame({"first_seat": 0, "finished": True, "draw": False, "turns": 30, "moves": 60,
                       "lead_changes": 2, "margin": 3.0, "winners": [(0,)] * wins + [(1,)] * (n - wins),
                       "seat0_won": [True] * wins + [False] * (n - wins),
                       "seat1_won": [False] * wins + [True] * (n - wins)})
    df.attrs["seats"] = 2
    found, checks = [], []
    _check_first_seat(metrics(df), lambda rank, finding: found.append(finding), checks)
    assert found[0].check == "first_seat" and "advantage" in found[0].title
    assert "AdvantageP1 0.556 [0.540, 0.571]" in found[0].evidence
    fair = df.assign(winners=[(0,)] * 2000 + [(1,)] * 2000, seat0_won=[True] * 2000 + [False] * 2000)
    found.clear()
    _check_first_seat(metrics(fair), lambda rank, finding: found.append(finding), checks)
    assert not found and checks[-1][1].startswith("ok")


class AnotherRandom(RandomBot):
    """A random bot by another name: no better than the one below it on the ladder."""

    name = "another random"


@pytest.mark.skipif(not HAS_SKILL, reason="the skill ladder (playtest/lab/skill.py) is not in this checkout")
def test_a_flat_skill_gradient_is_a_finding():
    report = health_report("lazy_sunday", 2, "random", games=20, explore_games=0, skill=["random", AnotherRandom],
                           skill_games=60, workers=1, progress=False)
    flat = [f for f in report.findings if f.check == "skill"]
    assert flat and "AnotherRandom" in flat[0].evidence and "vs fair share 50.0% (every game had a winner, split over 2 seats)" in flat[0].evidence
    assert "explore" not in report.headline() and report.explored is None


def test_checks_a_game_cannot_have_say_why_and_bad_thresholds_are_refused():
    report = health_report("lazy_sunday", 2, "random", games=12, explore_games=0, skill=False, workers=1,
                           progress=False, thresholds={"draws": 0.5})
    verdicts = dict(report.checks)
    assert verdicts["resources"].startswith("not run") and verdicts["skill gradient"] == "not run (skill=False)"
    with pytest.raises(Exception, match="unknown threshold 'fun'"):
        health_report("lazy_sunday", 2, games=2, thresholds={"fun": 1})
    assert set(THRESHOLDS) == {"draws", "unfinished", "stall_turns", "stall_share"}


def test_playtest_report_prints_the_findings_and_writes_its_files(tmp_path, capsys):
    html, md = tmp_path / "r.html", tmp_path / "r.md"
    assert main(["report", "night_shift", "-n", "40", "--explore-games", "40", "--skill-games", "0", "--workers",
                 "1", "--html", str(html), "--markdown", str(md), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Draws:" in out and "Cards bought but never played" in out and "Checks:" in out
    assert html.exists() and md.exists() and (tmp_path / "r_plots").is_dir()
    assert main(["report", "night_shift", "--html", "/no/such/folder/r.html", "--no-progress"]) == 2
    assert "does not exist" in capsys.readouterr().err
