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

import os
import tempfile
from pathlib import Path

from tornado.ioloop import IOLoop
from traitlets import default
from traitlets.config import Config
from voila.app import Voila

from . import settings
from .reaper import KernelReaper

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates" / "playtest"
"""The page template: Voilà's ``lab`` template plus the kernel-status message."""


def loopback_for(ip: str) -> str:
    """The address a kernel on this machine uses to reach a server bound to ``ip``:
    127.0.0.1 for every-interface binds ("", "0.0.0.0", "::") and "localhost", else
    ``ip`` itself (an IPv6 address in brackets, as URLs need)."""
    if ip in ("", "0.0.0.0", "::", "localhost"):
        return "127.0.0.1"
    return f"[{ip}]" if ":" in ip and not ip.startswith("[") else ip


class PlaytestVoila(Voila):
    """Voilà serving the playtest dashboards (see the module docstring).

    Use it as Voilà: ``PlaytestVoila.launch_instance(["dashboards", "--port=8866"])``, or
    ``python -m playtest.server dashboards --port=8866``. Every Voilà option works; the
    settings of :data:`playtest.server.settings.VOILA` are defaults under them.
    """

    description = "Serve the playtest dashboards (Voilà, with live tables and kernel clean-up)."

    @default("connection_dir_root")
    def _default_connection_dir(self) -> str:
        # ipc sockets live in the connection folder: <root>/voila_XXXXXXXX/kernel-<id>-ipc-N
        # must stay under the 107 bytes a Unix socket path may have
        root = tempfile.gettempdir()
        return root if len(root) <= 40 else "/tmp"

    def initialize(self, argv=None) -> None:
        """Parse ``argv`` (Voilà's command line) over the playtest defaults."""
        # lowest priority: Voila.initialize merges voila.json files, then the command line, on top
        self.update_config(Config(settings.VOILA))
        super().initialize(argv)

    def setup_template_dirs(self) -> None:
        super().setup_template_dirs()
        # the playtest page template shadows lab's index.html.j2 and extends it
        self.template_paths.insert(0, str(TEMPLATE_DIR))

    def init_settings(self) -> dict:
        # Voilà's kernel manager starts its pool's kernels as soon as it is built (in
        # super().init_settings()), each with a copy of this process's environment: publish
        # first. Preheated kernels fetch their page's address from VOILA_APP_IP.
        from playtest.tables import web

        web.publish(self.ip, self.port, self.base_url)
        os.environ["VOILA_APP_IP"] = loopback_for(self.ip)
        tornado_settings = super().init_settings()
        self.reaper = KernelReaper(kernel_manager=self.kernel_manager, parent=self)
        return tornado_settings

    def init_handlers(self) -> list:
        from playtest.tables import web

        # first: Voilà's last handlers match any path under the base URL
        return web.table_handlers(self.server_url) + super().init_handlers()

    def listen(self) -> None:
        # Voila.listen binds the port, then runs the IOLoop until the server stops
        self.reaper.start()
        IOLoop.current().add_callback(self._publish_final_port)
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


def main(argv: list[str] | None = None) -> int:
    """Run :class:`PlaytestVoila` with Voilà's command line ``argv`` (default
    ``sys.argv[1:]``) until it is stopped (Ctrl+C, SIGTERM); returns 0. Voilà exits with
    status 1 itself when it cannot listen."""
    PlaytestVoila.launch_instance(argv)
    return 0
