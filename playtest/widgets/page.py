"""What Voilà tells a page's kernel about the page's address.

Voilà sets the page's query string and server address as environment variables of its
kernel (``QUERY_STRING``, ``SERVER_NAME``, ...). A kernel preheated in a pool (voila
#1189) gets them only when a page takes it, as one JSON message on Voilà's websocket
``<server>voila/query/<kernel id>``. ``voila.utils.wait_for_request()`` reads it, but that
module imports the whole Jupyter Server, nbconvert and jsonschema: 37 MB (PSS) of every
preheated page kernel, and CPU at its start. :func:`_wait_for_request` reads the same message with
Tornado's websocket client, which the kernel has loaded already.
"""
from __future__ import annotations

import asyncio
import html
import json
import os
import threading
import warnings
from urllib.parse import quote, urlsplit

import tornado.httpclient
import tornado.websocket

from ..server.settings import BROWSER_ENV, BROWSER_ID, PROXY_NAME, SERVER_LOGIN_ENV, SERVER_TOKEN_ENV


_request_arrived = False

REQUEST_WAIT = 5.0
"""Seconds a preheated kernel waits for Voilà's query websocket to accept it (Voilà's own
``open_timeout``); the message itself comes when a page takes the kernel, however late."""


def query_socket_url() -> str:
    """The address of Voilà's query websocket for this kernel, built from the variables
    Voilà gives every kernel it starts, as ``voila.utils.wait_for_request`` builds it:
    ``<VOILA_WS_PROTOCOL>://<VOILA_APP_IP>:<VOILA_APP_PORT><VOILA_WS_BASE_URL>voila/query/<VOILA_KERNEL_ID>``
    (defaults ws, 127.0.0.1, 8866, ``VOILA_SERVER_URL`` or "/")."""
    env = os.environ.get
    base = env("VOILA_WS_BASE_URL", env("VOILA_SERVER_URL", "/"))
    return (f"{env('VOILA_WS_PROTOCOL', 'ws')}://{env('VOILA_APP_IP', '127.0.0.1')}:{env('VOILA_APP_PORT', '8866')}"
            f"{base}voila/query/{env('VOILA_KERNEL_ID', '')}")


def receive_request(url: str) -> dict[str, str]:
    """Wait for the one message of Voilà's query websocket at ``url``: the page's request
    variables (name -> value, e.g. ``{"QUERY_STRING": "seed=4", "SERVER_NAME": ...}``).
    Runs its own event loop in a thread, since the calling cell runs inside the kernel's.

    Raises:
        OSError: the websocket could not be opened within :data:`REQUEST_WAIT` seconds,
            or closed before its message (the server stopped).
        ValueError: the message is not a JSON object of strings.
    """
    async def receive() -> str:
        try:
            socket = await asyncio.wait_for(tornado.websocket.websocket_connect(url), REQUEST_WAIT)
        except (OSError, tornado.httpclient.HTTPClientError, tornado.websocket.WebSocketError) as exc:
            raise OSError(f"Voil\u00e0's query websocket {url} could not be opened: {exc}") from exc
        try:
            message = await socket.read_message()
        finally:
            socket.close()
        if message is None:
            raise OSError(f"Voil\u00e0's query websocket {url} closed before the page's request came")
        return message

    answer: list = []

    def run() -> None:
        try:
            answer.append(asyncio.run(receive()))
        except BaseException as exc:  # noqa: BLE001 - raised again in the calling thread
            answer.append(exc)
    thread = threading.Thread(target=run, name="voila-query", daemon=True)
    thread.start()
    thread.join()
    if isinstance(answer[0], BaseException):
        raise answer[0]
    variables = json.loads(answer[0])
    if not (isinstance(variables, dict) and all(isinstance(v, str) for v in variables.values())):
        raise ValueError(f"Voil\u00e0's query websocket sent {answer[0][:200]!r}, not the request's variables")
    return variables


def _wait_for_request() -> None:
    """In a preheated kernel, wait (once) until a page takes it and put the request's
    variables in the environment (:func:`receive_request`), as Voilà's
    ``wait_for_request`` does: if the websocket fails, a warning, and the page has no
    address, as under Voilà's. Only once: Voilà sends them to the kernel's waiting
    websocket and keeps no copy, so a second wait would never end."""
    global _request_arrived
    if _request_arrived or os.environ.get("VOILA_PREHEAT", "False") == "False":
        return
    _request_arrived = True
    try:
        os.environ.update(receive_request(query_socket_url()))
    except (OSError, ValueError) as exc:      # as Voilà: the page opens without its address
        warnings.warn(str(exc), RuntimeWarning, stacklevel=2)


def query_string() -> str:
    """The page address's query string (e.g. ``seed=42`` or ``table=...&token=...``):
    ``$QUERY_STRING`` as Voilà sets it for the page's kernel; with a preheated kernel
    pool it arrives only when a page takes the kernel (voila #1189). "" outside a Voilà
    page."""
    _wait_for_request()
    return os.environ.get("QUERY_STRING", "")


def page_address() -> str:
    """The page's address as the browser reached it, without its query (e.g.
    ``http://192.168.1.5:8866/voila/render/lobby.ipynb``), built from Voilà's request
    variables (``SERVER_NAME``, ``SERVER_PORT``, ``SCRIPT_NAME``: a preheated kernel
    gets them when a page takes it, never ``VOILA_REQUEST_URL``); "" outside a Voilà page.

    The scheme is a guess (Voilà does not pass it): https for port 443, or for a named
    host without a port (a proxy, as on Binder), else http. Anchors on a page are
    relative and always right; this address is for copying to another device.
    """
    _wait_for_request()
    host, port, script = (os.environ.get(k, "") for k in ("SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME"))
    if not host or not script:
        return ""
    numeric = host.replace(".", "").isdigit() or ":" in host or host == "localhost"
    scheme = "https" if port == "443" or (not port and not numeric) else "http"
    shown_host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    default = {"http": "80", "https": "443"}[scheme]
    netloc = shown_host if not port or port == default else f"{shown_host}:{port}"
    return f"{scheme}://{netloc}{script}"


def page_folder() -> str:
    """The address of the page's folder (e.g. ``http://192.168.1.5:8866/voila/render/``):
    :func:`page_address` up to its last ``/``; "" outside a Voilà page."""
    address = page_address()
    return address.rpartition("/")[0] + "/" if address else ""


def address_for_others(folder: str, path: str) -> str:
    """The address another device opens for a page of this page's folder.

    Args:
        folder: the full address of the folder (:func:`page_folder`), e.g.
            ``https://hub.example.org/user/ab/voila/render/dashboards/``; "" outside a page.
        path: the page and its query, relative to the folder, e.g. ``table.ipynb?table=..&token=..``.

    Returns:
        ``folder + path``; under Jupyter Server with a login token (Binder, directly or
        behind its proxy: :func:`playtest.server.publish_login` sets
        ``$PLAYTEST_SERVER_TOKEN`` and ``$PLAYTEST_SERVER_LOGIN``), the server's login
        address that logs the device in and then opens the page,
        ``<origin><login path>?next=<the page, quoted>&token=<login token>``: a browser
        without the server's cookie is refused every page, and the page's own ``token``
        (a seat's) cannot share its query with the server's. "" when ``folder`` is "".
    """
    if not folder:
        return ""
    token, login = os.environ.get(SERVER_TOKEN_ENV, ""), os.environ.get(SERVER_LOGIN_ENV, "")
    if not (token and login.startswith("/")):
        return folder + path
    parts = urlsplit(folder)
    return (f"{parts.scheme}://{parts.netloc}{login}?next={quote(parts.path + path, safe='/')}"
            f"&token={quote(token, safe='')}")


def proxied_lobby_note() -> str:
    """For a page opened with Voilà inside Jupyter Server, where there are no live tables:
    a sentence (HTML) linking the lobby of the ``playtest serve`` that this server's proxy
    runs (``<base_url>playtest/voila/render/lobby.ipynb``, as Binder does:
    :data:`~playtest.server.settings.JUPYTER_SERVER`); "" elsewhere (no
    ``$PLAYTEST_SERVER_LOGIN``: not a Jupyter Server with playtest's extension and a token)."""
    login = os.environ.get(SERVER_LOGIN_ENV, "")
    if not login.startswith("/") or not login.endswith("/login"):
        return ""
    lobby = html.escape(f"{login[:-len('login')]}{PROXY_NAME}/voila/render/lobby.ipynb")
    return f"On Binder the playtest server runs beside this one: its lobby is at <a href='{lobby}'>{lobby}</a>."


def browser_id() -> str:
    """The name ``playtest serve`` gave the page's browser (a random cookie value, see
    :data:`playtest.server.settings.BROWSER_COOKIE`), which keeps this browser's autosaves
    apart from other people's; "" where there is none (Jupyter Server, a notebook, a
    script) or it does not look like one. A preheated kernel waits for its page first."""
    _wait_for_request()
    name = os.environ.get(BROWSER_ENV, "")
    return name if BROWSER_ID.fullmatch(name) else ""
