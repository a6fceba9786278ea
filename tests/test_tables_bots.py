"""Live tables' bots decide off the event loop, under a time cap, within a budget limit
(issue 25: one table of ``ismcts:99999999`` froze every request of the server)."""
from __future__ import annotations

import asyncio
import logging
import re

import pytest

from browser_support import run_coroutine
from playtest.engine import Match, OptionError
from playtest.scenarios import example
from playtest.tables.live import LiveTable
from playtest.tables.service import ServiceError, TableService
from playtest.tables.thinking import Decision, Thinker, decide, fallback_bot, within_limits
from stuck_bot import StuckLazySunday
from test_tables import FakePage

LIMIT = "at most 20,000 iterations (ismcts:20000) or 5,000 ms (ismcts:5000ms) a decision"


@pytest.mark.parametrize("bot, asked", [("ismcts:99999999", "99,999,999 iterations"),
                                        ("ismcts:3600000ms", "3,600,000 ms")])
def test_the_lobby_refuses_a_search_budget_over_the_limit_naming_it(tmp_path, bot, asked):
    service = TableService(tmp_path)
    try:
        with pytest.raises(ServiceError) as refused:
            service.create({"game": "night_shift", "seats": 2, "players": ["human", bot],
                            "options": {"first_player": 1}, "pace": "instant"})
        assert refused.value.status == 400
        assert str(refused.value) == (f"a search budget of {asked} a decision is over this table's limit: {LIMIT}")
        assert service.tables == {} and service.listing("all") == []          # nothing was created
        made = service.create({"game": "night_shift", "seats": 2, "players": ["human", "ismcts:20000"]})
        assert service.tables[made["id"]].players == ["human", "ismcts:20000"]   # the limit itself is allowed
    finally:
        service.close()


def test_the_host_cannot_hand_a_seat_to_a_bot_over_the_limit(tmp_path):
    service = TableService(tmp_path)
    made = service.create({"game": "chore_race", "seats": 2, "players": ["human", "heuristic"]})
    table = service.tables[made["id"]]
    with pytest.raises(OptionError, match=re.escape(f"over this table's limit: {LIMIT}")):
        table.set_player(1, "ismcts:20001")
    assert table.players == ["human", "heuristic"]
    service.close()
    again = TableService(tmp_path)                # nothing was stored either
    assert again.tables[made["id"]].players == ["human", "heuristic"]
    again.close()


def test_a_stored_table_over_the_limit_is_restored_with_its_budget_cut_and_plays(tmp_path):
    """A table an older server stored with ismcts:99999999 froze the new server as soon as
    it was opened: it is restored (never lost) with the budget cut to the limit, and its
    bot plays without holding up the loop."""
    first = TableService(tmp_path)
    made = first.create({"game": "chore_race", "seats": 2, "players": ["human", "heuristic"],
                         "options": {"first_player": 1}, "pace": "instant"})
    first.store.update(made["id"], players=["human", "ismcts:99999999"])      # as an older server stored it
    first.close()

    async def scenario():
        second = TableService(tmp_path, thinker=Thinker(workers=1, cap=0.5, hard_cap=5.0))
        table = second.tables[made["id"]]
        players, errors = list(table.players), list(second.damaged)
        table.attach(FakePage(0))
        for _ in range(600):
            if table.match.moves:
                break
            await asyncio.sleep(0.05)
        second.close()
        return players, errors, table

    players, errors, table = run_coroutine(scenario())
    assert errors == [] and players == ["human", "ismcts:20000"]
    assert len(table.match.moves) == 1 and table.by_bot == [True] and table.match.moves[0].seat == 1
    third = TableService(tmp_path)                 # the cut budget was stored
    assert third.tables[made["id"]].players == ["human", "ismcts:20000"]
    third.close()


def test_within_limits_cuts_only_a_search_budget_over_the_limit():
    game = Match("lazy_sunday", 2).game
    assert [within_limits(game, name) for name in ["ismcts", "ismcts:500", "ismcts:20000", "ismcts:20001",
                                                   "ismcts:5001ms", "heuristic"]] == [
        "ismcts", "ismcts:500", "ismcts:20000", "ismcts:20000", "ismcts:5000ms", "heuristic"]
    with pytest.raises(OptionError, match="unknown bot 'clever'"):
        within_limits(game, "clever")


def test_a_bot_decides_in_a_worker_while_the_loop_goes_on_and_its_move_comes_later():
    """The loop turns many times while the bot thinks (in a worker process); with the
    decision on the loop (workers=0, as before) not once: the test tells them apart."""
    async def scenario(thinker):
        match = Match("chore_race", 2, {"first_player": 1}, seed=3)
        table = LiveTable("t", match, ["human", "ismcts:400ms"], "instant", thinker=thinker)
        table.attach(FakePage(0))                  # the bot starts deciding
        turns_while_thinking = 0
        while not match.moves:
            await asyncio.sleep(0)                 # one turn of the loop
            turns_while_thinking += not match.moves
        thinker.close()
        return turns_while_thinking, table

    turns, table = run_coroutine(scenario(Thinker(workers=1)))
    assert turns > 100 and table.by_bot == [True] and table.match.moves[0].seat == 1
    turns, table = run_coroutine(scenario(Thinker(workers=0)))
    assert turns <= 2 and table.by_bot == [True]   # on the loop: the move came before the loop turned again


def test_a_bot_past_the_hard_cap_is_replaced_by_its_fallback_and_the_record_replays(caplog):
    async def scenario():
        match = Match(StuckLazySunday, 2, seed=11)
        thinker = Thinker(workers=1, cap=0.2, hard_cap=1.0)
        table = LiveTable("t", match, ["stuck", "heuristic"], "instant", thinker=thinker)
        table.attach(FakePage(None, "spectator"))
        for _ in range(800):
            if any(move.seat == 0 for move in match.moves):
                break
            await asyncio.sleep(0.05)
        table.cancel()
        thinker.close()
        return match, table

    with caplog.at_level(logging.WARNING, logger="playtest.tables.thinking"):
        match, table = run_coroutine(scenario())
    stuck = [i for i, move in enumerate(match.moves) if move.seat == 0]
    assert stuck and table.by_bot[stuck[0]]                 # seat 0 moved, as a bot, by its fallback
    assert "bot stuck decided by its fallback: OverHardCap: the decision ran past 1 s" in caplog.text
    replayed = Match(StuckLazySunday, 2, seed=11)
    for move in match.moves:
        replayed.play(move)
    assert replayed.fingerprint() == match.fingerprint()


def test_the_fallback_is_the_heuristic_bot_or_the_random_one():
    game = Match("night_shift", 2).game
    assert [fallback_bot(game, name) for name in ["ismcts:500", "stuck", "heuristic", "random"]] == [
        "heuristic", "heuristic", "random", "heuristic"]


def test_a_decision_sees_only_its_seats_view_and_its_moves():
    match = Match("lazy_sunday", 3, seed=2)
    seat = match.to_act()[0]
    decision = Decision(type(match.game), 3, match.options_dict(), "ismcts:50", "s", match.bot_view(seat),
                        match.decision_moves(seat))
    assert set(vars(decision)) == {"game", "seats", "options", "bot", "seed", "view", "legal"}
    assert decision.view == match.bot_view(seat) and decide(decision) in decision.legal


def test_a_decision_whose_table_moved_on_is_dropped_and_made_again():
    """Seat 0's bot is deciding when seat 2's person slaps (LS-5, an open move): the
    decision made for the old position is never played; the bot decides again."""
    async def scenario():
        match = example("lazy_sunday_stale_claim").to_match(upto=6)
        thinker = Thinker(workers=1, cap=0.3)
        table = LiveTable("t", match, ["ismcts:5000ms", "human", "human"], "instant", thinker=thinker)
        page = FakePage(2)
        table.attach(page)
        first = table._decision
        result = table.submit(2, "2 claim 2 3 1", None, page.state["version"])
        second = table._decision
        while len(match.moves) < 8:
            await asyncio.sleep(0.05)
        thinker.close()
        return first, second, result, table

    first, second, result, table = run_coroutine(scenario())
    assert result.ok and first.key == (6, 0, "ismcts:5000ms") and first.task.cancelled()
    assert second.key == (7, 0, "ismcts:5000ms")
    assert table.by_bot[6:8] == [False, True] and table.match.moves[7].seat == 0
