"""Live tables' history on the pages: the host's replay of a finished table (the
debugger on its record, host token only), the lobby's past tables, QR codes and copy
buttons for the links, the card variant on the seat page."""
from __future__ import annotations

import shutil

from widget_support import fresh_widgets  # noqa: F401  (autouse: every test starts with no widget)

from test_widgets_live import (api_for, data, live_table, make_table, run, seat_page, seat_token, serve,  # noqa: F401
                               until)
from playtest.engine import ALL_CARDS
from playtest.games.lazy_sunday import rules as lazy_sunday_rules
from playtest.widgets.debugger import ALL_CARDS_LABEL
from playtest.widgets.live import LobbyApp
from playtest.widgets.live.share import CopyButton, qr_image

FOLDER = "http://192.168.1.5:8866/voila/render/"


def play_out(table) -> None:
    """People play their first decision move until the game is over."""
    while table.status == "playing":
        if table.hold() is not None:
            table.press_continue(None)
            continue
        seat = next(s for s in table.humans if table.match.decision_moves(s))
        assert table.submit(seat, str(table.match.decision_moves(seat)[0])).ok


def test_the_host_replays_a_finished_table_with_every_card_and_only_then(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = await make_table(api, game="night_shift", seats=2, options={"max_turns": 4})
        table = live_table(made)
        host = await seat_page(api, made, made["host_token"])
        spectator = await seat_page(api, made, made["spectator_token"])
        controls = host.host
        assert controls.replay.disabled and controls.debugger is None      # not while the game runs
        assert spectator.host is None                                       # no replay without the host token
        play_out(table)
        await until(lambda: not controls.replay.disabled, what="the game over on the host page")
        controls.replay.click()
        await until(lambda: controls.debugger is not None and controls.debugger.line is not None, what="the replay")
        debugger = controls.debugger
        assert debugger.widget in controls.replay_box.children
        assert [str(m) for m in debugger.line.moves] == [str(m) for m in table.match.moves]
        assert debugger.match.cursor == 0
        debugger.goto(len(table.match.moves))                       # jump to the last move
        assert debugger.match.outcome() == table.match.outcome()
        assert (ALL_CARDS_LABEL, ALL_CARDS) in debugger.views.options and debugger.banner.message == ""
        host.close()
        spectator.close()
        server.stop()
    run(scenario)


def test_the_lobby_lists_past_tables_and_gives_qr_codes_and_copy_buttons(data):
    async def scenario():
        server, port = serve()
        api = api_for(port)
        finished = await make_table(api, game="night_shift", seats=2, options={"max_turns": 4})
        play_out(live_table(finished))
        await api.call("POST", f"tables/{finished['id']}/feedback", {"rating": 5, "confused": "", "notes": ""},
                       token=seat_token(finished, 0))
        lobby = LobbyApp(api=api, folder=FOLDER, refresh_every=0, game="night_shift")
        await until(lambda: lobby.past, what="the past tables")
        past = lobby.past_box.value
        outcome = live_table(finished).match.outcome()
        assert f"table {finished['id']}" in past and "1 feedback answer<" in past and "1: person" in past
        assert (f"won by seat {outcome.winners[0] + 1}" if outcome.winners else "no winner") in past
        assert lobby.past[0]["date"].endswith("Z") and " UTC" in past
        lobby.panel.start.click()
        await until(lambda: lobby.made is not None, what="the table")
        made = lobby.made
        copies = {b.description: b.text for b in lobby.copy_box.children}
        assert copies == {**{f"Copy: Seat {s['seat'] + 1}": FOLDER + s["path"] for s in made["seats"] if s.get("token")},
                          "Copy: Spectator": FOLDER + made["spectator_path"]} and len(copies) >= 2
        assert all(isinstance(b, CopyButton) for b in lobby.copy_box.children)
        assert made["host_token"] not in "".join(copies.values())          # the host link is copied by hand only
        assert lobby.links.value.count("class='pt-qr'") == lobby.links.value.count("<tr>") >= 3   # a QR code a row
        assert "alt='QR code of the Spectator (the public view, for a projector) link'" in lobby.links.value
        server.stop()
    run(scenario)


def test_a_qr_code_is_an_inline_svg_image_and_a_bad_address_is_refused():
    image = qr_image("http://192.168.1.5:8866/voila/render/table.ipynb?table=ab&token=x", "Seat 0")
    assert image.startswith("<img class='pt-qr' src='data:image/svg+xml") and "alt='QR code of the Seat 0 link'" in image
    for bad in ("", "x" * 1001):
        try:
            qr_image(bad, "Seat 0")
        except ValueError as exc:
            assert "1 to 1000 characters" in str(exc)
        else:
            raise AssertionError("a bad address made a QR code")


def test_every_seat_page_says_which_cards_are_played(data, tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYTEST_VARIANTS_DIR", str(tmp_path / "variants"))
    (tmp_path / "variants" / "lazy_sunday").mkdir(parents=True)
    shutil.copy(lazy_sunday_rules.CARDS_FILE, tmp_path / "variants" / "lazy_sunday" / "gentle.toml")

    async def scenario():
        server, port = serve()
        api = api_for(port)
        plain = await make_table(api)
        variant = await make_table(api, options={"rounds": 2, "card_variant": "gentle"})
        pages = [await seat_page(api, plain, seat_token(plain, 0)), await seat_page(api, variant, seat_token(variant, 1)),
                 await seat_page(api, variant, variant["spectator_token"])]
        assert "cards: the game’s own" in pages[0].title.value
        assert all("cards: the gentle variant" in page.title.value for page in pages[1:])
        listed = {t["id"]: t["cards"] for t in (await api.call("GET", "tables", key=True))["tables"]}
        assert listed == {plain["id"]: "", variant["id"]: "gentle"}
        for page in pages:
            page.close()
        server.stop()
    run(scenario)


def test_the_all_tables_page_shows_each_table_in_progress_with_its_spectator_link(data):
    from playtest.widgets.live.overview import TablesOverview

    async def scenario():
        server, port = serve()
        api = api_for(port)
        made = [await make_table(api), await make_table(api, game="night_shift", seats=2, options={})]
        page = await seat_page(api, made[0], seat_token(made[0], 0))
        overview = TablesOverview(api=api, folder=FOLDER, refresh_every=0)
        await until(lambda: len(overview.rows) == 2, what="the overview")
        shown = overview.table.value
        for m, row in zip(made, overview.rows):
            assert f"table {m['id']}" in shown and f"href='{FOLDER}{row['watch_path']}'".replace("&", "&amp;") in shown
            assert m["host_token"] not in shown and m["spectator_token"] not in shown
            assert all(s["token"] not in shown for s in m["seats"] if s.get("token"))
        # to act and connected: seats as people count them, from 1
        assert overview.rows[0]["connected"] == [0]
        for row in overview.rows:
            acting = ", ".join(str(s + 1) for s in row["to_act"])
            connected = ", ".join(str(s + 1) for s in row["connected"]) or "nobody"
            assert f"<td>{acting}</td><td>{connected}</td><td>{row['moves']}</td>" in shown
        watcher = await seat_page(api, made[1], overview.rows[1]["watch_path"].split("token=")[1])
        assert watcher.viewer is None and watcher.host is None           # the public view, no controls
        live_table(made[0]).end()
        overview.refresh()
        await until(lambda: len(overview.rows) == 1, what="the ended table gone")
        for app in (page, watcher):
            app.close()
        server.stop()
    run(scenario)
