"""Chore Race (RULINGS CR-1..CR-21): rules, card data and bots.

``ChoreRace`` is the game (registered as ``chore_race``); ``HeuristicBot`` the bot that
plays from ``bot_view`` only; ``ChoreRace.BOTS`` names the bots for tables and sweeps.
"""
from .bots import HeuristicBot
from .rules import CARDS, CardDataError, ChoreRace, load_cards

__all__ = ["ChoreRace", "HeuristicBot", "CardDataError", "CARDS", "load_cards"]
