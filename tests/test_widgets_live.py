"""The page side of live tables (playtest.widgets.live): seat pages, host controls and
the lobby, driven from Python against the real table service (playtest.tables.web) on a
real Tornado server on 127.0.0.1, all on one asyncio loop as in a kernel."""
from __future__ import annotations

import asyncio
import base64
import csv
import html
import io
import json
import os
import random
import re
import sys
import time
from pathlib import Path

import ipywidgets as w
import pytest
import tornado.web
from ipywidgets.widgets.widget import _instances
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
import toy_game  # noqa: F401  (registers the "toy" game, which has no board: the view as JSON)
from widget_support import fresh_widgets  # noqa: F401  (autouse: every test starts with no widget)

from browser_support import run_coroutine
from playtest import Match, Move
from playtest.engine import get_game
from playtest.engine.counting import for_people
from playtest.scenarios import example
from playtest.tables import pages, web
from playtest.tables.live import LiveTable
from playtest.tables.service import TableService
from playtest.widgets.components import BLANK, Card
from playtest.widgets.live import LobbyApp, SeatApp, TableApi, page_folder, parse_table_query, query_string
from playtest.widgets.live import client as live_client
from playtest.widgets.live import seat as live_seat

KEY = "server-key"


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A fresh table service over a data folder; the server key in the environment."""
    monkeypatch.setattr(web, "_service", TableService(tmp_path))
    monkeypatch.setenv(web.KEY_VARIABLE, KEY)
    monkeypatch.setattr(live_client, "RETRY_DELAYS", (0.05, 0.1, 0.2))
    yield tmp_path
    web.shutdown()


def serve(port: int = 0) -> tuple[HTTPServer, int]:
    """The table handlers on 127.0.0.1 (``port`` 0: a free one)."""
    sockets = bind_sockets(port, "127.0.0.1")
    server = HTTPServer(tornado.web.Application(web.table_handlers("/")))
    server.add_sockets(sockets)
    return server, sockets[0].getsockname()[1]


def api_for(port: int) -> TableApi:
    return TableApi(f"http://127.0.0.1:{port}/playtest/api", KEY)


async def until(condition, timeout: float = 15.0, what: str = "") -> None:
    """Let the loop run until ``condition()`` holds (fails after ``timeout`` s: a state round trip
    took over 5 s once, in the full suite beside the browser tests)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await asyncio.sleep(0.01)


def run(scenario):
    """Run a test's coroutine on a fresh loop (the kernel's loop, in a page)."""
    run_coroutine(asyncio.wait_for(scenario(), 60))


async def make_table(api: TableApi, **spec) -> dict:
    spec = {"game": "lazy_sunday", "seats": 2, "players": ["human", "human"], "options": {"rounds": 2},
            "seed": 3, "pace": "instant", **spec}
    return await api.call("POST", "tables", spec, key=True)


def seat_token(made: dict, seat: int) -> str:
    return made["seats"][seat]["token"]


async def seat_page(api: TableApi, made: dict, *tokens: str) -> SeatApp:
    app = SeatApp(made["id"], list(tokens), api=api)
    await until(lambda: app.links and all(link.state is not None for link in app.links), what="the first states")
    return app


def kind_button(builder, label: str) -> w.Button:
    labels = [b.description for b in builder.kind_box.children]
    assert label in labels, f"{label!r} not on offer: {labels}"
    return next(b for b in builder.kind_box.children if b.description == label)


def state_text(*widgets) -> str:
    """Every synced value of the given widgets and all their descendants, as one text:
    what a browser holding these models could read."""
    seen, stack, out = set(), list(widgets), []
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        out.append(json.dumps(widget.get_state(), default=str))
        stack.extend(getattr(widget, "children", ()))
    return "\n".join(out)


def cards_in(widget) -> list[Card]:
    """Every card widget in a widget tree."""
    found, stack = [], [widget]
    while stack:
        widget = stack.pop()
        if isinstance(widget, Card):
            found.append(widget)
        stack.extend(getattr(widget, "children", ()))
    return found


def view_json(view) -> str:
    return json.dumps(view, sort_keys=True)


def live_table(made: dict):
    return web.service().tables[made["id"]]


def drive(table, stop, prefer=("notme", "done", "draw", "discard")) -> None:
    """Play the table's human decisions on the server (as other pages would) until
    ``stop()``: NOT ME! as soon as it may, else the first preferred kind."""
    for _ in range(300):
        if stop():
            return
        seat = table.match.to_act()[0]
        moves = table.match.decision_moves(seat)
        move = next((m for kind in prefer for m in moves if m.kind == kind), moves[0])
        assert table.submit(seat, str(move)).ok
    raise AssertionError("the game did not get there")


# --- the seat page ---------------------------------------------------------------------
def test_a_seat_page_shows_only_its_seats_view_and_sends_moves_with_ids_and_versions(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        first = await seat_page(api, made, seat_token(made, 0))
        second = await seat_page(api, made, seat_token(made, 1))
        table = live_table(made)
        assert first.viewer == 0 and second.viewer == 1 and first.game.name == "lazy_sunday"
        sent = []
        link = first.links[0]
        original = link.send
        link.send = lambda message: (sent.append(dict(message)), original(message))
        kind_button(first.moves, "Peek at 2 of my cards").click()
        first.board.rows[0].cards[0].click()
        first.board.rows[0].cards[1].click()           # completes the chosen peek: sent at once
        await until(lambda: len(table.match.moves) == 1 and second.links[0].state["version"] == 1
                    and first.links[0].state["version"] == 1 and not link.pending, what="the peek")
        assert sent == [{"type": "move", "id": sent[0]["id"], "move": "0 peek 0 1", "version": 0}]
        assert sent[0]["id"] and str(table.match.moves[0]) == "0 peek 0 1"
        # each page holds exactly its own seat's view, and draws it
        assert view_json(first.links[0].state["view"]) == view_json(table.match.view(0))
        assert view_json(second.links[0].state["view"]) == view_json(table.match.view(1))
        peeked = [slot["name"] for slot in table.match.view(0)["lists"][0][:2]]
        mine = [c.description for c in first.board.rows[0].cards[:2]]
        assert all(name in text for name, text in zip(peeked, mine))
        theirs = state_text(second.widget)
        assert "pt-back" in theirs and not any(f'"{name}\\n' in theirs for name in peeked)
        assert all("pt-back" in c._dom_classes for c in second.board.rows[0].cards)
        # a second move gets a new id and the new version
        kind_button(first.moves, "Done looking").click()
        await until(lambda: len(table.match.moves) == 2, what="done")
        assert sent[1]["version"] == 1 and sent[1]["id"] != sent[0]["id"] and sent[1]["move"] == "0 done"
        first.close()
        second.close()
        server.stop()
    run(scenario)


def test_another_seats_move_arrives_without_a_click_and_is_marked_for_a_moment(data, monkeypatch):
    monkeypatch.setattr(live_seat, "FRESH_SECONDS", 0.3)

    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, players=["human", "human", "heuristic"], seats=3, pace="fast")
        page = await seat_page(api, made, seat_token(made, 1))
        table = live_table(made)
        assert "pt-fresh" not in page.last_move._dom_classes        # the first state is not news
        assert table.submit(0, "0 peek 0 1").ok                       # seat 0 on its own device
        await until(lambda: page.links[0].state["version"] == 1, what="seat 0's peek on seat 1's page")
        assert "pt-fresh" in page.last_move._dom_classes and "Last move" in page.last_move.value
        # seats count from 1 on the page: seat 0 of the move texts is "Seat 1", away (no page)
        assert "Seat 1 (away) peeks" in page.last_move.value
        assert "pt-moved" in page.board.rows[0].widget._dom_classes
        assert "seat 1" in page.board.status.value.lower()          # seat 0, as people count
        # the players bar: seat 0 is not connected (it plays through the API), seat 2 a bot
        assert "Seat 1 · disconnected" in page.players.value and "Seat 3 · heuristic bot" in page.players.value
        assert "Seat 2 · connected · you" in page.players.value
        await until(lambda: "pt-fresh" not in page.last_move._dom_classes, what="the mark to fade")
        assert "pt-moved" not in page.board.rows[0].widget._dom_classes
        # the bot's moves arrive on their own (paced) and are worded for this seat
        assert table.submit(0, "0 done").ok and table.submit(1, "1 peek 0 1").ok and table.submit(1, "1 done").ok
        await until(lambda: table.last_move["by_bot"] and page.links[0].state["version"] == len(table.match.moves),
                    what="a bot move")
        assert "Seat 3 (heuristic bot)" in page.last_move.value
        page.close()
        server.stop()
    run(scenario)


def test_a_move_that_lost_the_race_shows_the_tables_reason_in_the_banner(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        page = await seat_page(api, made, seat_token(made, 0))
        table = live_table(made)
        for text in ("0 peek 0 1", "0 done"):
            assert table.submit(0, text).ok
        # seat 0 has peeked (LS-3): its page names the seat it waits for, counted from 1
        await until(lambda: "Waiting for Seat 2" in page.moves.hint.value, what="the waiting line")
        for text in ("1 peek 0 1", "1 done"):
            assert table.submit(1, text).ok
        await until(lambda: page.links[0].state["version"] == 4, what="seat 0's turn")
        replies = []
        page.links[0].on_message = lambda link, m, inner=page._message: (replies.append(m), inner(link, m))
        # seat 1's quick discard reaches the table, and seat 0 clicks before its page has heard of it
        assert table.submit(1, str(table.match.open_moves(1)[0])).ok
        kind_button(page.moves, "Draw from the deck").click()
        await until(lambda: any(m["type"] == "result" for m in replies), what="the answer")
        result = next(m for m in replies if m["type"] == "result")
        assert result["ok"] is False and result["error"].startswith("too late")
        assert page.banner.message.startswith("seat 2 moved first (claim)")
        assert "<b>Too late:</b>" in page.banner.text.value
        assert page.banner.widget.layout.display == "flex"
        # ...and next to the controls that sent it
        assert page.outcome.value.startswith(
            "<b class='pt-warn'>Too late:</b> Seat 2 moved first (claim); choose again")
        assert len(table.match.moves) == 5 and table.match.moves[-1].seat == 1        # nothing of seat 0's
        # a move the rules refuse names its ruling, and what the ruling says
        page.banner.clear()
        page.play(Move(0, "keep", (0,)))
        await until(lambda: page.banner.message, what="the refusal")
        assert page.banner.message == ("you cannot keep a card now: you are starting your turn "
                                       "(draw, take the DONE card or NOT ME!) (LS-4). "
                                       f"The rule: {get_game('lazy_sunday').RULINGS['LS-4']}.")
        assert page.outcome.value.startswith("<b class='pt-warn'>Refused:</b> You cannot keep a card now")
        # the seat page's "How to play" ends with the game's rulings, as the game page's does
        assert "<li><b>LS-4</b>: " in page.rules.children[0].value and page.rules.layout.display != "none"
        page.close()
        server.stop()
    run(scenario)


def test_your_move_was_played_goes_once_another_seat_has_moved(data):
    from playtest.widgets.live.seat import PLAYED
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        page = await seat_page(api, made, seat_token(made, 0))
        table = live_table(made)
        page.play(Move(0, "peek", (0, 1)))
        await until(lambda: page.outcome.value == PLAYED, what="the answer")
        page.play(Move(0, "done"))                       # this page's next move: its own answer
        await until(lambda: page.outcome.value == PLAYED and page.links[0].state["version"] == 2, what="done")
        assert table.submit(1, "1 peek 0 1").ok          # another seat moves: the line is old news
        await until(lambda: page.links[0].state["version"] == 3, what="seat 2's move")
        assert page.outcome.value == ""
        page.close()
        server.stop()
    run(scenario)


def test_a_full_disk_is_said_on_the_movers_page_and_the_others_wait_then_the_move_goes_through(data):
    import sqlite3
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        mover = await seat_page(api, made, seat_token(made, 0))
        other = await seat_page(api, made, seat_token(made, 1))
        table = live_table(made)
        stored = web.service().store

        def full(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")
        stored.add_move = full                           # the store's commit fails as on a full disk
        mover.play(Move(0, "peek", (0, 1)))
        await until(lambda: mover.banner.message, what="the refusal")
        assert mover.banner.message == ("the server cannot save moves now (its disk is full): your move was not "
                                        "played; make it again once the server can save")
        waits = "The server cannot save moves now (its disk is full): the table waits until it can."
        await until(lambda: waits in other.status.value, what="the other page to wait")
        assert waits in mover.status.value and mover.board is not None and len(table.match.moves) == 0
        del stored.add_move                              # space freed: the same move goes through
        mover.banner.clear()
        mover.play(Move(0, "peek", (0, 1)))
        await until(lambda: other.links[0].state["version"] == 1, what="the move")
        assert "cannot save" not in other.status.value and not mover.banner.message
        mover.close()
        other.close()
        server.stop()
    run(scenario)


def test_the_rounds_reveal_waits_for_each_continue(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        first = await seat_page(api, made, seat_token(made, 0))
        second = await seat_page(api, made, seat_token(made, 1))
        table = live_table(made)
        drive(table, lambda: table.hold() is not None)
        version = len(table.match.moves)
        await until(lambda: first.links[0].state["version"] == version and second.links[0].state["hold"],
                    what="the reveal")
        for page in (first, second):
            assert page.hold_box.layout.display == "flex" and "pt-hold" in page.hold_box._dom_classes
            assert page.continue_buttons[page.viewer].layout.display is None
            assert "Seat 1" in page.hold_text.value and "Seat 2" in page.hold_text.value
            assert page.moves.kind_box.children == ()        # no move while the reveal is on
        assert first.board.status.value.count("Round over")
        first.continue_buttons[0].click()
        await until(lambda: second.links[0].state["hold"] and second.links[0].state["hold"]["waiting"] == [1],
                    what="seat 0's Continue")
        assert first.continue_buttons[0].layout.display == "none" and "Seat 1" not in second.hold_text.value
        await until(lambda: "You pressed Continue" in first.moves.hint.value, what="seat 0 told who it waits for")
        assert "once Seat 2 has too" in first.moves.hint.value
        assert "The round is over: press Continue." in second.moves.hint.value
        second.continue_buttons[1].click()
        await until(lambda: first.links[0].state["hold"] is None and second.links[0].state["hold"] is None,
                    what="the next round")
        assert first.hold_box.layout.display == "none"
        first.close()
        second.close()
        server.stop()
    run(scenario)


def test_game_over_shows_the_result_and_a_feedback_form_that_is_stored(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, options={"rounds": 1})
        page = await seat_page(api, made, seat_token(made, 0))
        host = await seat_page(api, made, made["host_token"])
        table = live_table(made)
        assert page.over_box.layout.display == "none"
        drive(table, lambda: table.match.outcome() is not None or table.hold() is not None)
        if table.hold() is not None:
            table.press_continue(None)
            drive(table, lambda: table.match.outcome() is not None)
        await until(lambda: page.links[0].state["outcome"] is not None, what="the end")
        assert page.over_box.layout.display == "flex" and "Game over" in page.over_text.value
        # the host's controls of a running table are off once the game is over; the record is on
        await until(lambda: host.links[0].state["status"] == "over", what="the host's page")
        controls = host.host
        assert all(c.disabled for c in (controls.pause, controls.pace, controls.seat, controls.player, controls.hand,
                                        controls.next_round, controls.end)) and not controls.record.disabled
        assert all(part.layout.display == "none" for part in controls.running)      # not even shown
        host.close()
        form = page.forms[0]
        assert "pt-feedback" in form.widget._dom_classes and form.widget in page.over_forms.children
        form.send.click()                                 # nothing filled in: said beside the button, not sent
        assert "Choose a rating or write something first." in form.note.value and not form.sent
        assert not form.send.disabled and not web.service().store.feedback(made["id"])
        form.rating.value = 4
        form.confused.value = "When does NOT ME! end the round?"
        form.notes.value = "fun"
        form.send.click()
        await until(lambda: form.sent, what="the feedback")
        stored = web.service().store.feedback(made["id"])
        assert stored and stored[0]["rating"] == 4 and stored[0]["confused"] == "When does NOT ME! end the round?"
        assert form.send.disabled and form.rating.disabled and "Thank you" in form.note.value
        page.close()
        server.stop()
    run(scenario)


@pytest.mark.parametrize("query, words", [
    ("table=0000abcd&token=whatever", "no table with this id"),
    ("table=not-a-table&token=whatever", "There is no table with this id on this server"),
    ("token=whatever", "This link holds a token but names no table"),
    ("table=0000abcd", "This link names a table but holds no token"),
    ("", "This page needs a table and a token in its address"),
    ("table=0000abcd&table=ffff0000&token=whatever", "names more than one table"),
])
def test_a_wrong_or_missing_token_or_table_gives_a_plain_message(data, query, words):
    async def scenario():
        server, port = serve()
        page = SeatApp.from_query(query, api=api_for(port))
        await until(lambda: page.refused, what="the refusal")
        assert words in page.refused and "Traceback" not in page.refused
        assert page.message_box.layout.display == "flex" and page.content.layout.display == "none"
        assert page.board is None
        page.close()
        server.stop()
    run(scenario)


def test_a_forged_token_is_refused_in_the_tables_words(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        page = SeatApp(made["id"], ["forged"], api=api)
        await until(lambda: page.refused, what="the refusal")
        assert "not valid for this table" in page.refused and page.board is None
        assert "pt-live-message" in page.message_box._dom_classes
        # in the words playtest serve's page handler answers the same link with, before any
        # kernel (under Jupyter Server, on Binder, only the page's kernel judges it)
        refusal = web.judge_table_page(f"table={made['id']}&token=forged")
        assert page.message.value == pages.refusal_html(html.escape(pages.sentence(refusal.reason)))
        assert page.message.value in pages.refusal_page(refusal)
        server.stop()
    run(scenario)


def test_a_page_outside_a_playtest_server_says_so(monkeypatch):
    monkeypatch.delenv(live_client.URL_VARIABLE, raising=False)
    page = SeatApp.from_query("table=0000abcd&token=t")
    assert "playtest serve" in page.refused and page.links == []


def test_the_page_reconnects_after_the_server_restarts_and_resyncs(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        page = await seat_page(api, made, seat_token(made, 1))
        table = live_table(made)
        assert table.submit(0, "0 peek 0 1").ok
        await until(lambda: page.links[0].state["version"] == 1)
        # the server goes down: its connections drop, its service closes
        server.stop()
        for connection in list(table.pages):
            connection.close()
        web.shutdown()
        await until(lambda: "Reconnecting" in page.status.value, what="reconnecting")
        assert "pt-reconnecting" in page.status._dom_classes
        with pytest.raises(Exception, match="reconnecting"):
            page.links[0].send({"type": "continue"})
        # ... and comes back on the same port, restoring the table from its store
        web._service = TableService(data)
        restored = live_table(made)
        assert len(restored.match.moves) == 1
        assert restored.submit(0, "0 done").ok                    # a move the page has not seen
        server, _ = serve(port)
        await until(lambda: page.links[0].status == "open" and page.links[0].state["version"] == 2,
                    what="the resync")
        assert "Connected" in page.status.value and "pt-reconnecting" not in page.status._dom_classes
        assert view_json(page.links[0].state["view"]) == view_json(restored.match.view(1))
        # and plays on: its own move goes through the new connection
        kind_button(page.moves, "Peek at 2 of my cards").click()
        page.board.rows[1].cards[2].click()
        page.board.rows[1].cards[3].click()
        await until(lambda: len(restored.match.moves) == 3, what="the move after the restart")
        assert str(restored.match.moves[-1]) == "1 peek 2 3"
        page.close()
        server.stop()
    run(scenario)


def test_the_link_applies_updates_and_resyncs_after_a_gap_or_an_unknown_message(data, monkeypatch):
    """After the join's full state a link gets updates (the new log lines and where they
    start); a missing line or a message it does not know makes it ask for the full state
    again, never guess (DESIGN: reconnect = full resync, never a merge)."""
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        page = await seat_page(api, made, seat_token(made, 1))
        link, table = page.links[0], live_table(made)
        asked = []
        resync = LiveTable.resync
        monkeypatch.setattr(LiveTable, "resync", lambda self, p: (asked.append(p.seat), resync(self, p)))
        log = lambda: [[n, text] for n, text in table.match.log_for(1)]
        assert table.submit(0, "0 peek 0 1").ok
        await until(lambda: link.state["version"] == 1, what="the peek")
        assert link.state["log"] == log() and asked == []          # an update, applied
        # one update loses its first line on the way: the link does not apply it
        connection = table.pages[0]
        send = connection.send

        def lossy(message):
            connection.send = send
            send({**message, "log_from": message["log_from"] + 1, "log": message["log"][1:]})
        connection.send = lossy
        assert table.submit(0, "0 done").ok
        await until(lambda: asked == [1] and link.state["version"] == 2, what="the resync")
        assert link.state["log"] == log() and "seat 1" in page.log.html.value.lower()
        # a message of a type this client does not know
        table.pages[0].send({"type": "novelty", "version": 99})
        await until(lambda: asked == [1, 1], what="the second resync")
        assert table.submit(1, "1 peek 0 1").ok                   # and updates go on from the full state
        await until(lambda: link.state["version"] == 3, what="seat 1's peek")
        assert link.state["log"] == log() and link.state["view"] == json.loads(json.dumps(table.match.view(1)))
        page.close()
        server.stop()
    run(scenario)


def test_a_seat_opened_in_a_newer_page_leaves_the_older_one_for_good(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        old = await seat_page(api, made, seat_token(made, 0))
        new = await seat_page(api, made, seat_token(made, 0))
        await until(lambda: old.links[0].status == "closed", what="the older page to be sent away")
        assert "opened in another page" in old.status.value and "pt-closed" in old.status._dom_classes
        assert old.refused == "" and old.board_box.layout.display is None      # still shows what it had
        assert all(b.disabled for b in old.moves.kind_box.children) and "left the table" in old.moves.hint.value
        await asyncio.sleep(0.3)
        assert old.links[0].status == "closed" and new.links[0].open                # no reconnection fight
        new.close()
        server.stop()
    run(scenario)


def test_new_states_update_widgets_in_place_without_new_models(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, seats=3, players=["human", "human", "random"])
        page = await seat_page(api, made, seat_token(made, 0))
        table = live_table(made)
        table.set_paused(True)                          # the bot waits: this test plays every move
        rng = random.Random(1)

        async def moves(n):
            for _ in range(n):
                if table.match.outcome() is not None:
                    break
                if table.hold() is not None:
                    table.press_continue(None)
                seat = table.match.to_act()[0]
                if seat == 2:
                    table.set_paused(False)
                    await until(lambda: table.match.to_act()[0] != 2 or table.hold() is not None
                                or table.match.outcome() is not None, what="the bot")
                    table.set_paused(True)
                    continue
                choices = [m for m in table.match.decision_moves(seat) if m.kind != "notme"] or \
                    table.match.decision_moves(seat)
                assert table.submit(seat, str(rng.choice(choices))).ok
                await until(lambda: page.links[0].state["version"] == len(table.match.moves))
        await moves(12)
        before, pooled = set(_instances), sum(len(row.cards) for row in page.board.rows)
        await moves(25)
        assert len(table.match.moves) > 15
        # the only new models are the cards of a row that grew longer than ever (a penalty
        # card), each once: pooled, not made per state
        new = [_instances[i] for i in set(_instances) - before]
        cards = [x for x in new if isinstance(x, Card)]
        assert len(cards) == sum(len(row.cards) for row in page.board.rows) - pooled
        # a card's layout and style are shared (components.shared): no new model for them
        # ...and a move kind's button the first time that kind is offered in a pool (made once,
        # with the pool's shared layout and style)
        pooled = {b.model_id for builder in (page.moves, page.open_moves) for pool in builder._pools
                  for b in pool.values()}
        assert {x.model_id for x in new} - pooled == {c.model_id for c in cards}
        page.close()
        server.stop()
    run(scenario)


def test_hotseat_page_hides_a_seats_cards_until_the_next_person_confirms(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        page = await seat_page(api, made, seat_token(made, 0), seat_token(made, 1))
        table = live_table(made)
        assert page.seats == [0, 1] and page.control == 0 and page.privacy.shown     # first: who holds it?
        page.privacy.button.click()
        assert page.viewer == 0 and not page.privacy.shown
        kind_button(page.moves, "Peek at 2 of my cards").click()
        page.board.rows[0].cards[0].click()
        page.board.rows[0].cards[1].click()
        # the table sends the new state before its answer to the mover: until the answer
        # arrives the page's moves are disabled ("Sending your move…"), as a person sees them
        await until(lambda: len(table.match.moves) == 1 and page.links[0].state["version"] == 1
                    and not page.links[0].pending, what="the peek's answer")
        names = [slot["name"] for slot in table.match.view(0)["lists"][0][:2]]
        assert any(names[0] in c.description for c in page.board.rows[0].cards)
        kind_button(page.moves, "Done looking").click()
        await until(lambda: all(link.state["version"] == 2 for link in page.links), what="seat 1's turn")
        # seat 1 must decide now: the device changes hands
        assert page.control == 1 and page.privacy.shown and page.viewer is None
        assert page.board_box.layout.display == "none" and page.moves.kind_box.children == ()
        # behind the screen, the last move is told by its public log line, not its bare kind
        [said] = [text for n, text in table.match.log_for(None) if n == 2]
        assert page.last_move.value.endswith(html.escape(for_people(said))), page.last_move.value
        assert all(c.description == BLANK and "pt-face" not in c._dom_classes for c in cards_in(page.board.widget))
        board = state_text(page.board.widget, page.moves.widget, page.log.widget)
        assert not any(f'"{name}\\n' in board for name in names)
        page.privacy.button.click()
        assert page.viewer == 1 and page.board_box.layout.display is None
        assert [b.description for b in page.moves.kind_box.children] == ["Peek at 2 of my cards"]
        page.close()
        # with the spectator token on the page, the public view is shown meanwhile
        public = await seat_page(api, made, made["spectator_token"], seat_token(made, 0), seat_token(made, 1))
        assert public.control == 1 and public.privacy.shown and public.board_box.layout.display is None
        assert view_json(public._view) == view_json(table.match.view(None))
        public.close()
        server.stop()
    run(scenario)


def test_a_table_of_people_only_offers_no_bot_controls(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, game="chore_race", seats=2, players=["human", "human"], options={})
        host = await seat_page(api, made, made["host_token"])
        controls = host.host
        assert controls.pause.description == "Pause the table" and controls.pace.layout.display == "none"
        assert "bot" not in host.status.value
        controls.pause.click()
        await until(lambda: host.links[0].state["paused"], what="pause")
        assert controls.pause.description == "Resume the table" and "paused by the host" in host.status.value
        assert "bots" not in host.status.value
        server.stop()
    run(scenario)


def test_spectator_and_host_pages_and_the_host_controls(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, seats=3, players=["human", "human", "heuristic"], pace="human")
        table = live_table(made)
        spectator = await seat_page(api, made, made["spectator_token"])
        assert spectator.viewer is None and spectator.controls.layout.display == "none"
        assert spectator.host is None and not spectator.privacy.shown and spectator.forms == {}
        assert view_json(spectator._view) == view_json(table.match.view(None))
        host = await seat_page(api, made, made["host_token"])
        controls = host.host
        assert controls is not None and controls.widget in host.host_box.children
        assert controls.record.disabled and controls.next_round.disabled
        controls.pause.click()
        await until(lambda: table.paused and host.links[0].state["paused"], what="pause")
        assert controls.pause.description == "Resume the bots" and "paused" in host.status.value
        controls.pause.click()
        await until(lambda: not table.paused, what="resume")
        controls.pace.value = "slow"
        await until(lambda: table.pace == "slow", what="pace")
        # a seat made for a bot is offered bots only (it has no link a person could open)
        controls.seat.value = 2
        offered = lambda: [value for _, value in controls.player.options]     # noqa: E731
        assert "human" not in offered() and "random" in offered()
        controls.seat.value = 1
        assert "human" in offered()
        controls.player.value = "random"
        controls.hand.click()
        await until(lambda: table.players[1] == "random" and "Seat 2 · random bot" in host.players.value,
                    what="seat 1 to a bot")
        controls.end.click()
        assert controls.confirm_box.layout.display == "flex" and table.status == "playing"
        controls.confirm_end.click()
        await until(lambda: table.status == "ended" and not controls.record.disabled, what="the end")
        assert host.over_box.layout.display == "flex" and "ended" in host.over_text.value
        controls.record.click()
        await until(lambda: controls.record_link.value, what="the record")
        data_uri = re.search(r"base64,([^']+)'", controls.record_link.value).group(1)
        record = json.loads(base64.b64decode(data_uri))
        assert record["game"] == "lazy_sunday" and Match.from_record(record).game.seats == 3
        spectator.close()
        host.close()
        server.stop()
    run(scenario)


def test_ready_waits_until_the_board_is_built_or_the_link_refused(data):
    """The table dashboard awaits ready() in its cell, so that no widget is made after the
    page may have connected (a model it would not know)."""
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        app = SeatApp(made["id"], [seat_token(made, 0)], api=api)
        assert app.board is None
        await app.ready()
        assert app.board is not None and app.board.widget in app.board_box.children
        refused = SeatApp(made["id"], ["not-a-token"], api=api)
        await refused.ready()
        assert refused.board is None and refused.links[0].status == "closed"
        app.close()
        refused.close()
        server.stop()
    run(scenario)


def test_the_last_move_names_who_made_it_when_the_seat_has_changed_hands_since(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        handed_back, handed_over = await make_table(api), await make_table(api)
        tables = live_table(handed_back), live_table(handed_over)
        # a bot's move on a seat handed back to its person: never told as that person's
        back = await seat_page(api, handed_back, seat_token(handed_back, 0))
        tables[0].set_player(0, "random", force=True)              # the host hands the seat to a bot...
        await until(lambda: tables[0].by_bot and tables[0].by_bot[-1], what="the bot's move")
        tables[0].set_player(0, "human")                           # ...and back, before anyone moves
        # a person's move on a seat handed to a bot since: not told as the bot's
        over = await seat_page(api, handed_over, handed_over["spectator_token"])
        seat = tables[1].match.to_act()[0]
        assert tables[1].submit(seat, str(tables[1].match.decision_moves(seat)[0])).ok
        tables[1].set_paused(True)                                 # so that no bot moves after the hand-over
        tables[1].set_player(seat, "random", force=True)
        for page, table, (who, player) in ((back, tables[0], (0, "human")), (over, tables[1], (seat, "random"))):
            version = len(table.match.moves)
            await until(lambda: page.links[0].state["version"] == version
                        and page.links[0].state["players"][who]["player"] == player, what="the change of hands")
            assert table.last_move["seat"] == who and table.last_move["by_bot"] == (player == "human")
        assert "Seat 1 (a bot)" in back.last_move.value and "(you)" not in back.last_move.value, back.last_move.value
        assert f"Seat {seat + 1} (a person)" in over.last_move.value and "bot" not in over.last_move.value, \
            over.last_move.value
        back.close()
        over.close()
        server.stop()
    run(scenario)


def test_a_reaction_window_with_a_time_limit_counts_down_on_every_page(data):
    """CR-7 with the table's reaction limit: the target's page counts its seconds down,
    the other pages see which seat has how long; the page clock is faked (no sleeping)."""
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, game="chore_race", scenario="chore_race_reaction_window", options={}, seed=None,
                                reaction_limit=20)
        table = live_table(made)
        pages = target, other, spectator = [await seat_page(api, made, token) for token in
                                            (seat_token(made, 1), seat_token(made, 0), made["spectator_token"])]
        now = [100.0]
        for page in pages:
            page.clock = lambda: now[0]
            assert page.countdown.layout.display == "none" and "pt-countdown" in page.countdown._dom_classes
        for text in ("0 end", "1 end", "0 inspection 1 0"):     # seat 0 inspects seat 1's chore again
            assert table.submit(int(text[0]), text).ok
        version = len(table.match.moves)
        await until(lambda: all(p.links[0].state["version"] == version for p in pages), what="the window")
        assert target.links[0].state["reaction_seconds"] > 19
        assert "<b>20 s</b> left to answer" in target.countdown.value and "pt-mine" in target.countdown._dom_classes
        for page in (other, spectator):
            assert page.countdown.layout.display is None and "pt-mine" not in page.countdown._dom_classes
            assert "Reaction window open: Seat 2 has <b>20 s</b> left to answer" in page.countdown.value
        loop = asyncio.get_running_loop()
        target.draw_countdown()          # drawn again now: the timer's delay is read at once, not after a load spike
        assert target._countdown_timer.when() - loop.time() == pytest.approx(1.0, abs=0.05)   # the next second
        now[0] += 3.4
        target.draw_countdown()                      # what the timer does each second
        assert "<b>17 s</b> left" in target.countdown.value
        assert target._countdown_timer.when() - loop.time() == pytest.approx(0.6, abs=0.05)
        now[0] += 17
        for page in pages:
            page.draw_countdown()
        assert "Time is up" in target.countdown.value and target._countdown_timer is None
        assert "Time is up</b> for Seat 2" in other.countdown.value
        target.play(Move(1, "accept"))               # answered: the window is closed everywhere
        await until(lambda: all(p.links[0].state["version"] == version + 1 for p in pages), what="the answer")
        assert all(p.countdown.layout.display == "none" and p.countdown.value == "" for p in pages)
        for page in pages:
            page.close()
        server.stop()
    run(scenario)


def test_seat_spectator_and_host_pages_each_have_their_own_intro(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        seat = await seat_page(api, made, seat_token(made, 1))
        hotseat = await seat_page(api, made, made["spectator_token"], seat_token(made, 0), seat_token(made, 1))
        spectator = await seat_page(api, made, made["spectator_token"])
        host = await seat_page(api, made, made["host_token"])
        assert "pt-live-intro" in seat.intro._dom_classes and seat.intro in seat.content.children
        assert "You are seat 2." in seat.intro.value         # seat 1, counted from 1 and "keep it to yourself" in seat.intro.value
        assert "seats 1 and 2 (hotseat)" in hotseat.intro.value and "watching" not in hotseat.intro.value
        assert "You are watching: the public view only, no hand is shown" in spectator.intro.value
        assert "host" in host.intro.value and "Pause" in host.intro.value and "no hand is shown" in host.intro.value
        for page in (spectator, host):
            assert "seat 1" not in page.intro.value.lower() and "your seat" not in page.intro.value.lower()
        assert "watching" not in host.intro.value and "host" not in spectator.intro.value
        # the dashboard's own text is the same for every link: it speaks of no seat
        notebook = json.loads((Path(__file__).parent.parent / "playtest" / "dashboards" / "table.ipynb").read_text())
        assert "your seat" not in "".join(notebook["cells"][0]["source"]).lower()
        for page in (seat, hotseat, spectator, host):
            page.close()
        server.stop()
    run(scenario)


def test_the_host_confirms_before_a_connected_seat_goes_to_a_bot_and_its_page_says_so(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, seats=3, players=["human"] * 3, pace="slow")
        table = live_table(made)
        person = await seat_page(api, made, seat_token(made, 1))
        host = await seat_page(api, made, made["host_token"])
        controls = host.host
        await until(lambda: "Seat 2 (person, connected)" in [label for label, _ in controls.seat.options],
                    what="seat 1 connected")
        assert person.handed.layout.display == "none" and not person.handed.value

        def hand(seat, player):
            controls.seat.value, controls.player.value = seat, player
            controls.hand.click()
        hand(1, "random")
        await until(lambda: controls.hand_box.layout.display == "flex", what="the question")
        assert "Seat 2 is connected: hand it to a bot anyway?" in controls.hand_question.value
        assert table.players[1] == "human" and not host.banner.message       # asked, not refused, nothing done
        controls.cancel_hand.click()                                         # no
        assert controls.hand_box.layout.display == "none"
        await asyncio.sleep(0.1)
        assert table.players[1] == "human" and person.handed.layout.display == "none"
        hand(1, "random")
        await until(lambda: controls.hand_box.layout.display == "flex", what="the question again")
        controls.confirm_hand.click()                                        # yes: forced
        await until(lambda: table.players[1] == "random" and person.handed.layout.display is None,
                    what="the handover, told on the person's page")
        assert "The host handed your seat to a bot" in person.handed.value
        assert "the random bot plays seat 2 now" in person.handed.value and person.links[0].open
        # the host's own answer may come after the person's page heard of it (a loaded machine)
        await until(lambda: "Seat 2 is played by the random bot now." in controls.note.value, what="the host's note")
        assert not host.banner.message
        hand(2, "random")                                     # nobody's page is open at seat 2: no question
        await until(lambda: table.players[2] == "random", what="seat 2 to a bot")
        assert controls.hand_box.layout.display == "none"
        hand(1, "human")                                      # back to the person: the notice goes
        await until(lambda: person.handed.layout.display == "none", what="seat 1 back to its person")
        assert not person.handed.value
        person.close()
        host.close()
        server.stop()
    run(scenario)


@pytest.mark.parametrize("game, players", [("chore_race", ["human", "human"]), ("night_shift", ["human", "heuristic"]),
                                           ("toy", ["human", "human"])])
def test_every_games_board_plays_on_a_seat_page(data, game, players):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, game=game, seats=2, players=players, options={})
        table = live_table(made)
        seat = table.match.to_act()[0]
        if players[seat] != "human":
            await until(lambda: table.match.to_act()[0] != seat)
            seat = table.match.to_act()[0]
        page = await seat_page(api, made, seat_token(made, seat))
        await until(lambda: page.links[0].state["version"] == len(table.match.moves))
        assert page.viewer == seat and page.live and page.decision_moves(seat)
        version = len(table.match.moves)
        builder = page.moves
        builder.kind_box.children[0].click()
        for _ in range(4):                         # a kind with arguments: the first value of each
            if len(table.match.moves) > version:
                break
            dropdowns = [d for d in builder.arg_box.children if isinstance(d, w.Dropdown) and d.index is None]
            if dropdowns:
                dropdowns[0].value = dropdowns[0].options[0][1]
            elif not builder.play_button.disabled:
                builder.play_button.click()
            await asyncio.sleep(0.05)
        await until(lambda: len(table.match.moves) > version and not page.links[0].pending, what="the move")
        assert table.match.moves[version].seat == seat and not page.banner.message
        await until(lambda: page.links[0].state["version"] == len(table.match.moves))
        assert view_json(page._view) == view_json(table.match.view(seat))
        page.close()
        server.stop()
    run(scenario)


# --- the lobby ---------------------------------------------------------------------------
def test_the_lobby_creates_a_table_and_shows_its_links(data):
    async def scenario():
        server, port = serve()
        lobby = LobbyApp(api=api_for(port), folder="http://192.168.1.5:8866/voila/render/", refresh_every=0)
        assert lobby.game.value == "lazy_sunday"
        panel = lobby.panel
        panel.seats.value = 3
        panel.players[1].value = "human"
        panel.players[2].value = "random"
        panel.seed.value = "11"
        lobby.pace.value = "fast"
        panel.start.click()
        await until(lambda: lobby.made is not None, what="the table")
        made = lobby.made
        table = live_table(made)
        assert table.players == ["human", "human", "random"] and table.pace == "fast" and table.match.seed == 11
        links = lobby.links.value
        assert "pt-lobby-links" in lobby.links._dom_classes
        for path in [made["seats"][0]["path"], made["seats"][1]["path"], made["spectator_path"], made["host_path"]]:
            assert f"href='{path.replace('&', '&amp;')}' target='_blank'" in links
            assert f"http://192.168.1.5:8866/voila/render/{path}".replace("&", "&amp;") in links
        hotseat = f"table.ipynb?table={made['id']}&amp;token={made['spectator_token']},"
        assert hotseat in links and "random bot" in links
        await until(lambda: lobby.listing, what="the list, refreshed after the creation")
        assert lobby.listing[0]["id"] == made["id"] and "no free seat" in lobby.rows[0][1].value  # links made
        lobby.listed.value = True          # leave the other people's seats open in the lobby
        assert lobby.spec(*panel.config())["open_seats"] == [1]
        # a preset's options are sent by its name
        lobby.game.value = "chore_race"
        lobby.panel.presets.apply("Quick Game")
        spec = lobby.spec(*lobby.panel.config())
        assert spec["preset"] == "Quick Game" and spec["options"] == {}
        # a second table: its links go above the first's, which stay (the service shows them nowhere else)
        lobby.panel.start.click()
        await until(lambda: lobby.made["id"] != made["id"], what="the second table")
        second = lobby.links.value
        assert second.index(f"Table {lobby.made['id']} is ready") < second.index(f"Table {made['id']} is ready")
        assert made["host_path"].replace("&", "&amp;") in second and len(lobby.shown_links) == 2
        for box in lobby.panel.players[:lobby.panel.seats.value]:      # every seat a bot
            box.value = "random"
        lobby.panel.start.click()
        assert "human seat" in lobby.banner.message
        server.stop()
    run(scenario)


def test_the_lobby_starts_a_table_from_a_scenario_with_a_reaction_time_limit(data):
    async def scenario():
        server, port = serve()
        lobby = LobbyApp(api=api_for(port), refresh_every=0, game="chore_race")
        panel = lobby.panel
        # labels in words, never cut short: a label longer than the default label width
        # sizes to its text; a checkbox's fits its 300 px (about 40 characters) or grows
        assert panel.inputs["target_vp"].description == "Target VP"
        assert panel.inputs["chore_swap_needs_progress"].description == "Chore swap needs progress"
        stack = [panel.widget]
        while stack:
            widget = stack.pop()
            stack.extend(getattr(widget, "children", ()))
            if len(getattr(widget, "description", "")) > 9 and not isinstance(widget, w.Button):
                fits = (widget.layout.width == "auto" or len(widget.description) <= 35 if isinstance(widget, w.Checkbox)
                        else widget.style.description_width == "initial")
                assert fits, f"{widget.description!r} may be cut off"
        # the reaction time limit: off by default, its range shown, a bad value refused in words
        assert lobby.reaction_box in panel.widget.children and lobby.reaction.value == ""
        assert "1 to 600" in lobby.reaction_help.value and "Blank: off" in lobby.reaction_help.value
        assert lobby.spec(*panel.config())["reaction_limit"] is None
        for bad in ("0", "601", "ten", "nan", "-5"):
            lobby.reaction.value = bad
            assert "⚠ the reaction time limit must be a number of seconds from 1 to 600" in lobby.reaction_help.value
            panel.start.click()
            assert lobby.banner.message.startswith("the reaction time limit must be a number of seconds from 1 to 600")
            assert repr(bad) in lobby.banner.message and lobby.made is None
        lobby.reaction.value = "12.5"
        assert "⚠" not in lobby.reaction_help.value
        # start from a scenario: this game's shipped ones, where the game goes on
        names = [value for _, value in lobby.scenario.options]
        assert names[0] == "" and lobby.scenario.value == "" and set(names[1:]) == {
            "chore_race_leader_protection", "chore_race_reaction_window"}
        lobby.scenario.value = "chore_race_reaction_window"
        assert panel.seats.value == 2 and panel.seats.disabled and panel.inputs["target_vp"].disabled
        assert panel.seed.disabled and panel.presets.dropdown.disabled
        assert "after its 5 moves" in lobby.scenario_note.value and "CR-7" in lobby.scenario_note.value
        spec = lobby.spec(*panel.config())
        assert spec["scenario"] == "chore_race_reaction_window" and "options" not in spec and "seed" not in spec
        panel.start.click()
        await until(lambda: lobby.made is not None, what="the table")
        table = live_table(lobby.made)
        assert table.reaction_limit == 12.5 and table.match.game.name == "chore_race"
        assert [str(m) for m in table.match.moves] == example("chore_race_reaction_window").moves
        # back to a new game: the inputs are free again
        lobby.scenario.value = ""
        assert not panel.seats.disabled and not panel.inputs["target_vp"].disabled and not panel.seed.disabled
        assert "scenario" not in lobby.spec(*panel.config()) and lobby.scenario_note.value == ""
        # a game without reaction windows has no limit to set; one whose scenario ends the game lists it not
        lobby.game.value = "lazy_sunday"
        assert lobby.reaction_box not in lobby.panel.widget.children
        assert lobby.spec(*lobby.panel.config())["reaction_limit"] is None
        names = [value for _, value in lobby.scenario.options]
        assert "lazy_sunday_stale_claim" in names and "lazy_sunday_busy_final_turn" not in names
        assert not any(name.startswith("chore_race") for name in names)
        lobby.scenario.value = "lazy_sunday_stale_claim"
        assert lobby.panel.seats.value == 3 and len(lobby.panel.player_box.children) == 3
        server.stop()
    run(scenario)


def test_the_lobby_shows_each_games_default_options_and_a_scenarios_own_values(data, tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYTEST_SCENARIOS_DIR", str(tmp_path / "no-scenarios"))
    lobby = LobbyApp(api=api_for(1), refresh_every=0, start=False)
    assert lobby.panel.presets.dropdown.value == "one round"
    lobby.game.value = "chore_race"          # its defaults (15 VP) are none of its presets
    assert lobby.panel.presets.dropdown.value == "(the game's defaults)" and lobby.panel.presets.value is None
    assert lobby.panel.inputs["target_vp"].value == "15"
    lobby.game.value = "night_shift"
    panel = lobby.panel
    assert panel.presets.dropdown.value == "as written"
    panel.inputs["turn_limit"].value = "1e9"           # a number box would have cut it to 1, silently
    panel.start.click()
    assert "Turn limit: '1e9' is not a whole number" in lobby.banner.message
    panel.seed.value, panel.inputs["turn_limit"].value = "42", "6"
    assert panel.presets.dropdown.value == "(custom options)"
    # a scenario's seats, options and seed are shown, locked
    lobby.scenario.value = "night_shift_with_reshuffle"
    assert panel.inputs["reshuffle"].value is True and panel.inputs["turn_limit"].value == "50"
    assert panel.presets.dropdown.value == "with reshuffle" and panel.seed.value == "1" and panel.seats.value == 2
    assert panel.inputs["reshuffle"].disabled and panel.seed.disabled and panel.presets.dropdown.disabled
    lobby.scenario.value = "night_shift_no_reshuffle_stall"
    assert panel.inputs["reshuffle"].value is False and panel.presets.dropdown.value == "as written"
    # back to a new game: the form as it was before the first scenario
    lobby.scenario.value = ""
    assert panel.inputs["turn_limit"].value == "6" and panel.seed.value == "42" and not panel.inputs["reshuffle"].value
    assert panel.presets.dropdown.value == "(custom options)" and not panel.inputs["turn_limit"].disabled
    # leaving a game on a scenario and coming back: a new game, its form as it was
    lobby.scenario.value = "night_shift_with_reshuffle"
    lobby.game.value = "lazy_sunday"
    lobby.game.value = "night_shift"
    assert lobby.scenario.value == "" and panel.inputs["turn_limit"].value == "6" and panel.seed.value == "42"
    assert not panel.inputs["reshuffle"].value and not panel.inputs["reshuffle"].disabled


def test_the_lobby_offers_your_scenario_files_and_the_service_starts_a_table_from_one(data, tmp_path, monkeypatch):
    from playtest.scenarios import examples
    folder = tmp_path / "scenarios"
    folder.mkdir()
    monkeypatch.setenv("PLAYTEST_SCENARIOS_DIR", str(folder))
    mine = examples()["night_shift_with_reshuffle"].read_text(encoding="utf-8")
    (folder / "my_start.toml").write_text(mine.replace('title = "', 'title = "Mine: ', 1), encoding="utf-8")
    (folder / "broken.toml").write_text("game = [", encoding="utf-8")
    (folder / "bad_moves.toml").write_text(mine.replace("moves = [", 'moves = ["9 fly", ', 1), encoding="utf-8")
    (folder / "not utf8.toml").write_bytes(b"\xff\xfe")
    (folder / "other_game.toml").write_text(examples()["lazy_sunday_stale_claim"].read_text(encoding="utf-8"),
                                            encoding="utf-8")
    (folder / "game_over.toml").write_text(examples()["lazy_sunday_busy_final_turn"].read_text(encoding="utf-8"),
                                           encoding="utf-8")
    (folder / "lazy_sunday_stale_claim.toml").write_text(mine, encoding="utf-8")   # the example's name wins

    async def scenario():
        server, port = serve()
        lobby = LobbyApp(api=api_for(port), refresh_every=0, game="night_shift")
        labels = {value: label for label, value in lobby.scenario.options}
        assert labels["my_start"].startswith("Your scenario my_start.toml: Mine: ")
        assert set(labels) == {"", "my_start", "night_shift_no_reshuffle_stall", "night_shift_with_reshuffle"}
        lobby.scenario.value = "my_start"
        assert lobby.panel.inputs["reshuffle"].value is True and lobby.panel.inputs["reshuffle"].disabled
        # a file saved while the lobby is open appears on Refresh; the picked one stays picked
        (folder / "saved_later.toml").write_text(mine, encoding="utf-8")
        assert "saved_later" not in dict((v, k) for k, v in lobby.scenario.options)
        lobby.refresh_button.click()
        assert "saved_later" in [value for _, value in lobby.scenario.options]
        assert lobby.scenario.value == "my_start" and lobby.panel.inputs["reshuffle"].disabled
        (folder / "saved_later.toml").unlink()
        lobby.refresh_button.click()
        assert "saved_later" not in [value for _, value in lobby.scenario.options]
        assert lobby.scenario.value == "my_start" and lobby.panel.inputs["reshuffle"].value is True
        lobby.panel.start.click()
        await until(lambda: lobby.made is not None or lobby.banner.message, what="the table")
        assert lobby.banner.message == ""
        table = live_table(lobby.made)
        assert table.match.options_dict()["reshuffle"] is True
        assert [str(m) for m in table.match.moves] == example("night_shift_with_reshuffle").moves
        lobby.game.value = "lazy_sunday"
        names = [value for _, value in lobby.scenario.options]
        assert "other_game" in names and "game_over" not in names and names.count("lazy_sunday_stale_claim") == 1
        server.stop()
    run(scenario)


def test_a_join_that_loses_the_seat_says_so_and_the_list_shows_it_taken(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, listed=True, open_seats=[1])
        lobby = LobbyApp(api=api, refresh_every=0)            # no polling: only what a click fetches
        await until(lambda: len(lobby.listing) == 1, what="the list")
        _, text, join = lobby.rows[0]
        assert "free seats: 2" in text.value                  # seat 1, counted from 1
        web.service().join(made["id"])                         # someone quicker, from another lobby
        join.click()
        await until(lambda: lobby.banner.message, what="the refusal")
        assert "every seat at this table is taken" in lobby.banner.message
        await until(lambda: "no free seat" in lobby.rows[0][1].value, what="the list refreshed")
        assert lobby.rows[0][2].layout.display == "none"       # no Join button left
        server.stop()
    run(scenario)


def test_the_lobby_lists_tables_joins_a_free_seat_and_exports_finished_tables(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, listed=True, open_seats=[0, 1])
        hidden = await make_table(api, listed=False)
        lobby = LobbyApp(api=api, refresh_every=0.05)
        await until(lambda: len(lobby.listing) == 2, what="the list")
        rows = {row["id"]: i for i, row in enumerate(lobby.listing)}
        _, text, join = lobby.rows[rows[made["id"]]]
        assert "free seats: 1, 2" in text.value and join.layout.display is None
        assert lobby.rows[rows[hidden["id"]]][2].layout.display == "none"
        join.click()
        await until(lambda: "Your seat" in lobby.links.value, what="the join")
        token = re.search(r"token=([\w-]+)", lobby.links.value).group(1)
        assert web.service().authenticate(made["id"], token)[1:] == ("seat", 0)
        await until(lambda: "free seats: 2" in lobby.rows[rows[made["id"]]][1].value, what="the periodic refresh")
        # a finished table's record and feedback, exported through the download helper
        live_table(made).end()
        await until(lambda: [row["id"] for row in lobby.listing] == [hidden["id"]], what="the ended table to go")
        assert len(lobby.row_box.children) == 1 and made["id"] not in lobby.rows[0][1].value
        web.service().feedback(made["id"], 0, {"rating": 5, "confused": "", "notes": "more bots"})
        lobby.export_csv.click()
        await until(lambda: "data:text/csv" in lobby.export_link.value, what="the CSV")
        text = base64.b64decode(re.search(r"base64,([^']+)'", lobby.export_link.value).group(1)).decode()
        rows = list(csv.DictReader(io.StringIO(text)))
        assert [r["table"] for r in rows] == [made["id"]] and "more bots" in rows[0]["feedback"]
        assert "1 table (CSV)" in lobby.export_link.value                  # not "1 tables"
        lobby.export_json.click()
        await until(lambda: "data:application/json" in lobby.export_link.value, what="the JSON")
        exported = json.loads(base64.b64decode(re.search(r"base64,([^']+)'", lobby.export_link.value).group(1)))
        assert exported["tables"][0]["table"] == made["id"]
        lobby._active = -1e9                                # an hour without a click: polling stops
        await until(lambda: lobby._poller is None, what="the poller to stop")
        server.stop()
    run(scenario)


def test_a_lobby_without_a_table_service_says_how_to_get_one(monkeypatch):
    monkeypatch.delenv(live_client.URL_VARIABLE, raising=False)
    monkeypatch.delenv("PLAYTEST_SERVER_LOGIN", raising=False)
    lobby = LobbyApp()
    assert "playtest serve" in lobby.message.value and lobby.body.layout.display == "none"
    assert "Binder" not in lobby.message.value
    # Voilà inside Binder's Jupyter Server: the playtest server runs behind its proxy
    monkeypatch.setenv("PLAYTEST_SERVER_LOGIN", "/user/ab/login")
    lobby = LobbyApp()
    assert "its lobby is at <a href='/user/ab/playtest/voila/render/lobby.ipynb'>" in lobby.message.value
    seat = SeatApp("t1", ["tok"], connect=False)
    assert "<a href='/user/ab/playtest/voila/render/lobby.ipynb'>" in seat.message.value


# --- page addresses ----------------------------------------------------------------------
def test_links_for_other_devices_log_in_to_a_jupyter_server_with_a_token(monkeypatch):
    """On Binder a device without the server's cookie is refused every page: the lobby's
    copyable links pass through the server's login, with the seat's page (and its own
    token) as where to go next."""
    from urllib.parse import parse_qs, urlsplit

    from playtest.widgets.page import address_for_others
    folder, path = "https://hub.example.org/user/ab/voila/render/dashboards/", "table.ipynb?table=t1&token=S,E"
    monkeypatch.delenv("PLAYTEST_SERVER_TOKEN", raising=False)
    monkeypatch.delenv("PLAYTEST_SERVER_LOGIN", raising=False)
    assert address_for_others(folder, path) == folder + path           # playtest serve: no login
    assert address_for_others("", path) == ""
    monkeypatch.setenv("PLAYTEST_SERVER_TOKEN", "j&t")
    monkeypatch.setenv("PLAYTEST_SERVER_LOGIN", "/user/ab/login")
    link = urlsplit(address_for_others(folder, path))
    assert (link.scheme, link.netloc, link.path) == ("https", "hub.example.org", "/user/ab/login")
    assert parse_qs(link.query) == {"next": ["/user/ab/voila/render/dashboards/" + path], "token": ["j&t"]}
    lobby = LobbyApp(start=False, folder=folder)
    made = {"id": "t1", "seats": [{"seat": 0, "player": "human", "token": "S", "path": "table.ipynb?table=t1&token=S"}],
            "spectator_token": "E", "spectator_path": "table.ipynb?table=t1&token=E",
            "host_path": "table.ipynb?table=t1&token=H"}
    shown = lobby.links_html(made)
    assert "https://hub.example.org/user/ab/login?next=" in shown and "href='table.ipynb?table=t1&amp;token=S'" in shown


def test_page_addresses_from_voilas_request_variables(monkeypatch):
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.setenv("SERVER_NAME", "192.168.1.5")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/lobby.ipynb")
    assert page_folder() == "http://192.168.1.5:8866/voila/render/"
    monkeypatch.setenv("SERVER_NAME", "hub.example.org")
    monkeypatch.setenv("SERVER_PORT", "")
    monkeypatch.setenv("SCRIPT_NAME", "/user/x/voila/render/dashboards/lobby.ipynb")
    assert page_folder() == "https://hub.example.org/user/x/voila/render/dashboards/"
    monkeypatch.delenv("SCRIPT_NAME")
    assert page_folder() == ""
    # a preheated kernel learns its request only when a page takes it (voila #1189), and
    # only once: Voilà keeps no copy of what it sent, so a second wait would never end
    from playtest.widgets import page
    waits = []

    def receive_request(url):
        assert not waits, "a second wait for the request: it would hang the page"
        waits.append(url)
        return dict(SERVER_NAME="10.0.0.2", SERVER_PORT="8866", SCRIPT_NAME="/voila/render/lobby.ipynb",
                    QUERY_STRING="table=ab12cd34&token=T1,T2", HTTP_X_PLAYTEST_BROWSER="b" * 24)

    monkeypatch.setenv("QUERY_STRING", "")             # restored after the test, as all below
    monkeypatch.setenv("HTTP_X_PLAYTEST_BROWSER", "")
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setattr(page, "_request_arrived", False)
    monkeypatch.setattr(page, "receive_request", receive_request)
    assert page.query_string() == "table=ab12cd34&token=T1,T2"
    assert page_folder() == "http://10.0.0.2:8866/voila/render/"
    assert page.browser_id() == "b" * 24 and len(waits) == 1
    monkeypatch.setenv("HTTP_X_PLAYTEST_BROWSER", "../x")
    assert page.browser_id() == ""                      # not a browser name: none
    assert parse_table_query("table=ab12cd34&token=T1,T2") == ("ab12cd34", ["T1", "T2"])
    assert parse_table_query("?table=x&token=a&token=b,a") == ("x", ["a", "b"])


# --- the kernel ---------------------------------------------------------------------------
def test_outside_a_kernel_the_kernel_id_is_voilas_variable_or_none(monkeypatch):
    monkeypatch.delenv("VOILA_KERNEL_ID", raising=False)
    assert live_client.kernel_id() is None              # a script, a test: the join names none
    monkeypatch.setenv("VOILA_KERNEL_ID", "0e9a014f-fdb9-41e0-9bde-542313adc3a0")
    assert live_client.kernel_id() == "0e9a014f-fdb9-41e0-9bde-542313adc3a0"
    monkeypatch.setenv("VOILA_KERNEL_ID", "../not an id")
    assert live_client.kernel_id() is None


def test_in_a_real_kernel_the_link_is_a_task_on_its_loop_and_updates_reach_the_page(data):
    """ipykernel 7: a task a cell starts keeps running after the cell, on the main
    thread's loop, and the widget values it sets are sent to the page as comm updates."""
    import threading
    from jupyter_client.manager import KernelManager

    loop = asyncio.new_event_loop()
    started = threading.Event()
    box = {}

    def server_thread():
        asyncio.set_event_loop(loop)
        box["server"], box["port"] = serve()
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=server_thread, daemon=True)
    thread.start()
    started.wait(10)
    api = api_for(box["port"])
    made = asyncio.run_coroutine_threadsafe(make_table(api), loop).result(10)
    import tempfile
    import uuid
    kernel_id = str(uuid.uuid4())           # named as Jupyter's kernel manager names it
    kernel = KernelManager(kernel_name="python3",
                           connection_file=os.path.join(tempfile.mkdtemp(), f"kernel-{kernel_id}.json"))
    kernel.start_kernel(cwd=str(Path(__file__).parent))
    client = kernel.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    try:
        code = (f"import os, sys, threading\nos.environ[{live_client.URL_VARIABLE!r}] = {api.url!r}\n"
                f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
                "from playtest.widgets.live import SeatApp\n"
                f"app = SeatApp({made['id']!r}, [{seat_token(made, 1)!r}])\n"
                "print('model', app.last_move.model_id, threading.current_thread().name)")
        client.execute(code)
        model, idle, updates = None, False, []
        end = time.monotonic() + 30
        while time.monotonic() < end and not updates:
            try:
                message = client.get_iopub_msg(timeout=0.5)
            except Exception:  # noqa: BLE001 - queue.Empty: nothing yet
                if idle and model and not box.get("moved"):
                    box["moved"] = True
                    table = live_table(made)
                    loop.call_soon_threadsafe(table.submit, 0, "0 peek 0 1")
                continue
            kind, content = message["msg_type"], message["content"]
            if kind == "error":
                raise AssertionError(content["evalue"])
            if kind == "stream" and content["text"].startswith("model"):
                _, model, thread_name = content["text"].split()
                assert thread_name == "MainThread"
            if kind == "status" and content["execution_state"] == "idle" and model:
                idle = True
            if (kind == "comm_msg" and idle and box.get("moved") and content["comm_id"] == model
                    and "Last move" in content["data"].get("state", {}).get("value", "")):
                updates.append(content["data"]["state"]["value"])
        assert updates and "Seat 1 (away) peeks" in updates[0], "the page's kernel sent no update after the cell ended"
        # the page told the table which kernel it runs in (its connection file's name)
        assert [getattr(page, "kernel", None) for page in live_table(made).pages] == [kernel_id]
    finally:
        client.stop_channels()
        kernel.shutdown_kernel(now=True)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


def test_a_quick_discard_in_progress_survives_another_seats_move(data):
    """LS-5 on a live table: "Done it!" is chosen, then another seat moves before the card
    is clicked; the choice stays, and the click is judged on the new position."""
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        page = await seat_page(api, made, seat_token(made, 1))
        table = live_table(made)
        for text in ("0 peek 0 1", "0 done", "1 peek 0 1", "1 done"):
            assert table.submit(int(text[0]), text).ok
        await until(lambda: page.links[0].state["version"] == 4, what="claims open")
        kind_button(page.open_moves, "Done it!").click()
        assert page.open_moves.kind == "claim"
        assert table.submit(0, "0 draw").ok                       # the table moves on meanwhile
        await until(lambda: page.links[0].state["version"] == 5, what="seat 0's draw")
        assert page.open_moves.kind == "claim"                    # still building the slap
        page.card_clicked(1, 0)                                   # its own card 0: judged now
        await until(lambda: len(table.match.moves) == 6, what="the claim")
        assert table.match.moves[-1].kind == "claim" and table.match.moves[-1].seat == 1
        # a claim half built stays while other moves change the offer under it (here the
        # DONE top, so every claim's serial); one finished on a top that has left since is
        # still sent by its Play click, for the table to judge (stale: returned, LS-5)
        await until(lambda: page.links[0].state["version"] == 6 and not page.links[0].pending, what="the answer")
        builder = page.open_moves

        async def done_top_changes():
            serial = builder.moves[0].args[2]
            for _ in range(20):
                seat = table.match.to_act()[0]
                moves = table.match.decision_moves(seat)
                move = next((m for kind in ("discard", "keep", "draw") for m in moves if m.kind == kind), moves[0])
                version = len(table.match.moves)
                assert table.submit(seat, str(move)).ok
                await until(lambda: page.links[0].state["version"] == version + 1, what="a move")
                if builder.moves and builder.moves[0].args[2] != serial:
                    return
            raise AssertionError("the DONE top never changed")

        kind_button(builder, "Done it!").click()
        builder.choose(0, 0)                                      # seat 0's list: a position to pick
        await done_top_changes()
        assert builder.kind == "claim" and builder.prefix == [0]  # still on offer: kept
        builder.choose(1, 2)                                      # position 2: the claim is finished
        assert not builder.play_button.disabled
        finished = str(builder._canonical[builder._complete()])
        await done_top_changes()
        assert builder.play_button.disabled                       # that top left: not on offer now
        assert builder.kind == "claim" and builder.prefix == []   # "Done it!" stays chosen
        moves = len(table.match.moves)
        builder.play_button.click()                               # pressed just before it left: sent
        await until(lambda: len(table.match.moves) == moves + 1, what="the stale claim")
        assert str(table.match.moves[-1]) == finished
        assert "came too late: returned, no penalty (LS-5)" in table.match.log_for(1)[-1][1]
        # the last-move line names the seat once (it read "Seat 2 (you): Seat 2's claim ...")
        await until(lambda: "came too late" in page.last_move.value, what="the last move")
        assert "Seat 2 (you)'s claim on seat 1's position 3 came too late" in html.unescape(page.last_move.value)
        page.close()
        server.stop()
    run(scenario)


MEETING = """
game = "chore_race"
seats = 3
seed = 2
moves = ["0 meeting"]

[setup]
hands = [
    ["Family Meeting", "Done", "Done", "Finally!", "Finally!"],
    ["Inspection", "Inspection", "Delegate", "Chore Swap", "Chore Swap"],
    ["Teamwork", "Teamwork", "Excuse", "I'll Do It Later", "I'll Do It Later"],
]
deck_top = ["Done"]
"""


def test_a_family_meeting_pass_in_progress_survives_another_seats_choice(data, tmp_path, monkeypatch):
    """CR-8 on a live table: everyone chooses at once, so another seat's commit comes while
    a person is picking; the picks stay, and Play sends them."""
    monkeypatch.setenv("PLAYTEST_SCENARIOS_DIR", str(tmp_path))
    (tmp_path / "meeting.toml").write_text(MEETING, encoding="utf-8")

    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await api.call("POST", "tables", {"scenario": "meeting", "players": ["human"] * 3}, key=True)
        table = live_table(made)
        page = await seat_page(api, made, seat_token(made, 1))
        board, builder = page.board, page.moves
        board.hand_clicked(1, 0)                                   # Inspection
        board.hand_clicked(1, 2)                                   # Delegate
        assert builder.kind == "give" and board.picked == [0, 2]
        assert table.submit(0, "0 give done done finally").ok      # seat 0 commits meanwhile
        await until(lambda: page.links[0].state["version"] == 2, what="seat 0's choice")
        assert builder.kind == "give" and board.picked == [0, 2]
        assert "So far you pass: Inspection, Delegate;" in builder.hint.value
        board.hand_clicked(1, 4)                                   # Chore Swap
        builder.play_button.click()
        await until(lambda: len(table.match.moves) == 3, what="seat 1's choice")
        assert str(table.match.moves[2]) == "1 give inspection delegate swap" and not page.banner.message
        # its own choice ends the decision: nothing of it is left to play again
        await until(lambda: page.links[0].state["version"] == 3, what="seat 1's own state")
        assert builder.kind is None and builder.moves == []
        page.close()
        server.stop()
    run(scenario)


def test_a_name_given_on_a_seat_page_reaches_the_table_and_every_page_and_the_tab_says_whose_turn(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api)
        first = await seat_page(api, made, seat_token(made, 0))
        second = await seat_page(api, made, seat_token(made, 1))
        table = live_table(made)
        assert first.you.layout.display is None and first.sound.value is False      # the beep is off at first
        # every seat peeks at once (LS-3): both tabs say so
        await until(lambda: first.signals.title == "● Your turn — Lazy Sunday", what="seat 0's turn in its tab")
        await until(lambda: second.signals.title == "● Your turn — Lazy Sunday", what="seat 1's turn in its tab")
        assert first.signals.beeps == 0       # sound off: no beep
        first.name_box.value = "<b>Ana</b>"
        first.save_name()
        assert "may not hold" in first.name_note.value and "&lt;" in first.name_note.value
        assert table.names == ["", ""] and first.signals.name == ""
        first.name_box.value = "Ana & Bo"[:3]
        first.save_name()
        await until(lambda: table.names[0] == "Ana", what="the name at the table")
        assert first.signals.name == "Ana"                    # kept in the browser (the front end saves it)
        await until(lambda: "Seat 1 · Ana · connected" in second.players.value, what="the name on the other page")
        assert second.seat_name(0) == "Seat 1 (Ana)" and first.seat_name(0) == "Seat 1 (you, Ana)"
        # a name the browser kept reaches the table with the join (a reload)
        second.signals.name = "Bo"
        await until(lambda: table.names[1] == "Bo", what="the second name")
        first.sound.value = True
        assert first.signals.sound is True
        assert table.submit(0, "0 peek 0 1").ok and table.submit(0, "0 done").ok
        await until(lambda: first.signals.title == "Lazy Sunday", what="seat 0's peek over")
        assert second.signals.title.startswith("● Your turn")      # seat 1 still peeks
        assert table.submit(1, "1 peek 0 1").ok and table.submit(1, "1 done").ok
        await until(lambda: first.signals.beeps == 1, what="the beep on seat 0's turn")
        # seat 0's link opened again where the browser kept no name: the table's fills the box
        again = await seat_page(api, made, seat_token(made, 0))
        assert again.name_box.value == ""                   # the browser has not said yet
        again.signals.loaded = True                         # it says: no name kept here
        assert again.name_box.value == "Ana" and again.signals.name == "Ana"    # kept in this browser too
        assert table.names[0] == "Ana"
        again.close()
        await until(lambda: "Seat 1 · Ana" in second.players.value, what="seat 0 still named")
        for page in (first, second):
            page.close()
        server.stop()
    run(scenario)


def test_a_list_of_tables_refreshes_while_its_page_is_used_and_skips_a_failed_refresh():
    from playtest.widgets.live import listing
    assert listing.players_text(["human", "heuristic", "human"]) == "1: person, 2: heuristic bot, 3: person"   # seats as people count them
    calls, active = [], [time.monotonic()]

    async def refresh():
        calls.append(len(calls))
        if len(calls) == 1:
            raise ConnectionError("the service is restarting")    # skipped: the next one retries
        if len(calls) == 3:
            active[0] = -1e9                                       # an hour without a click

    run_coroutine(asyncio.wait_for(listing.refresh_while_active(refresh, 0.01, lambda: active[0]), 10))
    assert calls == [0, 1, 2]


@pytest.mark.parametrize("line, said", [
    ("Seat 3 draws a card.", "Seat 3 (Bo) draws a card."),
    ("Seat 3's claim on seat 1's position 3 came too late", "Seat 3 (Bo)'s claim on seat 1's position 3 came too late"),
    ("Done it! Seat 3 quick-discards its own position 1: Feed the Fish (2).",
     "Done it! Seat 3 (Bo) quick-discards its own position 1: Feed the Fish (2)."),
    ("Round 2: seat 1 starts.", "Seat 3 (Bo): Round 2: seat 1 starts."),
    ("Done it! Seat 2 quick-discards seat 3's position 1.", "Seat 3 (Bo): Done it! Seat 2 quick-discards seat 3's position 1."),
    # a private line for the seat that made the move already says "(you)" (Night Shift,
    # Crazy Eights): the page's name for it stands in for both, once
    ("Seat 3 (you) draws 2♦.", "Seat 3 (Bo) draws 2♦."),
])
def test_the_last_move_line_names_its_seat_once(line, said):
    # the seat's name takes the place of the game's own "Seat 3", after a cry such as
    # "Done it!" too; a line led by another seat or none keeps the name before it
    assert live_seat.name_once(line, 2, "Seat 3 (Bo)") == said
