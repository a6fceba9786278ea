"""The game-agnostic engine: game contract, moves, errors, match record and time
travel, bots. No widget code lives here."""
from .bot import Bot, RandomBot
from .bots import Table, check_bot_name, make_bot, play_game
from .errors import IllegalMove, MoveSyntaxError, OptionError, PlaytestError, RecordError
from .game import (ALL_CARDS, G_RULINGS, SPECTATOR, BaseOptions, CountsCards, CountsTurns, Evaluates, Event, Game, Glances,
                   Explains, HasResources, Leads, Outcome, Pinnable, Reacts, Scores, Searchable, SearchesOpenMoves,
                   fingerprint, ruling_lines)
from .match import Match, Record
from .moves import Move
from .registry import game_names, games, get_game, register
from .search import ISMCTSBot

__all__ = [
    "Bot", "RandomBot", "Table", "check_bot_name", "make_bot", "play_game",
    "IllegalMove", "MoveSyntaxError", "OptionError", "PlaytestError", "RecordError",
    "ALL_CARDS", "SPECTATOR", "BaseOptions", "Event", "Game", "Outcome", "fingerprint",
    "Match", "Record", "Move", "game_names", "games", "get_game", "register", "ISMCTSBot", "G_RULINGS",
    "ruling_lines",
    # optional capabilities of a game (typing Protocols)
    "Searchable", "Evaluates", "SearchesOpenMoves", "Glances", "Reacts", "CountsTurns", "Leads", "CountsCards",
    "Scores", "HasResources", "Pinnable", "Explains",
]
