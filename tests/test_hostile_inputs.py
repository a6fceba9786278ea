"""A generated corpus of hostile inputs through every entry point a person or a script
hands text to: ``Match.from_json`` and ``Match.load``, ``Scenario.from_toml`` and
``Scenario.load``, each game dashboard's upload and page address (``?record=``,
``?scenario=``, ``?seed=``, ``?players=``), the scenario debugger's upload and page
address, what is typed in the new-game panel and the debugger, and ``playtest replay``.

The corpus (over 200 inputs): bombs (long dotted keys and table names, huge arrays and
tables, TOML inline tables and arrays and JSON nested 33 to 500,000 deep), integers of
4,301 and 100,000 digits, non-ASCII digits in seats, moves and seeds, bad encodings
(UTF-16 and UTF-32, invalid UTF-8, NUL bytes, byte order marks), truncated records and
scenarios, a wrong type in every field, records and scenarios of another game, and files
of 1 MiB + 1 byte to 12 MiB.

Each refusal must be one clear line (no Python internals: no RecursionError,
MemoryError, errno, "4300 digits", "invalid literal", ...), leave the game or scenario on
show exactly as it was (fingerprint and record), cost under a second of CPU and under
50 MB of extra memory. Everything runs in a forked child under ``RLIMIT_AS`` (its size
plus 400 MB), so a regression fails instead of eating the machine; ``playtest replay``
runs as a real subprocess under the same kind of limit.
"""
from __future__ import annotations

import base64
import contextlib
import io
import json
import multiprocessing
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from playtest import Match
from playtest.engine import limits
from playtest.scenarios import Scenario, ScenarioError, example

HEADROOM = 400 << 20          # RLIMIT_AS above the process's size: bombs once took 1.5 to 22.7 GB
CPU_LIMIT = 1.0               # seconds of CPU per refusal
MEMORY_LIMIT = 50 << 20       # extra peak memory per refusal
GAMES = ("lazy_sunday", "chore_race", "night_shift")
EXAMPLES = {"lazy_sunday": "lazy_sunday_stale_claim", "chore_race": "chore_race_reaction_window",
            "night_shift": "night_shift_with_reshuffle"}

# text that only Python's own errors use, never the kit's messages
INTERNALS = re.compile(
    r"Traceback|Errno|RecursionError|MemoryError|recursion depth|Exceeds the limit|4300 digits|"
    r"set_int_max_str_digits|invalid literal|NoneType|object has no attribute|unhashable|codec can't|"
    r"utf-8-sig|UnicodeDecodeError|ValueError|TypeError|KeyError|IndexError|AttributeError|OSError|"
    r"\[type=|input_value=|errors\.pydantic\.dev|File \"|/root/|/tmp/|0x[0-9a-f]{8,}",
    re.IGNORECASE)


@dataclass
class Case:
    """One hostile input: ``data`` (a file's bytes), its ``kind`` (what it is built
    from), ``limit`` (True: over an input limit, so ``playtest replay`` exits 2), and
    ``game``: for a valid file of some game (the wrong-game cases), that game (it is
    refused only where another game is expected)."""

    name: str
    kind: str
    data: bytes
    limit: bool = False
    game: str | None = None
    tags: set = field(default_factory=set)


def base_scenario(game: str) -> str:
    return example(EXAMPLES[game]).to_toml()


def base_record(game: str) -> str:
    return example(EXAMPLES[game]).to_match().to_json()


def corpus() -> list[Case]:
    """The hostile inputs, generated (the same every run)."""
    cases: list[Case] = []
    rng = random.Random(2024)

    def add(kind, name, data, limit=False, game=None):
        cases.append(Case(f"{kind}:{name}", kind, data.encode("utf-8") if isinstance(data, str) else data,
                          limit, game))

    record, scenario = base_record("lazy_sunday"), base_scenario("lazy_sunday")
    record_data = json.loads(record)

    # --- bombs ----------------------------------------------------------------------
    for parts in (9, 1_000, 20_000, 40_000, 300_000):          # 20,000 parts: 40 kB, 1.5 GB before
        add("bomb", f"dotted key of {parts} parts", "x" + ".a" * (parts - 1) + " = 1\n", True)
    add("bomb", "spaced quoted dotted key", " . ".join(['"a"'] * 5_000) + " = 1\n", True)
    add("bomb", "table name of 20,000 parts", "[x" + ".a" * 20_000 + "]\n", True)
    add("bomb", "array-of-tables name of 20,000 parts", "[[x" + ".a" * 20_000 + "]]\n", True)
    add("bomb", "dotted key in an inline table", "x = {" + "a." * 20_000 + "b = 1}\n", True)
    add("bomb", "dotted key after a valid scenario", scenario + "\n[setup]\n" + "y" + ".b" * 30_000 + " = 1\n", True)
    for depth in (33, 1_000, 100_000):
        add("bomb", f"TOML arrays {depth} deep", "x = " + "[" * depth + "]" * depth + "\n", True)
        add("bomb", f"TOML inline tables {depth} deep", "x = " + "{a = " * depth + "1" + "}" * depth + "\n", True)
        add("bomb", f"TOML arrays {depth} deep, unclosed", "x = " + "[" * depth + "\n", True)
    add("bomb", "TOML arrays and inline tables 5,000 deep", "x = " + "[{a = " * 5_000 + "1" + "}]" * 5_000, True)
    add("bomb", "deep setup in a valid scenario", scenario.replace('game = "lazy_sunday"',
                                                                   'game = "lazy_sunday"\nextra = ' + "[" * 3_000), True)
    for depth in (33, 1_000, 100_000, 500_000):
        add("bomb", f"JSON arrays {depth} deep", "[" * depth + "]" * depth, True)
    for depth in (1_000, 50_000):
        add("bomb", f"JSON objects {depth} deep", '{"a": ' * depth + "1" + "}" * depth, True)
    add("bomb", "deep options in a valid record",
        json.dumps({**record_data, "options": {"x": 0}}).replace('{"x": 0}', "[" * 20_000 + "]" * 20_000), True)
    add("bomb", "TOML array of 200,000 numbers", "x = [" + "1," * 200_000 + "]\n", True)
    add("bomb", "TOML array of 100,000 strings", "x = [" + '"a",' * 100_000 + "]\n", True)
    add("bomb", "30,000 TOML keys", "".join(f"k{i} = {i}\n" for i in range(30_000)), True)
    add("bomb", "30,000 TOML tables", "".join(f"[t{i}]\n" for i in range(30_000)), True)
    add("bomb", "30,000 arrays of tables", "[[t]]\n" * 30_000, True)
    add("bomb", "JSON array of 300,000 numbers", "[" + "1," * 300_000 + "1]", True)
    add("bomb", "record of 50,000 moves", json.dumps({**record_data, "moves": ["0 draw"] * 50_000}), True)
    add("bomb", "JSON object of 50,000 keys", json.dumps({f"k{i}": i for i in range(50_000)}), True)
    add("bomb", "move of 50,000 characters", json.dumps({**record_data, "moves": ["0 draw " + "x" * 50_000]}), True)
    add("bomb", "title of 100,000 characters", f'title = "{"t" * 100_000}"\n' + scenario, True)
    add("bomb", "description of 100,000 escapes", 'description = """' + '\\"' * 50_000 + '"""\n' + scenario, True)
    add("bomb", "key of 5,000 characters", "k" * 5_000 + " = 1\n" + scenario, True)
    add("bomb", "JSON key of 5,000 characters", json.dumps({**record_data, "options": {"o" * 5_000: 1}}), True)

    # --- huge integers ----------------------------------------------------------------
    for digits in (4_301, 100_000):
        big = "9" * digits
        add("number", f"record seed of {digits} digits", record.replace(f'"seed": {record_data["seed"]}',
                                                                         f'"seed": {big}'), True)
        add("number", f"record seats of {digits} digits", json.dumps({**record_data, "seats": 0}).replace(
            '"seats": 0', f'"seats": {big}'), True)
        add("number", f"scenario seed of {digits} digits", re.sub(r"(?m)^seed = \d+", f"seed = {big}", scenario), True)
        add("number", f"scenario after of {digits} digits", scenario + f"\n[[expect]]\nafter = {big}\n", True)
        add("number", f"option of {digits} digits", scenario + f"\n[options]\nmax_turns = {big}\n", True)
        add("number", f"negative seed of {digits} digits", re.sub(r"(?m)^seed = \d+", f"seed = -{big}", scenario), True)
    add("number", "hex of 10,000 digits", "x = 0x" + "F" * 10_000 + "\n", True)
    add("number", "binary of 20,000 digits", "x = 0b" + "1" * 20_000 + "\n", True)
    add("number", "underscored 5,000 digits", "x = " + "1_" * 5_000 + "1\n", True)
    add("number", "move number of 4,301 digits", json.dumps({**record_data, "moves": ["0 keep " + "7" * 4_301]}))
    add("number", "move seat of 4,301 digits", json.dumps({**record_data, "moves": ["7" * 4_301 + " draw"]}))
    add("number", "seed as a string of 5,000 digits", json.dumps({**record_data, "seed": "9" * 5_000}))
    add("number", "seed 1e400", record.replace(f'"seed": {record_data["seed"]}', '"seed": 1e400'))

    # --- non-ASCII digits -------------------------------------------------------------
    for digit in ("²", "٣", "३", "１", "߃", "໓", "𝟙", "⑴"):
        add("digits", f"seat {digit} in a record move", json.dumps({**record_data, "moves": [f"{digit} draw"]}))
        add("digits", f"seat {digit} in a scenario move", scenario.replace('"0 peek 0 1"', f'"{digit} peek 0 1"', 1))
        add("digits", f"seed {digit} in a record", json.dumps({**record_data, "seed": digit}))
    add("digits", "move argument ²", json.dumps({**record_data, "moves": ["0 peek ² 1"]}))
    add("digits", "seats ３ in a record", json.dumps({**record_data, "seats": "３"}))

    # --- bad encodings ----------------------------------------------------------------
    for what, text in (("record", record), ("scenario", scenario)):
        for codec in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"):
            add("encoding", f"{what} in {codec}", text.encode(codec))
        add("encoding", f"{what} in latin-1", text.replace("Nap", "Napé").encode("latin-1"))
        add("encoding", f"{what} with a NUL", text[:40] + "\x00" + text[40:])
        add("encoding", f"{what} of NULs", "\x00" * 1_000)
        add("encoding", f"{what} cut mid-character", (text + "é").encode()[:-1])
        for bad in (b"\xff", b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf5\x80\x80\x80", b"\xfe\xff\xfe"):
            add("encoding", f"{what} with bytes {bad.hex()}", text.encode()[:30] + bad + text.encode()[30:])
    add("encoding", "random bytes", rng.randbytes(4_096))
    add("encoding", "a UTF-8 byte order mark and garbage", b"\xef\xbb\xbf" + b"{[}]")

    # --- truncations ------------------------------------------------------------------
    for game in GAMES:
        text = base_record(game)
        for k in range(1, 14):
            add("truncated", f"{game} record cut at {k}/14", text[:len(text) * k // 14])
        toml = base_scenario(game)
        opens = [m.end() for m in re.finditer(r'= "|\["|, "', toml)]
        for position in opens[:: max(1, len(opens) // 7)][:7]:
            add("truncated", f"{game} scenario cut inside a string at {position}", toml[:position] + "cut")
        add("truncated", f"{game} scenario cut in a table name", toml[:toml.index("[[expect]]") + 5] if
            "[[expect]]" in toml else toml[:toml.index("\n", 10)] + '\n"cut')

    # --- a wrong type in every field --------------------------------------------------
    for key, values in {"format": [1, "playtest.recorder", None], "version": [4, "2", None, []],
                        "game": [1, [], None, "no_such_game", "LAZY_SUNDAY"],
                        "seats": [0, -1, "three", 3.5, 1_000, [], None],
                        "options": [[], "fast", {"max_turns": "lots"}, {"no_such_option": 1}, {"max_turns": -5}],
                        "seed": [-1, "x", 1.5, None, [], {}],
                        "setup": [[], "x", {"no_such_key": 1}, {"done": "Nap"}, {"done": [1, 2]}],
                        "moves": ["0 draw", [1], [[]], [{}], [None], ["x"], ["0 fly"], ["9 draw"]],
                        "extra": [1]}.items():
        for value in values:
            add("type", f"record {key}={value!r}", json.dumps({**record_data, key: value}))
    for data in ([1, 2], "record", 42, None, True):
        add("type", f"record that is {type(data).__name__}", json.dumps(data))
    for line, replacement in (("title", "title = 1"), ("title", "title = [1]"), ("game", "game = 1"),
                              ("game", 'game = "no_such_game"'), ("seats", 'seats = "three"'), ("seats", "seats = 0"),
                              ("seats", "seats = 99"), ("seed", "seed = -1"), ("seed", 'seed = "x"'),
                              ("seed", "seed = 1.5"), ("moves", 'moves = "0 draw"'), ("moves", "moves = [1, 2]"),
                              ("moves", "moves = [[]]")):
        add("type", f"scenario {replacement}",
            re.sub(rf"(?m)^{line} = .*$", replacement.replace("\\", "\\\\"), scenario, count=1))
    for extra in ("[options]\nno_such_option = 1", "[options]\nmax_turns = 'x'", "[setup]\nno_such_key = 1",
                  "[[expect]]\nafter = -1", "[[expect]]\nafter = 'x'", "[[expect]]\nafter = 1\nview = 3",
                  "[[expect]]\nafter = 1\nillegal = [1]", "[[expect]]\nafter = 1\nlegal = ['²x']",
                  "[[expect]]\nafter = 1\nseat = 77", "[[expect]]\nafter = 999",
                  "[[expect]]\nafter = 1\noutcome = {finished = 'maybe'}", "[[expect]]\nafter = 1\nfingerprint = 'x'"):
        add("type", f"scenario with {extra.splitlines()[-1]!r}", scenario + "\n" + extra + "\n")
    for extra in ("expect = 5", "unknown = 1", "options = 'fast'", "setup = []"):     # top-level keys go first
        add("type", f"scenario with {extra!r}", extra + "\n" + scenario)

    # --- another game's record or scenario --------------------------------------------
    for game in GAMES:
        add("other game", f"{game} record", base_record(game), game=game)
        add("other game", f"{game} scenario", base_scenario(game), game=game)

    # --- too large --------------------------------------------------------------------
    add("size", "record and 2 MiB of spaces", record + " " * (2 << 20), True)
    add("size", "scenario with a 2 MiB description", 'description = """' + "d" * (2 << 20) + '"""\n' + scenario, True)
    add("size", "2 MiB of random bytes", rng.randbytes(2 << 20), True)
    add("size", "2 MiB of [", "[" * (2 << 20), True)
    add("size", "2 MiB of ü", "ü" * (1 << 20), True)
    add("size", "2 MiB of comments", "# a comment line\n" * ((2 << 20) // 17), True)
    add("size", "1 MiB and 1 byte", scenario + "#" * (limits.MAX_BYTES + 1 - len(scenario.encode())), True)
    add("size", "12 MiB of spaces", b" " * (12 << 20), True)
    return cases


CORPUS = corpus()
BY_NAME = {case.name: case for case in CORPUS}


def test_the_corpus_is_large_and_covers_every_kind():
    kinds = {case.kind for case in CORPUS}
    assert len(CORPUS) >= 200 and len(BY_NAME) == len(CORPUS)
    assert kinds == {"bomb", "number", "digits", "encoding", "truncated", "type", "other game", "size"}
    assert all(len(case.data) > limits.MAX_BYTES for case in CORPUS if case.kind == "size")
    # the other-game cases are valid files (of another game): refused only by the other
    # dashboards; every other case is refused everywhere (the tests below)
    for case in CORPUS:
        assert (case.kind == "other game") == (case.game is not None), case.name
        if case.kind == "other game" and "record" in case.name:
            assert Match.from_json(case.data).game.name == case.game
        elif case.kind == "other game":
            assert Scenario.from_toml(case.data).game == case.game


# --- measuring, in a child under a memory limit -------------------------------------------
def status(field_name: str) -> int:
    """A /proc/self/status size in bytes (VmSize, VmRSS, VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1]) * 1024
    raise LookupError(field_name)


def over_time(_signal, _frame):
    raise TimeoutError(f"over {CPU_GUARD} s of CPU")


CPU_GUARD = 10.0              # a regression stops here, not after minutes of a bomb


def measured(action) -> dict:
    """Run ``action()``; what it raised (class and message), its CPU time and its extra
    peak memory (the peak RSS is reset first, /proc/self/clear_refs). An action past
    CPU_GUARD seconds of CPU is stopped with TimeoutError."""
    Path("/proc/self/clear_refs").write_text("5")
    signal.signal(signal.SIGVTALRM, over_time)
    before, start = status("VmRSS"), time.process_time()
    signal.setitimer(signal.ITIMER_VIRTUAL, CPU_GUARD)
    try:
        action()
        raised, message = None, ""
    except BaseException as exc:  # noqa: BLE001 - whatever escaped is the finding
        raised, message = type(exc).__name__, str(exc)
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    return {"raised": raised, "message": message, "cpu": time.process_time() - start,
            "memory": status("VmHWM") - before}


def in_child(function, *args, timeout: float = 600):
    """``function(*args)`` in a forked child whose address space is capped at its size
    plus HEADROOM (RLIMIT_AS): a bomb that gets through fails there, with MemoryError or
    killed, instead of taking the machine's memory. Returns its result."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def run():
        cap = status("VmSize") + HEADROOM
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        try:
            result = ("ok", function(*args))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            result = ("error", f"{type(exc).__name__}: {exc}"[:3000])
        send.send(result)

    child = context.Process(target=run)
    child.start()
    try:
        if not receive.poll(timeout):
            raise AssertionError(f"the child ran out of time ({timeout} s)")
        outcome, value = receive.recv()
    except EOFError:
        raise AssertionError(f"the child died (exit code {child.join(5) or child.exitcode}): "
                             "over its memory cap?") from None
    finally:
        child.join(10)
        if child.is_alive():
            child.kill()
    assert outcome == "ok", value
    return value


def check_refusal(result: dict, case: Case, where: str) -> None:
    """A refusal as a person must see it: a PlaytestError (or the banner's text), one
    line, no Python internals, quickly and within the memory budget."""
    label = f"{case.name} via {where}"
    assert result["message"], f"{label}: no message ({result})"
    message = result["message"]
    assert "\n" not in message and 20 <= len(message) <= 1_500, f"{label}: {message[:300]!r}"
    assert not INTERNALS.search(message), f"{label}: {message[:500]!r}"
    assert result["cpu"] < CPU_LIMIT, f"{label}: {result['cpu']:.2f} s of CPU"
    assert result["memory"] < MEMORY_LIMIT, f"{label}: {result['memory'] / 2**20:.0f} MB more memory"


# --- the core entry points --------------------------------------------------------------
def core_results(names: list[str]) -> dict:
    """Each case through Match.from_json and Scenario.from_toml, and as a file through
    Match.load and Scenario.load (in a fresh folder: messages name the file as given)."""
    import tempfile
    os.chdir(tempfile.mkdtemp())
    results = {}
    for name in names:
        data = BY_NAME[name].data
        Path("case.json").write_bytes(data)
        Path("case.toml").write_bytes(data)
        results[name] = {"from_json": measured(lambda: Match.from_json(data)),
                         "from_toml": measured(lambda: Scenario.from_toml(data, "upload.toml")),
                         "Match.load": measured(lambda: Match.load("case.json")),
                         "Scenario.load": measured(lambda: Scenario.load("case.toml"))}
    return results


def test_match_from_json_and_scenario_from_toml_refuse_every_hostile_input():
    names = [case.name for case in CORPUS if case.kind != "other game"]
    results = in_child(core_results, names)
    for name in names:
        case = BY_NAME[name]
        for entry in ("from_json", "from_toml", "Match.load", "Scenario.load"):
            result = results[name][entry]
            assert result["raised"] in ("RecordError", "LimitError", "ScenarioError", "ScenarioMoveError"), \
                (name, entry, result["raised"], result["message"][:300])
            check_refusal(result, case, entry)
        if case.limit:       # the parser of its own format is never reached: the limit names itself
            messages = results[name]["from_json"]["message"] + " | " + results[name]["from_toml"]["message"]
            assert "at most" in messages, (name, messages)


def test_the_bombs_are_refused_by_the_pre_scan_before_any_parser():
    """The dotted-key bomb and deep nesting name their limit, not a parser's message."""
    results = in_child(core_results, [c.name for c in CORPUS if c.kind == "bomb"])
    for name, result in results.items():
        json_form = "JSON" in name or "record" in name or "move of" in name
        message = result["from_json" if json_form else "from_toml"]["message"]
        assert "at most" in message and "not valid" not in message, (name, message)
    dotted = results["bomb:dotted key of 20000 parts"]["from_toml"]["message"]
    assert dotted == ("upload.toml, line 1: it has a dotted key or table name of more than 8 parts; at most 8 parts "
                      "(a.b.c...) are allowed")


# --- the dashboards ---------------------------------------------------------------------
def make_apps() -> dict:
    """One app per game, in the middle of a game (human seat 0, heuristic bots)."""
    from playtest.widgets import GameApp
    apps = {"lazy_sunday": GameApp("lazy_sunday", seats=3, seed=5), "chore_race": GameApp("chore_race", seats=3, seed=5),
            "night_shift": GameApp("night_shift", seed=5)}
    for app in apps.values():
        assert app.match.outcome() is None and app.humans == [0]
    return apps


def snapshot(app) -> tuple:
    return app.match, app.match.fingerprint(), app.match.to_json(), app.players


def upload_value(name: str, data: bytes) -> tuple:
    import datetime
    return ({"name": name, "type": "", "size": len(data), "content": memoryview(data),
             "last_modified": datetime.datetime.now(datetime.timezone.utc)},)


def packed(data: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(data, 9)).decode().rstrip("=")


def dashboard_results(names: list[str], folder: str) -> dict:
    """Every case through each game app's upload, ?record= link and ?scenario= file, and
    through the debugger's upload and page address."""
    from playtest.widgets.debugger import ScenarioDebugger
    os.environ["PLAYTEST_SCENARIOS_DIR"] = folder
    apps = make_apps()
    debugger = ScenarioDebugger()
    debugger.open_example(EXAMPLES["lazy_sunday"])
    results = {}
    for index, name in enumerate(names):
        case = BY_NAME[name]
        file = Path(folder) / f"case{index}.toml"
        file.write_bytes(case.data)
        rows = results[name] = {}
        for game, app in apps.items():
            if case.game == game:
                continue                             # its own game's file: not hostile here
            before = snapshot(app)
            for entry, action in (("upload", lambda: setattr(app.records.upload, "value",
                                                             upload_value("game.json", case.data))),
                                  ("?record=", lambda: app.open_link(f"record={packed(case.data)}")),
                                  ("?scenario=", lambda: app.open_link(f"scenario=case{index}"))):
                app.banner.clear()
                result = measured(action)
                result["message"] = result["message"] or app.banner.message
                result["unchanged"] = snapshot(app) == before
                rows[f"{game} {entry}"] = result
        if case.game is None:                        # any game's scenario is the debugger's to open
            shown = (debugger.scenario, debugger.match, debugger.match.cursor, debugger.match.fingerprint())
            for entry, action in (("upload", lambda: setattr(debugger.upload, "value",
                                                             upload_value("case.toml", case.data))),
                                  ("?record=", lambda: debugger.open_link(f"record={packed(case.data)}")),
                                  ("?scenario=", lambda: debugger.open_link(f"scenario=case{index}"))):
                debugger.banner.clear()
                result = measured(action)
                result["message"] = result["message"] or debugger.banner.message
                result["unchanged"] = (debugger.scenario, debugger.match, debugger.match.cursor,
                                       debugger.match.fingerprint()) == shown
                # a scenario whose move K cannot be played is the debugger's to open, at
                # move K-1 with move K shown failing: its message is the failure's
                result["opened_at_failure"] = not result["unchanged"] and debugger.failure is not None
                if result["opened_at_failure"]:
                    result["message"] = str(debugger.failure)
                    debugger.open_example(EXAMPLES["lazy_sunday"])
                    shown = (debugger.scenario, debugger.match, debugger.match.cursor, debugger.match.fingerprint())
                rows[f"debugger {entry}"] = result
        file.unlink()
    return results


def check_dashboard_results(results: dict) -> None:
    for name, rows in results.items():
        case = BY_NAME[name]
        assert rows, name
        for where, result in rows.items():
            assert result["raised"] is None, f"{name} via {where}: {result['raised']}: {result['message'][:300]}"
            if result.get("opened_at_failure"):
                assert case.kind == "digits" and "is not a number 0, 1, 2" in result["message"], (name, where)
            else:
                assert result["unchanged"], f"{name} via {where} changed the game on show"
            check_refusal(result, case, where)
            if case.kind == "other game" and "upload" in where:
                assert "open it on the" in result["message"] and "is unchanged" in result["message"], result


@pytest.mark.parametrize("kinds", [("bomb", "size", "number"), ("digits", "encoding", "truncated", "type",
                                                                  "other game")])
def test_every_dashboard_and_the_debugger_refuse_the_corpus_and_keep_the_game(kinds, tmp_path):
    names = [case.name for case in CORPUS if case.kind in kinds]
    results = in_child(dashboard_results, names, str(tmp_path))
    assert len(results) == len(names)
    check_dashboard_results(results)


def link_results(queries: list[str]) -> dict:
    from playtest.widgets.debugger import ScenarioDebugger
    apps = make_apps()
    debugger = ScenarioDebugger()
    debugger.open_example(EXAMPLES["night_shift"])
    results = {}
    for query in queries:
        for game, app in apps.items():
            before = snapshot(app)
            app.banner.clear()
            result = measured(lambda: app.open_link(query))
            result["message"] = result["message"] or app.banner.message
            result["unchanged"] = snapshot(app) == before
            results[f"{queries.index(query)} in {game}"] = result
        shown = (debugger.scenario, debugger.match.fingerprint())
        debugger.banner.clear()
        result = measured(lambda: debugger.open_link(query))
        result["message"] = result["message"] or debugger.banner.message
        result["unchanged"] = (debugger.scenario, debugger.match.fingerprint()) == shown
        results[f"{queries.index(query)} in the debugger"] = result
    return results


HOSTILE_LINKS = (
    [f"seed={digit}" for digit in ("²", "٣", "३", "１２", "𝟙", "-1", "1e3", "0x10", " ", "9" * 4_301, "9" * 100_000)]
    + [f"scenario={name}" for name in ("x" * 5_000, "../../etc/passwd", "..", ".hidden", "a/b", "%00", "a%00b",
                                       "²", "x" * 101, "lazy_sunday_stale_claim" * 50, "con", "a b")]
    + [f"record={data}" for data in ("", "!!!", "A" * 5_000, packed(b"[" * 100_000), packed(b" " * (8 << 20)),
                                     packed(json.dumps({"a": 1}).encode()), "x" * (limits.MAX_BYTES + 1))]
    + ["record=abc&players=" + "h" * 5_000, "record=abc&players=²", "players=human", "seed=1&seed=2",
       "seed=1&scenario=x", "record=a&record=b", "seed=" + "1" * (limits.MAX_DIGITS + 1), "scenario=" + "a" * (2 << 20)])


def test_hostile_page_addresses_are_refused_in_one_line_and_keep_the_game():
    results = in_child(link_results, HOSTILE_LINKS)
    assert len(results) == 4 * len(HOSTILE_LINKS)
    for where, result in results.items():
        assert result["raised"] is None, f"{where}: {result['raised']}: {result['message'][:300]}"
        assert result["unchanged"], f"{where} changed the game on show"
        check_refusal(result, Case(where, "link", b""), "the page address")
    assert "use a whole number 0 or more in the digits 0-9" in results["0 in lazy_sunday"]["message"]
    long_name = results[f"{HOSTILE_LINKS.index('scenario=' + 'x' * 5_000)} in chore_race"]["message"]
    assert "at most 100 characters" in long_name and len(long_name) < 400
    too_large = results[f"{len(HOSTILE_LINKS) - 1} in the debugger"]["message"]
    assert too_large.startswith("the page address: it is 2.0 MiB;") and "at most 1 MiB" in too_large


# --- playtest replay ----------------------------------------------------------------------
def replay_results(names: list[str], folder: str) -> dict:
    """``playtest replay FILE`` in this process (its argument handling, output and exit
    code), for every case."""
    from playtest.cli import main
    os.chdir(folder)                         # (a forked child) messages name the file as given
    results = {}
    for index, name in enumerate(names):
        path = Path(f"case{index}.toml")
        path.write_bytes(BY_NAME[name].data)
        out, err = io.StringIO(), io.StringIO()
        code = []
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            result = measured(lambda: code.append(main(["replay", str(path)])))
        result.update(code=code[0] if code else None, out=out.getvalue()[-2_000:], err=err.getvalue())
        result["message"] = result["message"] or err.getvalue().strip()
        results[name] = result
        path.unlink()
    return results


def test_playtest_replay_refuses_every_hostile_file_in_one_line(tmp_path):
    names = [case.name for case in CORPUS if case.kind != "other game"]
    results = in_child(replay_results, names, str(tmp_path))
    for name, result in results.items():
        case = BY_NAME[name]
        assert result["raised"] is None, (name, result["raised"], result["message"][:300])
        assert result["code"] in (1, 2), (name, result["code"], result["err"][:300])
        assert case.limit is False or result["code"] == 2, (name, result["code"])
        lines = result["err"].splitlines()
        assert len(lines) == 1 and lines[0].startswith("playtest replay: "), (name, result["err"][:500])
        check_refusal(result, case, "playtest replay")


REPLAY_SUBPROCESS = {   # case -> exit code: 2 for a file that cannot be read as a scenario (a move no position
                        # could offer, an unreadable seat included, is a mistake in the file)
    "bomb:dotted key of 20000 parts": 2, "bomb:dotted key of 300000 parts": 2, "bomb:JSON arrays 100000 deep": 2,
    "bomb:TOML inline tables 100000 deep": 2, "bomb:TOML arrays 1000 deep": 2, "bomb:30,000 TOML tables": 2,
    "number:scenario seed of 100000 digits": 2, "number:option of 4301 digits": 2,
    "digits:seat ² in a scenario move": 2, "encoding:scenario in utf-16": 2, "encoding:scenario with a NUL": 2,
    "size:2 MiB of random bytes": 2, "size:12 MiB of spaces": 2, "truncated:lazy_sunday record cut at 7/14": 2}


REPLAY_COMMAND = r"""
import json, os, runpy, sys, tempfile, time, traceback
# `python -m playtest.cli replay FILE` for each FILE of argv[2:], one after another in this
# process; each run's exit code, what it wrote to stderr (file descriptor 2) and its
# seconds go to the JSON file argv[1]
target, paths, results = sys.argv[1], sys.argv[2:], []
for path in paths:
    with tempfile.TemporaryFile() as err:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(err.fileno(), 2)
        sys.argv = ["playtest", "replay", path]
        sys.modules.pop("playtest.cli", None)        # run as __main__ afresh, as -m does
        start = time.monotonic()
        try:
            runpy.run_module("playtest.cli", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as done:                   # what the interpreter does with it
            code = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
            if not isinstance(done.code, (int, type(None))):
                print(done.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            code = 1
        seconds = time.monotonic() - start
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        err.seek(0)
        results.append([code, err.read().decode("utf-8", "replace"), seconds])
with open(target, "w") as out:
    json.dump(results, out)
"""


def test_playtest_replay_as_a_command_never_prints_a_traceback(tmp_path):
    """The real command (``python -m playtest.cli replay FILE``, run as ``__main__``) on
    each file, in one process of its own capped at 464 MB of address space (one process
    for all the files: a Python start and the kit's imports cost more than a refusal)."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (HEADROOM + (64 << 20), HEADROOM + (64 << 20)))

    paths = []
    for index, name in enumerate(REPLAY_SUBPROCESS):
        paths.append(tmp_path / f"case{index}.toml")
        paths[-1].write_bytes(BY_NAME[name].data)
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, "-c", REPLAY_COMMAND, str(out), *map(str, paths)], capture_output=True,
                          text=True, timeout=600, preexec_fn=cap, env={**os.environ, "PYTHONUTF8": "1"})
    assert done.returncode == 0 and not done.stderr, done.stderr[-2000:]
    results = json.loads(out.read_text())
    assert len(results) == len(REPLAY_SUBPROCESS)
    for (name, expected), path, (code, err, seconds) in zip(REPLAY_SUBPROCESS.items(), paths, results):
        assert seconds < 30, (name, seconds)
        assert code == expected, (name, code, err[-500:])
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("playtest replay: "), (name, err[-800:])
        assert not INTERNALS.search(lines[0].replace(str(path), "FILE")), (name, lines[0])


def test_replay_arguments_take_ascii_digits_only():
    from playtest.cli import main
    for flag, value in (("--at", "²"), ("--at", "٣"), ("--view", "１"), ("--at", "9" * 5_000)):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(["replay", EXAMPLES["lazy_sunday"], flag, value])
        assert code == 2 and len(err.getvalue().splitlines()) == 1, (flag, value, err.getvalue())
        assert "digits 0-9" in err.getvalue() or "use a seat" in err.getvalue()
        assert not INTERNALS.search(err.getvalue())


# --- what is not hostile still loads --------------------------------------------------------
def test_byte_order_marks_and_real_files_still_load():
    record, scenario = base_record("chore_race"), base_scenario("chore_race")
    assert Match.from_json(b"\xef\xbb\xbf" + record.encode()).to_json() == record
    assert Match.from_json("\ufeff" + record).to_json() == record
    assert Scenario.from_toml(b"\xef\xbb\xbf" + scenario.encode()) == Scenario.from_toml(scenario)
    with pytest.raises(ScenarioError, match="not valid TOML"):
        Scenario.from_toml(scenario[:-40] + "[[")


# --- what is typed in a panel -----------------------------------------------------------------
TYPED = {   # (option or "seed", text) -> words the refusal must hold
    ("seed", "²"): "digits 0-9", ("seed", "٣"): "digits 0-9", ("seed", "１２"): "digits 0-9",
    ("seed", "9" * 5_000): "digits 0-9", ("seed", "-1"): "digits 0-9",
    ("action_deck", "[" * 400): "at most 32 levels", ("action_deck", "9" * 400): "at most 40 digits",
    ("action_deck", "Done=" + "9" * 300): "at most 40 digits", ("action_deck", "x" * 20_000): "at most 500 are allowed",
    ("action_deck", "{'Done': ²}"): "action_deck", ("first_player", "٣"): "first_player",
    ("first_player", "9" * 4_301): "at most 500 are allowed", ("first_player", "9" * 50): "at most 40 digits",
    ("first_player", "(" * 5_000): "at most 500 are allowed", ("first_player", "[" * 40): "at most 32 levels",
}


def typed_results() -> dict:
    from playtest.widgets import GameApp
    from playtest.widgets.lab import BalanceLab
    app = GameApp("chore_race", seats=3, seed=5)
    # the new-game panel offers the first player as a list of seats; the balance lab's
    # options keep a text box for it (its tables count seats from 0, as its data does)
    lab = BalanceLab("chore_race", seats=3, games=5)
    defaults = {name: box.value for name, box in app.new_game.inputs.items()}
    results = {}
    for (where, text), _words in TYPED.items():
        if where == "first_player":
            box, default = lab.variant_a.inputs[where], lab.variant_a.inputs[where].value
            box.value = text
            lab.banner.clear()
            result = measured(lambda: lab.run_button.click())
            result["message"] = result["message"] or lab.banner.message
            result["unchanged"] = lab.result is None and lab._thread is None and lab.progress.value == 0
            box.value = default
        else:
            box = app.new_game.seed if where == "seed" else app.new_game.inputs[where]
            before = snapshot(app)
            box.value = text
            app.banner.clear()
            result = measured(lambda: app.new_game.start.click())
            result["message"] = result["message"] or app.banner.message
            result["unchanged"] = snapshot(app) == before
            box.value = "" if where == "seed" else defaults[where]
        results[len(results)] = result
    return results


def test_seeds_and_options_typed_in_a_panel_are_refused_plainly():
    results = in_child(typed_results)
    assert len(results) == len(TYPED)
    for ((where, text), words), result in zip(TYPED.items(), results.values()):
        name = f"{where}={text[:30]}"
        assert result["raised"] is None and result["unchanged"], (name, result)
        check_refusal(result, Case(name, "typed", b""), "the balance lab" if where == "first_player" else
                      "the new-game panel")
        assert words in result["message"], (name, result["message"])


def test_a_move_typed_in_the_debugger_is_read_plainly():
    from playtest.widgets.debugger import ScenarioDebugger
    debugger = ScenarioDebugger()
    debugger.open_example(EXAMPLES["lazy_sunday"])
    for text, words in (("² draw", "not a number 0, 1, 2"), ("0 peek " + "9" * 4_301, "at most 200 characters"),
                        ("0 peek " + "9" * 50, "at most 40 digits"), ("x" * 100_000, "at most 200 characters")):
        debugger.banner.clear()
        debugger.why_result.value = ""
        debugger.why_text.value = text
        debugger.ask()
        shown = debugger.banner.message or re.sub(r"<[^>]+>", "", debugger.why_result.value)
        assert words in shown and not INTERNALS.search(shown) and len(shown) < 1_000, (text[:20], shown[:300])


def test_replay_of_a_file_name_too_long_for_the_system_is_one_short_line():
    from playtest.cli import main
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["replay", "x" * 5_000])
    line = err.getvalue().strip()
    assert code == 2 and "\n" not in line and len(line) < 200 and "File name too long" in line, line
    assert not INTERNALS.search(line)
