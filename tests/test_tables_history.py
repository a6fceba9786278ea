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

