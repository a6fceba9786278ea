"""Ctrl-C during a simulation: the first one asks the run to stop and keep the games
finished so far (through ``simulate``'s ``cancel`` event); worker processes ignore it,
so the chunks they are playing come back whole."""
from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


ECHO_SECONDS = 1.0
"""A second SIGINT this soon after the first is taken as the same Ctrl-C."""


def ignore_interrupts() -> None:
    """Worker-process initializer: leave Ctrl-C (SIGINT, sent to the whole terminal
    process group) to the parent, which decides what stops."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def interrupt_sets(event: threading.Event) -> Iterator[threading.Event]:
    """While inside, the first Ctrl-C (SIGINT) sets ``event`` instead of raising
    KeyboardInterrupt; a second one raises it as usual (to stop at once), unless it comes
    within ``ECHO_SECONDS`` of the first (the same signal delivered twice). The previous
    handler comes back on leaving. Must be entered from the main thread (Python's rule
    for signal handlers).

    Yields:
        ``event``.
    """
    def first_interrupt(_signum, _frame):
        event.set()
        first_at = time.monotonic()

        def later_interrupt(_signum, _frame):
            # the same Ctrl-C delivered twice (`timeout -s INT` signals the command and
            # then its process group) must not throw away the games being reported
            if time.monotonic() - first_at >= ECHO_SECONDS:
                raise KeyboardInterrupt
        signal.signal(signal.SIGINT, later_interrupt)

    previous = signal.signal(signal.SIGINT, first_interrupt)
    try:
        yield event
    finally:
        signal.signal(signal.SIGINT, previous)
