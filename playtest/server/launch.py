"""Run a server in a child process for the length of a block: the one way the tests, the
benchmarks (``benchmarks/bench_pages.py``) and the screenshot script (``docs/screenshots.py``)
start ``playtest serve``, ``python -m playtest.server`` or Jupyter Server.

The child runs in a session of its own (its kernels too), is waited for until an address
answers, and its whole process group is stopped at the end of the block (SIGTERM, then
SIGKILL after ``stop_wait`` seconds)."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(port: int, *options: str) -> list[str]:
    """``playtest serve --port <port> [options]`` with this Python (``python -m playtest.cli``)."""
    return [sys.executable, "-m", "playtest.cli", "serve", "--port", str(port), *options]


def answers(url: str) -> bool:
    """True when ``url`` gives any HTTP answer (an error status included) within 2 s."""
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


@contextlib.contextmanager
def running(command: list[str], ready_url: str, log: Path, cwd: Path | str | None = None,
            env: Mapping[str, str] | None = None, timeout: float = 120.0,
            stop_wait: float = 20.0) -> Iterator[subprocess.Popen]:
    """Run ``command`` until the block ends; yield its process once ``ready_url`` answers.

    Args:
        command: the server's command line (e.g. :func:`serve_command`).
        ready_url: an address of the server that answers once it is ready
            (e.g. ``http://127.0.0.1:<port>/voila/tree``).
        log: the file the server's output (stdout and stderr) is written to (overwritten).
        cwd, env: the child's working folder and environment (None: this process's).
        timeout: seconds to wait for ``ready_url``.
        stop_wait: seconds the process group gets after SIGTERM before SIGKILL.

    Raises:
        RuntimeError: the server exited before it answered, or did not answer within
            ``timeout`` seconds; the message ends with the last 3,000 characters of its log.
    """
    log = Path(log)
    with open(log, "w") as out:
        proc = subprocess.Popen(command, cwd=cwd, env=None if env is None else dict(env), stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + timeout
            while not answers(ready_url):
                if proc.poll() is not None:
                    raise RuntimeError(f"{' '.join(command[1:4])} exited with {proc.returncode}:\n"
                                       f"{log.read_text(errors='replace')[-3000:]}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{' '.join(command[1:4])} did not answer on {ready_url} within "
                                       f"{timeout:.0f} s:\n{log.read_text(errors='replace')[-3000:]}")
                time.sleep(0.25)
            yield proc
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(stop_wait)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
