"""The input limits (playtest.engine.limits): each limit is refused just past it and
allowed at it, with a message naming it; the pre-scan agrees with the parsers on what
is a string, measures nesting exactly, and reads only ASCII digits as numbers."""
from __future__ import annotations

import json
import random
import time

import pytest
import tomli_w

from playtest import Match, Table
from playtest.engine import RecordError, limits
from playtest.engine.limits import LimitError
from playtest.scenarios import Scenario, examples

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def refusal(check, text) -> LimitError:
    with pytest.raises(LimitError) as info:
        check(text, "the text")
    return info.value


def nested(depth: int, json_form: bool) -> str:
    """A value ``depth`` levels deep counted as the limits count (the document is 1)."""
    if json_form:
        return "[" * depth + "]" * depth
    return "x = " + "[" * (depth - 1) + "]" * (depth - 1)


@pytest.mark.parametrize("check, json_form", [(limits.check_json, True), (limits.check_toml, False)])
def test_nesting_is_allowed_up_to_the_limit_and_refused_past_it(check, json_form):
    check(nested(limits.MAX_DEPTH, json_form), "the text")
    error = refusal(check, nested(limits.MAX_DEPTH + 1, json_form))
    assert error.limit == "MAX_DEPTH" and f"at most {limits.MAX_DEPTH} levels" in str(error)


def test_toml_depth_counts_tables_dotted_keys_and_arrays_of_tables():
    depth = limits.MAX_DEPTH
    # the document, a, b, then arrays: a.b = [[...]] is 2 + (depth - 2) deep
    limits.check_toml("a.b = " + "[" * (depth - 2) + "]" * (depth - 2), "t")
    assert refusal(limits.check_toml, "a.b = " + "[" * (depth - 1) + "]" * (depth - 1)).limit == "MAX_DEPTH"
    # [[a]] is an array of tables: [a.b] under it is 4 deep (document, array, table, b)
    limits.check_toml("[[a]]\n[a.b]\nx = " + "[" * (depth - 4) + "]" * (depth - 4), "t")
    assert refusal(limits.check_toml, "[[a]]\n[a.b]\nx = " + "[" * (depth - 3) + "]" * (depth - 3)).limit == "MAX_DEPTH"
    # inline tables with dotted keys inside
    limits.check_toml("x = {a.b = {c = 1}}", "t")
    inline = "x = " + "{a.b = " * 16 + "1" + "}" * 16          # 1 + 16 * 2 = 33 levels
    assert refusal(limits.check_toml, inline).limit == "MAX_DEPTH"


def depth_of(value) -> int:
    if isinstance(value, (dict, list)):
        items = value.values() if isinstance(value, dict) else value
        return 1 + max((depth_of(v) for v in items), default=0)
    return 0


def table_parts(value: dict) -> int:
    """An upper bound of the parts of the table names tomli_w writes for ``value``."""
    best = 0
    for item in value.values():
        if isinstance(item, dict):
            best = max(best, 1 + table_parts(item))
        elif isinstance(item, list) and item and all(isinstance(i, dict) for i in item):
            best = max(best, 1 + max(table_parts(i) for i in item))
    return best


TRICKY = ["s", 'a.b [x] {y} = "q" \'z\'', "#", '"""', "'''", "back\\slash\\", "\\\"", "", "line\nbreak", "ü"]


def generated(rng: random.Random, depth: int):
    roll = rng.random()
    if depth <= 0 or roll < 0.06:
        return rng.choice([1, -7, 2.5, True, *TRICKY])
    if roll < 0.5:
        return [generated(rng, depth - 1) for _ in range(rng.choice((1, 1, 1, 2)))] + [rng.choice(TRICKY)]
    keys = ["a", "b c", "d.e", 'f"g', "h'i", "1", "true", "[k]", "#"]
    return {rng.choice(keys) + str(k): generated(rng, depth - 1) for k in range(rng.choice((0, 1, 1, 1, 2)))}


def test_the_pre_scan_measures_generated_documents_as_the_parsers_read_them():
    """Random documents (strings full of quotes, brackets and escapes, keys that need
    quoting, arrays of tables) written by json and tomli_w: the scan refuses exactly
    those nested past the limit, and never a key of few parts."""
    rng = random.Random(11)
    refused = allowed = 0
    for _ in range(400):
        doc = {"k": generated(rng, rng.randint(1, 40)), "t": {"u": generated(rng, rng.randint(1, 36))},
               "arr": [{"x": generated(rng, rng.randint(1, 30))} for _ in range(rng.randint(0, 2))]}
        deep = depth_of(doc) > limits.MAX_DEPTH
        text = json.dumps(doc)
        assert json.loads(text) == doc
        try:
            limits.check_json(text, "j")
            assert not deep
        except LimitError as exc:
            assert deep and exc.limit == "MAX_DEPTH", (exc, depth_of(doc))
        text = tomli_w.dumps(doc)
        assert tomllib.loads(text) == doc
        many_parts = table_parts(doc) > limits.MAX_KEY_PARTS
        try:
            limits.check_toml(text, "t")
            assert not deep
            allowed += 1
        except LimitError as exc:
            refused += 1
            assert exc.limit in ("MAX_DEPTH", "MAX_KEY_PARTS"), exc
            assert (exc.limit == "MAX_DEPTH" and deep) or (exc.limit == "MAX_KEY_PARTS" and many_parts), exc
    assert refused > 40 and allowed > 40            # both sides of the limit were tried


def test_dotted_keys_and_table_names_have_at_most_the_allowed_parts():
    parts = limits.MAX_KEY_PARTS
    limits.check_toml(".".join(["a"] * parts) + " = 1", "t")
    limits.check_toml("[" + ".".join(["a"] * parts) + "]", "t")
    limits.check_toml('"a.a.a.a.a.a.a.a.a.a.a" = 1', "t")          # one quoted key, not dotted
    for text in (".".join(["a"] * (parts + 1)) + " = 1", "[" + ".".join(["a"] * (parts + 1)) + "]",
                 " . ".join(['"a"'] * (parts + 1)) + " = 1", "x = {" + ".".join(["b"] * (parts + 1)) + " = 1}"):
        error = refusal(limits.check_toml, text)
        assert error.limit == "MAX_KEY_PARTS" and f"at most {parts} parts" in str(error)


def test_the_dotted_key_bomb_is_refused_at_once():
    """The issue's file: one key of 20,000 dotted parts made tomllib take gigabytes."""
    bomb = "x" + ".a" * 20_000 + " = 1"
    start = time.perf_counter()
    error = refusal(limits.check_toml, bomb)
    assert error.limit == "MAX_KEY_PARTS" and time.perf_counter() - start < 0.5


def test_keys_strings_items_and_digits():
    assert refusal(limits.check_toml, "k" * (limits.MAX_KEY_LENGTH + 1) + " = 1").limit == "MAX_KEY_LENGTH"
    limits.check_toml("k" * limits.MAX_KEY_LENGTH + " = 1", "t")
    assert refusal(limits.check_json, '{"' + "k" * (limits.MAX_KEY_LENGTH + 1) + '": 1}').limit == "MAX_KEY_LENGTH"
    for quote in ('"', "'", '"""', "'''"):
        limits.check_toml(f"s = {quote}{'a' * limits.MAX_STRING}{quote}", "t")
        error = refusal(limits.check_toml, f"s = {quote}{'a' * (limits.MAX_STRING + 1)}{quote}")
        assert error.limit == "MAX_STRING" and f"at most {limits.MAX_STRING:,} characters" in str(error)
    assert refusal(limits.check_json, json.dumps(["\\" * (limits.MAX_STRING // 2 + 1)])).limit == "MAX_STRING"
    limits.check_json(json.dumps(list(range(limits.MAX_ITEMS - 1))), "j")        # the list and its items
    error = refusal(limits.check_json, json.dumps(list(range(limits.MAX_ITEMS))))
    assert error.limit == "MAX_ITEMS" and f"at most {limits.MAX_ITEMS:,}" in str(error)
    assert refusal(limits.check_toml, "x = [" + "1," * limits.MAX_ITEMS + "]").limit == "MAX_ITEMS"
    for number in ("9" * (limits.MAX_DIGITS + 1), "1_" * limits.MAX_DIGITS + "1", "0x" + "F" * (limits.MAX_DIGITS + 1),
                   "1." + "5" * (limits.MAX_DIGITS + 1)):
        error = refusal(limits.check_toml, f"n = {number}")
        assert error.limit == "MAX_DIGITS" and f"at most {limits.MAX_DIGITS} digits" in str(error)
    limits.check_toml(f"n = {'9' * limits.MAX_DIGITS}\nd = 1979-05-27T00:32:00.999999-07:00", "t")
    assert refusal(limits.check_json, '{"seed": ' + "9" * 4301 + "}").limit == "MAX_DIGITS"


def test_the_line_of_a_refusal_is_named():
    text = 'title = "x"\n# a comment with [[[[ and """ in it\nmoves = [\n  "0 draw",\n]\nbig = ' + "7" * 50 + "\n"
    error = refusal(limits.check_toml, text)
    assert error.line == 6 and str(error).startswith("the text, line 6: ")


def test_size_is_measured_in_utf8_bytes():
    limits.check_size("a" * limits.MAX_BYTES, "t")
    error = refusal(limits.check_size, "ü" * (limits.MAX_BYTES // 2 + 1))          # 2 bytes each
    assert error.limit == "MAX_BYTES" and "at most 1 MiB (1,048,576 bytes)" in str(error)
    assert "it is 1.0 MiB" in str(error) or "it is 1,048,578" in str(error)


@pytest.mark.parametrize("data, words", [
    (b"\xff\xfe" + "x = 1".encode("utf-16-le"), "UTF-16 text, not a UTF-8 text file"),
    (b"\xfe\xff" + "x = 1".encode("utf-16-be"), "UTF-16 text"),
    (b"\xff\xfe\x00\x00" + "x".encode("utf-32-le"), "UTF-32 text"),
    (b'x = "\xe9t\xe9"', "not a UTF-8 text file (byte 6 is 0xE9): the kit reads text files in UTF-8"),
    (b"x = 1\n\x00\x00", "holds a NUL character"),
])
def test_decode_explains_files_that_are_not_utf8(data, words):
    error = refusal(limits.decode, data)
    assert error.limit == "encoding" and words in str(error)


def test_decode_drops_a_utf8_byte_order_mark():
    assert limits.decode(b"\xef\xbb\xbfx = 1", "t") == "x = 1"


def test_read_text_reads_no_more_than_the_limit(tmp_path):
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as file:
        file.truncate(4 << 30)                 # 4 GiB, sparse: refused without reading it
    start = time.perf_counter()
    with pytest.raises(LimitError, match=r"it is 4096.0 MiB; records, scenarios and page addresses may be at most 1 MiB"):
        limits.read_text(huge)
    assert time.perf_counter() - start < 1
    with pytest.raises(FileNotFoundError):
        limits.read_text(tmp_path / "missing.toml")


@pytest.mark.parametrize("text", ["0", "42", "007", "9" * limits.MAX_DIGITS])
def test_whole_numbers_are_ascii_digits(text):
    assert limits.is_number(text)


@pytest.mark.parametrize("text", ["", " 7", "-1", "1.5", "²", "٣", "१२", "１２", "𝟙", "9" * (limits.MAX_DIGITS + 1),
                                  "1e3", "0x1"])
def test_other_digits_are_not_numbers(text):
    """``str.isdigit`` is true for most of these, and ``int()`` reads several."""
    assert not limits.is_number(text)


def test_real_files_keep_every_limit():
    """Every shipped example, and the record and scenario of a long bot game, pass."""
    for name, path in examples().items():
        limits.load_toml(path.read_text(encoding="utf-8"), name)
    match = Match("chore_race", 6, seed=3)
    Table(match, {s: "random" for s in range(6)}).run_bots()
    assert len(match.moves) > 100
    assert limits.load_json(match.to_json(), "r")["moves"] == [str(m) for m in match.moves]
    limits.load_toml(Scenario.from_match(match, title="long").to_toml(), "s")


def test_a_refusal_is_a_record_error_and_a_value_error():
    error = refusal(limits.check_json, "[" * 40)
    assert isinstance(error, RecordError) and isinstance(error, ValueError)


def test_json_numbers_are_guarded_in_the_parser_too():
    with pytest.raises(LimitError, match=f"at most {limits.MAX_DIGITS} digits"):
        json.loads("[" + "1" * (limits.MAX_DIGITS + 5) + "]", parse_int=limits._json_int)


PIECES = ["[", "]", "{", "}", ",", "=", ".", ":", "\n", " ", "#", '"', "'", '"""', "'''", "a", "1", "[[", "]]",
          "x = ", "\n[t]\n", "a.b", "\\", '"a": ']


def mutated(rng: random.Random, text: str) -> str:
    """``text`` with one to four random edits: a separator or quote put in, a few
    characters taken out, or a run of one piece put in."""
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(text) + 1)
        roll = rng.random()
        if roll < 0.4:
            text = text[:at] + rng.choice(PIECES) + text[at:]
        elif roll < 0.8:
            text = text[:at] + text[at + rng.randint(1, 3):]
        else:
            text = text[:at] + rng.choice(PIECES) * rng.randint(2, 40) + text[at:]
    return text


@pytest.mark.parametrize("form", ["toml", "json"])
def test_no_broken_document_the_parser_accepts_gets_past_the_scan_too_deep(form):
    """Where the scan stops early (a string that never closes, two separators in a
    row, ...), the parser must refuse the text too: generated documents, many nested
    past the limit, broken by random edits; whatever the parser still reads and the
    scan let through keeps the limits."""
    rng = random.Random(5)
    check, parse = (limits.check_toml, tomllib.loads) if form == "toml" else (limits.check_json, json.loads)
    parsed = 0
    for _ in range(700):
        doc = {"k": generated(rng, rng.randint(20, 45)), "t": {"u": generated(rng, rng.randint(1, 36))}}
        text = mutated(rng, tomli_w.dumps(doc) if form == "toml" else json.dumps(doc))
        try:
            check(text, "t")
        except LimitError:
            continue
        try:
            value = parse(text)
        except ValueError:
            continue
        parsed += 1
        assert depth_of(value) <= limits.MAX_DEPTH, text[:300]
    assert parsed > 30                                  # documents on both sides were tried


def test_a_megabyte_of_lines_comments_or_separators_is_scanned_quickly():
    """Texts of nothing but line ends, comments, spaces or one separator: one token per
    line at most, no memory per character."""
    size = limits.MAX_BYTES - 100
    for text in ("\n" * size, "\r\n" * (size // 2), "#\n" * (size // 2), " " * size, "," * size, "]" * size,
                 "." * size, "=" * size, "[]" * (size // 2), "a " * (size // 2)):
        for check in (limits.check_toml, limits.check_json):
            start = time.process_time()
            try:
                check(text, "t")
            except LimitError as exc:
                assert exc.limit == "MAX_ITEMS", (text[:10], exc)
            assert time.process_time() - start < 1, (text[:10], check.__name__)
