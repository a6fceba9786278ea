"""``PlaytestVoila``: the standalone Voilà server that ``playtest serve`` runs.

It is Voilà (``voila.app.Voila``) with four additions:

* the live-table service's handlers first in the handler list (same port, same base URL)
  and its address published to kernels before any kernel starts
  (:mod:`playtest.tables.web`); the service is shut down with the server;
* the settings of :mod:`playtest.server.settings` as defaults (kernel pools, ipc
  transport, timeouts);
* the kernel reaper (:mod:`playtest.server.reaper`): a page that is gone frees its
  kernel within a minute;
* the ``playtest`` page template (``templates/playtest``): a page whose kernel dies says
  so, and that reloading the page resumes the game.
"""
from __future__ import annotations

import functools
import importlib.metadata
import os
import re
import secrets
import tempfile
import time
from pathlib import Path

import tornado.iostream
import tornado.web
import tornado.websocket
from jupyter_core.paths import jupyter_path
from tornado.ioloop import IOLoop
from tornado.log import access_log
from traitlets import Dict, Float, Int, List, Unicode, default
from traitlets.config import Config
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from playtest.tables import pages
from playtest.tables.service import TABLE_PAGE

from . import memory, settings
from .reaper import KernelReaper, page_alive_handlers

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates" / "playtest"
"""The page template: Voilà's ``lab`` template plus the kernel-status message."""


MAX_QUERY = 100_000
"""Characters a page address may hold after its "?": Voilà hands the query to a new
kernel in an environment variable, which Linux caps at 128 KiB (a longer one failed the
kernel's start: a bare "500" page). Over it, :meth:`PageHandler.refuse_long_address`."""

MAX_HEADER_BYTES = 4 << 20
"""The most a request's head may hold. Tornado's default, 64 KiB, closes the connection
unanswered ("empty response"); this passes the longest address Chromium sends (2 MB),
so that every address over :data:`MAX_QUERY` is answered with a sentence."""

MAX_BODY_BYTES = 1 << 20
"""The most of a request's body the server reads (Tornado's default is 100 MB, read whole
into memory before any handler sees it). Nothing served here takes more: the table
service takes 64 KiB (and answers a larger body with a sentence, before reading it); a
page's widgets (uploads too) talk over its kernel's websocket, which this does not limit.
Past it Tornado answers a bare 400 and closes the connection, without reading the body."""

MAX_LOGGED = 300
"""Characters of a request's address written in the access log (a hostile address of
megabytes would otherwise be written whole, once per request)."""

TOKEN_IN_ADDRESS = re.compile(r"(?i)((?:^|[?&;])token=)[^&;#]*")
"""A table page's tokens in an address (``?table=ID&token=T1,T2``): never written to a log."""

KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')
"""The page's kernel id in the page configuration that Voilà's template writes (the
``jupyter-config-data`` script the page's scripts read)."""


class PageHandler(TornadoVoilaHandler):
    """Voilà's page handler, with these changes:

    * it tells the kernel reaper when a page's kernel is known and when the page has
      been sent (settings ``playtest_kernel_reaper``): until then the kernel is not
      waiting for its page, the page is still on its way;
    * it takes a preheated kernel only when one is ready: Voilà would otherwise wait for
      a refill that has not started yet (refills wait ``fill_delay`` seconds, so that
      they do not compete with the pages of a crowd) instead of starting a kernel now;
    * after a page, it asks the app to keep that dashboard's pool (``playtest_start_pool``);
    * a table page's link (table and tokens) is judged before any kernel is used: a
      wrong, missing or malformed one gets a plain page at once (:meth:`refuse_table_page`);
      so does an address too long to hand to a kernel (:meth:`refuse_long_address`), and
      every page while one more kernel would pass the server's memory budget
      (:meth:`refuse_when_full`, ``--max-memory``);
    * it names the browser (cookie :data:`~playtest.server.settings.BROWSER_COOKIE`, made
      on its first page) and hands the name to the page's kernel, so that a dashboard
      offers to resume only the games saved from this browser, never another person's;
      it hands the browser's address too (:data:`~playtest.server.settings.CLIENT_HEADER`),
      which the lobby's table creations count for;
    * it sets Jupyter's ``_xsrf`` cookie, so that the shutdown Voilà's page sends when it
      unloads (a reload, a closed tab) is taken and the page's kernel stops at once.
    """

    def refuse_table_page(self) -> bool:
        """Judge a table page's table and tokens before any kernel is used
        (:func:`playtest.tables.web.judge_table_page`, which also ends a seat's wait so
        that the pool is not refilled for a page that takes a ready kernel). A wrong,
        missing or malformed link is answered at once with a plain HTML page (403 or 404,
        :func:`playtest.tables.pages.refusal_page`): returns True. A page whose link is
        good is left to Voilà (False); so is every page if the table service fails, as
        the page then says itself."""
        from playtest.tables import web
        try:
            refusal = web.judge_table_page(self.request.query)
        except Exception:  # noqa: BLE001 - the page's own kernel reports a broken service
            self.log.exception("playtest: the table service could not judge a table page's link")
            return False
        if refusal is None:
            return False
        self.log.info("playtest: table page refused (%d): %s", refusal.status, refusal.reason)
        self.set_status(refusal.status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Robots-Tag", "noindex")
        self.finish(pages.refusal_page(refusal))
        return True

    def _request_summary(self) -> str:
        # Tornado's own log lines about a request (an error, a 500's traceback) name it
        # by this summary: a table link's tokens are hidden there too
        return redact(super()._request_summary())

    def should_use_rendered_notebook(self, notebook_data, pool_size, template_name, theme, request_args) -> bool:
        if not super().should_use_rendered_notebook(notebook_data, pool_size, template_name, theme, request_args):
            return False
        pool = getattr(self.kernel_manager, "_pools", {}).get(self._notebook, [])
        # Voilà hands out the oldest pool entry: use the pool only if that one is ready
        # (started, and not failed: a failed start would fail the page)
        return bool(pool) and pool[0].done() and not pool[0].cancelled() and pool[0].exception() is None

    def refuse_long_address(self) -> None:
        """Answer a page address longer than :data:`MAX_QUERY` after its "?" with a plain
        page (414) saying so and what to do instead, before any kernel is used."""
        length = len(self.request.query)
        body = (f"<h3>This page address is too long</h3><p>It holds {length:,} characters after its "
                f"\u201c?\u201d, and a page address may hold at most {MAX_QUERY:,}. A record or scenario that "
                "long does not fit in a link: open the dashboard without it and load the file with its "
                "upload button (files up to 1 MiB).</p>")
        self.set_status(414)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(pages.PAGE.format(title="This page address is too long", status=414, body=body))

    def refuse_when_full(self) -> bool:
        """While the server's memory budget (settings ``playtest_memory``, a
        :class:`~playtest.server.memory.MemoryBudget`) has no room for one more kernel,
        answer with a plain "This server is full" page (503) naming how many pages are
        open for how many tables, before any kernel is used: returns True. Else False."""
        budget = self.settings.get("playtest_memory")
        if budget is None or not budget.full():
            return False
        manager = self.kernel_manager
        open_pages = 0
        for kernel_id in manager.list_kernel_ids():
            try:
                open_pages += manager.kernel_model(kernel_id).get("connections", 0) > 0
            except Exception:  # noqa: BLE001 - a kernel removed meanwhile
                continue
        from playtest.tables import web
        try:
            tables = len(web.service().listing())
        except Exception:  # noqa: BLE001 - the page says what it can without the tables
            tables = 0
        self.log.warning("playtest: page refused, the server is full (%d pages open, %d tables)", open_pages, tables)
        self.set_status(503)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Retry-After", "60")
        self.finish(pages.PAGE.format(title="This server is full", status=503,
                                      body=memory.full_page_body(open_pages, tables, budget.limit)))
        return True

    @tornado.web.authenticated
    async def get(self, path=None):
        self._notebook = self.notebook_path or path
        if len(self.request.query) > MAX_QUERY:
            self.refuse_long_address()
            return
        if self._notebook == TABLE_PAGE and self.refuse_table_page():
            return
        if self.refuse_when_full():
            return
        browser = self.get_cookie(settings.BROWSER_COOKIE, "")
        if not settings.BROWSER_ID.fullmatch(browser):
            browser = secrets.token_urlsafe(18)
            self.set_cookie(settings.BROWSER_COOKIE, browser, path=self.base_url, expires_days=400,
                            httponly=True, samesite="Lax")
        self.request.headers[settings.BROWSER_HEADER] = browser     # never the client's own
        # Voilà's page sends the kernel's shutdown when it unloads (a reload, a closed tab)
        # with the _xsrf cookie's value; without the cookie it was refused (403 "'_xsrf'
        # argument missing", voila #1458). Reading the token sets the cookie when missing.
        self.xsrf_token  # noqa: B018 - read for its side effect
        self.request.headers[settings.CLIENT_HEADER] = self.request.remote_ip or ""
        reaper = self.settings.get("playtest_kernel_reaper")
        kernel_id = None
        try:
            async for html in self.get_generator(path=path):
                if kernel_id is None and reaper is not None:
                    found = KERNEL_ID.search(html)
                    if found:
                        kernel_id = found.group(1)
                        reaper.page_sending(kernel_id)
                self.write(html)
                self.flush()
        finally:
            if kernel_id is not None:
                reaper.page_sent(kernel_id)
            start_pool = self.settings.get("playtest_start_pool")
            if start_pool is not None and path:
                start_pool(path)


def redact(uri: str) -> str:
    """``uri`` with every ``token=`` value replaced by ``[hidden]``: a table link's tokens
    are the seats themselves, and a log is read by others."""
    return TOKEN_IN_ADDRESS.sub(r"\1[hidden]", uri)


def log_request(handler: tornado.web.RequestHandler) -> None:
    """Tornado's access log line ("200 GET /path (ip) 1.23ms"), at info, warning (4xx)
    or error (5xx), with tokens hidden (:func:`redact`) and the address cut to
    :data:`MAX_LOGGED` characters."""
    status, request = handler.get_status(), handler.request
    log = access_log.info if status < 400 else access_log.warning if status < 500 else access_log.error
    uri = redact(request.uri or "")
    if len(uri) > MAX_LOGGED:
        uri = f"{uri[:MAX_LOGGED]}... ({len(uri):,} characters)"
    log("%d %s %s (%s) %.2fms", status, request.method, uri, request.remote_ip, 1000.0 * request.request_time())


def loopback_for(ip: str) -> str:
    """The address a kernel on this machine uses to reach a server bound to ``ip``:
    127.0.0.1 for every-interface binds ("", "0.0.0.0", "::") and "localhost", else
    ``ip`` itself (an IPv6 address in brackets, as URLs need)."""
    if ip in ("", "0.0.0.0", "::", "localhost"):
        return "127.0.0.1"
    return f"[{ip}]" if ":" in ip and not ip.startswith("[") else ip


def share_voila_data() -> Path | None:
    """Put the Jupyter data folder of the installed Voilà (its ``share/jupyter``: the page
    templates and the widgets' lab extensions) on ``$JUPYTER_PATH`` when Jupyter does not
    look there: in a venv made with ``--system-site-packages`` Voilà comes from the
    machine's Python, whose data folder Jupyter does not search, and Voilà stopped with "No
    template sub-directory with name 'lab'". Returns the folder added, None if none was
    needed (or Voilà's files are not listed)."""
    for file in importlib.metadata.distribution("voila").files or ():
        if file.parts[-4:] == ("voila", "templates", "lab", "index.html.j2"):
            data = Path(file.locate()).resolve().parents[3]
            if data in {Path(folder).resolve() for folder in jupyter_path()}:
                return None
            os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [os.environ.get("JUPYTER_PATH"), str(data)]))
            return data
    return None


class PlaytestVoila(Voila):
    """Voilà serving the playtest dashboards (see the module docstring).

    Use it as Voilà: ``PlaytestVoila.launch_instance(["dashboards", "--port=8866"])``, or
    ``python -m playtest.server dashboards --port=8866``. Every Voilà option works; the
    settings of :data:`playtest.server.settings.VOILA` are defaults under them.
    """

    description = "Serve the playtest dashboards (Voilà, with live tables and kernel clean-up)."

    pool_sizes = Dict(config=True, help=(
        "Preheated kernels to keep per notebook (path relative to the served folder), "
        "filled once the notebook's first page has been sent."))

    crowd = Int(0, config=True, help=(
        "Pages expected to open at once (a class, a playtest evening): every notebook of "
        "pool_sizes keeps at least this many preheated kernels once opened (about 60 MB each)."))

    trim_after = Float(60.0, config=True, help=(
        "Seconds a preheated kernel has been ready before a smaller pool may shut it down "
        "(by then it has run its notebook up to the page's wait)."))

    allow_origins = List(Unicode(), config=True, help=(
        "Origins (scheme://host[:port]) whose pages, besides the server's own, may change "
        "things through the table service, and whose hosts it answers to: the public "
        "address of a proxy that rewrites Host. '*' allows every origin and host "
        "(playtest.tables.guard)."))
    awaited_cap = Int(8, config=True, help=(
        "At most this many extra table pages kept ready for the seats of new tables whose "
        "people have not opened their links yet (TableService.awaited_pages)."))

    max_memory = Int(0, config=True, help=(
        "Bytes the server and its kernels may use together (playtest serve --max-memory): a page "
        "is refused with 'This server is full' while one more kernel would pass it. 0: the "
        "container's memory limit (cgroup), else the machine's memory."))

    @default("connection_dir_root")
    def _default_connection_dir(self) -> str:
        # ipc sockets live in the connection folder: <root>/voila_XXXXXXXX/kernel-<id>-ipc-N
        # must stay under the 107 bytes a Unix socket path may have
        root = tempfile.gettempdir()
        return root if len(root) <= 40 else "/tmp"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._ready_since: dict[str, dict] = {}   # notebook -> {pool entry: first seen ready} (resize_pool)
        self.memory: memory.MemoryBudget | None = None     # made with the server's settings (init_settings)

    def initialize(self, argv=None) -> None:
        """Parse ``argv`` (Voilà's command line) over the playtest defaults."""
        # lowest priority: Voila.initialize merges voila.json files, then the command line, on top
        self.update_config(Config(settings.VOILA))
        super().initialize(argv)

    def setup_template_dirs(self) -> None:
        share_voila_data()
        super().setup_template_dirs()
        # the playtest page template shadows lab's index.html.j2 and extends it
        self.template_paths.insert(0, str(TEMPLATE_DIR))

    def init_settings(self) -> dict:
        # Voilà's kernel manager starts its pool's kernels as soon as it is built (in
        # super().init_settings()), each with a copy of this process's environment: publish
        # first. Preheated kernels fetch their page's address from VOILA_APP_IP.
        from playtest.tables import guard, web

        web.publish(self.ip, self.port, self.base_url)
        web.publish_scenarios_dir(self.root_dir)      # the dashboards folder (kernels run there)
        os.environ["VOILA_APP_IP"] = loopback_for(self.ip)
        tornado_settings = super().init_settings()
        self.reaper = KernelReaper(kernel_manager=self.kernel_manager, connection_dir=self.connection_dir, parent=self)
        tornado_settings["playtest_kernel_reaper"] = self.reaper
        self.memory = tornado_settings["playtest_memory"] = memory.MemoryBudget(self.max_memory)
        self.log.info("playtest: pages are refused while one more kernel would pass %.2f GiB of memory",
                      self.memory.limit / 2**30)
        tornado_settings["playtest_start_pool"] = self.start_pool
        tornado_settings["log_function"] = log_request
        tornado_settings[guard.ALLOW_ORIGINS] = list(self.allow_origins)
        return tornado_settings

    def pool_size(self, notebook: str) -> int:
        """The preheated kernels ``notebook`` keeps once opened: its ``pool_sizes``
        entry, at least :attr:`crowd` (0 for an unlisted notebook)."""
        size = self.pool_sizes.get(notebook, 0)
        return max(size, self.crowd) if size else 0

    def start_pool(self, notebook: str) -> None:
        """Keep :meth:`pool_size` preheated kernels for ``notebook`` from now on (a path
        relative to the served folder; nothing for an unlisted notebook, without
        ``preheat_kernel``, or while the memory budget is full). Called by the page
        handler after each page."""
        pools = getattr(self.kernel_manager, "kernel_pools_config", None)
        if pools is not None and notebook not in pools and self.pool_size(notebook) and not self._full():
            self.resize_pool(notebook, self.pool_size(notebook), delay=None)

    def await_table_pages(self, count: int) -> None:
        """Keep ready, beside the table page's own pool, one table page per seat page on
        its way (``count``, from :meth:`TableService.awaited_pages`, at most
        :attr:`awaited_cap`; none while the memory budget is full): the people of a new
        table open their links at about the same moment. Called by the table service
        (:func:`playtest.tables.web.watch_awaited_pages`)."""
        pools = getattr(self.kernel_manager, "kernel_pools_config", None)
        if pools is None or (not count and TABLE_PAGE not in pools):
            return      # no pool, or none needed yet: the first page starts it as for any dashboard
        size = self.pool_size(TABLE_PAGE) + min(max(count, 0), self.awaited_cap)
        if self._full():            # past the memory budget a pool may shrink, never grow
            if TABLE_PAGE not in pools:
                return
            size = min(size, pools[TABLE_PAGE]["pool_size"])
        self.resize_pool(TABLE_PAGE, size)

    def _full(self) -> bool:
        return self.memory is not None and self.memory.full()

    def resize_pool(self, notebook: str, size: int, delay: float | None = 0) -> None:
        """Keep ``size`` preheated kernels for ``notebook``: start the missing ones in
        ``delay`` seconds (None: Voilà's ``fill_delay``, which lets a crowd's pages load
        first), or shut down ready ones beyond ``size`` (newest first; Voilà hands out
        the oldest). Kernels still starting are left to finish: a later call trims them."""
        manager = self.kernel_manager
        pools = manager.kernel_pools_config
        before = pools.get(notebook, {}).get("pool_size")
        if before != size:
            manager.kernel_pools_config = {**pools, notebook: {"pool_size": size}}
            self.log.info("playtest: keeping %d preheated kernel(s) for %s", size, notebook)
        if len(manager._pools.get(notebook, [])) < size:
            manager.fill_if_needed(delay=delay, notebook_name=notebook)
        pool = manager._pools.get(notebook, [])
        now = time.monotonic()
        ready = self._ready_since[notebook] = {entry: self._ready_since.get(notebook, {}).get(entry, now)
                                               for entry in pool if entry.done()}   # taken ones drop out
        # a kernel shut down while it still runs its notebook up to the page's wait logs a
        # "Kernel died" error: trim only kernels ready for a while
        while len(pool) > size and pool[-1] in ready and now - ready[pool[-1]] >= self.trim_after:
            entry = pool.pop()
            del ready[entry]
            if not entry.cancelled() and entry.exception() is None:
                IOLoop.current().add_callback(manager.shutdown_kernel, entry.result()["kernel_id"])

    def init_handlers(self) -> list:
        from playtest.tables import web

        handlers = [(pattern, PageHandler, *rest) if handler is TornadoVoilaHandler else (pattern, handler, *rest)
                    for pattern, handler, *rest in super().init_handlers()]
        # first: Voilà's last handlers match any path under the base URL
        return web.table_handlers(self.server_url) + page_alive_handlers(self.server_url, self.reaper) + handlers

    def listen(self) -> None:
        # Voila.listen binds the port, then runs the IOLoop until the server stops
        from playtest.tables import web

        try:
            tables = web.service()     # restore the stored tables now: a folder another server holds stops this one here
        except web.ServiceError as exc:
            self.log.critical("playtest serve: %s", exc)
            raise SystemExit(2) from None
        said = tables.status()["problem"]
        if said:       # the store is damaged, read-only, full...: everything else is served
            self.log.warning("playtest serve: %s", said)
        for stored in tables.damaged.values():
            self.log.warning("playtest serve: table %s is kept but cannot be played: %s (the lobby lists it and "
                             "offers its record)", stored.id, stored.damage)
        print(f"Serving the playtest dashboards from {self.root_dir}", flush=True)
        print(f"Open http://{self.ip}:{self.port}{self.base_url}voila/render/index.ipynb  (Ctrl+C stops)", flush=True)
        self.reaper.start()
        one_line_for_closed_sockets(IOLoop.current().asyncio_loop, self.log)
        IOLoop.current().add_callback(web.watch_awaited_pages, self.await_table_pages)
        IOLoop.current().add_callback(self._publish_final_port)
        # Tornado closes the connection without a word on a request whose head passes its
        # 64 KiB default: every address a browser sends must reach refuse_long_address
        self.app.listen = functools.partial(self.app.listen, max_header_size=MAX_HEADER_BYTES,
                                            max_body_size=MAX_BODY_BYTES)
        super().listen()

    def _publish_final_port(self) -> None:
        from playtest.tables import web

        web.publish(self.ip, self.port, self.base_url)   # the port is final once listening

    def stop(self) -> None:
        from playtest.tables import web

        self.reaper.stop()
        try:
            web.shutdown()
        finally:
            super().stop()


def one_line_for_closed_sockets(loop, log) -> None:
    """Log a websocket write that found its connection cut (a page closed while Voilà's
    kernel channels were sending to it: ``WebSocketClosedError`` in a task nobody
    awaits) as one line, not asyncio's traceback per message; any other unhandled error
    goes to the loop's handler as before.

    Args:
        loop: the server's asyncio loop. log: the server's logger.
    """
    before = loop.get_exception_handler()

    def handle(loop, context: dict) -> None:
        error = context.get("exception")
        if isinstance(error, (tornado.websocket.WebSocketClosedError, tornado.iostream.StreamClosedError)):
            log.info("a websocket write found its page gone (%s)", type(error).__name__)
        elif before is not None:
            before(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)


def main(argv: list[str] | None = None) -> int:
    """Run :class:`PlaytestVoila` with Voilà's command line ``argv`` (default
    ``sys.argv[1:]``) until it is stopped (Ctrl+C, SIGTERM); returns 0. Voilà exits with
    status 1 itself when it cannot listen."""
    PlaytestVoila.launch_instance(argv)
    return 0
