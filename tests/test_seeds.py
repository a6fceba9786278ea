"""Unpredictable deals (G-3, issue 26): a drawn seed has 128 bits, every shuffle comes from
its own keyed generator, new records replay byte for byte, old records as before, and big
seeds pass through the table service, its store and its HTTP API."""
from __future__ import annotations

import copy
import csv
import io
import hashlib
import json
import random
import sqlite3

import pytest

from playtest.engine import Match, OptionError, Table
from playtest.engine.rng import KeyedStream, new_stream, shuffle
from playtest.tables.service import CHOSEN_SEED_NOTE, ServiceError, TableService
from playtest.tables.store import DB_NAME

GAMES = (("lazy_sunday", 4), ("chore_race", 4), ("night_shift", 2))


def play_randomly(match: Match, moves: int, seed: int = 0) -> Match:
    rng = random.Random(seed)
    while len(match.moves) < moves and (to_act := match.to_act()):
        match.play(rng.choice(match.decision_moves(to_act[0])))
    return match


# --- the seed --------------------------------------------------------------------------------
def test_a_match_without_a_seed_draws_one_of_128_bits_and_deals_from_the_keyed_stream():
    matches = [Match("chore_race", 4, keep_log=False) for _ in range(64)]
    seeds = [m.seed for m in matches]
    assert len(set(seeds)) == 64
    # 64 draws of 128 bits: the longest has 128 bits but for a chance of 2^-64 (31 bits before)
    assert max(s.bit_length() for s in seeds) >= 128
    assert {m.stream for m in matches} == {"keyed"} and type(matches[0].state.rng) is KeyedStream


def test_a_table_without_a_seed_draws_one_of_128_bits(tmp_path):
    service = TableService(tmp_path)
    try:
        made = [service.create({"game": "lazy_sunday", "seats": 2, "players": ["human", "random"]})
                for _ in range(24)]
        matches = [service.tables[m["id"]].match for m in made]
        assert max(m.seed.bit_length() for m in matches) >= 124 and {m.stream for m in matches} == {"keyed"}
        assert all("seed_note" not in m for m in made)              # nobody chose a seed
    finally:
        service.close()


def test_a_given_seed_deals_as_before_unless_the_keyed_stream_is_asked_for():
    old = Match("lazy_sunday", 4, seed=7)
    assert old.stream == "mt"
    game = old.game
    assert old.fingerprint() == Match("lazy_sunday", 4, seed=7, stream="mt").fingerprint()
    before = game.new_state(random.Random(7))           # how every match was dealt before streams
    assert old.view(0) == game.view(before, 0) and old.all_cards_view() == game.all_cards_view(before)
    assert Match("lazy_sunday", 4, seed=7, stream="keyed").all_cards_view() != old.all_cards_view()
    with pytest.raises(OptionError, match="unknown stream 'sha'"):
        Match("lazy_sunday", 4, seed=7, stream="sha")


@pytest.mark.parametrize("seed", [-1, 10**40, 1.5, True, "7"])
def test_seeds_out_of_range_are_refused_with_the_range(seed):
    with pytest.raises(OptionError, match=r"0 or more of at most 40 digits \(below 10\*\*40\)"):
        Match("lazy_sunday", 2, seed=seed)


# --- the keyed stream ------------------------------------------------------------------------
def _untemper(y: int) -> int:
    """Mersenne Twister's output back to its state word."""
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    x = y
    for _ in range(5):
        x = y ^ ((x << 7) & 0x9D2C5680)
    y = x & 0xFFFFFFFF
    x = y
    for _ in range(3):
        x = y ^ (x >> 11)
    return x & 0xFFFFFFFF


def _clone_from_outputs(outputs: list[int]) -> random.Random:
    """The generator that gave 624 consecutive 32-bit outputs, rebuilt from them alone."""
    clone = random.Random()
    clone.setstate((3, tuple([_untemper(o) for o in outputs] + [624]), None))
    return clone


@pytest.mark.parametrize("stream, predicted", [("mt", True), ("keyed", False)])
def test_the_output_of_the_stream_does_not_give_its_later_shuffles(stream, predicted):
    """The attack on Mersenne Twister: 624 outputs of 32 bits rebuild its state, and with it
    every later shuffle. It works on the old stream (so the check could fail) and not on
    the keyed one, even given whole 32-bit outputs rather than the few bits a card shows."""
    rng = new_stream(2**100 + 12345, stream)
    clone = _clone_from_outputs([rng.getrandbits(32) for _ in range(624)])
    deck, guess = list(range(60)), list(range(60))
    shuffle(rng, deck)
    shuffle(clone, guess)
    assert (deck == guess) is predicted


def test_each_draw_has_its_own_generator_keyed_by_the_seed_and_its_number():
    """Under one shared stream the second shuffle depends on how much the first drew; keyed,
    draw n is made by random.Random(SHA-256 of the seed and n), whatever came before."""
    seed = 2**127 + 99
    one, other = KeyedStream(seed), KeyedStream(seed)
    shuffle(one, list(range(52)))
    shuffle(other, list(range(3)))                  # far fewer numbers drawn
    second, again = list(range(40)), list(range(40))
    shuffle(one, second)
    shuffle(other, again)
    key = hashlib.sha256(b"playtest keyed stream:%d:" % seed + (2).to_bytes(8, "big")).digest()
    expected = list(range(40))
    random.Random(int.from_bytes(key, "big")).shuffle(expected)
    assert second == again == expected
    old_one, old_other = random.Random(seed), random.Random(seed)   # the old stream: they part
    old_one.shuffle(list(range(52)))
    old_other.shuffle(list(range(3)))
    parted = [list(range(40)), list(range(40))]
    old_one.shuffle(parted[0])
    old_other.shuffle(parted[1])
    assert parted[0] != parted[1]


def test_the_keyed_stream_hides_its_seed_and_copies_exactly():
    rng = KeyedStream(123456789)
    rng.shuffle(list(range(10)))
    assert "123456789" not in json.dumps(rng.getstate()) and rng.getstate()[1] == 1
    twin = copy.deepcopy(rng)
    assert [twin.randrange(1000) for _ in range(20)] == [rng.randrange(1000) for _ in range(20)]
    assert KeyedStream(1).getstate() != KeyedStream(2).getstate()
    with pytest.raises(TypeError, match="rebuilt from its seed"):
        rng.setstate(rng.getstate())


def test_a_small_search_over_the_first_positions_public_cards_finds_no_drawn_seed():
    """The issue's search: the spectator's view of a 4-seat Chore Race's first position
    (12 chores face up) against every seed of a range. It does find a seed inside the
    range (the check works), and never a drawn seed, which has 128 bits: the search would
    have to cover 2^128 seeds, not 2^31."""
    def public(seed, stream):
        return Match("chore_race", 4, seed=seed, stream=stream, keep_log=False).view(None)

    small = Match("chore_race", 4, seed=1234, stream="keyed", keep_log=False)
    drawn = Match("chore_race", 4, keep_log=False)
    found_small, found_drawn = [], []
    for seed in range(2048):
        seen = public(seed, "keyed")
        found_small += [seed] if seen == small.view(None) else []
        found_drawn += [seed] if seen == drawn.view(None) else []
    assert found_small == [1234] and found_drawn == [] and drawn.seed >= 2048


# --- records -------------------------------------------------------------------------------
@pytest.mark.parametrize("name, seats", GAMES)
def test_new_records_replay_byte_for_byte(name, seats):
    match = play_randomly(Match(name, seats), 400)
    text = match.to_json()
    data = json.loads(text)
    assert data["version"] == 3 and data["stream"] == "keyed" and data["seed"] == match.seed
    again = Match.from_json(text)
    assert again.to_json() == text and again.fingerprint() == match.fingerprint()
    assert again.log_for("all") == match.log_for("all")
    for n in (0, len(match.moves) // 2):          # time travel rebuilds the same positions
        match.goto(n)
        again.goto(n)
        assert again.fingerprint() == match.fingerprint()
    assert match.branch(0).stream == "keyed"


def test_a_record_written_as_before_replays_to_the_same_deal_as_before():
    """A version-2 record, as the kit wrote them before streams (31-bit seed, no stream)."""
    before = Match("chore_race", 3, seed=1_508_224_307)
    play_randomly(before, 60, seed=5)
    written = {"format": "playtest.record", "version": 2, "game": "chore_race", "seats": 3,
               "options": before.options_dict(), "seed": 1_508_224_307, "setup": {},
               "moves": [str(m) for m in before.moves]}
    again = Match.from_json(json.dumps(written))
    assert again.stream == "mt" and again.fingerprint() == before.fingerprint()
    dealt = again.game.new_state(random.Random(1_508_224_307))    # the old code's deal
    again.goto(0)
    assert again.all_cards_view() == again.game.all_cards_view(dealt)


def test_a_scenario_made_from_a_game_with_a_drawn_seed_names_its_stream_and_replays():
    from playtest.scenarios import Scenario

    match = play_randomly(Match("night_shift", 2), 30)
    text = Scenario.from_match(match).to_toml()
    assert 'stream = "keyed"' in text and f"seed = {match.seed}" in text
    again = Scenario.from_toml(text).to_match()
    assert again.fingerprint() == match.fingerprint() and again.stream == "keyed"
    old = Scenario.from_match(Match("night_shift", 2, seed=3)).to_toml()
    assert "stream" not in old                                   # the old stream: written as before


def test_bots_are_not_given_the_games_seed():
    match = Match("lazy_sunday", 4)
    table = Table(match, {1: "heuristic", 2: "random", 3: "random"})
    seeds = [bot._seed for bot in table.bots.values()]
    assert len(set(seeds)) == 3 and not any(str(match.seed) in s for s in seeds)
    old = Table(Match("lazy_sunday", 4, seed=11), {1: "random"})      # a seed written down: as before
    assert old.bots[1]._seed == "11:1"


# --- tables: big seeds, the store, the API ---------------------------------------------------
def test_big_seeds_are_stored_and_restored_and_too_big_ones_get_a_sentence(tmp_path):
    service = TableService(tmp_path)
    made = {}
    try:
        for seed in (2**63, 2**128, 10**40 - 1):
            answer = service.create({"game": "chore_race", "seats": 2, "players": ["human", "random"], "seed": seed})
            assert answer["seed_note"] == CHOSEN_SEED_NOTE
            made[seed] = (answer["id"], service.tables[answer["id"]].match.fingerprint())
        with pytest.raises(ServiceError, match=r"0 or more of at most 40 digits") as refused:
            service.create({"game": "chore_race", "seats": 2, "players": ["human", "random"], "seed": 10**40})
        assert refused.value.status == 400 and len(service.tables) == 3
        drawn = service.create({"game": "chore_race", "seats": 2, "players": ["human", "human"]})["id"]
        drawn_match = service.tables[drawn].match
        table = service.tables[drawn]
        for _ in range(4):
            seat = drawn_match.to_act()[0]
            assert table.submit(seat, str(drawn_match.decision_moves(seat)[0])).ok
        expected = (drawn_match.seed, drawn_match.fingerprint())
    finally:
        service.close()
    again = TableService(tmp_path)
    try:
        for seed, (table_id, fingerprint) in made.items():
            match = again.tables[table_id].match
            assert (match.seed, match.stream, match.fingerprint()) == (seed, "mt", fingerprint)
        match = again.tables[drawn].match
        assert (match.seed, match.fingerprint(), match.stream) == (*expected, "keyed")
        assert again.damaged == {}
        for table in again.tables.values():
            table.end()
        seeds = {table_id: seed for seed, (table_id, _f) in made.items()} | {drawn: expected[0]}
        assert {row["table"]: row["record"]["seed"] for row in again.export()} == seeds
        rows = list(csv.DictReader(io.StringIO(again.export_csv())))
        assert {row["table"]: json.loads(row["record"])["seed"] for row in rows} == seeds
    finally:
        again.close()


def test_a_store_written_before_streams_restores_its_tables_dealt_as_before(tmp_path):
    service = TableService(tmp_path)
    made = service.create({"game": "lazy_sunday", "seats": 2, "players": ["human", "random"], "seed": 77})
    fingerprint = service.tables[made["id"]].match.fingerprint()
    service.close()
    db = sqlite3.connect(tmp_path / DB_NAME)          # as the kit wrote it: the seed in its column
    db.execute("UPDATE tables SET seed = 77")
    db.execute("ALTER TABLE tables DROP COLUMN seed_text")
    db.execute("ALTER TABLE tables DROP COLUMN stream")
    db.commit()
    db.close()
    again = TableService(tmp_path)
    try:
        match = again.tables[made["id"]].match
        assert (match.seed, match.stream, match.fingerprint()) == (77, "mt", fingerprint)
        assert fingerprint == Match("lazy_sunday", 2, seed=77).fingerprint()
    finally:
        again.close()


def test_the_lobby_says_a_short_seed_gives_the_deal_away(monkeypatch, tmp_path):
    from playtest.widgets.live.client import TableApi
    from playtest.widgets.live.lobby import LobbyApp

    monkeypatch.setenv("PLAYTEST_SCENARIOS_DIR", str(tmp_path / "none"))
    lobby = LobbyApp(api=TableApi("http://127.0.0.1:1/playtest/api", "k"), refresh_every=0, start=False)
    for name in ("lazy_sunday", "chore_race"):
        lobby.game.value = name
        children = list(lobby.panel.widget.children)
        note = children[children.index(lobby.panel.seed) + 1]
        assert note is lobby.seed_note and "short one" in note.value and "rebuild every hand" in note.value
    assert "short one by trying seeds" in CHOSEN_SEED_NOTE
