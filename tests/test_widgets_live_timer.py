"""The turn timer on the pages (issue 24, item 5): every page's countdown drawn from the
server's deadline, the host's Set and Off, the lobby's box, and the debugger's line saying
who played a live table's record and which moves timed out."""
from __future__ import annotations

import asyncio

import pytest
from widget_support import fresh_widgets  # noqa: F401  (autouse: every test starts with no widget)

from playtest.engine import Match, OptionError, Record
from playtest.widgets.debugger import ScenarioDebugger, record_people
from playtest.widgets.live import LobbyApp
from test_widgets_live import api_for, data, live_table, make_table, run, seat_page, serve, until  # noqa: F401


def test_every_page_counts_the_deciding_persons_time_down_and_the_host_sets_or_stops_it(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, game="night_shift", seats=2, players=["human", "heuristic"],
                                options={"first_player": 0}, seed=4, turn_limit=20)
        table = live_table(made)
        table.set_name(0, "Ana")
        pages = seat, spectator, host = [await seat_page(api, made, token) for token in
                                         (made["seats"][0]["token"], made["spectator_token"], made["host_token"])]
        await until(lambda: all(p.links[0].state["turn_deadlines"] for p in pages), what="the deadline")
        deadline = table.deadlines[0]
        for page in pages:
            assert page.links[0].state["turn_deadlines"] == [{"seat": 0, "deadline": round(deadline, 3)}]
            page.turn_clock.clock = lambda: deadline - 20
            page.refresh()
        assert "<b>20 s</b> left to decide: when your time runs out, the table plays for you." in \
            seat.turn_clock.widget.value and "pt-mine" in seat.turn_clock.widget._dom_classes
        for page in (spectator, host):
            assert page.turn_clock.widget.value == "Turn timer: Seat 1 (Ana) <b>20 s</b>"
            assert "pt-mine" not in page.turn_clock.widget._dom_classes
        loop = asyncio.get_running_loop()
        seat.turn_clock.clock = lambda: deadline - 12.3
        seat.refresh()
        assert "<b>13 s</b> left" in seat.turn_clock.widget.value
        assert seat.turn_clock._timer.when() - loop.time() == pytest.approx(0.3, abs=0.05)   # the next second
        controls = host.host
        assert controls.turn_note.value == "now 20 s per decision"
        controls.turn.value = "soon"
        controls.set_turn.click()
        assert "type the turn timer's seconds per decision, 5 to 3600" in host.banner.message
        controls.turn.value = "4"
        controls.set_turn.click()
        await until(lambda: "from 5 to 3600" in host.banner.message, what="the service's refusal")
        assert table.turn_limit == 20
        controls.turn.value = "45"
        controls.set_turn.click()
        await until(lambda: table.turn_limit == 45 and controls.turn_note.value == "now 45 s per decision",
                    what="the new timer")
        controls.turn_off.click()
        await until(lambda: all(p.turn_clock.widget.layout.display == "none" for p in pages), what="the timer off")
        assert table.turn_limit is None and controls.turn_note.value == "now off" and controls.turn_off.disabled
        for page in pages:
            page.close()
        server.stop()
    run(scenario)


def test_the_lobby_sends_the_turn_timer_and_says_at_once_what_is_not_allowed(data):
    async def scenario():
        server, port = serve()
        lobby = LobbyApp(api=api_for(port), refresh_every=0)
        panel = lobby.panel
        assert lobby.spec(*panel.config())["turn_limit"] is None          # off by default
        lobby.turn.value = "90"
        assert lobby.spec(*panel.config())["turn_limit"] == 90 and "pt-warn" not in lobby.turn_help.value
        lobby.turn.value = "2"
        assert "a turn timer is a number of seconds per decision from 5 to 3600" in lobby.turn_help.value
        with pytest.raises(OptionError, match="from 5 to 3600"):
            lobby.spec(*panel.config())
        lobby.turn.value = "30"
        panel.start.click()
        await until(lambda: lobby.made is not None, what="the table")
        assert live_table(lobby.made).turn_limit == 30
        server.stop()
    run(scenario)


def test_a_live_tables_record_says_who_played_and_what_timed_out_in_the_debugger():
    match = Match("night_shift", 2, {"first_player": 0}, seed=4)
    for _ in range(3):
        match.play(match.decision_moves(match.to_act()[0])[0])
    record = {**match.record().model_dump(), "timed_out": [1, 3],
              "holders": [{"seat": 0, "player": "human", "name": "Ana", "after": 0},
                          {"seat": 1, "player": "heuristic", "after": 0},
                          {"seat": 0, "player": "random", "after": 2}]}
    said = ("Players: seat 1 Ana, the random bot from move 3; seat 2 the heuristic bot. The table played moves 1 "
            "and 3 for a person whose time ran out.")
    assert record_people(Record.model_validate(record)) == said
    assert record_people(match.record()) == ""              # a saved game: nothing to say
    debugger = ScenarioDebugger()
    debugger.load_record(Record.model_validate(record).model_dump_json(), "table.json")
    assert said in debugger.about.value and len(debugger.match.moves) == 3
