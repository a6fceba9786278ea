"""The server that serves the dashboards.

* ``playtest serve`` (and ``python -m playtest.server FOLDER --port=N ...``, Voilà's own
  command line) runs :class:`~playtest.server.app.PlaytestVoila`: Voilà with the
  live-table service mounted on the same port, preheated kernel pools, kernels on ipc
  sockets, the kernel reaper and a page template that says when a page's kernel died.
* Under Jupyter Server (Binder, JupyterLab), this package is also a server extension
  (``"ServerApp": {"jpserver_extensions": {"playtest.server": true}}``, as
  ``binder/jupyter_server_config.json`` enables it): it runs the
  kernel reaper over the kernels Voilà started, never over a notebook's kernel, and
  hands the server's login to kernels (:func:`publish_login`).
* On Binder, Jupyter Server runs ``playtest serve`` behind jupyter-server-proxy at
  ``<base_url>playtest/`` (``ServerProxy`` in :data:`~playtest.server.settings.JUPYTER_SERVER`).

Modules: :mod:`~playtest.server.settings` (the settings, and why),
:mod:`~playtest.server.reaper`, :mod:`~playtest.server.app`,
:mod:`~playtest.server.extension`, :mod:`~playtest.server.tables_extension` (the live tables under
Jupyter Server); the page template is in ``templates/playtest``.
"""
from __future__ import annotations

import os
import sys


def skip_iri_format_checker() -> None:
    """Keep jsonschema from loading its checker of the "iri" formats in this process.

    Importing Voilà imports Jupyter Server, jupyter_events and jsonschema, whose format
    module builds about 35 Earley parsers when ``rfc3987_syntax`` is installed: 3 of the
    4.6 s that ``import voila`` takes here (jsonschema #1428), paid by the server at start
    (page kernels import no Voilà: :mod:`playtest.widgets.page`). No schema of
    Jupyter's uses those formats; without the module jsonschema skips that checker.
    Call it before the first import of jsonschema; later it changes nothing.
    """
    if "jsonschema" not in sys.modules:
        sys.modules.setdefault("rfc3987_syntax", None)     # None: "import rfc3987_syntax" raises ImportError


def publish_login(server_app) -> None:
    """Put a Jupyter Server's login token and login page path in this process's
    environment (:data:`~playtest.server.settings.SERVER_TOKEN_ENV`, ``SERVER_LOGIN_ENV``),
    which kernels and a proxied ``playtest serve`` started afterwards inherit; nothing
    when the server has no token. Called by both of playtest's server extensions."""
    from jupyter_server.utils import url_path_join

    from .settings import SERVER_LOGIN_ENV, SERVER_TOKEN_ENV
    token = getattr(getattr(server_app, "identity_provider", None), "token", "") or ""
    if token:
        os.environ[SERVER_TOKEN_ENV] = token
        os.environ[SERVER_LOGIN_ENV] = url_path_join(server_app.web_app.settings.get("base_url", "/"), "login")


def _jupyter_server_extension_points():
    return [{"module": "playtest.server.extension"}]


def main(argv: list[str] | None = None) -> int:
    """Run the standalone server (see :func:`playtest.server.app.main`)."""
    skip_iri_format_checker()
    from .app import main as run

    return run(argv)
