"""Night Shift's ruling ids (RULINGS.md, "Night Shift") -> one line each, as the kit plays
them (the defaults; an option that changes a rule is named in its line). The game
declares them as :attr:`NightShift.RULINGS <playtest.engine.game.Game.RULINGS>`."""

RULINGS = {
    "NS-1": "the cards: two 10-card Starter Shift decks, a 33-card Household Supply and a stack of 10 Nap Tokens",
    "NS-2": "playing a card costs 1 Action plus its printed Effort cost (option play_cost free: only buying costs Effort)",
    "NS-3": "a structure does nothing when played; it stays and acts at the start of each of your later Shifts",
    "NS-4": "buy: 1 Action plus the cost, from the Supply Row (refilled at once) or the Nap Token stack, to your Basket",
    "NS-5": "no reshuffle: a draw from an empty Personal Deck draws nothing (option reshuffle: refill from the Basket)",
    "NS-6": "start of Shift: Effort 0, Actions 3, then structures; Patience stays within 0 to 25, Effort never below 0",
    "NS-7": "Tidy Up: 1 Action, 1+ Effort and no opponent structure in play; all Effort becomes Patience (up to 25)",
    "NS-8": "Settle a Household Problem: 1 Action, pay Effort equal to a structure's health; it goes to its owner's Basket",
    "NS-9": "no card has an ability, so Activate is never offered",
    "NS-10": "0 Patience loses at once; else the game ends with Shift 50 or the Shift the Supply empties: most Care Points wins",
}
"""Night Shift's ruling ids (NS-1..NS-10) -> one line."""
