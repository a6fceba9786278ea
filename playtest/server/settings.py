"""The server settings that keep many pages at once fast and the server answering.

:data:`VOILA` is traitlets configuration for ``playtest serve`` (standalone Voilà, read
by :class:`playtest.server.app.PlaytestVoila` below any ``voila.json`` and the command
line). :data:`JUPYTER_SERVER` is the part that applies under Jupyter Server (Binder,
JupyterLab), where Voilà runs as a server extension; ``binder/jupyter_server_config.json``
is a copy of it that ``binder/postBuild`` installs in the Jupyter config folder
(``tests/test_serve.py`` checks that the two agree). It must be that file: Jupyter
Server reads only the list of extensions from ``jupyter_server_config.d/*.json``.

Why each setting:

* ``KernelManager.transport = "ipc"``: kernels talk to the server over Unix sockets in
  the server's private connection folder (``mkdtemp``, mode 0700), not TCP ports picked
  at random and bound later by the kernel: no port race (``ZMQError: Address already in
  use`` once left the server answering nothing for minutes).
* ``VoilaConfiguration.preheat_kernel`` with :data:`POOL_SIZES`: each dashboard in use
  keeps kernels started and its notebook run up to the line that reads the page address
  (``voila.utils.get_query_string()``, voila #1189), so a page skips the kernel start and
  the imports. A notebook not listed gets no pool and starts its kernel per page.
* ``VoilaExecutor.iopub_timeout``: under load, a page's outputs (the widgets) reach the
  server seconds after the kernel says the cell is done; with nbclient's default of 4 s
  they were dropped ("Timeout waiting for IOPub output") and the page never showed a
  button. ``startup_timeout``: a kernel started among 20 others needs more than 60 s.
* ``VoilaConfiguration.http_header_envs``: the page handler's browser name
  (:data:`BROWSER_HEADER`) reaches the page's kernel, which keeps its autosaves apart from
  other browsers' (only under ``playtest serve``, whose handler sets it).
* ``VoilaConfiguration.kernel_spec_manager_class``: page kernels start without debugpy
  and jedi (:mod:`playtest.server.kernel`), which no page uses: 10 MB less per page.
* Culling kernels idle and unconnected for 30 minutes stays as a backstop behind the
  reaper (:mod:`playtest.server.reaper`), which frees a page's kernel within a minute.
"""
from __future__ import annotations

import re

BROWSER_COOKIE = "playtest_browser"
"""The cookie ``playtest serve`` gives each browser: a random name (no meaning, no
account) that scopes a dashboard's autosaves to the browser that played them."""

BROWSER_HEADER = "X-Playtest-Browser"
"""The request header through which the page handler hands that name to the page's
kernel: Voilà copies a header listed in ``VoilaConfiguration.http_header_envs`` into the
kernel's environment as :data:`BROWSER_ENV` (for a preheated kernel too). The handler
always overwrites what a client sent."""

BROWSER_ENV = "HTTP_X_PLAYTEST_BROWSER"
"""The kernel's environment variable holding its page's browser name ("" or unset: unknown,
e.g. under Jupyter Server or in a notebook)."""

CLIENT_HEADER, CLIENT_ENV = "X-Playtest-Client", "HTTP_X_PLAYTEST_CLIENT"
"""The page handler hands the browser's address (the request's remote address) to the
page's kernel through this header and variable, as it does the browser's name: a
dashboard kernel names it to the table service (:data:`playtest.tables.web.CLIENT_HEADER`),
whose rate limit on table creation counts per client (:mod:`playtest.tables.guard`)."""

BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What a browser name looks like (``secrets.token_urlsafe(18)`` makes 24 characters);
anything else is replaced by a new one, so it is always safe as a folder name."""

SERVER_TOKEN_ENV, SERVER_LOGIN_ENV = "PLAYTEST_SERVER_TOKEN", "PLAYTEST_SERVER_LOGIN"
"""Under Jupyter Server with a login token (Binder), playtest's server extensions put that
token and the path of the server's login page (e.g. ``/user/ab/login``) here, for the
dashboards' kernels and for a ``playtest serve`` the server starts behind its proxy: the
lobby's links for other devices then pass through the server's login
(:func:`playtest.widgets.page.address_for_others`), since a browser without the server's
cookie is refused every page (:func:`playtest.server.publish_login`)."""

POOL_SIZES = {
    "index.ipynb": 1,
    "game.ipynb": 4,
    "lobby.ipynb": 1,
    "table.ipynb": 2,
}
"""Preheated kernels kept ready per dashboard (notebook path relative to the served
folder). Each waits with its imports done, about 60 MB of memory (PSS). A dashboard's pool
is filled once its first page has been sent (``PlaytestVoila.pool_sizes``), so a server
holds no kernel for dashboards nobody opens and starts without a burst of kernel starts.
A page that finds no preheated kernel ready starts its own at once; the pool refills
10 s after a page took a kernel (``fill_delay``), when a crowd's pages have loaded."""

SHARED = {
    "KernelManager": {"transport": "ipc"},
    "VoilaExecutor": {"iopub_timeout": 60, "startup_timeout": 180},
    # jupyter-server-proxy (Binder) ships a JupyterLab extension that needs JupyterLab's
    # file browser: in a Voilà page it only logs an error on every page
    "VoilaConfiguration": {"strip_sources": True, "show_tracebacks": False,
                           "extension_denylist": ["@jupyterhub/jupyter-server-proxy"]},
}

VOILA = {
    **SHARED,
    "VoilaConfiguration": {**SHARED["VoilaConfiguration"], "preheat_kernel": True,
                           "http_header_envs": [BROWSER_HEADER, CLIENT_HEADER],
                           "kernel_spec_manager_class": "playtest.server.kernel.PageKernelSpecManager"},
    # no pool at start: PlaytestVoila fills a dashboard's pool after its first page
    "VoilaKernelManager": {"kernel_pools_config": {"default": {"pool_size": 0}}, "fill_delay": 10},
    "PlaytestVoila": {"pool_sizes": POOL_SIZES},
    "MappingKernelManager": {"cull_idle_timeout": 1800, "cull_interval": 300},
    # behind Binder's proxy the browser's Host is the Jupyter server's: with the default name
    # (username-<host>) this server read that server's login cookie, found it invalid
    # (another secret) and cleared it, logging the browser out of the whole session
    "IdentityProvider": {"cookie_name": "playtest-serve-user"},
}
"""Configuration of ``playtest serve`` (lowest priority: a ``voila.json`` in the working
directory or a Jupyter config folder, then the command line, override it)."""

PROXY_NAME = "playtest"
"""Where Binder's Jupyter Server serves ``playtest serve`` (``<base_url>playtest/``)."""

JUPYTER_SERVER = {
    **SHARED,
    # Voilà's server extension (voila/render/...) has no kernel pool; the template adds the
    # message shown when a page's kernel dies (installed by binder/postBuild as a Voilà template)
    "VoilaConfiguration": {**SHARED["VoilaConfiguration"], "template": "playtest"},
    # the live tables are playtest serve's, behind the proxy: one server holds a data folder
    "ServerApp": {"jpserver_extensions": {"playtest.server": True, "playtest.server.tables_extension": False}},
    # playtest serve behind jupyter-server-proxy, started on the first request to
    # <base_url>playtest/: its ready kernels, browser names and table service, on Binder too;
    # absolute_url: it sees the public path, so its pages' addresses are the ones to share
    "ServerProxy": {"servers": {PROXY_NAME: {
        "command": ["playtest", "serve", "--port={port}", "--base-url={base_url}" + PROXY_NAME + "/"],
        "absolute_url": True, "timeout": 120,
        "launcher_entry": {"title": "Playtest dashboards", "path_info": PROXY_NAME + "/voila/render/index.ipynb"},
    }}},
}
"""Configuration for Jupyter Server (Binder): Voilà's server extension, the kernel reaper,
and ``playtest serve`` behind jupyter-server-proxy."""
