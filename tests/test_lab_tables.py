"""playtest.lab.read_tables: live tables' games (people and paced bots at a real
TableService) read back from the export, JSON and CSV, as balance-lab rows beside bot
games; bad exports refused with the table named."""
from __future__ import annotations

import asyncio
import json
import math
import random

import pandas as pd
import pytest

from browser_support import run_coroutine
from playtest import Match, RecordError, simulate
from playtest.lab import (compare_people_and_bots, metrics, plot_card_impact, plot_compare, plot_lengths,
                          plot_win_rates, read_tables, seat_win_rates)
from playtest.lab.stats import WELCH
from playtest.tables.service import TableService

LS_PLAYERS = [["human", "heuristic", "random"], ["human", "human", "heuristic"], ["human", "random", "random"]]


async def play_to_the_end(table, seed: int) -> None:
    """People choose among their decision moves (a seeded pick); the bots play on their
    own clock (pace "instant") exactly as at a real table."""
    pick = random.Random(seed)
    table.touch()                           # a seat is here: bots may move
    end = asyncio.get_running_loop().time() + 120
    while asyncio.get_running_loop().time() < end:
        if table.status != "playing":
            return
        if table.hold() is not None:
            table.press_continue(None)      # the host deals the next round
        for seat in table.humans:
            moves = table.match.decision_moves(seat)
            if moves:
                assert table.submit(seat, str(pick.choice(moves)), None, len(table.match.moves)).ok
                await asyncio.sleep(0)      # the bots' timers fire
                break
        else:
            await asyncio.sleep(0.002)      # a bot decides, in a worker process
    raise AssertionError(f"table {table.id} did not finish: {table.match.to_act()}")


async def build_session(folder) -> tuple[TableService, dict]:
    service = TableService(folder)
    ids = {}
    for n, players in enumerate(LS_PLAYERS):
        made = service.create({"game": "lazy_sunday", "seats": 3, "players": players, "pace": "instant",
                               "seed": 20 + n, "options": {"rounds": 2}})
        ids[f"ls{n}"] = made["id"]
        await play_to_the_end(service.tables[made["id"]], n)
    made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "random"], "pace": "instant",
                           "seed": 5})
    ids["ns"] = made["id"]
    await play_to_the_end(service.tables[made["id"]], 9)
    # a table the host ended after four moves: the game never finished
    made = service.create({"game": "lazy_sunday", "seats": 3, "players": ["human", "human", "human"],
                           "pace": "instant", "seed": 7})
    ids["ended"] = made["id"]
    table = service.tables[made["id"]]
    for _ in range(4):
        seat = table.match.to_act()[0]
        assert table.submit(seat, str(table.match.decision_moves(seat)[0])).ok
    table.end()
    service.tables[ids["ls0"]].set_name(0, "Ana")          # the person at seat 1 gave a name
    service.feedback(ids["ls0"], 0, {"rating": 4, "confused": "when to slap", "notes": ""})
    service.feedback(ids["ls1"], 0, {"rating": 2, "confused": "", "notes": "too short"})
    service.feedback(ids["ls1"], 1, {"rating": 5, "confused": "", "notes": ""})
    service.feedback(ids["ls2"], 0, {"confused": "nothing", "notes": "no rating given"})
    return service, ids


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """A real TableService with five finished or ended tables, and its export written as
    the server sends it (JSON object), as a list, and as CSV."""
    folder = tmp_path_factory.mktemp("tables")
    service, ids = run_coroutine(build_session(folder / "data"))
    export = service.export()
    files = {"object": folder / "export.json", "list": folder / "list.json", "csv": folder / "export.csv"}
    files["object"].write_text(json.dumps({"tables": export}), encoding="utf-8")
    files["list"].write_text(json.dumps(export), encoding="utf-8")
    files["csv"].write_text(service.export_csv(), encoding="utf-8", newline="")
    yield service, ids, export, files
    service.close()


def lazy_sunday_rows(source, **kwargs) -> pd.DataFrame:
    with pytest.warns(UserWarning) as caught:
        df = read_tables(source, game="lazy_sunday", **kwargs)
    said = [str(w.message) for w in caught]
    assert "1 table(s) of other games than Lazy Sunday left out" in said
    return df


def test_people_and_bots_at_live_tables_become_lab_rows(session):
    service, ids, export, files = session
    df = lazy_sunday_rows(service)
    by_id = {row["table"]: row for row in export}
    assert df["table"].tolist() == [ids["ls0"], ids["ls1"], ids["ls2"]]       # in the order they were created
    assert df["game"].tolist() == [0, 1, 2] and df.attrs["game"] == "lazy_sunday" and df.attrs["seats"] == 3
    assert df["humans"].tolist() == [1, 2, 1] and set(df["status"]) == {"over"}
    assert json.loads(df["names"].iloc[0]) == ["Ana", "", ""] and json.loads(df["names"].iloc[1]) == ["", "", ""]
    for n, (_, row) in enumerate(df.iterrows()):
        assert [row[f"seat{s}_bot"] for s in range(3)] == LS_PLAYERS[n]
        stated = by_id[row["table"]]                 # what the service measured on its live match
        assert row["finished"] and list(row["winners"]) == stated["winners"]
        assert [row[f"seat{s}_score"] for s in range(3)] == stated["scores"]
        assert row["turns"] == stated["turns"] and row["moves"] == stated["moves"]
        assert row["seed"] == stated["record"]["seed"] == 20 + n
        assert row["winner_bots"] == tuple(LS_PLAYERS[n][w] for w in row["winners"])
        assert json.loads(row["feedback"]) == stated["feedback"]
        assert row["first_seat"] == Match("lazy_sunday", 3, {"rounds": 2}, 20 + n).to_act()[0]
    assert df["rating_mean"].tolist()[:2] == [4.0, 3.5] and math.isnan(df["rating_mean"][2])   # no rating: NaN
    assert df.attrs["left_out"] == {"other_games": 1, "other_seats": 0, "unfinished": 1}
    assert all(any(service.tables[t].by_bot) for t in df["table"])       # the bots played on their clock


@pytest.mark.parametrize("kind", ["object", "list", "csv"])
def test_the_exported_files_read_back_to_the_same_rows(session, kind):
    service, _ids, _export, files = session
    expected = lazy_sunday_rows(service)
    got = lazy_sunday_rows(files[kind] if kind != "list" else str(files[kind]))
    pd.testing.assert_frame_equal(got, expected)
    assert got.attrs == expected.attrs


@pytest.mark.parametrize("game, seats, bots", [
    ("lazy_sunday", 3, ["heuristic", "random", "random"]),
    ("chore_race", 2, ["heuristic", "random"]),
    ("night_shift", 2, ["random", "random"]),
])
def test_a_record_reads_as_the_row_simulate_gave_its_game(game, seats, bots):
    sim = simulate(game, seats, bots, games=4, seed=3, workers=1, progress=False, keep_records=True)
    export = [{"table": f"t{i}", "created": 100 + i, "status": "over",
               "players": [row[f"seat{s}_bot"] for s in range(seats)], "record": json.loads(row["record"]),
               "feedback": []} for i, row in sim.iterrows()]
    df = read_tables(export)
    pd.testing.assert_frame_equal(df[[c for c in sim.columns if c != "record"]], sim.drop(columns="record"))
    assert df["humans"].tolist() == [0] * 4 and df["table"].tolist() == ["t0", "t1", "t2", "t3"]
    assert any(":" in c for c in df.columns) and df["lead_changes"].notna().all()   # the game's hooks were read


def test_a_table_ended_before_the_game_was_over_is_kept_only_when_asked(session):
    service, ids, export, _files = session
    df = lazy_sunday_rows(service, include_unfinished=True)
    assert df.attrs["left_out"]["unfinished"] == 0
    ended = df.set_index("table").loc[ids["ended"]]
    assert ended["status"] == "ended" and not ended["finished"] and ended["winners"] == ()
    assert ended["moves"] == 4 and ended["humans"] == 3 and math.isnan(ended["seat0_score"])
    assert metrics(df).loc["Completion", "value"] == pytest.approx(3 / 4)


def test_metrics_win_rates_and_plots_show_people_beside_bots(session):
    service, _ids, _export, _files = session
    df = lazy_sunday_rows(service)
    rates = seat_win_rates(df, by="bot")
    assert set(rates.index) == {"human", "heuristic", "random"}
    assert rates.at["human", "games"] == 4 and rates.at["heuristic", "games"] == 2
    human_wins = sum(bots.count("human") for bots in df["winner_bots"])
    assert rates.at["human", "wins"] == human_wins
    table = metrics(df)
    assert table.at["AdvantageP1", "n"] == 3 and table.at["DurationTurns", "value"] == pytest.approx(df["turns"].mean())
    labels = [t.get_text() for t in plot_win_rates(df, by="bot").axes[0].get_xticklabels()]
    assert "human" in labels
    assert len(plot_lengths(df).axes) == 2
    assert plot_card_impact(df).axes[0].get_title().startswith("Card impact: played (3 games")


def test_people_compared_with_bots_on_game_length_and_first_seat(session):
    service, _ids, _export, _files = session
    people = lazy_sunday_rows(service)
    bots = simulate("lazy_sunday", 3, "heuristic", games=30, options={"rounds": 2}, seed=1, workers=1, progress=False)
    table = compare_people_and_bots(people, bots)
    assert table.index.tolist() == ["DurationTurns", "AdvantageP1"]
    assert table.at["DurationTurns", "B"] == pytest.approx(people["turns"].mean())
    assert table.at["DurationTurns", "A"] == pytest.approx(bots["turns"].mean())
    assert (table.attrs["A"], table.attrs["B"]) == ("bots", "people at live tables")
    assert table.at["AdvantageP1", "difference"] == pytest.approx(
        metrics(people).at["AdvantageP1", "value"] - metrics(bots).at["AdvantageP1", "value"])
    assert table["interval"].tolist() == [WELCH, WELCH] and not table.attrs["paired"]   # never paired by seed
    assert (table["low"] <= table["difference"]).all() and (table["difference"] <= table["high"]).all()
    assert "A = bots   vs   B = people at live tables" in plot_compare(table)._suptitle.get_text()
    with pytest.raises(ValueError, match="seats"):
        compare_people_and_bots(people, simulate("lazy_sunday", 2, "random", games=2, workers=1, progress=False))


def test_the_seat_filter_and_a_replay_that_disagrees_with_the_export_are_said(session):
    _service, ids, export, _files = session
    with pytest.warns(UserWarning, match="4 table.s. of other seat counts than 2 left out"):
        df = read_tables(export, seats=2)
    assert df["table"].tolist() == [ids["ns"]] and df.attrs["game"] == "night_shift"
    changed = [dict(row) for row in export]
    changed[0]["winners"] = [s for s in range(3) if s not in export[0]["winners"]]
    with pytest.warns(UserWarning) as caught:
        read_tables(changed, game="lazy_sunday")
    assert any(str(w.message).startswith(f"table(s) {ids['ls0']} replay to another result") for w in caught)


def broken(export, n, **changes):
    rows = [dict(row) for row in export]
    rows[n] = {**rows[n], **changes}
    return rows


def test_a_record_that_does_not_replay_is_named_by_table_and_move(session):
    _service, ids, export, _files = session
    record = dict(export[0]["record"])
    record["moves"] = list(record["moves"])
    record["moves"][2] = "2 claim 0 0 0"
    with pytest.raises(RecordError, match=rf"table {ids['ls0']}: move 3 of \d+ \('2 claim 0 0 0'\) does not replay"):
        read_tables(broken(export, 0, record=record))
    with pytest.raises(RecordError, match=rf"table {ids['ls1']}: record cannot be set up: .*rounds"):
        read_tables(broken(export, 1, record={**export[1]["record"], "options": {"rounds": "two"}}))
    with pytest.raises(RecordError, match=rf"table {ids['ls1']}: not a playtest record"):
        read_tables(broken(export, 1, record={**export[1]["record"], "seed": "x"}))
    with pytest.raises(RecordError, match=rf"table {ids['ls0']}: players must list who sat at each of its 3 seats"):
        read_tables(broken(export, 0, players=["human", "random"]))
    with pytest.raises(RecordError, match=rf"table {ids['ls0']}: a feedback rating must be a number 1..5, not 'five'"):
        read_tables(broken(export, 0, feedback=[{"seat": 0, "rating": "five"}]))
    with pytest.raises(RecordError, match=rf"table {ids['ls0']}: no record"):
        read_tables(broken(export, 0, record=None))


@pytest.mark.parametrize("text, name, words", [
    ('{"tables": [', "export.json", "is not valid JSON"),
    ("", "export.json", "is empty"),
    ('{"games": []}', "export.json", "under 'tables'"),
    ("[1, 2]", "export.json", "entry 1 is int, not a table object"),
    ("[" * 100_000, "export.json", "nested too deeply"),
    ("a,b\n1,2\n", "export.csv", "not the export's CSV: no table, players, record column"),
    ('table,players,record\nab12,"[""human""]","{""game"": ""lazy"'"\n", "export.csv",
     "table ab12: the record column is not valid JSON"),
])
def test_a_corrupt_export_file_is_refused_in_one_sentence(tmp_path, text, name, words):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as error:
        read_tables(path)
    assert words in str(error.value) and isinstance(error.value, ValueError)


def test_a_csv_cell_over_the_input_limits_is_refused_before_it_is_parsed(tmp_path):
    from playtest.engine.limits import MAX_DEPTH, LimitError
    path = tmp_path / "export.csv"
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    path.write_text(f'table,players,record\nab12,"{deep}","{{}}"\n', encoding="utf-8")
    with pytest.raises(LimitError, match=f"table ab12: the players column.*at most {MAX_DEPTH} levels"):
        read_tables(path)


def test_a_missing_file_or_a_wrong_source_is_refused(tmp_path):
    with pytest.raises(RecordError, match="cannot read the tables export .*No such file"):
        read_tables(tmp_path / "nowhere.json")
    with pytest.raises(TypeError, match="not int"):
        read_tables(42)


def test_playtest_tables_report_prints_the_lab_report_of_an_export(session, capsys, tmp_path):
    from playtest.cli import main
    _service, _ids, _export, files = session
    assert main(["tables-report", str(files["csv"]), "--game", "lazy_sunday"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Lazy Sunday, 3 seats, 3 finished tables, 4 seats played by people")
    assert "AdvantageP1" in out and "Win rate per bot:" in out
    assert "Note: only 3 games: too few to say anything; play more." in out   # as the Python table's note
    per_bot = {line.split()[0]: line.split()[1:3] for line in out.split("Win rate per bot:")[1].splitlines()[3:]}
    rates = seat_win_rates(lazy_sunday_rows(files["csv"]), by="bot")
    assert per_bot == {bot: [str(rates.at[bot, "wins"]), str(rates.at[bot, "games"])] for bot in rates.index}
    assert "human" in per_bot                                       # people beside the bots
    assert "1 table(s) of other games than Lazy Sunday left out" in err
    assert main(["tables-report", str(files["object"])]) == 2
    assert "several games or seat counts; choose one with --game and --seats" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert main(["tables-report", str(tmp_path / "bad.json")]) == 2
    assert "is not valid JSON" in capsys.readouterr().err
