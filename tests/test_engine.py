"""The engine contract on its own, proved with the toy game in ``toy_game.py``:
a reaction window for a seat not on turn, secret simultaneous choices, open moves,
illegal moves that change nothing, the record (save, load, replay, rewind, branch),
options (G-2, G-4) and bots."""
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playtest.engine import (SPECTATOR, IllegalMove, Match, Move, MoveSyntaxError, OptionError, RandomBot,
                             RecordError, Table, get_game, play_game)
from toy_game import Toy  # noqa: F401  (registers "toy")
from fresh_process import in_fresh_process


def new(seats=3, seed=7, **options):
    return Match("toy", seats, options, seed)


# --- the three shapes of decision ------------------------------------------------
def test_reaction_window_belongs_to_the_target_not_the_seat_on_turn():
    m = new()
    m.play("0 poke 2")
    assert m.to_act() == (2,)
    assert m.legal_moves(0) == []                      # the attacker waits (CR-7 shape)
    assert m.legal_moves(2) == [Move(2, "dodge"), Move(2, "take")]
    with pytest.raises(IllegalMove, match=r"CR-7.*only seat 2 may answer"):
        m.play("0 pass")
    m.play("2 take")
    assert m.view(SPECTATOR)["points"] == [2, 0, 0] and m.to_act() == (1,)


def test_secret_simultaneous_choices_stay_hidden_until_everyone_has_chosen():
    m = new()
    m.play("0 meeting")
    assert m.to_act() == (0, 1, 2)
    m.play("1 choose 3")
    assert m.to_act() == (0, 2)
    for seat in (0, 2, SPECTATOR):
        view = json.dumps(m.view(seat))
        assert m.view(seat)["chosen"] == [1] and m.view(seat)["my_choice"] is None
        assert "3" not in view.replace(json.dumps(m.view(seat)["points"]), "")
    assert m.view(1)["my_choice"] == 3
    with pytest.raises(IllegalMove):
        m.play("1 choose 2")                            # committed is committed
    m.play("2 choose 1")
    m.play("0 choose 2")
    assert m.view(SPECTATOR)["points"] == [2, 3, 1] and m.to_act() == (1,)


def test_simultaneous_choices_resolve_the_same_in_any_order():
    a, b = new(), new()
    for m, order in ((a, "012"), (b, "210")):
        m.play("0 meeting")
        for seat in order:
            m.play(f"{seat} choose {int(seat) + 1}")
    assert a.fingerprint() == b.fingerprint()


def test_open_move_is_legal_for_every_seat_at_any_moment_but_not_a_decision():
    m = new()
    assert m.to_act() == (0,)
    for seat in range(3):
        assert Move(seat, "slap") in m.legal_moves(seat)
    m.play("2 slap")                                    # out of turn, nobody waited for it
    assert m.to_act() == (0,) and m.view(SPECTATOR)["points"] == [0, 0, 1]
    m.play("0 meeting")
    assert Move(1, "slap") in m.legal_moves(1)
    assert Table(m, {}).open_moves(1) == [Move(1, "slap")]


def test_hidden_information_reaches_only_its_seat():
    m = new(seed=11)
    secrets_ = [m.view(seat)["secret"] for seat in range(3)]
    assert m.view(SPECTATOR)["secret"] is None
    assert all(isinstance(s, int) for s in secrets_)


# --- illegal moves -------------------------------------------------------------------
def test_illegal_move_names_ruling_and_alternatives_and_changes_nothing():
    m = new()
    before, moves_before = m.fingerprint(), list(m.moves)
    with pytest.raises(IllegalMove) as err:
        m.play("1 pass")
    assert err.value.ruling == "TOY-1" and "Legal moves for seat 1: 1 slap" in str(err.value)
    with pytest.raises(IllegalMove, match="G-1"):
        m.play("9 pass")
    assert m.fingerprint() == before and m.moves == moves_before


@pytest.mark.parametrize("text", ["", "pass", "x pass", "0", "0 'unclosed"])
def test_unreadable_move_text_is_refused_clearly(text):
    with pytest.raises(MoveSyntaxError, match="cannot read move"):
        Move.parse(text)


@given(seat=st.integers(0, 9), kind=st.from_regex(r"[a-z_]{1,8}", fullmatch=True),
       args=st.lists(st.one_of(st.integers(-5, 60), st.text("ab !'\"x", min_size=1, max_size=6)
                               .filter(lambda t: not t.lstrip("-").isdigit())), max_size=4))
def test_move_text_form_parses_back_to_the_same_move(seat, kind, args):
    move = Move(seat, kind, tuple(args))
    assert Move.parse(str(move)) == move


def _parse_outcome(text):
    try:
        return Move.parse(text)
    except MoveSyntaxError as exc:
        return str(exc)


@given(text=st.text(st.sampled_from([*map(chr, range(0x20, 0x7F)), "\t", "\x0b", "\xa0", "é"]), max_size=14))
def test_plain_move_text_parses_as_shlex_reads_it(text):
    # Move.parse skips shlex for text without quotes or escapes: the same move or the same error
    import re
    from unittest import mock

    from playtest.engine import moves

    fast = _parse_outcome(text)
    with mock.patch.object(moves, "_PLAIN", re.compile(r"(?!)")):     # never plain: always shlex
        assert _parse_outcome(text) == fast


# --- the record ---------------------------------------------------------------------
def play_some(m, n, seed=3):
    bots = {s: RandomBot(f"{seed}:{s}", open_rate=0.1) for s in range(m.game.seats)}
    Table(m, bots).run_bots(limit=n)
    return m


def test_save_load_replays_to_the_identical_state(tmp_path):
    m = play_some(new(seats=4, seed=5), 40)
    path = m.save(tmp_path / "game.json")
    loaded = Match.load(path)
    assert loaded.fingerprint() == m.fingerprint()
    assert [str(x) for x in loaded.moves] == [str(x) for x in m.moves]
    assert json.loads(path.read_text())["format"] == "playtest.record"
    assert not list(tmp_path.glob("*.tmp"))            # atomic write left nothing behind


def test_goto_rewinds_and_returns_without_losing_moves():
    m = play_some(new(seed=9), 30)
    end, prints = len(m.moves), {}
    for n in (0, 10, end):
        m.goto(n)
        prints[n] = m.fingerprint()
    m.goto(10)
    assert not m.at_end and m.legal_moves(m.to_act()[0]) == []
    with pytest.raises(IllegalMove, match="rewound"):
        m.play("0 slap")
    m.goto(end)
    assert len(m.moves) == end and m.fingerprint() == prints[end]
    m.goto(10)
    assert m.fingerprint() == prints[10]
    with pytest.raises(IndexError):
        m.goto(end + 1)


def test_branch_goes_its_own_way_and_leaves_the_original_untouched():
    m = play_some(new(seed=4), 20)
    original = m.fingerprint()
    other = m.branch(5)
    assert other.cursor == 5 and other.at_end
    seat = other.to_act()[0]
    other.play(Move(seat, "slap"))
    assert len(other.moves) == 6 and m.fingerprint() == original and len(m.moves) == 20


@pytest.mark.parametrize("mutate, message", [
    (lambda r: "{not json", "not valid JSON"),
    (lambda r: json.dumps({**r, "version": 99}), "version"),
    (lambda r: json.dumps({**r, "format": "other"}), "format"),
    (lambda r: json.dumps({**r, "game": "chess"}), "unknown game 'chess'"),
    (lambda r: json.dumps({**r, "options": {"max_turns": 0}}), "max_turns"),
    (lambda r: json.dumps({**r, "moves": r["moves"][:3] + ["0 fly"] + r["moves"][3:]}), "move 4 of"),
    (lambda r: json.dumps({**r, "seed": "abc"}), "seed"),
])
def test_corrupt_record_is_refused_with_a_clear_error(mutate, message):
    record = json.loads(play_some(new(), 10).to_json())
    with pytest.raises(RecordError, match=message):
        Match.from_json(mutate(record))


def test_log_is_worded_per_seat():
    m = new()
    m.play("0 meeting")
    m.play("1 choose 3")
    assert (2, "You chose 3.") in m.log_for(1)
    assert (2, "Seat 1 has chosen.") in m.log_for(0)
    assert m.log_for(SPECTATOR)[0] == (0, "Toy game set up.")


# --- options (G-2, G-4) -------------------------------------------------------------
def test_G2_first_player_option_and_random_first_player_is_seeded():
    assert new(first_player=2).to_act() == (2,)
    firsts = [new(seed=s, first_player="random").to_act() for s in range(30)]
    assert len(set(firsts)) == 3
    assert [list(f) for f in firsts] == in_fresh_process("""
        import toy_game
        from playtest.engine import Match
        result = [Match("toy", 3, {"first_player": "random"}, s).to_act() for s in range(30)]""")  # another process


@pytest.mark.parametrize("options, message", [
    ({"first_player": 3}, "first_player=3 is not a seat"),
    ({"first_player": "last"}, "first_player"),
    ({"max_turns": 0}, "max_turns: must be 1 or more \\(got 0\\). Allowed: max_turns \\(default 1000\\) G-4"),
    ({"colour": "red"}, "colour: no such option"),
])
def test_bad_options_are_refused_listing_what_is_accepted(options, message):
    """The bad option's own line (default and ruling), or for an unknown name every
    option's name; never pydantic's wording."""
    with pytest.raises(OptionError, match=message) as err:
        new(**options)
    assert "first_player" in str(err.value) or "max_turns" in str(err.value)
    assert "Input should" not in str(err.value) and "Extra inputs" not in str(err.value)
    with pytest.raises(OptionError, match="max_tunrs: no such option; did you mean 'max_turns'.*the options are "
                                          "first_player, max_turns"):
        new(max_tunrs=5)


def test_bad_seat_count_and_seed_are_refused():
    with pytest.raises(OptionError, match="2 to 5 seats"):
        Match("toy", 6)
    with pytest.raises(OptionError, match="seed"):
        Match("toy", 2, seed="x")


def test_G4_max_turns_ends_the_game_unfinished():
    match, outcome = play_game("toy", 3, {s: RandomBot(s, open_rate=0) for s in range(3)},
                               {"max_turns": 5}, seed=1)
    assert not outcome.finished and outcome.winners == () and match.to_act() == ()


# --- bots ----------------------------------------------------------------------------
def test_random_bots_finish_games_and_are_reproducible():
    """The same seed plays the same game in another process (G-3); another seed another."""
    (m1, o1), (m3, _) = [play_game("toy", 4, "random", seed=s) for s in (1, 2)]
    again = in_fresh_process("""
        import toy_game
        from playtest.engine import play_game
        match, outcome = play_game("toy", 4, "random", seed=1)
        result = [[str(m) for m in match.moves], list(outcome.winners), list(outcome.scores)]""")
    assert o1.finished and o1.winners and max(o1.scores) >= 10
    assert again == [[str(m) for m in m1.moves], list(o1.winners), list(o1.scores)]
    assert m1.moves != m3.moves


def test_table_stops_for_humans_and_refuses_unknown_bots():
    m = new()
    table = Table(m, {1: "random", 2: "random"})
    assert table.humans == [0]
    assert table.run_bots() == []                      # seat 0 (human) is on turn
    m.play("0 pass")
    table.run_bots()
    assert 0 in m.to_act() or m.outcome() is not None
    with pytest.raises(OptionError, match="unknown bot 'genius'"):
        Table(m, {1: "genius"})
    with pytest.raises(OptionError, match="not a seat"):
        Table(m, {3: "random"})


def test_bots_read_a_lazy_view_like_a_dict():
    seen = []

    class Reader(RandomBot):
        def choose(self, view, legal):
            seen.append((view.get("turn"), view.get("missing", "default"), dict(view)["viewer"]))
            return super().choose(view, legal)

    m = new()
    Table(m, {0: Reader(1)}).step_bot()
    assert seen == [(0, "default", 0)]


@pytest.mark.parametrize("name", ["toy", "lazy_sunday", "chore_race", "night_shift"])
def test_every_legal_move_kind_is_declared_in_move_args(name):
    """Move builders create their controls from MOVE_ARGS: a kind missing there could not
    be played from a dashboard."""
    game = get_game(name)
    for seed in range(3):
        match, _ = play_game(name, game.min_seats, "random", seed=seed, keep_log=False)
        for n in range(0, len(match.moves), 7):
            match.goto(n)
            for seat in range(match.game.seats):
                for move in match.game.legal_moves(match.state, seat):
                    assert len(move.args) <= len(game.MOVE_ARGS[move.kind]), move


@pytest.mark.parametrize("call", [
    lambda m: m.view(7), lambda m: m.view(-1), lambda m: m.view("0"), lambda m: m.view(0.0),
    lambda m: m.legal_moves(12), lambda m: m.bot_view(None), lambda m: m.goto(2.5), lambda m: m.goto("3"),
])
def test_seats_and_move_numbers_out_of_range_are_refused_clearly(call):
    m = new()
    before = m.fingerprint()
    with pytest.raises(IndexError, match=r"use (a seat number|a whole number)"):
        call(m)
    assert m.fingerprint() == before


@pytest.mark.parametrize("options, message", [
    ({"max_turns": "2"}, "max_turns: must be a whole number \\(got '2'\\)"),
    ({"first_player": "1"}, "first_player"),
    ([1, 2], "options are a mapping"),
])
def test_options_are_strict_and_must_be_a_mapping(options, message):
    with pytest.raises(OptionError, match=message):
        Match("toy", 3, options)


def test_negative_seed_is_refused():
    with pytest.raises(OptionError, match="0 or more"):
        Match("toy", 2, seed=-1)


@pytest.mark.parametrize("content, message", [
    (b"", "the file is empty"), (b"\xff\xfe\x00binary", "not a UTF-8 text file"),
    (b'{"format": "playtest.record", "version": 7}', "format version 7; this kit reads versions 1, 2, 3"),
])
def test_unreadable_record_files_raise_record_error(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(RecordError, match=message):
        Match.load(path)


def test_loading_a_folder_or_missing_file_raises_record_error(tmp_path):
    for path in (tmp_path, tmp_path / "missing.json"):
        with pytest.raises(RecordError, match="cannot read the record"):
            Match.load(path)


# --- pinned setups and record versions -------------------------------------------------
def test_a_game_without_SETUP_refuses_a_pinned_setup_by_name():
    with pytest.raises(OptionError, match="cannot pin its setup.*deck"):
        Match("toy", 2, seed=1, setup={"deck": [1, 2]})


def test_version_1_records_still_load_and_are_saved_as_version_3():
    m = play_some(new(seed=3), 8)
    old = json.loads(m.to_json())
    assert old["version"] == 3 and old["setup"] == {} and old["stream"] == "mt"
    del old["setup"], old["stream"]
    old["version"] = 1
    again = Match.from_json(json.dumps(old))
    saved = json.loads(again.to_json())
    assert again.fingerprint() == m.fingerprint() and saved["version"] == 3 and saved["stream"] == "mt"


def test_open_move_races_are_not_won_by_seat_order():
    """Every bot wants to slap at every chance: each seat must win about a quarter of the
    races (asking in seat order would give seat 0 all of them)."""
    winners = []
    for seed in range(40):
        m = new(seats=4, seed=seed)
        table = Table(m, {s: RandomBot(s, open_rate=1.0) for s in range(4)})
        winners += [move.seat for move in table.run_bots() if move.kind == "slap"]
    assert len(winners) > 400
    shares = [winners.count(s) / len(winners) for s in range(4)]
    assert all(0.18 < share < 0.32 for share in shares), shares


def test_refusal_says_what_play_would_raise_and_changes_nothing():
    m = play_some(new(seed=5), 6)
    before, seat = m.fingerprint(), m.to_act()[0]
    legal = m.legal_moves(seat)[0]
    assert m.refusal(legal) is None
    wrong = m.refusal(Move((seat + 1) % 3, "poke", (seat,)))
    assert isinstance(wrong, IllegalMove) and wrong.legal == m.legal_moves((seat + 1) % 3)
    assert m.refusal("9 slap").ruling == "G-1"
    with pytest.raises(MoveSyntaxError):
        m.refusal("")
    m.goto(2)
    assert "rewound" in m.refusal(str(legal)).reason
    m.goto(6)
    assert m.fingerprint() == before and len(m.moves) == 6


@pytest.mark.parametrize("value", ["yes", 2, 1.5])
def test_a_bad_yes_no_option_says_true_or_false(value):
    with pytest.raises(OptionError, match="great_escape: must be true or false"):
        Match("lazy_sunday", 2, {"great_escape": value})


def test_an_illegal_move_names_the_nearest_legal_moves_first_when_many_are_legal():
    """15 legal peeks, 12 named: the one a typo missed (4 5 for 4 7) comes first, not
    cut off at the end of the list."""
    m = Match("lazy_sunday", 2, seed=1)
    before = m.fingerprint()
    with pytest.raises(IllegalMove) as err:
        m.play("0 peek 4 7")
    assert "Legal moves for seat 0: 0 peek 4 5, " in str(err.value)
    assert str(err.value).endswith("... (15 in all, nearest first).")
    assert len(err.value.legal) == 15 and m.fingerprint() == before


@pytest.mark.parametrize("game, option, high, words", [
    ("chore_race", "max_turns", 10_000, "G-4: safety cap, 1 to 10,000 turns"),
    ("lazy_sunday", "rounds", 20, "LS-10: number of rounds, 1 to 20"),
    ("night_shift", "turn_limit", 200, "NS-10: the game ends at the end of this Shift, 1 to 200"),
    ("chore_race", "target_vp", 500, "CR-17: VP that wins at once, 1 to 500"),
])
def test_options_that_set_a_games_length_take_a_range_a_session_can_use(game, option, high, words):
    """Issue 25: rounds and max_turns took 10^19 (an all-bot table grew the server to 2.3 GB)."""
    assert getattr(Match(game, 2, {option: high}).game.options, option) == high
    for value in (high + 1, 10**19):
        with pytest.raises(OptionError) as refused:
            Match(game, 2, {option: value})
        assert f"{option}: must be {high} or less (got {value})" in str(refused.value) and words in str(refused.value)
