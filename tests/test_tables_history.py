"""Live tables' time and history: move times in the record (replay ignores them), the
export's ISO times, hand-overs as rows, think times per seat, whole scores; the lobby's
past tables; the all-tables overview without tokens."""
from __future__ import annotations

import csv
import io
import json
import statistics
import time
import types

import pytest

from playtest.engine import Match
from playtest.tables import service as service_module, store as store_module
from playtest.tables.service import TableService, iso_time, think_times, whole_scores


class Clock:
    """A wall clock the test moves by hand (the store's and the service's ``time``)."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return time.monotonic()


@pytest.fixture
def clock(monkeypatch):
    clock = Clock(1_800_000_000.0)
    fake = types.SimpleNamespace(time=clock.time, monotonic=clock.monotonic)
    monkeypatch.setattr(store_module, "time", fake)
    monkeypatch.setattr(service_module, "time", fake)
    return clock


def play_people(table, clock, waits):
    """Each seat to act plays its first decision move after the next wait (seconds)."""
    for wait in waits:
        seat = next(s for s in table.humans if table.match.decision_moves(s))
        clock.now += wait
        assert table.submit(seat, str(table.match.decision_moves(seat)[0])).ok


def test_the_export_has_iso_times_move_times_hand_overs_and_think_times(tmp_path, clock):
    service = TableService(tmp_path)
    made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "human"], "seed": 3})
    table = service.tables[made["id"]]
    play_people(table, clock, [2, 4, 6])
    clock.now += 1
    table.set_player(1, "random")            # nobody's page is open: the host hands seat 1 to a bot
    clock.now += 1
    table.set_player(1, "human")             # and back
    play_people(table, clock, [10])
    table.end()
    [row] = service.export()
    assert row["created"] == "2027-01-15T08:00:00.000Z" == iso_time(1_800_000_000.0)
    record = row["record"]
    assert record["times"][0] == "2027-01-15T08:00:02.000Z" and len(record["times"]) == len(record["moves"]) == 4
    assert Match.from_record(record).record().moves == record["moves"]       # the times change no replay
    assert service.record(made["id"])["times"] == record["times"]
    assert [(h["seat"], h["player"], h["after"]) for h in row["holders"]] == [
        (0, "human", 0), (1, "human", 0), (1, "random", 3), (1, "human", 3)]
    assert row["holders"][2]["time"] == "2027-01-15T08:00:13.000Z"
    seats = [m.seat for m in table.match.moves]
    by_seat = {r["seat"]: r for r in row["think"]}
    assert all(r["player"] == "human" for r in row["think"]) and set(by_seat) == set(seats)
    for seat in set(seats):
        mine = [w for w, s in zip([2, 4, 6, 12], seats) if s == seat]     # 12: the 10 s after the hand-overs
        assert by_seat[seat]["decisions"] == len(mine)
        assert by_seat[seat]["median_s"] == pytest.approx(statistics.median(mine))
    [line] = list(csv.DictReader(io.StringIO(service.export_csv())))
    assert line["created"] == row["created"] and json.loads(line["holders"]) == row["holders"]
    assert json.loads(line["think"]) == row["think"]


def test_think_times_median_and_p90_per_seat_people_apart_from_bots():
    start = 100.0
    moves = [(0, False, 100.0),        # stored at the start (a scenario's): not a decision
             (0, False, 101.0), (1, True, 103.0), (0, False, 107.0), (1, True, 108.0), (0, False, 118.0)]
    rows = think_times(moves, start)
    assert rows == [{"seat": 0, "player": "human", "decisions": 3, "median_s": 4.0, "p90_s": 8.8},
                    {"seat": 1, "player": "bot", "decisions": 2, "median_s": 1.5, "p90_s": 1.9}]
    assert think_times([], start) == []


def test_whole_scores_read_as_whole_numbers():
    scores = whole_scores([10.0, 3.0, 2.5, 7])
    assert scores == [10, 3, 2.5, 7] and [type(s) for s in scores] == [int, int, float, int]
    assert json.dumps(whole_scores([10.0, 3.0])) == "[10, 3]"



def test_the_lobby_list_tells_past_tables_date_result_and_feedback_count(tmp_path):
    service = TableService(tmp_path)
    made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "human"], "seed": 3,
                           "options": {"max_turns": 3}})
    table = service.tables[made["id"]]
    assert service.listing()[0]["date"].endswith("Z") and "winners" not in service.listing()[0]
    while table.status == "playing":
        seat = next(s for s in table.humans if table.match.decision_moves(s))
        assert table.submit(seat, str(table.match.decision_moves(seat)[0])).ok
    service.feedback(made["id"], 1, {"rating": 3})
    [row] = service.listing("over,ended")
    outcome = table.match.outcome()
    assert row["winners"] == list(outcome.winners) and row["scores"] == whole_scores(outcome.scores)
    assert row["feedback"] == 1 and row["status"] == "over" and service.listing() == []
    service.close()


def test_the_overview_lists_tables_in_progress_with_spectator_links_and_no_other_token(tmp_path, clock):
    service = TableService(tmp_path)
    made = [service.create({"game": "night_shift", "seats": 2, "players": ["human", "random"], "seed": 3}),
            service.create({"game": "lazy_sunday", "seats": 3, "players": ["human", "human", "heuristic"]})]
    done = service.create({"game": "night_shift", "seats": 2, "players": ["human", "human"]})
    service.tables[done["id"]].end()
    clock.now += 65
    rows = service.overview()
    assert [r["id"] for r in rows] == [m["id"] for m in made]          # tables in progress only
    first = rows[0]
    assert first["to_act"] == list(service.tables[made[0]["id"]].match.to_act()) and first["idle_s"] == 65
    assert first["players"] == ["human", "random"] and first["connected"] == [] and first["cards"] == ""
    text = json.dumps(rows)
    for m in made:
        for token in [m["host_token"], m["spectator_token"]] + [s["token"] for s in m["seats"] if s.get("token")]:
            assert token not in text
    for row in rows:           # the link opens the spectator view, and nothing more
        token = row["watch_path"].split("token=")[1]
        table, role, seat = service.authenticate(row["id"], token)
        assert role == "spectator" and seat is None and table.id == row["id"]
    other = rows[1]["watch_path"].split("token=")[1]
    with pytest.raises(service_module.ServiceError):
        service.authenticate(rows[0]["id"], other)                    # each table's own
    service.close()
    again = TableService(tmp_path)                                     # the same links after a restart
    assert [r["watch_path"] for r in again.overview()] == [r["watch_path"] for r in rows]
    again.close()
