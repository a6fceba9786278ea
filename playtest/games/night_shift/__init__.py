"""Night Shift: a two-seat deck-builder (RULINGS NS-1..NS-10). See ``rules`` for the
moves, ``views`` for the view format, ``cards.toml`` for the card data, ``bots`` for the
bots."""
from .bots import BUY_PRIORITY, PLAY_PRIORITY, HeuristicBot
from .cards import load_cards
from .rules import PRESETS, NightShift, NightShiftOptions

__all__ = ["NightShift", "NightShiftOptions", "HeuristicBot", "PRESETS", "BUY_PRIORITY", "PLAY_PRIORITY",
           "load_cards"]
