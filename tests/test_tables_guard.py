"""Who may change things through the table service (playtest.tables.guard): JSON bodies
only, Host and Origin of this server or allowed ones, Jupyter's XSRF check under Jupyter
Server, table creation rate-limited per client, tables nobody opened expire, and the cap
never locks everyone out."""
from __future__ import annotations

import json
import time

import pytest
import tornado.httpclient
import tornado.web
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from browser_support import run_coroutine
from playtest.tables import guard, service as service_module, web
from playtest.tables.service import ServiceError, TableService

SPEC = {"game": "night_shift", "seats": 2, "players": ["human", "human"], "seed": 1}


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setattr(web, "_service", TableService(tmp_path))
    monkeypatch.setattr(web, "_creations", guard.CreationLimit())
    monkeypatch.setenv(web.KEY_VARIABLE, "server-key")
    yield tmp_path
    web.shutdown()


async def start(**settings):
    app = tornado.web.Application(web.table_handlers("/", settings.pop("login", None)), **settings)
    sockets = bind_sockets(0, "127.0.0.1")
    http = HTTPServer(app)
    http.add_sockets(sockets)
    return http, f"127.0.0.1:{sockets[0].getsockname()[1]}"


async def post(address, path, body=SPEC, **headers):
    headers = {"Content-Type": "application/json", **{k.replace("_", "-"): v for k, v in headers.items()}}
    response = await tornado.httpclient.AsyncHTTPClient().fetch(
        f"http://{address}/playtest/api/{path}", method="POST", raise_error=False, headers=headers,
        body=body if isinstance(body, bytes) else json.dumps(body))
    return response.code, json.loads(response.body), response.headers


def test_a_page_of_another_site_cannot_create_a_table(server):
    async def scenario():
        http, address = await start()
        port = address.split(":")[1]
        # what fetch(..., {mode: "no-cors"}) may send: a text/plain (or form) body
        code, error, _ = await post(address, "tables", json.dumps(SPEC).encode(), Content_Type="text/plain")
        assert code == 415 and "Content-Type: application/json" in error["error"] and "'text/plain'" in error["error"]
        code, error, _ = await post(address, "tables", json.dumps(SPEC).encode(),
                                    Content_Type="application/x-www-form-urlencoded")
        assert code == 415
        # a JSON body from a page of another site (its Origin), or of the same port on another name
        for origin in ("http://evil.example", f"http://localhost:{port}", "null"):
            code, error, _ = await post(address, "tables", Origin=origin)
            assert code == 403 and "another site" in error["error"], (origin, error)
        # another site's name pointed at this machine (DNS rebinding): same origin, foreign Host
        code, error, _ = await post(address, "tables", Origin="http://evil.example:80", Host="evil.example:80")
        assert code == 403 and "does not answer to the address 'evil.example'" in error["error"]
        assert web.service().tables == {}                   # nothing was created
        # its own pages (same origin), scripts and kernels (no Origin) may
        assert (await post(address, "tables", Origin=f"http://{address}"))[0] == 201
        assert (await post(address, "tables"))[0] == 201
        assert (await post(address, "tables", Host=f"localhost:{port}"))[0] == 201
        http.stop()

    run_coroutine(scenario())


def test_allowed_origins_let_a_proxys_address_in(server):
    async def scenario():
        http, address = await start(**{guard.ALLOW_ORIGINS: ["https://games.example.org"]})
        code, _, _ = await post(address, "tables", Origin="https://games.example.org", Host="127.0.0.1:1")
        assert code == 201
        code, _, _ = await post(address, "tables", Origin="https://games.example.org", Host="games.example.org")
        assert code == 201                        # a proxy that keeps the public Host
        assert (await post(address, "tables", Origin="https://other.example.org"))[0] == 403
        http.stop()
        # Jupyter Server's own settings
        http, address = await start(allow_origin_pat=r"https://.*\.binder\.example")
        assert (await post(address, "tables", Origin="https://hub.binder.example"))[0] == 201
        assert (await post(address, "tables", Origin="https://hub.binder.example.evil"))[0] == 403
        http.stop()

    run_coroutine(scenario())


def test_under_jupyter_servers_xsrf_check_a_request_without_header_credentials_needs_the_token(server):
    async def scenario():
        # Jupyter Server's settings turn XSRF cookies on; a server without a login token
        # lets everyone in (login True), so only the XSRF check stops a page's request
        http, address = await start(xsrf_cookies=True, cookie_secret="s", login=lambda handler: True)
        code, error, _ = await post(address, "tables")
        assert code == 403 and "XSRF" in error["error"], error
        assert (await post(address, "tables", Cookie="_xsrf=abcd1234", X_XSRFToken="abcd1234"))[0] == 201
        # a kernel (the server key) and a table token need none: no page can send those
        assert (await post(address, "tables", X_Playtest_Key="server-key"))[0] == 201
        made = next(iter(web.service().tables.values()))
        code, error, _ = await post(address, f"tables/{made.id}/host", {"action": "pause"}, Authorization="Bearer x")
        assert code == 403 and "not valid for this table" in error["error"]      # past the XSRF check
        http.stop()

    run_coroutine(scenario())


def test_table_creation_is_rate_limited_per_client_with_the_limit_said(server):
    async def scenario():
        http, address = await start()
        for _ in range(guard.CREATE_BURST):
            assert (await post(address, "tables"))[0] == 201
        code, error, headers = await post(address, "tables")
        assert code == 429 and f"may create {guard.CREATE_BURST} at once, then one every 30 s" in error["error"]
        assert 1 <= int(headers["Retry-After"]) <= 30 and f"try again in {headers['Retry-After']} s" in error["error"]
        # a lobby page's kernel names its browser's address: another person still may
        assert (await post(address, "tables", X_Playtest_Key="server-key", X_Playtest_Client="10.0.0.7"))[0] == 201
        # a name without the server key counts for the sender's own address
        assert (await post(address, "tables", X_Playtest_Client="10.0.0.8"))[0] == 429
        # a refused body uses none of the client's tables
        assert (await post(address, "tables", {"game": "nope"}, X_Playtest_Key="server-key",
                           X_Playtest_Client="10.0.0.9"))[0] == 400
        assert len(web.service().tables) == guard.CREATE_BURST + 1
        http.stop()

    run_coroutine(scenario())


def test_the_bucket_refills_one_table_per_period():
    now = [0.0]
    limit = guard.CreationLimit(burst=2, every=10, clock=lambda: now[0])
    for _ in range(2):
        limit.check("a")
        limit.count("a")
    with pytest.raises(ServiceError) as refused:
        limit.check("a")
    assert refused.value.status == 429 and refused.value.retry_after == 10
    limit.check("b")                         # another client
    now[0] = 4.0
    with pytest.raises(ServiceError) as refused:
        limit.check("a")
    assert refused.value.retry_after == 6
    now[0] = 10.0
    limit.check("a")


def test_tables_nobody_opened_end_after_the_window_also_after_a_restart(tmp_path, monkeypatch):
    service = TableService(tmp_path)
    opened = service.create(SPEC)
    lonely = service.create(SPEC)
    service.authenticate(opened["id"], opened["spectator_token"])    # a page opened it
    later = time.time() + service_module.UNOPENED_WINDOW + 1
    monkeypatch.setattr(service_module.time, "time", lambda: later)
    assert service.end_unopened() == [lonely["id"]]
    assert service.tables[lonely["id"]].status == "ended" and service.tables[opened["id"]].status == "playing"
    service.close()
    # after a restart: a table created before it, never opened, ends at once; opened ones stay
    monkeypatch.undo()
    service = TableService(tmp_path)
    third = service.create(SPEC)
    service.close()
    monkeypatch.setattr(service_module.time, "time", lambda: later)
    service = TableService(tmp_path)
    assert service.tables[third["id"]].status == "ended"
    assert service.tables[opened["id"]].status == "playing"
    service.close()


def test_the_cap_never_locks_everyone_out(tmp_path, monkeypatch):
    monkeypatch.setattr(service_module, "MAX_TABLES", 6)
    monkeypatch.setattr(service_module, "CLIENT_SHARE", 3)
    service = TableService(tmp_path)
    hostile = [service.create(SPEC, "10.0.0.66") for _ in range(3)]
    with pytest.raises(ServiceError) as refused:             # one client's share of the cap
        service.create(SPEC, "10.0.0.66")
    assert refused.value.status == 429 and "3 tables being played" in str(refused.value)
    others = [service.create(SPEC, f"10.0.0.{n}") for n in range(3)]
    for made in others[1:]:
        service.authenticate(made["id"], made["host_token"])
    # at the cap the oldest table nobody opened makes room, even after a restart
    service.close()
    service = TableService(tmp_path)
    newcomer = service.create(SPEC, "10.0.0.5")
    assert service.tables[hostile[0]["id"]].status == "ended" and service.tables[newcomer["id"]].status == "playing"
    for made in hostile[1:] + [others[0], newcomer]:
        service.authenticate(made["id"], made["spectator_token"])
    with pytest.raises(ServiceError) as full:                # every table opened: a plain 503
        service.create(SPEC, "10.0.0.5")
    assert full.value.status == 503 and "people play at every one" in str(full.value)
    service.close()


def test_a_table_websocket_from_a_page_of_another_site_is_refused(server):
    import tornado.websocket

    async def scenario():
        http, address = await start()
        made = web.service().create(SPEC)
        url = f"ws://{address}/playtest/api/tables/{made['id']}/ws"
        with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
            await tornado.websocket.websocket_connect(tornado.httpclient.HTTPRequest(
                url, headers={"Origin": "http://evil.example"}))
        assert refused.value.code == 403
        ws = await tornado.websocket.websocket_connect(url)          # a kernel's: no Origin
        ws.write_message(json.dumps({"type": "join", "token": made["spectator_token"]}))
        assert json.loads(await ws.read_message())["type"] == "welcome"
        ws.close()
        http.stop()

    run_coroutine(scenario())
