"""The optional turn timer of a live table (issue 24, item 5): a person's decision has a
deadline; when it runs out the table plays for them with the seat's fallback bot, says so
in the log, and the record marks the move. The host sets it, changes it or turns it off;
a pause holds it; a restart gives a full time again; bad values are refused."""
from __future__ import annotations

import asyncio
import re
import sqlite3
import time

import pytest

from browser_support import run_coroutine
from playtest.engine.counting import for_people
from playtest.engine import Match, RecordError
from playtest.scenarios import example
from playtest.tables import live
from playtest.tables.live import LiveTable, check_turn_limit
from playtest.tables.service import ServiceError, TableService
from playtest.tables.store import DB_NAME
from playtest.tables.thinking import Decision, decide, fallback_bot
from playtest.tables.web import host_action
from test_tables import FakePage

LIMIT = 0.4     # seconds: tables made here directly, under the service's least (TURN_LIMITS)


def night_shift(turn_limit=LIMIT, **kwargs):
    """Night Shift with seat 0 (a person) to act first and the heuristic bot at seat 1."""
    match = Match("night_shift", 2, {"first_player": 0}, seed=7)
    return LiveTable("t", match, ["human", "heuristic"], "instant", turn_limit=turn_limit, **kwargs)


async def until(check, seconds=5.0):
    for _ in range(int(seconds / 0.02)):
        if check():
            return True
        await asyncio.sleep(0.02)
    return False


def test_a_person_deciding_gets_a_deadline_by_the_servers_clock():
    async def scenario():
        table = night_shift(turn_limit=30)
        page = FakePage(0)
        before = time.time()
        table.attach(page)
        state = page.state
        table.cancel()
        return before, state

    before, state = run_coroutine(scenario())
    assert state["turn_limit"] == 30
    [entry] = state["turn_deadlines"]
    assert entry["seat"] == 0 and before + 29.9 <= entry["deadline"] <= time.time() + 30.01


def test_no_timer_by_default_and_none_for_a_bots_turn():
    async def scenario():
        table = night_shift(turn_limit=None)
        page = FakePage(0)
        table.attach(page)
        table.cancel()
        return page.state["turn_deadlines"], page.state["turn_limit"]

    assert run_coroutine(scenario()) == ([], None)
    match = Match("night_shift", 2, {"first_player": 1}, seed=7)          # the bot decides first
    assert LiveTable("t", match, ["human", "heuristic"], "instant", turn_limit=30).timed_seats() == []
    assert night_shift(turn_limit=30).timed_seats() == [0]


def test_time_running_out_plays_the_fallback_bots_move_says_so_and_marks_it():
    async def scenario():
        table = night_shift()
        table.names[0] = "Ana"
        expected = decide(Decision(type(table.match.game), 2, table.match.options_dict(),
                                   fallback_bot(table.match.game, "human"), table.match.side_seed("0:0:timed-out"),
                                   table.match.bot_view(0), table.match.decision_moves(0)))
        page, watcher = FakePage(0), FakePage(None, "spectator")
        table.attach(page)
        table.attach(watcher)
        assert await until(lambda: table.match.moves)
        table.cancel()
        return table, expected, page.state, watcher.state

    table, expected, seat_state, public = run_coroutine(scenario())
    first = table.match.moves[0]
    assert first == expected and first.seat == 0
    assert table.by_bot[0] is True and table.timed_out == {1}
    line = "Time ran out for seat 0 (Ana): the table made that move for them"   # the log counts from 0
    for state in (seat_state, public):            # every page's log says so
        assert [1, line] in state["log"]
    assert for_people(line).startswith("Time ran out for seat 1 (Ana)")             # as the pages show it
    assert public["last_move"]["timed_out"] is True and public["last_move"]["seat"] == 0


def test_a_reaction_window_keeps_its_own_rules():
    """Chore Race's reaction window (CR-7) is not timed by the turn timer."""
    async def scenario():
        match = example("chore_race_reaction_window").to_match(upto=4)
        table = LiveTable("t", match, ["human", "human"], "instant", turn_limit=LIMIT)
        page = FakePage(1)
        table.attach(page)
        await asyncio.sleep(LIMIT + 0.3)
        table.cancel()
        return table, page.state

    table, state = run_coroutine(scenario())
    assert state["turn_deadlines"] == [] and len(table.match.moves) == 4 and table.match.to_act() == (1,)


def test_a_pause_holds_the_timer_and_a_resume_gives_the_time_left():
    async def scenario():
        table = night_shift(turn_limit=1.0)
        page = FakePage(0)
        table.attach(page)
        await asyncio.sleep(0.4)
        table.set_paused(True)
        held = page.state["turn_deadlines"]
        await asyncio.sleep(1.2)                      # past the limit, while paused
        played_while_paused = len(table.match.moves)
        table.set_paused(False)
        deadline = page.state["turn_deadlines"][0]["deadline"] - time.time()
        assert await until(lambda: table.match.moves)
        table.cancel()
        return held, played_while_paused, deadline

    held, played, left = run_coroutine(scenario())
    assert held == [] and played == 0
    assert 0.3 < left < 0.7          # about 0.6 s left of 1.0, not a new full second


def test_the_host_changes_the_timer_or_turns_it_off_and_bad_values_change_nothing():
    changes = []

    async def scenario():
        table = night_shift(turn_limit=30, on_change=lambda t, **fields: changes.append(fields))
        page = FakePage(0)
        table.attach(page)
        host_action(table, {"action": "timer", "seconds": 10})
        ten = page.state["turn_deadlines"][0]["deadline"] - time.time()
        refusals = []
        for body in ({"action": "timer"}, {"action": "timer", "seconds": 4}, {"action": "timer", "seconds": 3601},
                     {"action": "timer", "seconds": "30"}, {"action": "timer", "seconds": True}):
            with pytest.raises(ServiceError) as refused:
                host_action(table, body)
            refusals.append(str(refused.value))
        kept = table.turn_limit, page.state["turn_limit"]
        host_action(table, {"action": "timer", "seconds": None})
        off = table.turn_limit, page.state["turn_deadlines"]
        table.cancel()
        return ten, refusals, kept, off

    ten, refusals, kept, off = run_coroutine(scenario())
    assert 9.5 < ten <= 10.01
    assert refusals[0].startswith('the body needs "seconds": a number from 5 to 3600')
    assert all("a turn timer is a number of seconds per decision from 5 to 3600" in r for r in refusals[1:])
    assert kept == (10, 10) and off == (None, [])
    assert changes == [{"turn_limit": 10.0}, {"turn_limit": None}]


@pytest.mark.parametrize("value", [0, 4.9, 3601, "30", True, [30], float("inf")])
def test_a_bad_turn_limit_is_refused_at_creation_and_nothing_is_made(tmp_path, value):
    service = TableService(tmp_path)
    try:
        with pytest.raises(ServiceError) as refused:
            service.create({"game": "night_shift", "seats": 2, "turn_limit": value})
        assert refused.value.status == 400
        assert str(refused.value).startswith("turn_limit: a turn timer is a number of seconds per decision from 5 "
                                             "to 3600, or off (blank in the lobby, null in the API); not ")
        assert service.tables == {}
    finally:
        service.close()


def test_check_turn_limit_keeps_the_range():
    assert check_turn_limit(None) is None and check_turn_limit(5) == 5.0 and check_turn_limit(3600) == 3600.0


def test_the_record_marks_timed_out_moves_and_names_and_a_restart_keeps_the_timer(tmp_path, monkeypatch):
    monkeypatch.setattr(live, "TURN_LIMITS", (0.1, 3600))
    service = TableService(tmp_path)
    made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "heuristic"],
                           "options": {"first_player": 0}, "pace": "instant", "turn_limit": LIMIT})
    table = service.tables[made["id"]]
    table.set_name(0, "Ana")

    async def scenario():
        table.attach(FakePage(0))
        assert await until(lambda: table.timed_out)
        table.set_paused(True)

    run_coroutine(scenario())
    played = [str(m) for m in table.match.moves]
    table.set_player(0, "random", force=True)         # a hand-over, kept in the record
    table.end()
    record = service.record(made["id"])
    service.close()
    timed_out = record["timed_out"]
    assert timed_out[0] == 1 and timed_out == sorted(table.timed_out) and record["moves"] == played
    assert all(table.match.moves[n - 1].seat == 0 for n in timed_out)
    assert record["holders"] == [{"seat": 0, "player": "human", "name": "Ana", "after": 0},
                                 {"seat": 1, "player": "heuristic", "name": "", "after": 0},
                                 {"seat": 0, "player": "random", "name": "", "after": len(played)}]
    assert Match.from_record(record).record().moves == record["moves"]
    plain = {k: v for k, v in record.items() if k not in ("timed_out", "holders", "times")}
    assert Match.from_record(plain).record().moves == record["moves"]       # records without them replay

    again = TableService(tmp_path)
    restored = again.tables[made["id"]]
    assert restored.turn_limit == LIMIT and restored.timed_out == set(timed_out)
    assert (1, "Time ran out for seat 0 (Ana): the table made that move for them") in \
        restored.match.log_for(None)
    [row] = again.export()
    assert row["timed_out"] == timed_out and row["record"]["timed_out"] == timed_out
    assert row["holders"][0]["name"] == "Ana"
    assert {(t["seat"], t["player"]) for t in row["think"]} >= {(0, "human")}
    again.close()


def test_a_restart_gives_the_deciding_person_a_full_time_again(tmp_path):
    service = TableService(tmp_path)
    made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "heuristic"],
                           "options": {"first_player": 0}, "pace": "instant", "turn_limit": 20})
    service.close()

    async def scenario():
        again = TableService(tmp_path)
        table = again.tables[made["id"]]
        page = FakePage(0)
        table.attach(page)
        state = page.state
        again.close()
        return state

    state = run_coroutine(scenario())
    assert state["turn_limit"] == 20
    assert 19.5 < state["turn_deadlines"][0]["deadline"] - time.time() <= 20.01


def test_a_store_written_before_turn_timers_restores_its_tables_without_one(tmp_path):
    service = TableService(tmp_path)
    made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "heuristic"],
                           "options": {"first_player": 0}})
    assert service.tables[made["id"]].submit(0, str(service.tables[made["id"]].match.decision_moves(0)[0])).ok
    service.close()
    db = sqlite3.connect(tmp_path / DB_NAME)          # as the kit wrote it before turn timers
    db.execute("ALTER TABLE tables DROP COLUMN turn_limit")
    db.execute("ALTER TABLE moves DROP COLUMN timed_out")
    db.commit()
    db.close()
    again = TableService(tmp_path)
    try:
        table = again.tables[made["id"]]
        assert again.damaged == {} and table.turn_limit is None and table.timed_out == set()
        assert len(table.match.moves) == 1
        table.set_turn_limit(30)                      # the new columns are there to keep it
    finally:
        again.close()
    assert TableService(tmp_path).tables[made["id"]].turn_limit == 30


@pytest.mark.parametrize("extra, words", [
    ({"timed_out": [2]}, "timed_out: [2] are not move numbers of this record (1 to 1)"),
    ({"holders": [{"seat": 2, "player": "human", "after": 0}]}, "holders: seat 2 after 0 moves is not a seat"),
    ({"holders": [{"seat": 0, "player": "human", "after": 5}]}, "a move count (0 to 1) of this record"),
    ({"holders": [{"seat": 0, "player": "human", "who": "x"}]}, "holders.0.who: Extra inputs are not permitted"),
])
def test_a_records_holders_and_timed_out_moves_are_checked(extra, words):
    match = Match("night_shift", 2, {"first_player": 0}, seed=7)
    match.play(match.decision_moves(0)[0])
    with pytest.raises(RecordError, match=re.escape(words)):
        Match.from_record({**match.record().model_dump(), **extra})
