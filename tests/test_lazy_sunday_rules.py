"""Unit tests for Lazy Sunday, one or more per ruling (RULINGS G-2, G-4, LS-1..LS-11).

Most tests start from an exact layout built by :func:`arrange` (cards named per
position), then play real moves through :class:`Match`.
"""
import random

import pytest

from playtest.engine import IllegalMove, Match, Move, OptionError, play_game
from playtest.games.lazy_sunday import LazySunday
from playtest.games.lazy_sunday.rules import load_cards
from fresh_process import in_fresh_process

CARDS = load_cards()


def arrange(lists, done=("Nap",), deck=(), fill="deck", seats=None, turn=0, options=None):
    """A match (setup skipped, memory empty) in an exact layout, by card names.

    Args:
        lists: per seat, its list left to right. done: the DONE pile, bottom to top.
        deck: the top cards of the deck, top first. fill: where the other cards go:
            "deck" (under ``deck``, in id order), "done" (under the DONE pile) or a seat
            number (appended to its list). turn: the seat on turn (phase "turn").
    """
    seats = seats or len(lists)
    match = Match(LazySunday, seats, options, seed=5)
    s = match.state
    pool = {}
    for card, name in enumerate(CARDS.names):
        pool.setdefault(name, []).append(card)

    def take(name):
        if not pool.get(name):
            raise ValueError(f"arrange: no copy of {name!r} left")
        return pool[name].pop(0)
    s.lists = [[take(name) for name in row] for row in lists]
    s.done = [take(name) for name in done]
    top = [take(name) for name in deck]
    rest = sorted(c for cards in pool.values() for c in cards)
    s.deck = top[::-1]
    if fill == "deck":
        s.deck = rest + s.deck
    elif fill == "done":
        s.done = rest + s.done
    else:
        s.lists[fill] += rest
    s.serial = max(len(s.done), 1)
    s.known = [0] * len(CARDS.names)
    for card in s.done:
        s.known[card] = (1 << seats) - 1
    s.phase, s.turn, s.actor, s.start, s.peekers = "turn", turn, turn, turn, []
    return match


def names(match, seat):
    return [CARDS.names[c] for c in match.state.lists[seat]]


def top(match):
    return CARDS.names[match.state.done[-1]]


def refused(match, move, ruling):
    """Play ``move``, expect IllegalMove citing ``ruling`` and an unchanged fingerprint."""
    before = match.fingerprint()
    with pytest.raises(IllegalMove) as err:
        match.play(move)
    assert err.value.ruling == ruling, err.value
    assert match.fingerprint() == before
    ruling_again, reason = match.game.explain(match.state, Move.parse(move))
    assert ruling_again == ruling and reason
    return err.value


LOW = ["Water the Plants"]  # 4 copies exist: at most 4 seats use it
SIX = ["Load the Dishwasher", "Feed the Fish", "Make the Bed", "Clean the Oven", "Fold the Laundry", "Take Out the Bins"]


# --- LS-1 / LS-2: the deck ----------------------------------------------------------------
def test_LS1_chores_and_LS2_actions_make_54_cards():
    """LS-1: 38 chores with the printed efforts/counts; LS-2: 16 actions, 8 x 2."""
    assert len(CARDS.names) == 54
    chores = {n: (e, CARDS.names.count(n)) for n, e, k in zip(CARDS.names, CARDS.efforts, CARDS.kinds) if k == "chore"}
    assert chores == {"Nap": (0, 2), "Water the Plants": (1, 4), "Feed the Fish": (2, 4), "Make the Bed": (3, 4),
                      "Take Out the Bins": (4, 4), "Load the Dishwasher": (5, 4), "Fold the Laundry": (6, 4),
                      "Vacuum the Stairs": (7, 4), "Scrub the Bathroom": (8, 4), "Clean the Oven": (9, 4)}
    actions = {n: (e, a, CARDS.names.count(n)) for n, e, a in zip(CARDS.names, CARDS.efforts, CARDS.actions) if a}
    assert actions == {"I'm Busy": (1, "busy", 2), "Double Check": (10, "double_check", 2),
                       "Nosy Neighbour": (10, "nosy", 2), "Let's Trade": (11, "trade", 2),
                       "Switcheroo": (11, "switcheroo", 2), "Not My Job": (12, "not_my_job", 2),
                       "Landlord's Notice": (12, "landlord", 2), "Knock It Out": (13, "knock_out", 2)}


def test_LS2_action_kept_in_a_list_is_dead_weight_and_burning_is_optional():
    """LS-2: a drawn action may be kept (counting its effort) or discarded without acting."""
    m = arrange([SIX, LOW], deck=["Knock It Out"])
    m.play("0 draw")
    legal = m.legal_moves(0)
    assert Move(0, "discard") in legal and Move(0, "keep", (0,)) in legal
    assert {mv.kind for mv in legal} - {"claim"} == {"keep", "discard", "knock_out"}
    m.play("0 keep 0")
    assert names(m, 0)[0] == "Knock It Out" and top(m) == "Load the Dishwasher"
    assert m.view(1)["phase"] == "turn" and m.state.turn == 1  # no action happened


def test_LS2_burn_only_the_drawn_action():
    """LS-2: an action triggers only from the card just drawn: a chore cannot be burned,
    and a card taken from DONE never triggers."""
    m = arrange([SIX, LOW], done=["Knock It Out"], deck=["Nap"])
    m.play("0 draw")
    refused(m, "0 knock_out 0", "LS-2")
    m = arrange([SIX, LOW], done=["Knock It Out"], deck=["Nap"])
    m.play("0 take 1")
    assert m.state.turn == 1 and names(m, 0)[1] == "Knock It Out" and top(m) == "Feed the Fish"


# --- LS-3 / G-2: setup and turn order ---------------------------------------------------------
def test_LS3_setup_deals_six_flips_one_and_peeks_in_seat_order():
    """LS-3: 6 cards each, one DONE card, then each seat peeks at 2 own cards in order
    from the starting seat; no claims during setup (LS-5)."""
    m = Match(LazySunday, 3, {"first_player": 1}, seed=3)
    s = m.state
    assert [len(lst) for lst in s.lists] == [6, 6, 6] and len(s.done) == 1 and len(s.deck) == 54 - 19
    order = []
    for _ in range(3):
        seat = m.to_act()[0]
        order.append(seat)
        assert m.legal_moves(seat) == [Move(seat, "peek", (a, b)) for a in range(6) for b in range(a + 1, 6)]
        assert all(mv.kind != "claim" for other in range(3) for mv in m.legal_moves(other))
        m.play(f"{seat} peek 2 5")
        view = m.view(seat)
        assert view["looking"] == [[seat, 2], [seat, 5]]
        assert view["lists"][seat][2] == {"face_up": True, "name": names(m, seat)[2],
                                          "effort": CARDS.efforts[s.lists[seat][2]], "kind": "chore"
                                          if CARDS.kinds[s.lists[seat][2]] == "chore" else "action", "looking": True}
        assert m.view(None)["lists"][seat][2] == {"face_up": False}
        assert m.bot_view(seat)["memory"][seat] == [None, None, names(m, seat)[2], None, None, names(m, seat)[5]]
        refused(m, f"{(seat + 1) % 3} claim 0 0 1", "LS-5")
        m.play(f"{seat} done")
        assert m.view(seat)["lists"][seat][2] == {"face_up": False}  # LS-11: peeked once, never again
    assert order == [1, 2, 0]
    assert m.state.phase == "turn" and m.to_act() == (1,)
    refused(m, "1 peek 0 1", "LS-3")


def test_LS3_peek_needs_two_different_own_positions():
    """LS-3: peek a < b within the own list, once, then 'done'; nothing else in setup."""
    m = Match(LazySunday, 2, seed=1)
    refused(m, "0 peek 3 3", "LS-3")
    refused(m, "0 peek 0 6", "LS-3")
    refused(m, "1 done", "LS-3")
    refused(m, "1 draw", "LS-4")
    m.play("1 peek 0 1")
    refused(m, "1 peek 2 3", "LS-3")
    m.play("1 done")
    refused(m, "1 peek 2 3", "LS-3")
    assert m.to_act() == (0,)


@pytest.mark.parametrize("order", [("0 peek 0 1", "1 peek 2 3", "1 done", "0 done"),
                                   ("1 peek 2 3", "0 peek 0 1", "0 done", "1 done"),
                                   ("1 peek 2 3", "1 done", "0 peek 0 1", "0 done")])
def test_LS3_every_seat_peeks_at_once_in_any_order(order):
    """LS-3: each player peeks at 2 of their own cards at the start, all at the same
    time: every seat still peeking is on decision, in any order and interleaved; a seat
    sees only its own two cards (LS-11), and the starter then takes the first turn."""
    m = Match(LazySunday, 3, {"first_player": 1}, seed=4)
    assert m.to_act() == (1, 2, 0)
    looks = {0: [[0, 0], [0, 1]], 1: [[1, 2], [1, 3]]}
    for text in order:
        m.play(text)
        seat, kind = int(text[0]), text.split()[1]
        assert m.view(seat)["looking"] == (looks[seat] if kind == "peek" else [])
        for other in (0, 1, 2):
            if other != seat:
                assert all(spot[0] == other for spot in m.view(other)["looking"])
        assert m.view(None)["looking"] == []
        assert (seat in m.to_act()) == (kind == "peek")
    assert m.to_act() == (2,) and m.legal_moves(2)[0].kind == "peek"
    m.play("2 peek 4 5"), m.play("2 done")
    assert m.state.phase == "turn" and m.to_act() == (1,)


def test_LS3_a_record_with_the_peeks_one_seat_after_another_still_replays():
    """A record made when the peeks went seat by seat replays the same: that order is
    one of the orders the simultaneous peeks allow (LS-3)."""
    m = Match(LazySunday, 3, seed=9)
    for seat in (0, 1, 2):
        m.play(f"{seat} peek 0 1"), m.play(f"{seat} done")
    again = Match(LazySunday, 3, seed=9)
    for move in m.moves:
        again.play(move)
    assert again.fingerprint() == m.fingerprint() and again.to_act() == (0,)


def test_LS3_a_bot_samples_the_other_peekers_still_looking():
    """A bot's sampled positions in setup keep every seat still peeking on decision and
    have a seat that has peeked (the public log says where) looking at those cards."""
    m = Match(LazySunday, 3, seed=2)
    m.play("1 peek 3 4"), m.play("2 peek 0 5"), m.play("2 done")
    game, view = m.game, m.bot_view(0)
    s = game.determinizer(view, 0)(random.Random(5))
    assert game.to_act(s) == (0, 1)
    assert game.decision_moves(s, 0) == m.decision_moves(0)
    assert game.decision_moves(s, 1) == [Move(1, "done")]
    assert game.view(s, 0) == m.view(0)


def test_LS3_next_round_starts_one_seat_left_and_forgets_memory():
    """LS-3: round 2 is dealt by and starts with the seat left of round 1's start;
    LS-11: the new round forgets all memory."""
    m = arrange([LOW, SIX, SIX], options={"rounds": 2})
    m.state.start = 0
    m.play("0 notme")
    m.play("1 draw"), m.play("1 discard"), m.play("2 draw"), m.play("2 discard")
    assert m.state.phase == "round_over" and m.to_act() == (1,) and m.legal_moves(1) == [Move(1, "deal")]
    refused(m, "0 deal", "LS-3")
    m.play("1 deal")
    s = m.state
    assert s.round == 2 and s.start == 1 and s.phase == "peek" and m.to_act() == (1, 2, 0)
    assert all(s.known[c] == 0 for lst in s.lists for c in lst)
    assert sorted(s.deck + s.done + [c for lst in s.lists for c in lst]) == list(range(54))


def test_G2_first_player_option_and_random_first_player():
    """G-2: seat 0 starts by default; first_player picks a seat, or 'random' from the
    seeded stream (same seed, same seat); out-of-range is an OptionError."""
    assert Match(LazySunday, 4, seed=1).to_act()[0] == 0
    assert Match(LazySunday, 4, {"first_player": 3}, seed=1).to_act() == (3, 0, 1, 2)
    starts = [Match(LazySunday, 4, {"first_player": "random"}, seed=seed).to_act()[0] for seed in range(30)]
    assert len(set(starts)) > 1
    assert starts == (  # the same seats in another process
        in_fresh_process("""
            from playtest.engine import Match
            result = [Match("lazy_sunday", 4, {"first_player": "random"}, seed=s).to_act()[0] for s in range(30)]"""))
    with pytest.raises(OptionError):
        Match(LazySunday, 4, {"first_player": 4}, seed=1)


def test_G1_only_the_seat_on_turn_decides():
    """G-1: a turn move by another seat is refused, naming whose decision it is."""
    m = arrange([SIX, LOW, LOW])
    err = refused(m, "1 draw", "G-1")
    assert "seat 0" in err.reason


# --- LS-4: turns --------------------------------------------------------------------------------
def test_LS4_keep_swaps_in_and_discards_the_replaced_card_face_up():
    """LS-4: keep p puts the drawn card at p, the replaced card face-up on DONE."""
    m = arrange([SIX, LOW], deck=["Water the Plants"])
    serial = m.state.serial
    events = m.play("0 draw")
    assert "Water the Plants" not in events[-1].for_seat(0)        # LS-11: not even the drawer's log
    assert m.view(0)["drawn"]["card"]["name"] == "Water the Plants" and m.view(1)["drawn"] == {"seat": 0, "card": None}
    m.play("0 keep 3")
    assert names(m, 0)[3] == "Water the Plants" and top(m) == "Clean the Oven" and m.state.serial == serial + 1
    assert len(names(m, 0)) == 6 and m.to_act() == (1,)


def test_LS4_take_done_top_must_swap_in():
    """LS-4: take p swaps the DONE top into p; no plain take-and-throw-back move exists."""
    m = arrange([SIX, LOW], done=["Nap"])
    assert [mv for mv in m.legal_moves(0) if mv.kind == "take"] == [Move(0, "take", (p,)) for p in range(6)]
    refused(m, "0 take", "LS-4")
    refused(m, "0 take 6", "LS-4")
    m.play("0 take 3")
    assert names(m, 0)[3] == "Nap" and top(m) == "Clean the Oven"


def test_LS4_discard_drawn_card():
    """LS-4: discard puts the drawn card on DONE and ends the turn."""
    m = arrange([SIX, LOW], deck=["Clean the Oven"])
    m.play("0 draw")
    refused(m, "0 draw", "LS-4")
    m.play("0 discard")
    assert top(m) == "Clean the Oven" and names(m, 0) == SIX and m.state.turn == 1


# --- LS-2 / LS-8: the eight actions ---------------------------------------------------------------
def burn(lists, action, deck_rest=(), **kw):
    """Arrange, seat 0 draws ``action`` (then ``deck_rest``); returns the match."""
    m = arrange(lists, deck=[action, *deck_rest], **kw)
    m.play("0 draw")
    return m


def burns(m, seat=0):
    return [mv for mv in m.legal_moves(seat) if mv.kind not in ("keep", "discard", "claim")]


def test_LS2_im_busy_skips_the_next_player():
    """LS-2: I'm Busy: the next player who would take a turn skips it."""
    m = burn([SIX, LOW, LOW], "I'm Busy")
    assert burns(m) == [Move(0, "busy")]
    m.play("0 busy")
    assert top(m) == "I'm Busy" and m.state.turn == 2 and m.view(None)["skip_next"] is False


def test_LS2_im_busy_two_players_gives_another_turn():
    """LS-2 with 2 players: the opponent skips, so the burner goes again."""
    m = burn([SIX, LOW], "I'm Busy")
    m.play("0 busy")
    assert m.to_act() == (0,) and m.state.phase == "turn"


def test_LS2_double_check_looks_at_own_card_and_closes_claims():
    """LS-2 Double Check: look at one own card (view and memory), then done; LS-5: no
    claims while the action resolves."""
    m = burn([SIX, LOW], "Double Check")
    assert burns(m) == [Move(0, "double_check", (p,)) for p in range(6)]
    m.play("0 double_check 3")
    assert m.view(0)["lists"][0][3]["name"] == "Clean the Oven" and m.view(0)["looking"] == [[0, 3]]
    assert m.view(1)["lists"][0][3] == {"face_up": False} and not m.view(1)["claims_open"]
    assert m.legal_moves(0) == [Move(0, "done")] and m.legal_moves(1) == []
    err = refused(m, "1 claim 0 0 2", "LS-5")
    assert "action resolves" in err.reason
    m.play("0 done")
    assert m.bot_view(0)["memory"][0][3] == "Clean the Oven" and m.view(0)["lists"][0][3] == {"face_up": False}
    assert m.state.turn == 1


def test_LS8_nosy_neighbour_targets_another_player():
    """LS-8: Nosy Neighbour takes one other player (not self), any position."""
    m = burn([SIX, ["Nap", "Clean the Oven"], LOW], "Nosy Neighbour")
    assert burns(m) == [Move(0, "nosy", (t, p)) for t in (1, 2) for p in range(len(m.state.lists[t]))]
    refused(m, "0 nosy 0 1", "LS-8")
    refused(m, "0 nosy 1 5", "LS-8")
    m.play("0 nosy 1 1")
    assert m.view(0)["lists"][1][1]["name"] == "Clean the Oven" and m.view(2)["lists"][1][1] == {"face_up": False}
    m.play("0 done")
    assert m.bot_view(0)["memory"][1] == [None, "Clean the Oven"] and m.bot_view(1)["memory"][1] == [None, None]


def test_LS8_lets_trade_swaps_unseen():
    """LS-2/LS-8 Let's Trade: swap an own card with another player's, unseen; what
    each seat knew of the two cards moves with them (LS-11)."""
    m = burn([SIX, ["Scrub the Bathroom", "Nap"]], "Let's Trade")
    assert len(burns(m)) == 6 * 2 and burns(m)[0] == Move(0, "trade", (0, 1, 0))
    m.play("0 trade 0 1 1")
    assert names(m, 0)[0] == "Nap" and names(m, 1)[1] == "Load the Dishwasher" and m.state.turn == 1
    assert m.bot_view(0)["memory"][0][0] is None  # unseen


def test_LS8_switcheroo_needs_two_other_players():
    """LS-8: Switcheroo swaps between two other players; with 2 players only discard."""
    m = burn([SIX, ["Nap"], ["Clean the Oven", "Feed the Fish"]], "Switcheroo")
    assert burns(m) == [Move(0, "switcheroo", (1, 0, 2, q)) for q in range(2)]
    refused(m, "0 switcheroo 2 0 1 0", "LS-8")
    refused(m, "0 switcheroo 0 0 1 0", "LS-8")
    m.play("0 switcheroo 1 0 2 0")
    assert names(m, 1) == ["Clean the Oven"] and names(m, 2)[0] == "Nap"
    m2 = burn([SIX, LOW], "Switcheroo")
    assert burns(m2) == []
    assert refused(m2, "0 switcheroo 1 0 1 1", "LS-8")


def test_LS8_not_my_job_looks_then_may_swap():
    """LS-2/LS-8 Not My Job: look at one card each of two other players, then swap or not."""
    m = burn([SIX, ["Nap"], ["Clean the Oven"]], "Not My Job")
    assert burns(m) == [Move(0, "not_my_job", (1, 0, 2, 0))]
    m.play("0 not_my_job 1 0 2 0")
    view = m.view(0)
    assert [view["lists"][1][0]["name"], view["lists"][2][0]["name"]] == ["Nap", "Clean the Oven"]
    assert m.view(1)["lists"][1][0] == {"face_up": False}
    assert m.legal_moves(0) == [Move(0, "done"), Move(0, "swap")]
    m.play("0 swap")
    assert names(m, 1) == ["Clean the Oven"] and names(m, 2) == ["Nap"]
    assert m.bot_view(0)["memory"][1] == ["Clean the Oven"]
    m2 = burn([SIX, LOW], "Not My Job")
    assert burns(m2) == []
    m3 = burn([SIX, ["Nap"], ["Clean the Oven"]], "Not My Job")
    m3.play("0 not_my_job 1 0 2 0")
    m3.play("0 done")
    assert names(m3, 1) == ["Nap"]
    refused(m3, "1 swap", "LS-2")


def test_LS8_swap_only_after_not_my_job():
    """LS-2: 'swap' belongs to Not My Job only."""
    m = burn([SIX, LOW], "Double Check")
    m.play("0 double_check 0")
    refused(m, "0 swap", "LS-2")


def test_LS8_landlords_notice_any_player_including_self_unseen():
    """LS-8: Landlord's Notice takes any player, the user included; the card is unseen."""
    m = burn([SIX, LOW], "Landlord's Notice", deck_rest=["Clean the Oven"])
    assert burns(m) == [Move(0, "landlord", (0,)), Move(0, "landlord", (1,))]
    m.play("0 landlord 0")
    assert names(m, 0) == SIX + ["Clean the Oven"] and m.bot_view(0)["memory"][0][6] is None


def test_LS2_knock_it_out_discards_own_card_and_sets_up_claims():
    """LS-2: Knock It Out puts an own card face-up on DONE (a normal discard, LS-9 edge
    5): the list shrinks and a matching card may be quick-discarded next."""
    m = burn([SIX, ["Clean the Oven"]], "Knock It Out")
    assert burns(m) == [Move(0, "knock_out", (p,)) for p in range(6)]
    m.play("0 knock_out 3")
    assert names(m, 0) == SIX[:3] + SIX[4:] and top(m) == "Clean the Oven"
    assert CARDS.names[m.state.done[-2]] == "Knock It Out"
    assert Move(1, "claim", (1, 0, m.state.serial)) in m.legal_moves(1)


def test_LS8_no_target_without_cards():
    """LS-8: a target needs a card where a card is named: empty lists give no targets."""
    m = burn([SIX, [], LOW], "Nosy Neighbour")
    assert {mv.args[0] for mv in burns(m)} == {2}
    m2 = burn([[], LOW], "Double Check")
    assert burns(m2) == [] and m2.legal_moves(0)[:2] == [Move(0, "keep"), Move(0, "discard")]


# --- LS-5: quick discard ---------------------------------------------------------------------------
def test_LS5_own_correct_claim_shrinks_list_and_shifts_positions():
    """LS-5: a correct claim on an own card puts it on DONE; later positions shift left;
    the claimed card is the new top, so further claims may follow."""
    m = arrange([["Feed the Fish", "Water the Plants", "Clean the Oven", "Water the Plants"], LOW],
                done=["Water the Plants"])
    serial = m.state.serial
    m.play(f"0 claim 0 1 {serial}")
    assert names(m, 0) == ["Feed the Fish", "Clean the Oven", "Water the Plants"] and top(m) == "Water the Plants"
    assert m.state.serial == serial + 1 and m.state.phase == "turn"
    m.play(f"0 claim 0 2 {serial + 1}")
    assert names(m, 0) == ["Feed the Fish", "Clean the Oven"]


def test_LS5_other_correct_claim_then_give_unseen():
    """LS-5: a correct claim on another's card: it goes onto DONE, the claimer gives one
    own card into the gap; the receiver does not learn it, the giver does (LS-11; how
    the giver is shown it: the next test)."""
    m = arrange([SIX, ["Feed the Fish", "Nap", "Make the Bed"], ["Clean the Oven", "Vacuum the Stairs"]])
    m.play("2 claim 1 1 1")
    s = m.state
    assert s.phase == "give" and m.to_act() == (2,) and names(m, 1) == ["Feed the Fish", "Make the Bed"]
    assert m.view(0)["give"] == {"seat": 2, "to": 1, "pos": 1} and not m.view(0)["claims_open"]
    assert m.legal_moves(2) == [Move(2, "give", (0,)), Move(2, "give", (1,))] and m.legal_moves(0) == []
    refused(m, "0 draw", "G-1")
    refused(m, "0 claim 0 0 2", "LS-5")
    m.play("2 give 1")
    assert names(m, 1) == ["Feed the Fish", "Vacuum the Stairs", "Make the Bed"] and names(m, 2) == ["Clean the Oven"]
    assert m.bot_view(2)["memory"][1][1] == "Vacuum the Stairs" and m.bot_view(1)["memory"][1][1] is None
    assert s.phase == "turn" and m.to_act() == (0,)


def test_LS5_the_giver_is_shown_the_card_it_gives_as_it_gives_it():
    """LS-5: right after the give, the giver's view shows the given card face-up where it
    now lies, as any card a seat looks at (``looking``, LS-11), and its log line says it
    was shown the card without naming it; the receiver, a third seat and the spectator
    see a face-down card. With the next move, whoever makes it (but a late claim, which
    changes nothing), the card is face-down again for the giver too, who remembers it
    (as a bot at its seat does)."""
    m = arrange([SIX, ["Feed the Fish", "Nap", "Make the Bed"], ["Clean the Oven", "Vacuum the Stairs"]])
    m.play("2 claim 1 1 1")
    assert m.view(2)["looking"] == [] and m.bot_view(2)["memory"][2] == [None, None]   # chosen unseen
    events = m.play("2 give 1")
    shown = m.view(2)
    assert shown["looking"] == [[1, 1]]
    assert shown["lists"][1][1] == {"face_up": True, "name": "Vacuum the Stairs", "effort": 7, "kind": "chore",
                                    "looking": True}
    assert [slot["face_up"] for slot in shown["lists"][1]] == [False, True, False]
    for seat in (1, 0, None):  # the receiver, a seat outside the give, the spectator
        view = m.view(seat)
        assert view["looking"] == [] and view["lists"][1][1] == {"face_up": False}
        assert "Vacuum the Stairs" not in str(view)
    assert events[0].for_seat(2).endswith("and is shown the card as it gives it (LS-5).")
    assert "shown" not in events[0].for_seat(1) and "Vacuum" not in events[0].for_seat(2)
    assert m.bot_view(2)["memory"][1] == [None, "Vacuum the Stairs", None]
    before = m.fingerprint()
    m.play("0 claim 1 0 1")  # a late claim (serial 1 is gone) is returned and changes nothing
    assert m.fingerprint() == before and m.view(2)["looking"] == [[1, 1]]
    m.play("0 draw")  # the next move, by another seat
    assert m.view(2)["looking"] == [] and m.view(2)["lists"][1][1] == {"face_up": False}
    assert m.bot_view(2)["memory"][1] == [None, "Vacuum the Stairs", None]  # remembered, not shown


def test_LS5_give_returns_to_a_held_drawn_card():
    """LS-5: a claim while the turn seat holds a drawn card interrupts and returns to it."""
    m = arrange([SIX, ["Nap"]], deck=["Clean the Oven"], done=["Load the Dishwasher"])
    m.play("0 draw")
    m.play("1 claim 0 0 1")
    m.play("1 give 0")
    assert m.state.phase == "drawn" and m.to_act() == (0,) and names(m, 0)[0] == "Nap"
    assert names(m, 1) == []


def test_LS5_wrong_claim_penalty_card_unseen():
    """LS-5: a wrong claim leaves the card, and the claimer adds the top deck card unseen."""
    m = arrange([SIX, LOW], deck=["Clean the Oven"])
    events = m.play("1 claim 0 1 1")
    assert names(m, 0) == SIX and names(m, 1) == LOW + ["Clean the Oven"]
    assert m.bot_view(1)["memory"][1] == [None, None] and "wrong" in events[0].text
    assert m.state.phase == "turn" and m.to_act() == (0,)


def test_LS5_stale_claim_is_returned_without_penalty():
    """LS-5: a claim naming an older DONE top (lower serial) is legal, but returned with
    no effect and no penalty; a serial above the current one is illegal."""
    m = arrange([["Water the Plants", "Water the Plants"], ["Feed the Fish"]], done=["Water the Plants"])
    m.play("0 claim 0 0 1")
    assert m.state.serial == 2
    before = m.state.dump()
    assert Move(1, "claim", (0, 0, 1)) not in m.legal_moves(1)  # only current serials are listed
    events = m.play("1 claim 0 0 1")
    assert m.state.dump() == before and "too late" in events[0].text
    # seat 0's list shrank: the slapped position is gone, and the late claim is still returned
    events = m.play("1 claim 0 1 1")
    assert m.state.dump() == before and "too late" in events[0].text
    refused(m, "1 claim 0 0 3", "LS-5")


def test_LS5_claiming_another_card_needs_an_own_card():
    """LS-5: with an empty list a seat may not claim another's card."""
    m = arrange([SIX, []])
    assert [mv for mv in m.legal_moves(1)] == []
    err = refused(m, "1 claim 0 0 1", "LS-5")
    assert "card of your own" in err.reason


def test_LS5_claimed_action_card_triggers_nothing():
    """LS-5: an action card quick-discarded does not act."""
    m = arrange([["Knock It Out", "Nap"], LOW], done=["Knock It Out"])
    m.play("0 claim 0 0 1")
    assert names(m, 0) == ["Nap"] and m.state.phase == "turn" and m.to_act() == (0,)
    assert all(mv.kind in ("draw", "take", "notme", "claim") for mv in m.legal_moves(0))


def test_LS5_claims_closed_at_round_end():
    """LS-5: no claims once the round is over."""
    m = arrange([LOW, SIX], done=["Water the Plants"], options={"rounds": 2})
    m.play("0 notme"), m.play("1 draw"), m.play("1 discard")
    assert m.state.phase == "round_over"
    refused(m, "0 claim 0 0 1", "LS-5")


# --- LS-6: deck runs out -------------------------------------------------------------------------
def test_LS6_reshuffle_done_except_top_and_forget():
    """LS-6: drawing from an empty deck shuffles DONE under its top into a new deck (from
    the state's seeded stream); LS-11: those cards are forgotten."""
    m = arrange([SIX, LOW], done=["Clean the Oven"], fill="done")
    s = m.state
    top_card, serial = s.done[-1], s.serial
    assert s.deck == [] and Move(0, "draw") in m.legal_moves(0)
    m.play("0 draw")
    assert s.done == [top_card] and s.serial == serial and len(s.deck) == 54 - 7 - 2
    assert all(s.known[c] == 0 for c in s.deck)
    assert m.fingerprint() == in_fresh_process("""
        from test_lazy_sunday_rules import LOW, SIX, arrange
        twin = arrange([SIX, LOW], done=["Clean the Oven"], fill="done")
        twin.play("0 draw")
        result = twin.fingerprint()""")  # same seed, same shuffle (G-3), in another process too


def test_LS6_nothing_to_draw_no_draw_no_penalty_then_pass():
    """LS-6: with an empty deck and only the DONE top, drawing is not offered and a wrong
    claim has no penalty; with nothing at all to draw, take or call, 'pass' is offered."""
    m = arrange([SIX, LOW + ["Nap"]], done=["Clean the Oven"], fill=1)
    assert Move(0, "draw") not in m.legal_moves(0)
    refused(m, "0 draw", "LS-6")
    m.play("1 claim 0 0 1")
    assert len(names(m, 1)) == 54 - 6 - 1 and m.state.deck == []
    m.play("0 notme")
    assert m.legal_moves(1)[0] == Move(1, "take", (0,))
    p = arrange([SIX, []], done=[], fill=0, turn=1)
    p.state.caller, p.state.final_turns = 0, []
    assert [mv.kind for mv in p.legal_moves(1)] == ["pass"]
    refused(arrange([SIX, LOW]), "0 pass", "LS-6")


def test_LS6_landlord_not_offered_when_nothing_can_be_drawn():
    """LS-6/LS-8: Landlord's Notice needs a card to draw."""
    m = arrange([SIX, LOW], done=[], deck=["Landlord's Notice"], fill=1)
    m.play("0 draw")
    assert burns(m) == []
    refused(m, "0 landlord 1", "LS-6")


# --- LS-4 edge 2: empty lists -----------------------------------------------------------------------
def test_empty_list_player_can_draw_keep_take_and_call():
    """Rulebook edge 2 / LS-4: an empty list counts 0; keep and take simply add a card."""
    m = arrange([[], LOW])
    assert Move(0, "take") in m.legal_moves(0) and Move(0, "notme") in m.legal_moves(0)
    m.play("0 draw")
    assert m.legal_moves(0)[:2] == [Move(0, "keep"), Move(0, "discard")]
    refused(m, "0 keep 0", "LS-4")
    m.play("0 keep")
    assert len(names(m, 0)) == 1
    m2 = arrange([[], LOW], done=["Feed the Fish", "Nap"])
    m2.play("0 take")
    assert names(m2, 0) == ["Nap"] and top(m2) == "Feed the Fish" and m2.state.serial == 3
    m3 = arrange([[], LOW])
    m3.play("0 notme"), m3.play("1 draw"), m3.play("1 discard")
    assert m3.state.round_scores == [[0, 1]]


# --- LS-7: NOT ME! ----------------------------------------------------------------------------------
def test_LS7_notme_gives_each_other_seat_one_final_turn_in_order():
    """LS-7: every other seat takes exactly one final turn in turn order, then lists are
    revealed and scored; NOT ME! only once per round, at the start of a turn."""
    m = arrange([SIX, LOW, LOW, LOW], turn=2)
    m.play("2 notme")
    assert m.view(None)["caller"] == 2 and m.view(None)["final_turns"] == [0, 1] and m.to_act() == (3,)
    assert Move(3, "notme") not in m.legal_moves(3)
    err = refused(m, "3 notme", "LS-7")
    assert "already called" in err.reason
    order = []
    while m.state.phase == "turn":
        seat = m.to_act()[0]
        order.append(seat)
        m.play(f"{seat} draw"), m.play(f"{seat} discard")
    assert order == [3, 0, 1] and m.state.phase == "over"
    view = m.view(None)
    assert view["lists"][0][3] == {"face_up": True, "name": "Clean the Oven", "effort": 9, "kind": "chore",
                                   "looking": False}
    m2 = arrange([SIX, LOW], deck=["Nap"])
    m2.play("0 draw")
    refused(m2, "0 notme", "LS-7")


def test_LS7_caller_list_locked_against_actions_and_others_claims():
    """LS-7/LS-8: after a call nobody else may target the caller with an action or claim
    its cards; the caller may still claim its own."""
    m = arrange([["Nap", "Feed the Fish"], LOW, SIX, LOW], done=["Nap"], deck=["Nosy Neighbour"])
    m.play("0 notme")
    assert all(mv.args[0] != 0 for mv in m.legal_moves(2) if mv.kind == "claim")
    err = refused(m, "2 claim 0 0 1", "LS-7")
    assert err.reason == "seat 0 called NOT ME! and its list is locked until the round is scored"
    assert Move(0, "claim", (0, 0, 1)) in m.legal_moves(0)
    m.play("1 draw")
    assert {mv.args[0] for mv in burns(m, 1)} == {2, 3}
    refused(m, "1 nosy 0 0", "LS-7")
    m.play("0 claim 0 0 1")
    assert names(m, 0) == ["Feed the Fish"]


def test_LS7_lock_leaves_one_other_player_so_no_switcheroo():
    """LS-8: with 3 players and a locked caller only one other player is left:
    Switcheroo, Not My Job offer only discard; Landlord cannot pick the caller."""
    for action in ("Switcheroo", "Not My Job"):
        m = arrange([LOW, SIX, LOW], deck=[action])
        m.play("0 notme")
        m.play("1 draw")
        assert burns(m, 1) == []
        refused(m, f"1 {'switcheroo' if action == 'Switcheroo' else 'not_my_job'} 0 0 2 0", "LS-8")
    m = arrange([LOW, SIX, LOW], deck=["Landlord's Notice"])
    m.play("0 notme"), m.play("1 draw")
    assert burns(m, 1) == [Move(1, "landlord", (1,)), Move(1, "landlord", (2,))]


def test_LS7_im_busy_on_a_final_turn_skips_the_next_final_turn():
    """LS-7 / edge 3: I'm Busy burned on a final turn makes the next final turn lost."""
    m = arrange([LOW, SIX, SIX, SIX], deck=["I'm Busy"])
    m.play("0 notme")
    m.play("1 draw"), m.play("1 busy")
    assert m.to_act() == (3,) and m.view(None)["final_turns"] == []
    m.play("3 draw"), m.play("3 discard")
    assert m.state.phase == "over" and m.state.round_scores[0][0] == 0


def test_LS7_im_busy_on_the_last_final_turn_just_ends_the_round():
    """LS-7: I'm Busy on the last final turn: nobody is left to skip; the round is scored."""
    m = arrange([LOW, SIX], deck=["I'm Busy"])
    m.play("0 notme"), m.play("1 draw"), m.play("1 busy")
    assert m.state.phase == "over"


# --- LS-9 / LS-10: scoring and the match -------------------------------------------------------------
def call_and_score(lists, caller=0, options=None, scores=None):
    m = arrange(lists, turn=caller, options=options)
    if scores:
        m.state.scores = list(scores)
    m.play(f"{caller} notme")
    while m.state.phase == "turn":
        seat = m.to_act()[0]
        m.play(f"{seat} draw"), m.play(f"{seat} discard")
    return m


def test_LS9_tie_goes_to_the_caller():
    """LS-9: caller tied lowest scores 0; the others their totals."""
    m = call_and_score([["Make the Bed"], ["Water the Plants", "Feed the Fish"], SIX])
    assert m.state.round_scores == [[0, 3, 29]]


def test_LS9_strictly_lower_beats_the_caller():
    """LS-9: anyone strictly below the caller: caller 50, everyone else their totals."""
    m = call_and_score([["Make the Bed"], ["Feed the Fish"], SIX])
    assert m.state.round_scores == [[50, 2, 29]]
    o = m.outcome()
    assert o.finished and o.winners == (1,) and o.scores == (50, 2, 29)


def test_LS10_rounds_option_plays_that_many_rounds():
    """LS-10: without match_to, `rounds` rounds are played, scores accumulate."""
    m = call_and_score([["Make the Bed"], ["Feed the Fish"]], options={"rounds": 2})
    assert m.state.phase == "round_over" and m.outcome() is None and m.view(None)["scores"] == [50, 2]
    _, outcome = play_game(LazySunday, 3, "random", options={"rounds": 3}, seed=4)
    assert outcome.finished


def test_LS10_match_to_100_ends_when_a_score_is_above_100_and_ties_share():
    """LS-10: with match_to=100, rounds go on until a cumulative score is above 100;
    the lowest cumulative wins, ties shared."""
    m = call_and_score([["Make the Bed"], ["Feed the Fish"], SIX], options={"match_to": 100}, scores=[0, 30, 80])
    assert m.state.scores == [50, 32, 109] and m.state.phase == "over"
    assert m.outcome().winners == (1,)
    m2 = call_and_score([["Make the Bed"], ["Make the Bed"], SIX], options={"match_to": 100}, scores=[13, 10, 90])
    assert m2.outcome().winners == (0, 1) and "share" in m2.outcome().reason
    m3 = call_and_score([["Make the Bed"], ["Feed the Fish"]], options={"match_to": 100}, scores=[0, 98])
    assert m3.state.scores == [50, 100] and m3.state.phase == "round_over"  # 100 is not above 100


def test_LS10_great_escape_exactly_100_resets_to_50():
    """LS-10: with great_escape, a cumulative score of exactly 100 becomes 50 (before
    the above-100 check)."""
    m = call_and_score([["Make the Bed"], ["Feed the Fish"]], options={"match_to": 100, "great_escape": True},
                       scores=[0, 98])
    assert m.state.scores == [50, 50] and m.state.phase == "round_over"
    m2 = call_and_score([["Make the Bed"], ["Feed the Fish"]], options={"match_to": 100, "great_escape": True},
                        scores=[60, 98])
    assert m2.state.scores == [110, 50] and m2.outcome().winners == (1,)


def test_LS10_presets_are_valid_options():
    """LS-10: the presets are the rulebook's optional rules and validate as options."""
    assert LazySunday.PRESETS["match to 100, Great Escape"] == {"match_to": 100, "great_escape": True}
    for options in LazySunday.PRESETS.values():
        assert LazySunday(2, options).options.model_dump(exclude_defaults=True) == options


def test_LS10_options_are_validated():
    """LS-10: match_to is None or 100; rounds >= 1; descriptions cite LS-10."""
    for bad in ({"match_to": 50}, {"rounds": 0}, {"great_escape": "maybe"}):
        with pytest.raises(OptionError):
            LazySunday(3, bad)
    assert LazySunday.Options.model_fields["match_to"].description.startswith("LS-10")


# --- LS-11: memory -------------------------------------------------------------------------------
def test_LS11_drawn_and_kept_card_known_only_to_drawer_and_done_known_to_all():
    """LS-11: a kept drawn card is remembered by the drawer only; a card taken from DONE
    is remembered by everyone; memory is only in bot_view, never in view."""
    m = arrange([SIX, LOW], deck=["Water the Plants"], done=["Nap"])
    m.play("0 draw"), m.play("0 keep 0")
    assert m.bot_view(0)["memory"][0][0] == "Water the Plants" and m.bot_view(1)["memory"][0][0] is None
    m.play("1 take 0")  # takes the card that keep just discarded
    assert m.bot_view(0)["memory"][1][0] == m.bot_view(1)["memory"][1][0] == "Load the Dishwasher"
    assert "memory" not in m.view(0)
    assert m.state.seen[0] >= {m.state.lists[0][0], m.state.lists[1][0]}
    assert m.state.lists[0][0] not in m.state.seen[1]


def test_LS11_the_log_never_names_a_face_down_card_not_even_to_the_seat_that_saw_it():
    """LS-11: memory is the game, so no seat's log keeps the name of a card that is
    face-down now: not of a peek, a draw kept, or a card given after a claim."""
    m = arrange([SIX, ["Load the Dishwasher"], ["Vacuum the Stairs"]], deck=["Scrub the Bathroom"])
    events = m.play("0 draw") + m.play("0 keep 0")
    assert all("Scrub the Bathroom" not in e.for_seat(seat) for e in events for seat in (None, 0, 1, 2))
    events = m.play("2 claim 1 0 2") + m.play("2 give 0")
    assert all("Vacuum the Stairs" not in e.for_seat(seat) for e in events for seat in (None, 0, 1, 2))
    fresh = Match(LazySunday, 3, seed=4)
    peeked = fresh.play("0 peek 0 1")
    looked_at = [slot["name"] for slot in fresh.view(0)["lists"][0][:2]]
    assert all(name not in e.for_seat(0) for e in peeked for name in looked_at)


# --- G-4 ------------------------------------------------------------------------------------------
def test_G4_max_turns_ends_unfinished():
    """G-4: reaching max_turns ends the game unfinished (Outcome.finished False)."""
    m = arrange([SIX, LOW], options={"max_turns": 3})
    for seat in (0, 1, 0):
        m.play(f"{seat} draw"), m.play(f"{seat} discard")
    o = m.outcome()
    assert o is not None and not o.finished and o.winners == () and "G-4" in o.reason
    assert m.to_act() == () and m.legal_moves(1) == []
    refused(m, "1 draw", "G-4")
    _, outcome = play_game(LazySunday, 4, "random", options={"max_turns": 2}, seed=1)
    assert not outcome.finished


def test_explain_unknown_kind_and_bad_arguments():
    """An unknown kind has no ruling; wrong argument shapes cite the move's ruling."""
    m = arrange([SIX, LOW])
    assert refused(m, "0 fly", "").reason.startswith("'fly' is not a Lazy Sunday move")
    refused(m, "0 claim 1 x 1", "LS-5")
    refused(m, "0 nosy 1", "LS-2")
