"""A past table rests: a table that is over or ended, with no page for PAST_REST seconds,
drops its match from memory and wakes, replayed from the store, when used; what the lobby
lists of it, its record and the export are the same either way (issue 25: a server's
memory does not grow with its past tables)."""
from __future__ import annotations

import gc
import weakref

from playtest.tables import live as live_module
from playtest.tables.service import TableService


def finished_table(service: TableService, seed: int = 4):
    """A Night Shift table of two people played to its end through the table."""
    made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "human"], "seed": seed})
    table = service.tables[made["id"]]
    table_moves = []
    while table.status == "playing":
        seat = next(s for s in table.humans if table.match.decision_moves(s))
        move = str(table.match.decision_moves(seat)[len(table_moves) % len(table.match.decision_moves(seat))])
        assert table.submit(seat, move).ok
        table_moves.append(move)
    return made, table


def test_a_finished_table_rests_and_wakes_with_the_same_record_listing_and_export(tmp_path):
    service = TableService(tmp_path)
    made, table = finished_table(service)
    listed, record, [row] = service.listing("over"), service.record(made["id"]), service.export()
    assert table.status == "over" and not table.resting
    assert table.rest() is False                  # the last page left (none joined) less than PAST_REST ago
    kept = weakref.ref(table.match)
    assert table.rest(idle=0) is True and table.resting
    gc.collect()
    assert kept() is None                         # the match is out of memory
    assert service.listing("over") == listed and table.resting        # listing does not wake it
    assert service.export() == [row] and table.resting                 # the export wakes it, then it rests again
    assert service.record(made["id"]) == record and not table.resting  # the record wakes it
    assert table.match.record().model_dump()["moves"] == record["moves"]


def test_a_table_being_played_or_watched_never_rests(tmp_path, monkeypatch):
    service = TableService(tmp_path)
    made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "human"], "seed": 5})
    playing = service.tables[made["id"]]
    assert playing.rest(idle=0) is False and not playing.resting
    _made, over = finished_table(service, seed=6)
    over.pages.append(object())                   # a page is still connected
    assert over.rest(idle=0) is False
    over.pages.clear()
    monkeypatch.setattr(live_module, "PAST_REST", 0.0)
    assert service.rest_past() == 1 and over.resting and not playing.resting


def test_past_tables_rest_from_a_restart_and_wake_when_joined(tmp_path):
    first = TableService(tmp_path)
    made, table = finished_table(first, seed=7)
    record = first.record(made["id"])
    first.close()
    again = TableService(tmp_path)
    restored = again.tables[made["id"]]
    assert restored.resting and again.listing("over")[0]["moves"] == len(record["moves"])
    assert restored.state_for(None)["outcome"]["finished"] is True and not restored.resting
    assert again.record(made["id"])["moves"] == record["moves"]


def test_a_table_started_from_a_scenario_wakes_to_the_same_position(tmp_path):
    service = TableService(tmp_path)
    made = service.create({"scenario": "chore_race_reaction_window", "players": ["human"] * 2})
    table = service.tables[made["id"]]
    before = table.match.fingerprint()
    table.end()
    assert table.rest(idle=0) and table.resting
    assert table.match.fingerprint() == before and not table.resting
