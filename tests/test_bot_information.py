"""A bot knows only what its seat was shown (RULINGS LS-11, LS-5, CR-21; the engine's
rule that bots decide from ``bot_view``, never the state).

Over many seeded bot games of every game, replayed position by position, every piece of
knowledge a seat's bot input holds beyond its view right now (a card in its memory) must
have been face-up in that seat's own view, ``Match.view(seat)``, at some position up to
now. Cards are compared by identity, not by name (several cards share a name): the
face-up slots of each view are resolved to card ids through the state of that very
position, and so are the remembered ones.

How each game's ``bot_view`` exposes memory:

* Lazy Sunday: ``bot_view`` is the view plus ``"memory"`` (per seat, per position, the
  name remembered there or None) and ``"seen_by"`` (per seat, per position, the seats
  that remember the card there: public, no card). A view shows a card face-up in ``lists`` (a card the
  seat looks at now, or every card once the round is scored), as the ``drawn`` card (to
  the drawer) and as the DONE top.
* Chore Race and Night Shift: ``bot_view`` is the view itself (a bot's hand is the
  view's own ``hand``), so a bot holds nothing the view does not show now.

A game whose ``bot_view`` grows a key its view lacks fails here until that key has a
reader in ``MEMORY``.
"""
from __future__ import annotations

import pytest

from playtest.engine import Match, play_game

# (game, seats, games, seed of the first): 320 bot games, about 6 s on one idle core
CASES = [("lazy_sunday", 4, 200, 0), ("chore_race", 4, 60, 0), ("night_shift", 2, 60, 0)]
BOTS = ("heuristic", "random")  # seats alternate, starting from a seed-dependent one


def lazy_sunday_shown(state, view, names) -> set[int]:
    """The card ids face-up in a Lazy Sunday view (LS-11), each checked against the name
    the view gives it."""
    shown = set()
    for t, row in enumerate(view["lists"]):
        for p, slot in enumerate(row):
            if slot["face_up"]:
                card = state.lists[t][p]
                assert names[card] == slot["name"], (t, p)
                shown.add(card)
    drawn = view["drawn"]
    if drawn and drawn["card"]:
        assert names[state.drawn] == drawn["card"]["name"]
        shown.add(state.drawn)
    if view["done"]["top"]:
        shown.add(state.done[-1])
    return shown


def lazy_sunday_memory(state, memory, names) -> set[int]:
    """The card ids a Lazy Sunday memory holds (LS-11): the card at each remembered spot,
    which must bear the remembered name."""
    known = set()
    for t, row in enumerate(memory):
        for p, name in enumerate(row):
            if name is not None:
                card = state.lists[t][p]
                assert names[card] == name, (t, p)
                known.add(card)
    return known


def lazy_sunday_seen_by(state, seen_by, names) -> set[int]:
    """No card: ``seen_by`` names only which seats remember each spot, the same for every
    seat (public: the log names every look, keep and give, LS-11)."""
    return set()


# game -> {bot_view key beyond the view: (its reader, the view's face-up reader)}
MEMORY = {"lazy_sunday": {"memory": (lazy_sunday_memory, lazy_sunday_shown),
                          "seen_by": (lazy_sunday_seen_by, lazy_sunday_shown)}}
# the moves that teach a seat a card must all come up, or the test proves little:
# peeks, draws and looks (LS-3, LS-4, LS-2), takes from DONE (LS-4) and gives (LS-5)
TEACHING = {"lazy_sunday": {"peek", "draw", "take", "double_check", "nosy", "not_my_job", "give"}}


def card_names(match) -> tuple[str, ...]:
    """Card id -> name, for the games whose memory holds cards."""
    return match.game.cards.names


@pytest.mark.parametrize("game, seats, games, first", CASES, ids=[case[0] for case in CASES])
def test_every_card_a_bot_remembers_was_face_up_in_its_own_view(game, seats, games, first):
    readers = MEMORY.get(game, {})
    checked = remembered = 0
    kinds = set()
    for seed in range(first, first + games):
        bots = {seat: BOTS[(seat + seed) % len(BOTS)] for seat in range(seats)}
        played, _ = play_game(game, seats, bots, seed=seed)
        kinds.update(move.kind for move in played.moves)
        match = Match(game, seats, seed=seed, keep_log=False)
        names = card_names(match) if readers else None
        seen: list[set[int]] = [set() for _ in range(seats)]  # per seat: ids shown face-up so far
        for n in range(len(played.moves) + 1):
            if n:
                match.play(played.moves[n - 1])
            state = match.state
            for seat in range(seats):
                view, bot = match.view(seat), match.bot_view(seat)
                extra = set(bot) - set(view)
                assert extra == set(readers), f"{game}: bot_view keys {extra} beyond the view need a reader"
                assert {k: v for k, v in bot.items() if k not in extra} == view, (
                    f"{game} seed {seed} move {n}: seat {seat}'s bot input differs from its view")
                for key, (memory, shown) in readers.items():
                    seen[seat] |= shown(state, view, names)
                    known = memory(state, bot[key], names)
                    unseen = known - seen[seat]
                    assert not unseen, (
                        f"{game} seed {seed} after move {n} ({played.moves[n - 1] if n else 'setup'}): seat {seat} "
                        f"remembers {sorted(names[c] for c in unseen)} that its view never showed it")
                    remembered += len(known)
                checked += 1
        assert match.fingerprint() == played.fingerprint()  # the replay is the game that was played
    assert checked > games * 20  # every position of every game was looked at
    assert TEACHING.get(game, set()) <= kinds
    if readers:
        assert remembered > checked  # and the memories were not empty
