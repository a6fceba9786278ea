"""The kernel reaper as a Jupyter Server extension (Binder, JupyterLab).

Voilà runs there as a server extension beside notebooks: the reaper
(:class:`~playtest.server.reaper.KernelReaper` with ``voila_only``) watches only the
kernels Voilà started for its pages and shuts down those whose page is gone; a
notebook's or console's kernel is never touched.
"""
from __future__ import annotations

from . import publish_login
from .reaper import KernelReaper, page_alive_handlers


def _load_jupyter_server_extension(server_app) -> None:
    """Start the reaper on the server's kernel manager (``server_app.kernel_manager``),
    mount the address where loading pages say they are alive, and hand the server's
    login to kernels and proxied servers (:func:`playtest.server.publish_login`)."""
    reaper = KernelReaper(kernel_manager=server_app.kernel_manager, voila_only=True, parent=server_app)
    base_url = server_app.web_app.settings.get("base_url", "/")
    server_app.web_app.add_handlers(".*$", page_alive_handlers(base_url, reaper))
    reaper.start()
    server_app.web_app.settings["playtest_kernel_reaper"] = reaper
    publish_login(server_app)       # the lobby's links for other devices log them in


load_jupyter_server_extension = _load_jupyter_server_extension
