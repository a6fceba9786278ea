"""A hand-built Night Shift state for the bot tests (tests/test_night_shift_bots.py).

:func:`arrange` edits a fresh state directly: the bot tests hand a bot a state, not a
match. The rules tests (tests/test_night_shift_rules.py) reach their positions the
public way instead, by pinned setups (``NightShift.SETUP``) and legal moves.
"""
import random

from playtest.games.night_shift import NightShift

NT = "Nap Token"


def arrange(seed=0, options=None, *, hands=None, decks=None, shifts=None, baskets=None, row=None,
            supply=None, naps=None, patience=None, effort=None, actions=None, care=None, turn=0, shift=1):
    """A Night Shift game and state in an exact position, by card names.

    Args:
        seed, options: the game's seed and options.
        hands, decks, shifts, baskets: ``{seat: [names]}``; decks are listed top card
            first. A seat left out has that zone empty.
        row: the Supply Row, left to right (default empty).
        supply: the Household Supply, top card first (default: every supply card not
            placed elsewhere, so ending a Shift does not end the game by NS-10).
        naps: Nap Tokens left in the stack (default all not placed elsewhere).
        patience, effort, actions, care: ``[seat 0, seat 1]`` (defaults 25, 0, 3, 0).
        turn, shift: the seat on turn and the Shift number.

    Returns:
        ``(game, state)``. Card ids are taken from the real deal, so every id stays
        unique; starter cards not named are left out of the game. Structures in a
        Current Shift get their printed health. The state has no record: play on it
        with :func:`play`, not with a Match.

    Raises:
        ValueError: a name with no copy left to place.
    """
    game = NightShift(2, options or {})
    state = game.new_state(random.Random(seed))
    pool: dict[str, list[int]] = {}
    for cid, card in enumerate(game.cards):
        pool.setdefault(card.name, []).append(cid)

    def take(names):
        ids = []
        for name in names:
            if not pool.get(name):
                raise ValueError(f"no copy of {name!r} left to place")
            ids.append(pool[name].pop())
        return ids

    def per_seat(zone):
        return [take((zone or {}).get(seat, [])) for seat in (0, 1)]

    state.hands, state.shifts, state.baskets = per_seat(hands), per_seat(shifts), per_seat(baskets)
    state.decks = [list(reversed(d)) for d in per_seat(decks)]        # top = last
    state.row = take(row or [])
    if supply is None:
        state.supply = [cid for name, ids in pool.items() if game.by_name[name].where == "supply" for cid in ids]
    else:
        state.supply = list(reversed(take(supply)))
    nap_left = [cid for cid in pool.get(NT, [])]
    state.naps = nap_left if naps is None else nap_left[:naps]
    state.health = {cid: game.cards[cid].health for seat in (0, 1) for cid in state.shifts[seat]
                    if game.cards[cid].structure}
    state.patience = list(patience or [25, 25])
    state.effort = list(effort or [0, 0])
    state.actions = list(actions or [3, 3])
    state.care = list(care or [0, 0])
    state.turn, state.shift = turn, shift
    return game, state

