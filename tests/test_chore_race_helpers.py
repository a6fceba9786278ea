"""Test helpers for Chore Race: reach an exact position on a real match, and check that
every card is where exactly one zone says it is.

``pinned`` builds the position the public way, as a scenario does: a pinned setup
(``Match(..., setup=...)``, :meth:`ChoreRace.pin`, keys of ``ChoreRace.SETUP``), so the
match can be rebuilt from its record and every card stays accounted for exactly once.
``arrange`` edits ``match.state`` in place; the rules tests no longer use it (the bot and
widget tests still do).
"""
from __future__ import annotations

from collections import Counter

import pytest

from playtest.engine import Match
from playtest.games.chore_race import ChoreRace

NAME = {a.key: a.name for a in ChoreRace.cards.action}        # card key -> card name (CR-1)


def new_match(seats=2, seed=1, **options) -> Match:
    """A fresh Chore Race match (seat 0 on turn unless ``first_player`` says otherwise)."""
    return Match("chore_race", seats, options, seed)


def pinned(seats=2, *, hands=None, tableaus=None, deck=None, discard=None, chore_deck=None, chore_discard=None,
           scored=None, vp=None, protected=None, first=0, seed=1, **options) -> Match:
    """A Chore Race match at a pinned setup (``Match(..., setup=...)``, see ``ChoreRace.SETUP``).

    Args:
        hands: ``{seat: [card keys]}``, the hands as pinned: *before* the first seat's
            Draw step (CR-3), which then draws from ``deck`` (1 card; 2 on catch-up,
            CR-15; none with 7+ in hand). A seat not named holds no card.
        tableaus: ``{seat: [(chore name, progress), ...]}``; a chore at progress p has p
            Done under it (CR-6). A seat not named has an empty tableau.
        deck: action card keys, the next drawn first (``deck_top``). discard: keys,
            oldest first.
        chore_deck: chore names, the next drawn first. chore_discard: chore names.
        scored: ``{seat: [chore names]}``. vp: VP per seat (default: the scored chores').
        protected: CR-16 flags per seat. first: the seat to act first (G-2 first_player).
        seed, options: the match's seed and options.
    """
    keys = lambda cards: [NAME[k] for k in cards]       # noqa: E731
    setup = {"hands": [keys((hands or {}).get(seat, [])) for seat in range(seats)],
             "tableaus": [[name for name, _ in (tableaus or {}).get(seat, [])] for seat in range(seats)],
             "progress": [[p for _, p in (tableaus or {}).get(seat, [])] for seat in range(seats)]}
    if deck is not None:
        setup["deck_top"] = keys(deck)
    if discard is not None:
        setup["discard"] = keys(discard)
    if chore_deck is not None:
        setup["chore_deck_top"] = list(chore_deck)
    if chore_discard is not None:
        setup["chore_discard"] = list(chore_discard)
    if scored is not None:
        setup["scored"] = [list(scored.get(seat, [])) for seat in range(seats)]
    if vp is not None:
        setup["vp"] = list(vp)
    if protected is not None:
        setup["protected"] = list(protected)
    if first:
        options["first_player"] = first
    return Match("chore_race", seats, options, seed, setup=setup)


def other_chores(*named) -> list[str]:
    """Every chore of the deck (CR-2) except one copy of each name in ``named``."""
    left = Counter(c.name for c in ChoreRace.cards.chore for _ in range(c.count)) - Counter(named)
    return sorted(left.elements())


def arrange(match: Match, *, hands=None, tableaus=None, deck=None, discard=None, chore_deck=None,
            vp=None, turn=0, rest="deck"):
    """Put the match in an exact position, at the start of ``turn``'s Play step (after the
    Draw step, both slots free, nothing pending).

    Args:
        hands: ``{seat: [card keys]}``; every seat not named gets an empty hand.
        tableaus: ``{seat: [(chore name, progress), ...]}``; a chore at progress p holds
            p Done cards under it (CR-6) while spare Done remain. Seats not named: empty.
        deck: action card keys, the next card drawn first. discard: keys, oldest first.
        chore_deck: chore names, the next drawn first; other chores go below them.
        vp: VP per seat (scored piles stay as they are).
        rest: where the unnamed action cards go: ``"deck"`` (below ``deck``) or
            ``"discard"``.

    Raises:
        AssertionError: more copies of a card asked for than the deck has.
    """
    game, s = match.game, match.state
    pool = {}
    for card, key in enumerate(game.akey):
        pool.setdefault(key, []).append(card)

    def take(key):
        assert pool.get(key), f"no {key} left to arrange"
        return pool[key].pop(0)

    chores = {}
    for cid, chore in enumerate(game.chores):
        chores.setdefault(chore.name, []).append(cid)

    def take_chore(name):
        assert chores.get(name), f"no {name} left to arrange"
        return chores[name].pop(0)

    s.hands = [[take(k) for k in (hands or {}).get(seat, [])] for seat in range(game.seats)]
    s.tableaus = [[] for _ in range(game.seats)]
    for seat, entries in (tableaus or {}).items():
        for name, progress in entries:
            under = [take("done") for _ in range(min(progress, len(pool.get("done", []))))]
            s.tableaus[seat].append([take_chore(name), progress, under, False])
    top = [take(k) for k in deck or []]
    s.discard = [take(k) for k in discard or []]
    left = [c for cards in pool.values() for c in cards]
    if rest == "deck":
        s.deck = left + top[::-1]            # top of the deck = end of the list
    else:
        s.deck = top[::-1]
        s.discard += left
    named = [take_chore(n) for n in chore_deck or []]
    s.chore_deck = [c for cards in chores.values() for c in cards] + named[::-1]
    s.chore_discard, s.scored = [], [[] for _ in range(game.seats)]
    s.vp = list(vp) if vp else [0] * game.seats
    s.turn_seat, s.phase, s.slots = turn, "play", [False, False]
    s.pending = s.placing = s.meeting = s.trigger = s.revealed = s.result = None
    match._legal = {}       # the engine caches legal moves per state; see the report
    return match


def keys(match, seat):
    """The card keys in ``seat``'s hand, sorted."""
    return sorted(match.game.akey[c] for c in match.state.hands[seat])


def all_cards_once(match) -> bool:
    """Every action card id and every chore id is in exactly one zone (CR-1, CR-2, CR-6)."""
    s, game = match.state, match.game
    actions = list(s.deck) + list(s.discard) + [c for h in s.hands for c in h]
    actions += [c for t in s.tableaus for e in t for c in e[2]]
    actions += [c for cards in (s.meeting or ()) if cards for c in cards]
    if s.pending:
        actions.append(s.pending[1])
    chores = list(s.chore_deck) + list(s.chore_discard) + [e[0] for t in s.tableaus for e in t]
    chores += [c for pile in s.scored for c in pile]
    return sorted(actions) == list(range(len(game.akey))) and sorted(chores) == list(range(len(game.chores)))


def test_arrange_gives_exact_hands_and_keeps_every_card_once():
    m = arrange(new_match(3), hands={0: ["done", "excuse"], 2: ["later"]},
                tableaus={1: [("Make Your Bed", 1)]}, deck=["finally"], chore_deck=["Mow the Lawn"])
    assert keys(m, 0) == ["done", "excuse"] and keys(m, 1) == [] and keys(m, 2) == ["later"]
    assert m.view(1)["tableaus"][1][0] == {"name": "Make Your Bed", "level": 2, "ability": "",
                                           "progress": 1, "cards": ["Done"], "wipe_used": False}
    assert m.game.akey[m.state.deck[-1]] == "finally"
    assert m.game.chores[m.state.chore_deck[-1]].name == "Mow the Lawn"
    assert all_cards_once(m)


def test_arrange_refuses_more_copies_than_exist():
    with pytest.raises(AssertionError, match="no excuse left"):
        arrange(new_match(2), hands={0: ["excuse"] * 7})


def test_pinned_gives_exact_hands_tableaus_and_the_draw_and_keeps_every_card_once():
    m = pinned(3, hands={0: ["done", "excuse"], 2: ["later"]}, tableaus={1: [("Make Your Bed", 1)]},
               deck=["finally", "meeting"], chore_deck=["Mow the Lawn"])
    assert keys(m, 0) == ["done", "excuse", "finally"] and keys(m, 1) == [] and keys(m, 2) == ["later"]
    assert m.view(1)["tableaus"][1][0] == {"name": "Make Your Bed", "level": 2, "ability": "",
                                           "progress": 1, "cards": ["Done"], "wipe_used": False}
    assert m.view(None)["tableaus"][0] == [] and m.game.akey[m.state.deck[-1]] == "meeting"
    assert m.game.chores[m.state.chore_deck[-1]].name == "Mow the Lawn"
    assert all_cards_once(m) and Match.from_record(m.record()).fingerprint() == m.fingerprint()


def test_pinned_chore_discard_empties_the_chore_deck():
    m = pinned(2, tableaus={0: [("Make Your Bed", 2)]}, chore_discard=other_chores("Make Your Bed"))
    view = m.view(None)
    assert view["chore_deck"] == 0 and len(view["chore_discard"]) == 38 and all_cards_once(m)
