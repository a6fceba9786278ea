"""Lazy Sunday's ruling ids (RULINGS.md, "Lazy Sunday") -> one line each, as the kit plays
them (the defaults; an option that changes a rule is named in its line). The game
declares them as :attr:`LazySunday.RULINGS <playtest.engine.game.Game.RULINGS>`."""

RULINGS = {
    "LS-1": "38 chore cards, effort 0 (Nap, 2 copies) to 9 (Clean the Oven), 4 copies of each other chore",
    "LS-2": "16 action cards act only when drawn and discarded on your turn; kept in a list, they count their effort",
    "LS-3": "setup: 6 face-down cards each, 1 turned up to start DONE, each peeks at 2 own cards; rounds start a seat left",
    "LS-4": "keep a drawn card or the DONE top by swapping it into one position; the card replaced goes onto DONE",
    "LS-5": "quick discard: anyone may claim that a card in any list matches the DONE top; a wrong claim draws a card",
    "LS-6": "empty deck: DONE except its top is shuffled into a new deck; with nothing to draw, drawing is not offered",
    "LS-7": "NOT ME!: called instead of your turn, once a round; each other seat takes one final turn, then all score",
    "LS-8": "Let's Trade, Nosy Neighbour: 1 other; Switcheroo, Not My Job: 2 (void if 2 play); Landlord's Notice: any; not the caller",
    "LS-9": "round score: a caller lowest or tied lowest scores 0, else 50; everyone else scores their total",
    "LS-10": "one round (option rounds); with match_to 100, rounds go on until a total passes 100: lowest total wins",
    "LS-11": "a view never shows a face-down card, your own included, unless you are looking at it right now",
}
"""Lazy Sunday's ruling ids (LS-1..LS-11) -> one line."""
