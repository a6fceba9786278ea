"""Seeded results computed again in a fresh Python process, for the tests that a seed
gives the same game: a second call in the same process would share its caches, module
state and string hashing (set order) with the first, and could agree with it for the
wrong reason. The fresh process hashes strings with another seed (``PYTHONHASHSEED``)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).parent


def in_fresh_process(code: str):
    """Run ``code`` (Python; the tests folder is importable, so is the toy game) in a new
    interpreter and return the JSON value it assigns to ``result``.

    Raises:
        AssertionError: the code failed (its stderr is the message).
    """
    hash_seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    program = f"import sys, json\nsys.path.insert(0, {str(TESTS)!r})\n{textwrap.dedent(code)}\nprint(json.dumps(result))"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONHASHSEED": hash_seed})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])
