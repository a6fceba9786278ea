"""Chore Race (RULINGS CR-1..CR-21): rules, card data and bots.

``ChoreRace`` is the game (registered as ``chore_race``); ``HeuristicBot`` the bot that
plays from ``bot_view`` only; ``ChoreRace.BOTS`` names both bots for tables and sweeps.
"""
from playtest.engine import ISMCTSBot

from .bots import HeuristicBot
from .rules import CARDS, CardDataError, ChoreRace, load_cards

ChoreRace.BOTS = {**ChoreRace.BOTS, "heuristic": HeuristicBot, "ismcts": ISMCTSBot}  # weakest first

__all__ = ["ChoreRace", "HeuristicBot", "CardDataError", "CARDS", "load_cards"]
