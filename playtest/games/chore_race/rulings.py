"""Chore Race's ruling ids (RULINGS.md, "Chore Race") -> one line each, as the kit plays
them (the defaults; an option that changes a rule is named in its line). The game
declares them as :attr:`ChoreRace.RULINGS <playtest.engine.game.Game.RULINGS>`."""

RULINGS = {
    "CR-1": "the action deck: the rulebook's per-card counts, 66 cards (option action_deck; preset 74 adds 8 Done)",
    "CR-2": "the chore deck is 39 cards, 13 chores x 3 copies; a chore's level is the Done it needs and its VP",
    "CR-3": "draw step: draw 1 card (2 on catch-up), never past a hand of 7 (option draw_rule fill_to_7: draw up to 7)",
    "CR-4": "play step: two slots, each used once in either order: play a matching card, discard 1 card, or leave it",
    "CR-5": "Done puts 1 progress on a chore in your own tableau; Finally! puts 3, and nothing can react to it",
    "CR-6": "progress is a counter on the chore; cards played onto it go to the discard when the chore leaves play",
    "CR-7": "the target may react once: Excuse cancels, Dodge stops an Inspection; their unused Wipe the Counters voids an Inspection",
    "CR-8": "Family Meeting: everyone secretly passes 3 cards of their hand to the next seat; it cannot be Excused",
    "CR-9": "Delegate: the target puts a Done on one of your chores (you choose which), or else shows their hand",
    "CR-10": "Teamwork: hands are shown; if the target holds a Done, each puts one on your chores, else you put up to 2",
    "CR-11": "Chore Swap: swap a chore of yours for an opponent's; each keeps its progress, cards and passive",
    "CR-12": "I'll Do It Later in the action slot: discard one of your chores (no VP) and draw a replacement now",
    "CR-13": "Inspection takes 1 progress off an opponent's chore; a chore with 0 progress is not a target",
    "CR-14": "score step: the active player scores each chore at its target, one at a time; then the tableau refills",
    "CR-15": "catch-up: starting your turn at 0 VP while an opponent has 5+ VP, you draw 2 instead of 1",
    "CR-16": "leader protection: first reaching 8+ VP, opponents cannot target you or your tableau until your next turn",
    "CR-17": "the game ends the moment a player's VP reaches target_vp (15; Quick Game 10, Long Game 20)",
    "CR-18": "empty action deck: reshuffle its discard; if play stalls or chores run out, the game ends: most VP wins",
    "CR-19": "Long Game (target_vp 20): an empty chore deck is refilled by shuffling the chore discard pile",
    "CR-20": "a tableau holds 3 chores (option tableau_size); the 2-player variant sets 4",
    "CR-21": "hands are secret; tableaus, progress, scored piles, discard piles and deck sizes are public",
}
"""Chore Race's ruling ids (CR-1..CR-21) -> one line."""
