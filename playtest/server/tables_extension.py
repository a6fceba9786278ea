"""The table service as a Jupyter Server extension (Binder, JupyterLab, ``jupyter server``).

Installed with the package and enabled by ``jupyter-config/jupyter_server_config.d/
playtest.json`` (copied to ``etc/jupyter/jupyter_server_config.d/``), it mounts the same
handlers as ``playtest serve`` (:func:`playtest.tables.web.table_handlers`) on the
server's own port under its base URL. There the lobby needs the server's login: the
Jupyter token (``Authorization: token <t>`` or ``?token=``) or the server key that
dashboard kernels inherit; a table's own addresses need one of its tokens, as anywhere.
It lives beside the other server code, so that :mod:`playtest.tables` needs nothing of
:mod:`playtest.server` (the server mounts the tables, never the other way round).
The server's login token is handed to dashboard kernels too (:func:`publish_login`),
so that the lobby's links open on a device that has not logged in to the server.
When the server's root holds the checkout's ``playtest/dashboards/`` folder (Binder), its
``playtest/dashboards/scenarios/`` is the scenarios folder for the server and its kernels alike
(unless ``$PLAYTEST_SCENARIOS_DIR`` says otherwise).
"""
from __future__ import annotations

import hmac
from pathlib import Path

from tornado.ioloop import IOLoop

from playtest.tables import web

from . import publish_login


def _jupyter_server_extension_points():
    return [{"module": "playtest.server.tables_extension"}]


def _token_of(handler) -> str:
    auth = handler.request.headers.get("Authorization", "")
    if auth.lower().startswith("token "):
        return auth[6:].strip()
    return handler.get_argument("token", "")


def _load_jupyter_server_extension(server_app) -> None:
    """Mount the table service's handlers and publish its address to kernels."""
    base_url = server_app.web_app.settings.get("base_url", "/")
    identity = getattr(server_app, "identity_provider", None)

    def login(handler) -> bool:
        token = getattr(identity, "token", "") or ""
        if not token:     # a server run without a token lets anyone in: so does its lobby
            return True
        return hmac.compare_digest(_token_of(handler).encode(), token.encode())

    server_app.web_app.add_handlers(".*$", web.table_handlers(base_url, login))
    web.publish(server_app.ip, server_app.port, base_url)
    publish_login(server_app)     # a player's device has no login cookie: the lobby's links log it in
    # the checkout's dashboards folder (Binder): kernels run there, this server at the root
    dashboards = Path(server_app.root_dir) / "playtest" / "dashboards"
    if (dashboards / "lobby.ipynb").is_file():
        web.publish_scenarios_dir(dashboards)
    # the port is final once the server listens (it may have moved on to a free one)
    IOLoop.current().add_callback(lambda: web.publish(server_app.ip, server_app.port, base_url))
    server_app.log.info("playtest: live tables under %s%s", base_url, web.PREFIX)


load_jupyter_server_extension = _load_jupyter_server_extension
