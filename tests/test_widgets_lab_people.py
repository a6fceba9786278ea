"""The balance lab's People's games tab driven from Python: a real TableService's export
(JSON and CSV) uploaded through the kit's upload component shows the report
``playtest tables-report`` prints; a bad file is refused in one sentence and changes
nothing; the button beside it plays bot games and shows bots beside people."""
from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

from browser_support import run_coroutine
from test_lab_tables import build_session
from widget_support import fresh_widgets  # noqa: F401 (autouse fixture)

from playtest.engine import OptionError
from playtest.engine.limits import MAX_BYTES
from playtest.lab import compare_people_and_bots, metrics, read_tables
from playtest.widgets.lab import BalanceLab


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """A real TableService's export as the lobby's Results downloads it: three finished
    3-seat Lazy Sunday tables (with feedback), one ended early, one Night Shift table."""
    service, ids = run_coroutine(build_session(tmp_path_factory.mktemp("tables") / "data"))
    files = {"json": json.dumps({"tables": service.export()}).encode(), "csv": service.export_csv().encode()}
    yield service, ids, files
    service.close()


def upload(lab: BalanceLab, name: str, content: bytes) -> None:
    """A file picked in the browser reaches the kernel (the upload component's message)."""
    lab.people_upload._received(None, {"event": "file", "name": name, "size": len(content)}, [content])


def expected_rows(service) -> pd.DataFrame:
    """What read_tables makes of the service's 3-seat Lazy Sunday tables."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_tables(service, game="lazy_sunday", seats=3)


@pytest.mark.parametrize("kind", ["json", "csv"])
def test_an_export_shows_the_tables_report_with_people_beside_the_bots(exports, kind):
    service, ids, files = exports
    lab = BalanceLab("lazy_sunday", seats=3)
    assert lab.tabs.titles[-1] == "People's games" and lab.people_button.disabled
    upload(lab, f"tables.{kind}", files[kind])
    assert lab.banner.message == ""
    rows = lab.people_result["rows"]
    pd.testing.assert_frame_equal(rows, expected_rows(service))
    assert f"tables.{kind}: Lazy Sunday, 3 seats, 3 finished tables, 4 seats played by people." \
        in lab.people_status.value
    notes = lab.people_notes.value
    assert "1 table(s) of other games than Lazy Sunday left out." in notes           # as the CLI says it
    assert "1 table(s) ended before the game was over left out." in notes and "include_unfinished" not in notes
    shown = lab.people_tables["metrics"].value
    assert "<table" in shown and "AdvantageP1" in shown and "DurationTurns" in shown
    assert f"{metrics(rows).at['DurationTurns', 'value']:.3f}" in shown
    assert "Note: only 3 games: too few to say anything; play more." in shown
    seats = lab.people_tables["seats"].value
    assert "Win rate per seat" in seats and "<th>seat</th>" in seats and "<th>2</th>" in seats
    assert lab.people_result["seats"]["games"].tolist() == [3, 3, 3]
    by_player = lab.people_tables["bots"].value
    assert "<th>human</th>" in by_player and "<th>heuristic</th>" in by_player and "<th>random</th>" in by_player
    assert lab.people_result["bots"].at["human", "games"] == 4
    feedback = lab.people_tables["feedback"].value
    assert "4 answers, mean rating 3.7 of 5 (3 rated)" in feedback
    assert f"when to slap <i>(table {ids['ls0']}, seat 1 (Ana))</i>" in feedback      # who said it, by name
    assert rows["think_human_s"].notna().all() and rows["think_bot_s"].notna().sum() == 3   # ls1 has one bot too
    time_table = lab.people_tables["time"].value
    assert "Think time per decision" in time_table
    assert f"<td>people</td><td>{rows['think_human_s'].median():.1f} s</td><td>3</td>" in time_table
    assert f"Game length: median {rows['moves'].median():.0f} moves" in time_table
    assert not lab.people_button.disabled
    assert lab.result is None and lab.tables["metrics"].value == ""      # the Runs tab is untouched


def test_other_seat_counts_are_said_and_picking_the_seats_reads_them(exports):
    _service, _ids, files = exports
    lab = BalanceLab("lazy_sunday", seats=2)
    upload(lab, "tables.json", files["json"])
    assert "no finished table of Lazy Sunday with 2 seats: nothing to measure" in lab.people_status.value
    assert "4 table(s) of other seat counts than 2 left out." in lab.people_notes.value
    assert "Set Game and Seats on the Runs tab" in lab.people_notes.value
    assert lab.people_tables["metrics"].value == "" and lab.people_button.disabled
    lab.seats.value = 3                                         # the same export, read again
    assert "3 finished tables" in lab.people_status.value and "AdvantageP1" in lab.people_tables["metrics"].value
    lab.game.value = "night_shift"
    assert lab.seats.value == 2 and "1 finished table," in lab.people_status.value
    assert lab.people_result["rows"].attrs["game"] == "night_shift" and lab.banner.message == ""


def corrupt_move(files) -> bytes:
    """The JSON export with one move of a finished Lazy Sunday table made illegal."""
    data = json.loads(files["json"])
    table = next(t for t in data["tables"] if t["game"] == "lazy_sunday" and t["status"] == "over")
    table["record"]["moves"][2] = "0 fly to the moon"
    return json.dumps(data).encode()


@pytest.mark.parametrize("name, content, said", [
    ("bad.json", b"{not json", "the tables export 'bad.json' is not valid JSON"),
    ("deep.json", b"[" * 100_000, "nested too deeply"),
    ("empty.csv", b"  \n", "the tables export 'empty.csv' is empty"),
    ("other.csv", b"a,b\n1,2\n", "is not the export's CSV: no table, players, record column"),
    ("utf16.json", "{}".encode("utf-16"), "not a UTF-8 text file"),
    ("wrong.json", b'{"tables": 3}', "not a table export"),
    ("moved.json", None, "does not replay"),
])
def test_a_bad_file_is_refused_in_one_sentence_and_changes_nothing(exports, name, content, said):
    _service, _ids, files = exports
    lab = BalanceLab("lazy_sunday", seats=3)
    upload(lab, "tables.csv", files["csv"])
    before = dict(lab.people_result), {k: t.value for k, t in lab.people_tables.items()}, lab.people_status.value
    upload(lab, name, content if content is not None else corrupt_move(files))
    assert said in lab.banner.message, lab.banner.message
    assert "\n" not in lab.banner.message and f"{name} was not loaded" in lab.banner.text.value
    # beside the button too, above the last export's report, which stays
    assert lab.people_upload.message.startswith(f"{name} was not loaded: ") and said in lab.people_upload.message
    assert (lab.people_result, {k: t.value for k, t in lab.people_tables.items()}, lab.people_status.value) == before
    assert lab.people_result["rows"] is before[0]["rows"]
    upload(lab, "tables.json", files["json"])                 # a good file after it: the banner goes
    assert lab.banner.message == "" and "tables.json: Lazy Sunday" in lab.people_status.value
    assert lab.people_upload.message == ""


def test_a_file_over_the_limit_is_refused_with_the_upload_components_message(exports):
    _service, _ids, files = exports
    lab = BalanceLab("lazy_sunday", seats=3)
    upload(lab, "tables.json", files["json"])
    shown = lab.people_tables["metrics"].value
    lab.people_upload._received(None, {"event": "too_large", "name": "huge.json", "size": 3 * MAX_BYTES}, [])
    message = lab.people_upload.message
    assert message.startswith("huge.json is 3.0 MiB: the dashboard reads table exports of at most 1 MiB")
    assert "playtest tables-report" in message and lab.people_upload.too_large.startswith("{name} is {size}")
    assert lab.people_tables["metrics"].value == shown and "tables.json" in lab.people_status.value
    upload(lab, "bad.json", b"{")
    assert "bad.json" in lab.banner.message
    upload(lab, "big.json", b" " * (MAX_BYTES + 1))        # sent all the same: the component refuses it too
    assert lab.people_upload.message.startswith("big.json is 1.0 MiB: the dashboard reads table exports")
    assert lab.banner.message == ""                          # the earlier file's error is not this one's
    lab.people_upload.value = ({"name": "big.json", "type": "", "size": MAX_BYTES + 1,
                                "content": memoryview(b" " * (MAX_BYTES + 1)), "last_modified": None},)
    assert "at most 1 MiB" in lab.banner.message and "big.json was not loaded" in lab.banner.text.value
    assert lab.people_tables["metrics"].value == shown and "tables.json" in lab.people_status.value


def test_bot_games_beside_the_people_show_bots_and_people_columns(exports):
    service, _ids, files = exports
    lab = BalanceLab("lazy_sunday", seats=3, games=20, seed=4)
    with pytest.raises(OptionError, match="load a tables export"):
        lab.run_people_beside_bots()
    lab.bots[2].value = "random"
    upload(lab, "tables.json", files["json"])
    lab.people_button.click()
    assert lab.wait(120) and lab.banner.message == "", lab.banner.message
    bots = lab.people_result["bot_rows"]
    assert len(bots) == 20 and bots.attrs["options"]["rounds"] == 2      # the tables' options, not the lab's
    assert bots.attrs["bots"] == ["heuristic", "heuristic", "random"] and bots.attrs["seed"] == 4
    table = lab.people_result["compare"]
    pd.testing.assert_frame_equal(table, compare_people_and_bots(expected_rows(service), bots))
    shown = lab.people_tables["compare"].value
    assert "<th>bots</th>" in shown and "<th>people</th>" in shown and "<th>people − bots</th>" in shown
    assert "<th>A</th>" not in shown and "<th>B</th>" not in shown
    assert "DurationTurns" in shown and "AdvantageP1" in shown and f"{table.at['DurationTurns', 'B']:.3f}" in shown
    assert "Bots (20 games) beside people (3 tables)" in shown
    status = lab.people_status.value
    assert "Played 20 games of bots" in status and "the tables&#x27; options" in status
    assert len(lab.people_plots.children) == 1
    assert not lab.people_button.disabled and not lab.people_upload.disabled and lab.people_cancel.disabled
    assert not lab.run_button.disabled and lab.result is None          # the Runs tab is given back, untouched
