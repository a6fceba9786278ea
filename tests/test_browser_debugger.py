"""The scenario debugger dashboard and the share links in headless Chromium: pick an
example, step, rewind, branch with a different move, export the line; open a game
dashboard with ?seed=N and check that seed is the game's."""
from __future__ import annotations

import base64
import json

import pytest

from browser_support import POLL_MS, dashboard_page, guard_wait

from playtest import Match
from playtest.scenarios import Scenario, example, examples
from playtest.widgets.debugger import ScenarioDebugger

pytestmark = pytest.mark.browser

EXAMPLE = "lazy_sunday_stale_claim"


def test_debugger_steps_rewinds_branches_and_exports(dashboards):
    assert EXAMPLE in examples("lazy_sunday")
    scenario = example(EXAMPLE)
    total = len(scenario.moves)
    with dashboard_page(dashboards, None, ".pt-debugger", path="scenario_debugger.ipynb") as (page, _frames, errors, _base):
        app = page.locator(".pt-debugger")
        app.get_by_role("combobox", name="Example").select_option(EXAMPLE)
        # the step and the scenario's title are widgets of their own, drawn one after the other
        page.wait_for_function("([step, title]) => ['Move 0 of ' + step, title].every("
                               "t => document.querySelector('.pt-debugger').innerText.includes(t))",
                               arg=[total, scenario.title], timeout=60_000, polling=POLL_MS)

        forward = app.get_by_role("button", name="Forward ▶")
        forward.click()
        page.wait_for_function("() => document.querySelector('.pt-debugger').innerText.includes('Move 1 of')",
                               polling=POLL_MS)
        forward.click()
        page.wait_for_function("() => document.querySelector('.pt-debugger').innerText.includes('Move 2 of')",
                               polling=POLL_MS)
        # the step and its "what changed" are two widgets: updated one after the other
        page.wait_for_function("() => document.querySelector('.pt-changed').innerText.includes('Move 2')",
                               polling=POLL_MS)
        app.get_by_role("button", name="◀ Back").click()
        page.wait_for_function("() => document.querySelector('.pt-debugger').innerText.includes('Move 1 of')",
                               polling=POLL_MS)

        # "why not?" answers on Enter, under its box
        why = app.get_by_placeholder("a move, e.g. 0 done", exact=True)     # a move of Lazy Sunday's
        why.fill("garbage")
        why.press("Enter")
        page.wait_for_function("() => document.querySelector('.pt-debugger .pt-why').innerText.includes('Not a move here')",
                               timeout=30_000, polling=POLL_MS)
        assert not page.locator(".pt-error").is_visible()

        # jump to the first move where the seat to act had another choice, and branch there
        step, seat, other = next((k, seat, str(m)) for k in range(1, total)
                                 for seat in [scenario.to_match(upto=k).to_act()[0]]
                                 for m in scenario.to_match(upto=k).legal_moves(seat) if str(m) != scenario.moves[k])
        app.locator("input[type=number]").fill(str(step))
        app.get_by_role("button", name="Go", exact=True).click()
        page.wait_for_function(f"() => document.querySelector('.pt-debugger').innerText.includes('Move {step} of')",
                               polling=POLL_MS)
        # the step's "Act as" choices come a moment after its number: a pick from the step
        # before's list would be read against the new one (a Dropdown sends an index)
        probe = scenario.to_match(upto=step)
        actors = [ScenarioDebugger._actor_label(probe, s, probe.to_act()).replace(" ", "\xa0")
                  for s in range(probe.game.seats) if probe.legal_moves(s)]
        actor = app.get_by_role("combobox", name="Act as")
        page.wait_for_function("([select, labels]) => JSON.stringify([...select.options].map(o => o.textContent))"
                               " === JSON.stringify(labels)", arg=[actor.element_handle(), actors], polling=POLL_MS)
        actor.select_option(label=f"seat\xa0{seat + 1}")   # people count seats from 1
        move_select = app.get_by_role("combobox", name="Move", exact=True)
        shown = other.replace(" ", "\xa0")          # ipywidgets draws option spaces as no-break spaces
        page.wait_for_function(f"() => [...document.querySelectorAll('.pt-debugger select option')]"
                               f".some(o => o.textContent === {json.dumps(shown)})", polling=POLL_MS)
        move_select.select_option(label=shown)
        guard_wait(page)
        app.get_by_role("button", name="Play this move").click()
        page.wait_for_function(f"() => document.querySelector('.pt-debugger').innerText.includes('branch from move {step}')",
                               timeout=30_000, polling=POLL_MS)
        # the button's layout is a message of its own, a moment after the line's text
        app.get_by_role("button", name="Back to the loaded line").wait_for(state="visible", timeout=10_000)

        app.get_by_role("button", name="Export scenario (.toml)").click()
        href = app.locator("a.pt-download").get_attribute("href", timeout=30_000)
        exported = Scenario.from_toml(base64.b64decode(href.split(",", 1)[1]).decode())
        assert exported.moves == scenario.moves[:step] + [other]
        assert exported.to_match().fingerprint() == Match.from_record(
            {"game": scenario.game, "seats": scenario.seats, "options": scenario.options, "seed": scenario.seed,
             "setup": scenario.setup, "moves": scenario.moves[:step] + [other]}).fingerprint()
        assert exported.verify() == []

        app.get_by_role("button", name="Back to the loaded line").click()
        page.wait_for_function(f"() => document.querySelector('.pt-debugger').innerText.includes('Move {step} of {total}')",
                               polling=POLL_MS)
        assert not page.locator(".pt-error").is_visible()

        # issue 27: the example scenario of Crazy Eights, the game installed from outside
        # the kit (its EXAMPLES), is listed and opens on the generic board
        app.get_by_role("combobox", name="Example").select_option("crazy_eights_eight_names_the_suit")
        page.wait_for_function("() => document.querySelector('.pt-debugger').innerText.includes('Move 0 of')",
                               timeout=60_000, polling=POLL_MS)
        app.locator(".pt-card.pt-face", has_text="7♣").wait_for(timeout=30_000)   # the generic board: the top card
        assert app.locator(".pt-card.pt-back").count() == 5      # the deck and the pinned hands, face down
        assert not page.locator(".pt-error").is_visible()
        assert not errors, errors


def test_game_dashboard_opens_the_seed_in_its_address(dashboards):
    seed = 4242
    with dashboard_page(dashboards, None, ".pt-table", path=f"game.ipynb?game=lazy_sunday&seed={seed}") as (page, _frames, errors, base):
        assert not page.locator(".pt-error").is_visible()
        page.locator(".pt-app").get_by_text("Save / load record", exact=True).click()
        page.get_by_role("button", name="Share link").click()
        page.get_by_role("button", name="Show it anyway").click()
        link = page.locator("a.pt-share[title^='A new game with the same set-up']")
        fresh = link.inner_text(timeout=20_000)   # a move-0 record: seats, options and seed kept
        assert "/voila/render/game.ipynb?game=lazy_sunday&record=" in fresh and "&players=" in fresh
        position = page.locator("a.pt-share[title^='This position']").get_attribute("href")
        assert "/voila/render/game.ipynb?game=lazy_sunday&record=" in position
        page.get_by_role("button", name="Save record").click()
        page.get_by_role("button", name="Show it anyway").click()
        href = page.locator("a.pt-download").get_attribute("href", timeout=20_000)
        record = json.loads(base64.b64decode(href.split(",", 1)[1]).decode())
        assert record["seed"] == seed
        assert not errors, errors

        # the position link opens that game, saying what it is
        page.goto(position, timeout=120_000)
        page.wait_for_selector(".pt-table", timeout=120_000)
        # the bots peeked at once with seat 0 (LS-3): the position is after their 3 peeks and
        # Done lookings, and the page says what it opened
        assert "Shared position: move 6 of a Lazy Sunday game, 4 seats" in \
            page.locator(".pt-opened").inner_text(timeout=20_000)
        assert not page.locator(".pt-error").is_visible()
        # a bad ?seed= is tested on the widget (test_widgets_debugger): one page load less
