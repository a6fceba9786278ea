"""Every hostile body sent to the lobby API gets a 4xx with a sentence, never a 500:
wrong types at every key, huge and nested JSON, lone surrogates, NaN and Infinity,
duplicate keys (hypothesis, against the real handlers on 127.0.0.1). Seeds' own limits
are another test's (tests/test_hostile_inputs.py): seeds here stay below 2**63."""
from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request

import pytest
import tornado.web
from hypothesis import HealthCheck, given, settings, strategies as st
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from playtest.engine import get_game
from playtest.tables import guard, service as service_module, web
from playtest.tables.service import TableService

GAMES = ("lazy_sunday", "night_shift", "chore_race")
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-2**40, 2**40), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.sampled_from(["\ud800", "a\udfffb", "human", "random", "heuristic", *GAMES, "fast",
                                           "pause", "bot", "end", "x" * 3000]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=6) | st.just("\ud800"), inner, max_size=4), max_leaves=10)
BASE = {"game": "lazy_sunday", "seats": 2, "players": ["human", "human"], "options": {}, "preset": None, "seed": 1,
        "pace": "slow", "listed": True, "reaction_limit": None, "open_seats": [1], "scenario": None}
OPTIONS = {g: sorted(get_game(g).validate_options({}).model_dump()) for g in GAMES}
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def lobby(tmp_path_factory):
    """The table handlers on their own thread's event loop; yields ``post(path, body,
    token) -> (status, answer)`` and the table made for the per-table addresses."""
    service = TableService(tmp_path_factory.mktemp("tables"))
    saved = web._service, web._creations, service_module.CLIENT_SHARE
    web._service, web._creations = service, guard.CreationLimit(burst=10**9)
    service_module.CLIENT_SHARE = 10**9      # every body here comes from one client
    loop = asyncio.new_event_loop()
    sockets = bind_sockets(0, "127.0.0.1")
    ready = threading.Event()

    def run():
        asyncio.set_event_loop(loop)
        HTTPServer(tornado.web.Application(web.table_handlers("/"))).add_sockets(sockets)
        loop.call_soon(ready.set)
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    base = f"http://127.0.0.1:{sockets[0].getsockname()[1]}/playtest/api"

    def post(path, body, token=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        request = urllib.request.Request(f"{base}/{path}", data=data, method="POST",
                                         headers={"Content-Type": "application/json"})
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    status, made = post("tables", {"game": "chore_race", "seats": 2, "players": ["human", "human"],
                                   "open_seats": [1], "pace": "slow"})
    assert status == 201, made
    yield post, made
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
    web._service, web._creations, service_module.CLIENT_SHARE = saved
    service.close()


def refused_plainly(status: int, answer, longest: int = 2000) -> bool:
    """A 4xx with one sentence (at most ``longest`` characters: a hostile value is not
    echoed whole), or a success: never a server error."""
    if status < 400:
        return True
    return status < 500 and isinstance(answer.get("error"), str) and 0 < len(answer["error"]) <= longest


@FUZZ
@given(key=st.sampled_from(sorted(BASE)), value=VALUES, game=st.sampled_from(GAMES))
def test_a_create_body_with_any_value_at_any_key_is_answered_plainly(lobby, key, value, game):
    post, _ = lobby
    if key == "seed" and isinstance(value, int) and abs(value) >= 2**63:
        value = 1
    body = {**BASE, "game": game, key: value}
    if body["scenario"] is None:
        del body["scenario"]
    status, answer = post("tables", body)
    # the seed's own message is tests/test_hostile_inputs.py's (another engineer's work)
    assert refused_plainly(status, answer, 10**6 if key == "seed" else 2000), (body, status, answer)


@FUZZ
@given(game=st.sampled_from(GAMES), data=st.data(), value=VALUES)
def test_options_of_any_type_are_answered_plainly(lobby, game, data, value):
    post, _ = lobby
    body = {**BASE, "game": game, "options": {data.draw(st.sampled_from(OPTIONS[game])): value}}
    del body["scenario"]
    status, answer = post("tables", body)
    assert refused_plainly(status, answer), (body, status, answer)


@FUZZ
@given(where=st.sampled_from(["join", "host", "moves", "feedback"]), body=VALUES,
       fields=st.dictionaries(st.sampled_from(["seat", "action", "pace", "bot", "force", "move", "id", "version",
                                               "rating", "confused", "notes"]), VALUES, max_size=4))
def test_bodies_of_a_tables_addresses_are_answered_plainly(lobby, where, body, fields):
    post, made = lobby
    token = {"host": made["host_token"], "moves": made["seats"][0]["token"],
             "feedback": made["seats"][0]["token"]}.get(where)
    for sent in (body, fields):
        if where == "host" and isinstance(sent, dict) and sent.get("action") == "end":
            sent = {**sent, "action": "pause"}       # the table stays for the other examples
        status, answer = post(f"tables/{made['id']}/{where}", sent, token)
        assert refused_plainly(status, answer), (where, sent, status, answer)


@pytest.mark.parametrize("raw, words", [
    (b'{"game": "lazy_sunday", "preset": ["quick"]}', "unknown preset ['quick']"),
    (b'{"game": "lazy_sunday", "preset": {"a": 1}}', "unknown preset"),
    (b'{"game": "lazy_sunday", "scenario": "\\ud800"}', "lone surrogate"),
    (b'{"game": "lazy_sunday", "reaction_limit": NaN}', "NaN or Infinity"),
    (b'{"game": "lazy_sunday", "reaction_limit": -Infinity}', "NaN or Infinity"),
    (b'{"game": "lazy_sunday", "game": [1]}', "unknown game [1]"),          # the last of duplicate keys
    (b'{"\\udc00": 1}', "lone surrogate"),
    (b'[' * 10_000, "nested more than"),
    (b'"' + b"x" * 60_000 + b'"', "texts may be at most 10,000 characters"),
], ids=["preset list", "preset object", "surrogate", "NaN", "Infinity", "duplicate keys", "surrogate key",
        "deep", "long string"])
def test_hostile_raw_bodies_get_a_sentence(lobby, raw, words):
    post, _ = lobby
    status, answer = post("tables", raw)
    assert 400 <= status < 500 and words in answer["error"], (status, answer)


def test_feedback_with_a_lone_surrogate_is_refused_and_good_feedback_is_then_stored(lobby):
    post, _ = lobby
    status, made = post("tables", {"game": "night_shift", "seats": 2, "players": ["human", "human"]})
    assert status == 201
    assert post(f"tables/{made['id']}/host", {"action": "end"}, made["host_token"])[0] == 200
    seat = made["seats"][0]["token"]
    status, refused = post(f"tables/{made['id']}/feedback", {"notes": "\ud800"}, seat)
    assert status == 400 and "lone surrogate" in refused["error"], refused
    assert post(f"tables/{made['id']}/feedback", {"rating": 4, "notes": "fine"}, seat) == (200, {"ok": True})
    assert [(f["rating"], f["notes"]) for f in web.service().store.feedback(made["id"])] == [(4, "fine")]
