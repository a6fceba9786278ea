"""Free the kernel of a page that is gone.

A Voilà page's kernel outlives its page: the browser's unload request is refused (voila
#1458: ``403 POST /voila/api/shutdown/<id>: '_xsrf' argument missing``), a plain GET
(curl, a link preview) never opens the page's websocket at all, and the idle cull waits
30 minutes (and never fires while live widget updates count as activity). So the server
checks each kernel's page connections itself (``kernel_model(id)["connections"]``,
counted by Jupyter Server as websockets open and close) every few seconds and shuts down
a kernel that has had no page for a grace period.

A kernel is *held*, and never shut down, while it is starting or busy (a page's notebook
is still running, or a preheated kernel waits for its page inside
``voila.utils.get_query_string()``), while it waits in Voilà's preheated pool, while its
page is still being sent (:meth:`KernelReaper.page_sending`, told by the server's page
handler), while the page, loading in a browser, says it is alive
(:class:`PageAliveHandler`, every 10 s until its scripts have connected to the kernel),
or while a page is connected. Once it is no longer held, it has
:attr:`KernelReaper.grace` seconds (default 45) to be held again if a page was connected
to it before, and :attr:`KernelReaper.first_connect` seconds (default 60) if no page
ever connected: a page fetched by a script (curl, a link preview) runs no script, so it
never says it is alive nor connects. Under Jupyter Server (Binder, JupyterLab) only
kernels started by Voilà are watched, never a notebook's kernel, and without the page
handler's word a page counts as sent when its kernel is no longer busy.

With a connection folder of its own (:attr:`KernelReaper.connection_dir`, playtest serve's
private ``voila_*`` folder), each check also removes the connection file and ipc sockets of
every kernel the server no longer runs or starts: jupyter_client removes them only on a
clean shutdown, not for a kernel that died, failed to start or whose shutdown failed.

The reaper also tells the live tables' service (if the server has one,
:func:`playtest.tables.web.pages_without_browser`) which watched kernels had a page and
have none now: at once when a page's websocket opens or closes (it listens to the kernel
manager's ``notify_connect``/``notify_disconnect``, which Jupyter Server calls for every
kernel websocket), and again on each check. A seat whose page was closed shows as
disconnected to the others within a moment, long before its kernel goes; the checks are
the fallback, and never wait on a slow kernel shutdown (shutdowns run beside them).
"""
from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_server.utils import url_path_join
from tornado.ioloop import IOLoop, PeriodicCallback
from traitlets import Any, Bool, Float, Unicode, default
from traitlets.config import LoggingConfigurable

GRACE_ENV = "PLAYTEST_KERNEL_GRACE"
"""Environment variable: the grace period in seconds (the tests shorten it)."""

HELD_STATES = frozenset({"starting", "busy", "restarting", "autorestarting"})
"""Execution states in which a kernel is never shut down: its notebook is running."""

VOILA_MARK = "VOILA_PREHEAT"
"""Voilà puts this variable in the environment of every kernel it starts (``"True"`` in
its preheated pool, ``"False"`` for a page), a notebook's kernel never has it."""


@dataclass
class Watch:
    """What the reaper remembers of one kernel between checks.

    Attributes:
        held_at: the time (seconds, the reaper's clock) at which the kernel was last seen
            held (see the module docstring) or first seen.
        connected: whether a page was ever seen connected to it.
        sending: whether its page is being sent right now.
    """

    held_at: float
    connected: bool = False
    sending: bool = False


def due(watch: Watch, now: float, *, connections: int, state: str, pooled: bool,
        grace: float, first_connect: float) -> bool:
    """Update ``watch`` with one look at its kernel and say whether the kernel's time is up.

    Args:
        watch: the kernel's :class:`Watch`, updated in place.
        now: the time of this look, in seconds on the same clock as ``watch.held_at``.
        connections: the number of page websockets connected to the kernel now.
        state: its execution state (``"idle"``, ``"busy"``, ``"starting"``, ...).
        pooled: whether it waits in Voilà's preheated pool (no page asked for it yet).
        grace: seconds a kernel that had a page may go without one.
        first_connect: seconds a kernel whose page never connected may wait for it.

    Returns:
        True when the kernel should be shut down: not held (nor its page being sent),
        and not held for ``grace`` seconds (``first_connect`` if no page ever connected)
        since it last was.
    """
    if connections > 0:
        watch.connected = True
    if connections > 0 or pooled or watch.sending or state in HELD_STATES:
        watch.held_at = now
        return False
    limit = grace if watch.connected else first_connect
    return now - watch.held_at >= limit


def started_by_voila(kernel) -> bool | None:
    """Whether a kernel (a jupyter_client ``KernelManager``) was started by Voilà: its
    launch environment has :data:`VOILA_MARK`. None when that cannot be told (the launch
    arguments are jupyter_client's private ``_launch_args``; without them the caller
    decides)."""
    launch = getattr(kernel, "_launch_args", None)
    if not isinstance(launch, dict):
        return None
    env = launch.get("env")
    return isinstance(env, dict) and VOILA_MARK in env


def pooled_kernel_ids(kernel_manager) -> set[str]:
    """The ids of the kernels waiting in Voilà's preheated pools (``VoilaKernelManager``
    keeps one list of start tasks per notebook; a kernel still starting has no id yet
    and is held by its ``starting``/``busy`` state instead). Empty without a pool."""
    ids = set()
    for pool in getattr(kernel_manager, "_pools", {}).values():
        for task in pool:
            if task.done() and not task.cancelled() and task.exception() is None:
                ids.add(task.result().get("kernel_id"))
    return ids


KERNEL_FILE = re.compile(r"kernel-([0-9a-f-]{36})(?:\.json|-ipc-\d+)")
"""A kernel's connection file (``kernel-<id>.json``) or one of its ipc sockets
(``kernel-<id>-ipc-<n>``) in a connection folder."""


def busy_kernel_ids(kernel_manager) -> set[str]:
    """The ids of the kernels a jupyter_client ``MultiKernelManager`` is starting or
    shutting down right now (its ``_pending_kernels`` tasks not yet done; a start that
    failed is done and counts as gone). Empty for a manager without them."""
    pending = getattr(kernel_manager, "_pending_kernels", {})
    return {kernel_id for kernel_id, task in pending.items() if not task.done()}


def stale_kernel_files(folder: str | Path, running: set[str]) -> list[Path]:
    """The connection files and ipc sockets in ``folder`` (:data:`KERNEL_FILE`) of kernels
    whose id is not in ``running``; nothing else of the folder. [] if it does not exist."""
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return []
    stale = []
    for entry in entries:
        found = KERNEL_FILE.fullmatch(entry.name)
        if found and found.group(1) not in running:
            stale.append(entry)
    return stale


class KernelReaper(LoggingConfigurable):
    """Shut down the kernels whose page is gone (see the module docstring).

    Built with ``KernelReaper(kernel_manager=mkm, parent=app)``; :meth:`start` checks
    every :attr:`interval` seconds on the running Tornado IOLoop; :meth:`check` is one
    check without shutting anything down (for tests and logs).
    """

    kernel_manager = Any(help="Jupyter Server's MappingKernelManager (or Voilà's subclass of it).")
    voila_only = Bool(False, config=True, help=(
        "Watch only kernels started by Voilà (under Jupyter Server, where notebooks have "
        "kernels too); a kernel whose origin cannot be told is then left alone."))
    grace = Float(config=True, help=(
        "Seconds a kernel that had a page may go without one before it is shut down "
        f"(default 45, or ${GRACE_ENV})."))
    first_connect = Float(60.0, config=True, help=(
        "Seconds a kernel whose page never connected waits for it after its notebook ran."))
    interval = Float(config=True, help="Seconds between two checks (default: grace / 9, 1 to 5).")
    clock: Callable[[], float] = Any(time.monotonic, help="The clock, in seconds (tests pass a fake).")
    connection_dir = Unicode("", help=(
        "The server's own folder of kernel connection files and ipc sockets: each check removes "
        "those of kernels no longer running nor starting. '' (under Jupyter Server, whose runtime "
        "folder other servers' kernels share): none."))

    @default("grace")
    def _grace_default(self) -> float:
        return float(os.environ.get(GRACE_ENV, "") or 45.0)

    @default("interval")
    def _interval_default(self) -> float:
        # the grace counts from the last look that saw the page, so a kernel goes
        # between grace - interval and grace seconds after its page: 40 to 45 s
        return min(5.0, max(1.0, self.grace / 9))

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.watches: dict[str, Watch] = {}
        self._timer: PeriodicCallback | None = None

    def page_sending(self, kernel_id: str) -> None:
        """The server has begun sending ``kernel_id``'s page: hold the kernel until
        :meth:`page_sent`."""
        watch = self.watches.setdefault(kernel_id, Watch(held_at=self.clock()))
        watch.sending = True

    def page_sent(self, kernel_id: str) -> None:
        """``kernel_id``'s page has been sent (or its request ended): from now on its
        page has :attr:`first_connect` seconds to connect."""
        watch = self.watches.get(kernel_id)
        if watch is not None:
            watch.sending, watch.held_at = False, self.clock()

    def page_alive(self, kernel_id: str) -> bool:
        """A page loading in a browser says it is alive: hold its kernel as if seen now.
        Returns False for a kernel this server does not run (nothing is remembered)."""
        if kernel_id not in self.kernel_manager:
            return False
        watch = self.watches.setdefault(kernel_id, Watch(held_at=self.clock()))
        watch.held_at = max(watch.held_at, self.clock())
        return True

    def _watched(self, kernel_ids: Iterable[str]) -> list[str]:
        if not self.voila_only:
            return list(kernel_ids)
        ids = []
        for kernel_id in kernel_ids:
            try:
                kernel = self.kernel_manager.get_kernel(kernel_id)
            except KeyError:
                continue
            if started_by_voila(kernel):
                ids.append(kernel_id)
        return ids

    def check(self) -> list[str]:
        """Look at every watched kernel once; returns the ids of the kernels to shut
        down now (nothing is shut down here)."""
        now = self.clock()
        pooled = pooled_kernel_ids(self.kernel_manager)
        live = self._watched(self.kernel_manager.list_kernel_ids())
        for gone in set(self.watches) - set(live):
            del self.watches[gone]
        doomed, away = [], []
        for kernel_id in live:
            try:
                model = self.kernel_manager.kernel_model(kernel_id)
            except Exception:  # noqa: BLE001 - a kernel removed meanwhile
                continue
            watch = self.watches.setdefault(kernel_id, Watch(held_at=now))
            connections = model.get("connections", 0)
            if due(watch, now, connections=connections,
                   state=model.get("execution_state", ""), pooled=kernel_id in pooled,
                   grace=self.grace, first_connect=self.first_connect):
                doomed.append(kernel_id)
            if watch.connected and connections == 0:
                away.append(kernel_id)
        self._tell_tables(away)
        return doomed

    def connections_changed(self, kernel_id: str) -> None:
        """A page websocket of ``kernel_id`` opened or closed (Jupyter Server's
        ``notify_connect``/``notify_disconnect``): tell the tables now which watched
        kernels have lost their page, without waiting for the next check."""
        if kernel_id not in self.watches and self._watched([kernel_id]):
            self.watches[kernel_id] = Watch(held_at=self.clock())
        away = []
        for watched, watch in self.watches.items():
            try:
                connections = self.kernel_manager.kernel_model(watched).get("connections", 0)
            except Exception:  # noqa: BLE001 - a kernel removed meanwhile
                continue
            if connections > 0:
                watch.connected, watch.held_at = True, self.clock()
            elif watch.connected:
                away.append(watched)
        self._tell_tables(away)

    def _listen(self) -> None:
        """Call :meth:`connections_changed` after each ``notify_connect`` and
        ``notify_disconnect`` of the kernel manager (wrapped on this instance: Jupyter Server
        offers no hook; a kernel manager without them leaves the checks alone to tell)."""
        for name in ("notify_connect", "notify_disconnect"):
            notify = getattr(self.kernel_manager, name, None)
            if notify is None or getattr(notify, "_playtest_reaper", None) is self:
                continue

            def heard(kernel_id, _notify=notify):
                _notify(kernel_id)
                # after the websocket handler's own work: the count is settled by then
                IOLoop.current().add_callback(self.connections_changed, kernel_id)
            heard._playtest_reaper = self
            setattr(self.kernel_manager, name, heard)

    def _tell_tables(self, away: list[str]) -> None:
        """Tell the table service which kernels' pages are gone (a page that never
        connected, still loading or fetched by a script, is not counted). Without the
        table module loaded there is no service to tell; its failure is logged, never
        stops the reaper."""
        web = sys.modules.get("playtest.tables.web")
        if web is None:
            return
        try:
            web.pages_without_browser(away)
        except Exception as exc:  # noqa: BLE001 - the reaper goes on
            self.log.warning("playtest: the table service was not told of closed pages: %s", exc)

    async def reap(self) -> list[str]:
        """One check, then shut down the kernels it found (each logged); returns their ids."""
        doomed = self.check()
        await asyncio.gather(*(self._shut_down(kernel_id) for kernel_id in doomed))
        self.remove_stale_files()
        return doomed

    def remove_stale_files(self) -> list[Path]:
        """Remove the files of :attr:`connection_dir` that belong to no kernel the server
        runs, starts or is shutting down (:func:`stale_kernel_files`); returns them.
        Nothing without a connection folder."""
        if not self.connection_dir:
            return []
        running = set(self.kernel_manager.list_kernel_ids()) | busy_kernel_ids(self.kernel_manager)
        removed = []
        for path in stale_kernel_files(self.connection_dir, running):
            try:
                path.unlink()
            except FileNotFoundError:
                continue                                # removed by its own shutdown meanwhile
            except OSError as exc:
                self.log.warning("playtest: could not remove %s: %s", path, exc)
                continue
            removed.append(path)
        if removed:
            self.log.info("playtest: removed %d file(s) of stopped kernels from %s", len(removed), self.connection_dir)
        return removed

    async def _shut_down(self, kernel_id: str) -> None:
        watch = self.watches.pop(kernel_id, None)
        why = "its page left" if watch and watch.connected else "no page connected to it"
        self.log.info("playtest: shutting down kernel %s: %s", kernel_id, why)
        try:
            await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
        except Exception as exc:  # noqa: BLE001 - gone already, or failing: next check sees
            self.log.warning("playtest: kernel %s did not shut down: %s", kernel_id, exc)

    def start(self) -> None:
        """Check every :attr:`interval` seconds on the current IOLoop (from now on), and
        hear every page websocket open and close (:meth:`connections_changed`)."""
        if self._timer is None:
            self._listen()
            # each tick starts a check of its own: a kernel slow to shut down (seconds on a
            # loaded machine) never holds back the next check
            self._timer = PeriodicCallback(lambda: IOLoop.current().add_callback(self.reap), self.interval * 1000)
            self._timer.start()
            self.log.info("playtest: a kernel without its page is shut down after %.0f s "
                          "(%.0f s if its page never connected)", self.grace, self.first_connect)

    def stop(self) -> None:
        """Stop checking."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None


class PageAliveHandler(tornado.web.RequestHandler):
    """``GET <base_url>playtest/pages/<kernel id>/alive``: a page still loading says its
    kernel is wanted (204; 404 for a kernel the server does not run). A GET, so that it
    needs no XSRF token; a kernel id is known only to its page. Handler kwargs:
    ``reaper``, the :class:`KernelReaper`."""

    def initialize(self, reaper: KernelReaper):
        self.reaper = reaper

    def get(self, kernel_id: str):
        self.set_header("Cache-Control", "no-store")
        self.set_status(204 if self.reaper.page_alive(kernel_id) else 404)
        self.finish()


def page_alive_handlers(base_url: str, reaper: KernelReaper) -> list[tuple]:
    """The handler of :class:`PageAliveHandler` under ``base_url`` (e.g. "/")."""
    return [(url_path_join(base_url, r"/playtest/pages/([0-9a-f-]{36})/alive"), PageAliveHandler,
             {"reaper": reaper})]
