"""Lazy Sunday (rulebook seed 002; RULINGS LS-1..LS-11): dodge your chore list.

Exports :class:`LazySunday` (the rules) and :class:`HeuristicBot`; the deck is
``cards.toml`` beside this file.
"""
from .bots import HeuristicBot
from .rules import LazySunday

__all__ = ["LazySunday", "HeuristicBot"]
