"""The table service's HTTP API and websocket, on a real Tornado server on 127.0.0.1."""
from __future__ import annotations

import asyncio
import gc
import html
import json
import os
import socket
import weakref

import pytest
import tornado.httpclient
import tornado.web
import tornado.websocket
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from browser_support import run_coroutine
from playtest.tables import web
from playtest.tables.service import TableService


@pytest.fixture
def server(tmp_path, monkeypatch):
    """Start a server of the table handlers; yields an async helper ``call``."""
    monkeypatch.setattr(web, "_service", TableService(tmp_path))
    monkeypatch.setenv(web.KEY_VARIABLE, "server-key")
    yield tmp_path
    web.shutdown()


async def start(login=None):
    app = tornado.web.Application(web.table_handlers("/", login))
    sockets = bind_sockets(0, "127.0.0.1")
    server = HTTPServer(app)
    server.add_sockets(sockets)
    return server, f"127.0.0.1:{sockets[0].getsockname()[1]}"


async def call(address, method, path, body=None, token=None, headers=None):
    client = tornado.httpclient.AsyncHTTPClient()
    headers = {"Content-Type": "application/json", **(headers or {})}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    response = await client.fetch(f"http://{address}/playtest/api/{path}", method=method, raise_error=False,
                                  body=None if body is None else json.dumps(body), headers=headers)
    return response.code, json.loads(response.body) if response.body else None


async def receive(ws, kind):
    """The next message of ``kind`` (skipping others), within 5 s."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.read_message(), 5))
        if message["type"] == kind:
            return message


def test_lobby_api_tables_moves_and_websockets(server):
    async def scenario():
        http, address = await start()
        code, games = await call(address, "GET", "games")
        assert code == 200 and {g["name"] for g in games["games"]} >= {"lazy_sunday", "chore_race"}
        code, made = await call(address, "POST", "tables", {"game": "chore_race", "seats": 2,
                                                             "players": ["human", "human"], "seed": 7})
        assert code == 201
        tid, tokens = made["id"], [s["token"] for s in made["seats"]]
        code, listing = await call(address, "GET", "tables")
        assert listing["tables"][0]["id"] == tid and listing["tables"][0]["free"] == []   # both links made

        sockets = []
        for token in tokens:
            ws = await tornado.websocket.websocket_connect(f"ws://{address}/playtest/api/tables/{tid}/ws")
            ws.write_message(json.dumps({"type": "join", "token": token}))
            welcome = await receive(ws, "welcome")
            sockets.append((ws, welcome, await receive(ws, "state")))
        (ws0, welcome0, state0), (ws1, _, state1) = sockets
        assert welcome0["seat"] == 0 and welcome0["role"] == "seat"
        assert state0["view"] != state1["view"]                 # each its own seat's view
        seat = state0["to_act"][0]
        mover, mover_state = (ws0, state0) if seat == 0 else (ws1, state1)
        other = ws1 if seat == 0 else ws0
        move = mover_state["moves"][0]
        mover.write_message(json.dumps({"type": "move", "id": "m1", "move": move,
                                        "version": mover_state["version"]}))
        seen = await receive(other, "update")                     # the other page, without a click
        assert seen["version"] == 1 and seen["last_move"]["seat"] == seat and "text" not in seen["last_move"]
        result = await receive(mover, "result")
        assert result == {"type": "result", "id": "m1", "ok": True, "log": result["log"]}

        # the same through HTTP: state and a refused move
        code, state = await call(address, "GET", f"tables/{tid}/state", token=tokens[0])
        assert code == 200 and state["seat"] == 0 and state["version"] == 1
        code, refused = await call(address, "POST", f"tables/{tid}/moves", {"move": "0 fly", "id": "x"},
                                   token=tokens[0])
        assert code == 409 and refused["ok"] is False and refused["error"]
        code, early = await call(address, "GET", f"tables/{tid}/record", token=made["host_token"])
        assert code == 409 and "once the game is over" in early["error"]
        code, denied = await call(address, "GET", f"tables/{tid}/record", token=tokens[0])
        assert code == 403

        code, missing = await call(address, "GET", "tables/zzzz/state", token=tokens[0])
        assert code == 404 and "there is no table with this id" in missing["error"]
        # a bad token is refused with a plain sentence, then closed
        bad = await tornado.websocket.websocket_connect(f"ws://{address}/playtest/api/tables/{tid}/ws")
        bad.write_message(json.dumps({"type": "join", "token": "forged"}))
        closed = await receive(bad, "closed")
        assert "not valid for this table" in closed["reason"]
        assert await asyncio.wait_for(bad.read_message(), 5) is None

        # a connected person's seat goes to a bot only with "force"; their page sees it
        host = lambda body: call(address, "POST", f"tables/{tid}/host", body, token=made["host_token"])
        assert (await host({"action": "pause"}))[0] == 200     # the bot must not move before the end below
        code, refused = await host({"action": "bot", "seat": 1, "bot": "random"})
        assert code == 409 and refused["error"].startswith('seat 2 ("seat": 1) is connected: a person is playing it')
        assert '"force": true' in refused["error"]
        code, _ = await host({"action": "bot", "seat": 1, "bot": "random", "force": True})
        assert code == 200
        seen = await receive(ws1, "update")
        while seen["players"][1]["player"] == "human":          # the states of the pause, then the handover
            seen = await receive(ws1, "update")
        assert seen["players"][1] == {"seat": 1, "player": "random", "connected": True, "person": True,
                                      "name": ""} and seen["moves"] == []

        # a seat's person gives a name on its websocket; a name with markup is refused in a sentence
        ws0.write_message(json.dumps({"type": "name", "name": "<i>Ana</i>"}))
        assert (await receive(ws0, "error"))["error"].startswith("your name was not kept: a name may not hold")
        ws0.write_message(json.dumps({"type": "name", "name": "Ana"}))
        seen = await receive(ws1, "update")
        assert seen["players"][0]["name"] == "Ana"

        # the host ends the table: every page is told, the record is handed out
        code, _ = await call(address, "POST", f"tables/{tid}/host", {"action": "end"}, token=made["host_token"])
        assert code == 200
        assert (await receive(ws0, "closed"))["reason"] == "the host ended this table"
        code, record = await call(address, "GET", f"tables/{tid}/record", token=made["host_token"])
        assert code == 200 and record["moves"] == [move]
        # the list shows the tables being played; an ended one only when asked for
        assert (await call(address, "GET", "tables"))[1]["tables"] == []
        for status in ("ended", "all", "over,ended"):
            code, listing = await call(address, "GET", f"tables?status={status}")
            assert code == 200 and [t["id"] for t in listing["tables"]] == [tid], status
        assert (await call(address, "GET", "tables?status=over"))[1]["tables"] == []
        code, error = await call(address, "GET", "tables?status=gone")
        assert code == 400 and "unknown status 'gone'" in error["error"]
        code, export = await call(address, "GET", "export")
        assert code == 403
        code, export = await call(address, "GET", "export", headers={"X-Playtest-Key": "server-key"})
        assert code == 200 and export["tables"][0]["table"] == tid
        http.stop()

    run_coroutine(scenario())


def test_a_page_joining_with_its_kernel_id_shows_disconnected_while_that_kernel_has_no_browser(server):
    async def scenario():
        http, address = await start()
        code, made = await call(address, "POST", "tables", {"game": "chore_race", "seats": 2,
                                                             "players": ["human", "human"], "seed": 7})
        tid, tokens = made["id"], [s["token"] for s in made["seats"]]
        sockets = []
        for seat, token in enumerate(tokens):
            ws = await tornado.websocket.websocket_connect(f"ws://{address}/playtest/api/tables/{tid}/ws")
            ws.write_message(json.dumps({"type": "join", "token": token, "kernel": f"kernel-of-seat-{seat}"}))
            await receive(ws, "welcome")
            sockets.append(ws)
        state = await receive(sockets[0], "state")
        while not state["players"][1]["connected"]:
            state = await receive(sockets[0], "update")
        web.pages_without_browser(["kernel-of-seat-1"])          # what the kernel reaper says
        assert (await receive(sockets[0], "update"))["players"][1]["connected"] is False
        web.pages_without_browser([])                             # that browser is back
        assert (await receive(sockets[0], "update"))["players"][1]["connected"] is True
        assert (await receive(sockets[1], "update"))["players"][1]["connected"] is True   # what it missed, in one update
        http.stop()

    run_coroutine(scenario())


def test_a_login_protected_lobby_asks_for_the_login_or_the_key(server):
    async def scenario():
        http, address = await start(login=lambda handler: handler.request.headers.get("Authorization") == "token t")
        code, error = await call(address, "GET", "tables")
        assert code == 403 and "login" in error["error"]
        assert (await call(address, "GET", "tables", headers={"Authorization": "token t"}))[0] == 200
        assert (await call(address, "GET", "tables", headers={"X-Playtest-Key": "server-key"}))[0] == 200
        assert (await call(address, "GET", "tables", headers={"X-Playtest-Key": "wrong"}))[0] == 403
        http.stop()

    run_coroutine(scenario())


@pytest.mark.parametrize("body, status, words", [
    (b"not json", 400, "not JSON"),
    (b"x" * (web.BODY_LIMIT + 1), 413, "larger than"),
    (b'{"game": "lazy_sunday", "seats": 2, "players": ["human", 3]}', 400, "players must be a list"),
    (b'{"game": "lazy_sunday", "seats": 2, "options": {"max_turns": 99999999999999999999999999999999999999999999}}', 400, "digits"),
    (b'{"game": ' + b"[" * 200 + b"]" * 200 + b"}", 400, "nested"),
    # a sentence about the request, not a file's "the request body: it has ..."
    (b'{"game": "lazy_sunday", "seed": 1234567890123456789012345678901234567890123456}', 400,
     "the request body has a number of 46 digits; numbers may have at most 40 digits"),
    (b'{"game":\n\n' + b"[" * 40 + b"]" * 40 + b"}", 400,
     "the request body (line 3) is nested more than 32 levels deep; at most 32 levels"),
    (b"", 400, 'the body needs a "game": one of chore_race, '),
    (b'{"game": "lazy_sunday", "seats": 3, "scenario": "chore_race_winning_chore"}', 400,
     'this is a Chore Race scenario, not a Lazy Sunday one; leave "game" out or send "game": "chore_race"'),
    # issue 25: one such table froze the server; game lengths a session can use
    (b'{"game": "night_shift", "seats": 2, "players": ["human", "ismcts:99999999"], "options": {"first_player": 1}}',
     400, "a search budget of 99,999,999 iterations a decision is over this table's limit: at most 20,000 iterations"),
    (b'{"game": "lazy_sunday", "seats": 2, "options": {"rounds": 10000000000000000000}}', 400,
     "rounds: must be 20 or less (got 10000000000000000000). Allowed: rounds (default 1) LS-10: number of rounds, "
     "1 to 20"),
    (b'{"game": "lazy_sunday", "seats": 2, "options": {"max_turns": 10001}}', 400,
     "max_turns: must be 10000 or less (got 10001). Allowed: max_turns (default 1000) G-4: safety cap, 1 to 10,000"),
])
def test_bad_requests_get_one_sentence(server, body, status, words):
    async def scenario():
        http, address = await start()
        client = tornado.httpclient.AsyncHTTPClient()
        response = await client.fetch(f"http://{address}/playtest/api/tables", method="POST", body=body,
                                      headers={"Content-Type": "application/json"}, raise_error=False)
        http.stop()
        return response

    response = run_coroutine(scenario())
    assert response.code == status and words in json.loads(response.body)["error"]
    assert web.service().tables == {}                  # nothing was created


def test_host_refusals_say_what_is_missing_and_change_nothing(server):
    """Found by a fresh user: refusals said "unknown action None" and "seat None is not a
    seat", and {"action": "bot", "seat": 2} made the bot's seat 2 a person's seat with no
    link, free in the lobby."""
    async def scenario():
        http, address = await start()
        made = (await call(address, "POST", "tables", {"game": "lazy_sunday", "seats": 3,
                                                       "players": ["human", "human", "heuristic"]}))[1]
        host = lambda body: call(address, "POST", f"tables/{made['id']}/host", body, token=made["host_token"])
        before = await call(address, "GET", "tables")
        answers = []
        for body in [{}, [], {"action": None}, {"action": "fly"}, {"action": "pace"}, {"action": "bot"},
                     {"action": "bot", "seat": 2}, {"action": "bot", "seat": 2, "bot": "heuristic"},
                     {"action": "bot", "seat": 2, "bot": "human"}]:
            answers.append(await host(body))
            assert await call(address, "GET", "tables") == before, body          # nothing changed
        http.stop()
        return answers

    answers = run_coroutine(scenario())
    actions = "one of pause, resume, pace, bot, timer, continue, end"
    assert answers == [(400, {"error": error}) for error in [
        f'the body needs an "action": {actions}', f'the body needs an "action": {actions}',
        f'the body needs an "action": {actions}', f'unknown action \'fly\'; "action" is {actions}',
        'the body needs a "pace": one of instant, fast, human, slow',
        'the body needs a "seat": a whole number 0 to 2',
        'the body needs a "bot": one of random, gentle, heuristic, ismcts, or "human" to hand a person\'s seat back to them',
        'seat 3 ("seat": 2) is already played by the heuristic bot',
        'seat 3 ("seat": 2) was made for a bot and has no person\'s link, so no person can play it; it may be handed to '
        "another bot (random, gentle, heuristic, ismcts)"]]
    players = web.service().tables[next(iter(web.service().tables))].players
    assert players == ["human", "human", "heuristic"]


def test_fields_of_the_wrong_type_get_a_sentence_never_a_server_error(server):
    """Found by a fresh user: a pace or a move id sent as an object made the server fail
    (500, unhashable dict) instead of saying what is wrong."""
    async def scenario():
        http, address = await start()
        code, error = await call(address, "POST", "tables", {"game": "lazy_sunday", "seats": 2, "pace": {"a": 1}})
        assert code == 400 and "unknown bot pace" in error["error"], error
        made = (await call(address, "POST", "tables", {"game": "lazy_sunday", "seats": 2, "players": ["human"] * 2}))[1]
        host = {"Authorization": f"Bearer {made['host_token']}"}
        code, error = await call(address, "POST", f"tables/{made['id']}/host", {"action": "pace", "pace": ["fast"]},
                                 headers=host)
        assert code == 400 and "unknown bot pace" in error["error"], error
        seat = {"Authorization": f"Bearer {made['seats'][0]['token']}"}
        code, answer = await call(address, "POST", f"tables/{made['id']}/moves",
                                  {"move": "0 peek 0 1", "id": {"a": 1}}, headers=seat)
        assert code == 409 and "id must be a string" in answer["error"], answer
        code, answer = await call(address, "POST", f"tables/{made['id']}/moves",
                                  {"move": "0 peek 0 1", "version": "x"}, headers=seat)
        assert code == 400 and "version must be a whole number" in answer["error"], answer
        assert web.service().tables[made["id"]].match.moves == []             # nothing was played
        http.stop()

    run_coroutine(scenario())


def test_the_server_and_its_kernels_read_one_scenarios_folder(tmp_path, monkeypatch):
    """A kernel runs in its dashboard's folder, the server where it was started: the
    server names the dashboards' scenarios folder for both (unless one is named)."""
    from playtest.scenarios import SCENARIOS_DIR_ENV, scenarios_dir
    monkeypatch.setenv(SCENARIOS_DIR_ENV, "")       # restored afterwards
    web.publish_scenarios_dir(tmp_path / "dashboards")
    assert scenarios_dir() == tmp_path / "dashboards" / "scenarios"
    web.publish_scenarios_dir(tmp_path / "elsewhere")    # already named: kept
    assert scenarios_dir() == tmp_path / "dashboards" / "scenarios"


def test_a_table_pages_link_is_judged_by_the_service_before_any_kernel(tmp_path, monkeypatch):
    """What playtest serve's page handler asks before a table page takes a kernel
    (web.judge_table_page): every token of the link must be one of the named table's,
    and the refusal says why in the service's words, as the page's kernel would."""
    from playtest.tables import pages
    service = TableService(tmp_path)
    monkeypatch.setattr(web, "_service", service)
    made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "human"], "seed": 3})
    tid, seat0, seat1 = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    # the right links: a seat, the spectator, the host, hotseat (repeated or comma-joined tokens)
    for query in (made["seats"][0]["path"].split("?", 1)[1], made["spectator_path"].split("?", 1)[1],
                  f"table={tid}&token={made['host_token']}",
                  f"?table={tid}&token={made['spectator_token']},{seat0},{seat1}",
                  f"table={tid}&token={seat0}&token={seat1}", f"table={tid}&table={tid}&token={seat0}"):
        assert web.judge_table_page(query) is None, query
    assert service.awaited_pages() == 0                 # both seats' pages are on their way
    refused = {
        f"table={tid}&token=wrong": (403, "not valid for this table"),
        f"table={tid}&token={seat0},wrong": (403, "not valid for this table"),   # hotseat with one bad token
        f"table={tid}&token=": (403, "names a table but holds no token (token=… is missing"),
        f"table={tid}": (403, "names a table but holds no token (token=… is missing"),
        f"token={seat0}": (404, "holds a token but names no table (table=… is missing"),
        "": (404, "needs a table and a token"),
        f"table=nosuch&token={seat0}": (404, "no table with this id"),
        f"table={tid}&table=other&token={seat0}": (404, "more than one table"),
        "table=%3Cscript%3Ealert(1)%3C/script%3E&token=x": (404, "no table with this id"),
        f"table={tid}&token=%3Cscript%3E": (403, "not valid for this table"),
        f"table={tid}&token=%FF%FE": (403, "not valid for this table"),          # not UTF-8: no 400
        f"table={tid}&token={'x' * 101}": (403, "no valid table token"),
        f"table={'a' * 101}&token=x": (404, "no table at this address"),
        f"table={tid}&token=" + ",".join(f"t{i}" for i in range(17)): (403, "at most 16"),
    }
    for query, (status, words) in refused.items():
        refusal = web.judge_table_page(query)
        assert refusal is not None and refusal.status == status and words in refusal.reason, (query, refusal)
        page = pages.refusal_page(refusal)
        assert "<script" not in page.lower() and pages.TITLE in page and "href=\"lobby.ipynb\"" in page
        assert html.unescape(page).count(pages.sentence(refusal.reason)) == 1
    service.close()


def test_a_body_over_the_limit_is_refused_before_it_is_read(server):
    """Issue 25: bodies up to 100 MB were read whole before the 64 KiB limit was checked.
    A request announcing 90 MiB and sending a few bytes gets its 413 at once."""
    async def scenario():
        http, address = await start()
        host, port = address.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"POST /playtest/api/tables HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {90 * 1024 * 1024}\r\n\r\n".encode() + b'{"game": "lazy_sunday"')
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 5)      # answered and closed, the rest never sent
        writer.close()
        http.stop()
        return answer

    answer = run_coroutine(scenario())
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    assert json.loads(body) == {"error": "the request body (94,371,840 bytes) is larger than 64 KiB, the most the "
                                         "table service takes; none of it was read"}
    assert web.service().tables == {}


def _frame(text: str) -> bytes:
    """One masked websocket text frame, as a client sends it (RFC 6455 5.2)."""
    payload, mask = text.encode(), os.urandom(4)
    size = bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    return bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _frames(data: bytes) -> list[tuple[int, bytes]]:
    """The (opcode, payload) of the unmasked frames a server sent."""
    frames, at = [], 0
    while at + 2 <= len(data):
        opcode, size, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
        if size == 126:
            size, at = int.from_bytes(data[at:at + 2], "big"), at + 2
        elif size == 127:
            size, at = int.from_bytes(data[at:at + 8], "big"), at + 8
        frames.append((opcode, data[at:at + size]))
        at += size
    return frames


def test_a_client_that_does_not_read_is_dropped_with_a_reason_and_resyncs_when_it_comes_back(server, monkeypatch):
    """Issue 25: nothing bounded what was queued for a client that does not read (the
    server grew to 2.3 GB in 40 s). Past the bound the page is dropped: the table forgets
    it at once, its connection is closed with code 4000 and a reason, and its next join
    gets the full state."""
    monkeypatch.setattr(web, "QUEUE_LIMIT", 4096)

    async def scenario():
        loop = asyncio.get_running_loop()
        http, address = await start()
        code, made = await call(address, "POST", "tables", {"game": "lazy_sunday", "seats": 4, "seed": 1,
                                                             "players": ["random"] * 4, "pace": "instant",
                                                             "options": {"rounds": 20}})
        assert code == 201
        tid = made["id"]
        table = web.service().tables[tid]
        host, port = address.split(":")
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)     # a small window: the server's side fills
        raw.setblocking(False)
        await loop.sock_connect(raw, (host, int(port)))
        await loop.sock_sendall(raw, (f"GET /playtest/api/tables/{tid}/ws HTTP/1.1\r\nHost: {address}\r\n"
                                      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += await loop.sock_recv(raw, 1)                       # the answer's head, not a byte more
        assert head.startswith(b"HTTP/1.1 101")
        await loop.sock_sendall(raw, _frame(json.dumps({"type": "join", "token": made["spectator_token"]})))
        await until(lambda: table.pages, "the join")
        page = table.pages[0]
        # the bots play on while the page is connected, and it asks for full states again and
        # again (a resync each): it reads nothing
        for _ in range(3000):
            if page.dropped:
                break
            await loop.sock_sendall(raw, _frame(json.dumps({"type": "resync"})) * 8)   # 8 full states asked
            await asyncio.sleep(0.01)
        await until(lambda: page.dropped, "the drop", timeout=30)
        moves = len(table.match.moves)
        await until(lambda: not table.pages, "the table forgetting the page")
        assert page.queued < web.QUEUE_LIMIT + 65536         # the bound, and the last message written (a full state)
        # reading again: what was queued, then the close frame with its reason
        data, close = b"", []
        while not close:
            chunk = await asyncio.wait_for(loop.sock_recv(raw, 65536), 10)
            assert chunk, "the connection ended without a close frame"
            data += chunk
            close = [payload for opcode, payload in _frames(data) if opcode == 0x8]
        raw.close()
        # nothing keeps the closed page (its queue went with it)
        gone, page = weakref.ref(page), None
        await until(lambda: gc.collect() is not None and gone() is None, "the closed page to be released")
        assert close and int.from_bytes(close[0][:2], "big") == web.BEHIND == 4000
        assert close[0][2:].decode() == web.BEHIND_REASON
        assert "behind the table; reconnect" in web.BEHIND_REASON
        # it comes back: a join is a full resync
        ws = await tornado.websocket.websocket_connect(f"ws://{address}/playtest/api/tables/{tid}/ws")
        ws.write_message(json.dumps({"type": "join", "token": made["spectator_token"]}))
        await receive(ws, "welcome")
        state = await receive(ws, "state")
        assert state["version"] >= moves and len(state["log"]) >= moves
        ws.close()
        http.stop()

    run_coroutine(scenario())


async def until(condition, what: str, timeout: float = 10.0) -> None:
    """Let the loop run until ``condition()`` holds; fail after ``timeout`` s."""
    end = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


def test_the_server_answers_while_a_search_bot_thinks_and_its_move_comes_later(server):
    """Issue 25: a table with a search bot to move first, pace instant, then one state
    request froze every later request. Now /games is answered while the bot is still
    thinking (in a worker process: the table has no move yet), and the move comes later."""
    async def scenario():
        http, address = await start()
        made = (await call(address, "POST", "tables", {
            "game": "night_shift", "seats": 2, "players": ["human", "ismcts:5000ms"],
            "options": {"first_player": 1}, "pace": "instant"}))[1]
        token = made["seats"][0]["token"]
        table = web.service().tables[made["id"]]
        first = await call(address, "GET", f"tables/{made['id']}/state", token=token)   # the bot starts thinking
        games = await call(address, "GET", "games")
        thinking = (table._decision is not None and table._decision.move is None, len(table.match.moves))
        later = first
        for _ in range(300):
            later = await call(address, "GET", f"tables/{made['id']}/state", token=token)
            if later[1]["version"] > 0:
                break
            await asyncio.sleep(0.1)
        http.stop()
        return first, games, thinking, later

    first, games, thinking, later = run_coroutine(scenario())
    assert first[0] == 200 and first[1]["version"] == 0 and first[1]["to_act"] == [1]
    assert games[0] == 200 and "night_shift" in {game["name"] for game in games[1]["games"]}
    assert thinking == (True, 0)                     # answered while the bot was still deciding
    assert later[1]["version"] == 1 and later[1]["last_move"]["by_bot"] and later[1]["last_move"]["seat"] == 1
