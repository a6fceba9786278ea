"""Crazy Eights (RULINGS.md beside this package: CE-1..CE-12), a worked example of a game
package for the playtest kit: OpenSpiel's ``crazy_eights`` written against the engine
contract, drawn by the kit's generic board (no widget of its own), with its own tutorial
(``tutorial.toml``) and example scenario (``scenarios/``).

Installed, it registers through the ``playtest.games`` entry point (``pyproject.toml``).
"""
from .rules import CrazyEights, CrazyEightsOptions, HeuristicBot

__all__ = ["CrazyEights", "CrazyEightsOptions", "HeuristicBot"]
