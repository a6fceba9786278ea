"""The kernel of a ``playtest serve`` page: ipykernel without what no page uses.

A page's kernel runs one dashboard for one browser; nobody debugs it or asks it for
completions. ipykernel imports debugpy for its debugger (7 MB of every kernel) and
IPython imports jedi for completions (2.6 MB); both treat the module as missing when its
import fails, so :func:`main` marks them missing and starts ipykernel as
``python -m ipykernel_launcher`` would. :class:`PageKernelSpecManager` makes Voilà start
page kernels this way (``VoilaConfiguration.kernel_spec_manager_class`` in
:data:`playtest.server.settings.VOILA`). What a page kernel costs is measured by
``benchmarks/bench_pages.py``.
"""
from __future__ import annotations

import os
import sys

import zmq
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager

UNUSED = ("debugpy", "jedi")
"""Modules a page's kernel never imports (``sys.modules[name] = None``: ``import name``
raises ImportError, which ipykernel and IPython take as "not installed")."""

LAUNCHER = "ipykernel_launcher"


class PageKernelSpecManager(KernelSpecManager):
    """Jupyter's kernel specs, with every ipykernel spec (``[python, "-m",
    "ipykernel_launcher", ...]``) started through :func:`main` of this module instead
    (``[python, "-m", "playtest.server.kernel", ...]``) and interrupted by a message
    (``interrupt_mode = "message"``); other kernels are left as they are.

    jupyter_client interrupts every kernel it shuts down before asking it to stop: with
    a signal (SIGINT), a kernel still starting when the server stopped printed a
    ``KeyboardInterrupt`` traceback from the middle of an import (zmq's, say) to the
    server's terminal. ipykernel answers an ``interrupt_request`` on its control channel
    as it answers the signal; a kernel still starting never reads it."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        spec = super().get_kernel_spec(kernel_name)
        argv = list(spec.argv)
        if argv[1:3] == ["-m", LAUNCHER]:
            spec.argv = [argv[0], "-m", __name__, *argv[3:]]
            spec.interrupt_mode = "message"
        return spec


def connection_file(argv: list[str]) -> str | None:
    """The connection file a kernel's command line names (``-f PATH`` or ``--f=PATH``),
    None when it names none."""
    for i, arg in enumerate(argv):
        if arg == "-f" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(("-f=", "--f=")):
            return arg.split("=", 1)[1]
    return None


def main() -> None:
    """Start ipykernel with :data:`UNUSED` missing (command line as ``ipykernel_launcher``'s:
    ``-f <connection file>`` and ipykernel's options), its kernel a :func:`page_kernel`.

    A kernel whose connection file is gone by the time ipykernel is imported exits at
    once, quietly: the server shut it down while it was starting (a server being
    stopped removes the files of the kernels it stops). ipykernel would write a new file
    with TCP ports nobody knows and warn about them on the server's terminal."""
    for name in UNUSED:
        sys.modules.setdefault(name, None)
    from ipykernel import kernelapp

    path = connection_file(sys.argv[1:])
    if path is not None and not os.path.exists(path):
        return
    kernelapp.launch_new_instance(kernel_class=page_kernel())


def page_kernel() -> type:
    """ipykernel's IPythonKernel, quiet about the one reply it cannot send: a preheated
    page's kernel waits in its notebook's first cell for its page (voila #1189), and when
    the server stops it, that cell ends after the kernel's sockets are closed. ipykernel
    then logs a ``ZMQError: Socket operation on non-socket`` traceback per kernel on the
    server's terminal; nobody is left to read the reply, so it goes to the debug log.
    (Imported here, in the kernel, once :data:`UNUSED` are marked missing.)"""
    from ipykernel.ipkernel import IPythonKernel

    class PageKernel(IPythonKernel):
        async def execute_request(self, stream, ident, parent):
            try:
                await super().execute_request(stream, ident, parent)
            except zmq.ZMQError as exc:
                if exc.errno != zmq.ENOTSOCK:
                    raise
                self.log.debug("no reply to %s: the kernel's sockets are closed", parent["header"]["msg_id"])

    return PageKernel


if __name__ == "__main__":
    main()
