"""Live tables: one game played by several people, each on their own device, in real time.

A table lives in the server process that serves the dashboards (``playtest serve``, or
Jupyter Server with the ``playtest.server.tables_extension`` server extension), never in a page's kernel.
The :class:`~playtest.tables.service.TableService` holds each table's Match and bots,
applies every move (so arrival order at the service is the order of play: "first tap
registered by the server wins", Lazy Sunday edge case 6), stores every move in SQLite
before acknowledging it (:mod:`playtest.tables.store`), and sends each connected seat
only ``Match.view(seat)``, ``Match.log_for(seat)`` and that seat's moves. Pages are
clients: a seat page's kernel (:mod:`playtest.widgets.live`) connects with the seat's
token from the page address and renders what it is sent; it never holds the raw state.

Addresses (all under ``<base_url>playtest/api``; JSON in and out; errors are
``{"error": "one sentence"}`` with a 4xx status, or 503 when the store cannot save or
live tables are off):

==========================================  =====================================================
``GET  games``                              the games: seats range, bots, presets, option defaults
``GET  tables?status=playing``              the tables: id, game, seats, players, free seats,
                                            moves, status (``playing`` / ``over`` / ``ended``);
                                            by default (no ``status``) only those still being
                                            played; ``?status=over`` (game over), ``ended``
                                            (ended by the host), ``over,ended`` or ``all``; and ``store``: the store's
                                            state (``available``, ``problem``: one sentence or
                                            null, ``damaged``: tables that cannot be replayed,
                                            with their ``reason``)
``POST tables``                             create (body below); 201 with the tokens
``POST tables/<id>/join``                   ``{"seat": n}`` (or ``{}``: the first free human seat)
                                            of a listed table: ``{"seat", "token", "path"}``;
                                            409 when taken
``GET  tables/<id>/state``                  the token's view (header ``Authorization: Bearer T``)
``POST tables/<id>/moves``                  ``{"move": "1 claim 0 2 3", "id": "c1", "version": 7}``
                                            with a seat token: the move's result (below)
``POST tables/<id>/host``                   host controls with the host token (below)
``GET  tables/<id>/record``                 the record JSON, host token, once the game is over
                                            or the table ended (LS-11: no record while it runs);
                                            a damaged table's stored record: server key or login
``POST tables/<id>/feedback``               a seat's feedback, seat token (below)
``GET  export?format=json|csv``             every finished or ended table's record and feedback
                                            (server key or Jupyter login)
``WS   tables/<id>/ws``                     a live connection (messages below)
==========================================  =====================================================

Who may call what: ``games``, ``tables`` (list), ``join`` and ``create`` are open under
``playtest serve`` (whoever reaches the server may start a table, as in boardgame.io's
lobby) and need the Jupyter login under Jupyter Server, or the *server key*: the value
of ``$PLAYTEST_TABLES_KEY`` that the server puts in its environment before any kernel
starts, sent as header ``X-Playtest-Key`` (dashboard kernels inherit it; a browser never
sees it). Everything about one table needs one of its tokens: a *seat token* (that
seat's view and moves), the *spectator token* (the public view) or the *host token*
(the public view and host controls). Tokens are 128-bit random, shown once at creation
(or join) and stored only as SHA-256 hashes. The table service's address for kernels is
``$PLAYTEST_TABLES_URL`` (``http://127.0.0.1:<port><base_url>playtest/api``), set by the
server before any kernel starts (never built from a request's Host header).

Every ``POST`` must send ``Content-Type: application/json``, a ``Host`` of this server and,
from a browser, an ``Origin`` of its own pages or an allowed one (415 or 403 otherwise:
:mod:`playtest.tables.guard`, ``playtest serve --allow-origin``). Creating tables is
rate-limited per client (429 with ``Retry-After``); a table no page or script has opened
within 30 minutes is ended (:meth:`~playtest.tables.service.TableService.end_unopened`).

Create body: ``{"game": "lazy_sunday", "seats": 4, "players": ["human", "human",
"heuristic", "random"], "options": {}, "preset": null, "seed": null, "pace": "human",
"listed": true}``; ``players`` defaults to seat 0 human and the game's first bot
elsewhere (a search bot's budget at most ``ismcts:20000`` iterations or ``ismcts:5000ms``
a decision, :data:`playtest.tables.thinking.BUDGET_LIMITS`; the host's ``bot`` action
alike); ``pace`` is one of :data:`playtest.tables.live.PACES`; optional
``"scenario"`` (start where a shipped scenario stops: its game, seats, options and
deal; ``game`` and ``seats`` may be left out, and when sent must be the scenario's;
``options``, ``preset`` and ``seed`` are refused),
``"reaction_limit"`` (seconds, CR-7), ``"turn_limit"`` (the turn timer: seconds a person
has per decision, 5 to 3600, :data:`playtest.tables.live.TURN_LIMITS`; null or left out:
no timer) and ``"open_seats"``: see
:meth:`playtest.tables.service.TableService.create`. Answer: ``{"id",
"host_token", "spectator_token", "seats": [{"seat": 0, "player": "human", "token": T,
"path": "table.ipynb?table=<id>&token=T"}, ...], "spectator_path", "host_path"}``. Paths
are relative to the dashboards folder's address (``.../voila/render/``). ``"seed"``: a
whole number of at most 40 digits, or null for a 128-bit seed drawn from the OS's secure
source; a table from a chosen seed (or a scenario) is answered with a ``"seed_note"``:
a short seed lets anyone rebuild the deal (G-3). The seed is never sent to a page.

Host body: ``{"action": "pause" | "resume" | "pace" | "bot" | "timer" | "continue" | "end",
"pace": "instant" | "fast" | "human" | "slow", "seat": n, "bot": "heuristic", "force":
false, "seconds": 30}``: pause or resume the bots (and the turn timer), set their pace,
set the turn timer (``"seconds"`` per decision, or null: off), hand seat ``n`` to a bot (a
disconnected player, or a bot's seat to another bot; ``"bot": "human"`` hands a person's
seat back: a seat made for a bot has no link and stays a bot's), start the next round for
everyone (``continue``), end the table. A seat whose page is connected is not handed to a
bot unless the body says ``"force": true`` (409 otherwise: a person is playing it); its page
stays connected, sees its seat played by the bot in ``players`` and says "The host
handed your seat to a bot".

Feedback body: ``{"rating": 1..5, "confused": "text", "notes": "text"}`` (texts up to
2,000 characters), once the game is over.

Websocket messages, one JSON object per frame. The client's first message is
``{"type": "join", "token": T, "kernel": id}`` (``kernel``, optional: the id of the
Jupyter kernel the page runs in; while the server sees no browser page connected to
that kernel, the seat counts as disconnected and the page is sent nothing until its
browser is back); then:

* server -> client ``{"type": "welcome", "table": id, "game": name, "title": title, "seats": n,
  "seat": s | null, "role": "seat" | "spectator" | "host"}``, then a ``state``.
* server -> client ``{"type": "state", "version": v, "view": {...}, "log": [[n, text],
  ...], "to_act": [...], "moves": [text, ...], "open_moves": [text, ...], "outcome":
  null | {"finished", "winners", "scores", "reason"}, "last_move": null | {"number", "seat", "kind",
  "text", "by_bot", "public"}, "players": [{"seat", "player", "connected", "person"}, ...], "hold": null |
  {"reason": text, "waiting": [seats]}, "paused": bool, "pace": name, "reaction_seconds": null |
  seconds, "turn_limit": null | seconds, "turn_deadlines": [{"seat", "deadline"}], "status": text,
  "store": null | text}``: the full state, once after the welcome (and
  again when the client asks, below); the HTTP ``state`` answers it too (``version`` = moves
  in the record; ``store``: the server cannot save moves now, the sentence saying the table
  waits; ``moves``
  = the seat's decision moves, ``open_moves`` its open moves; both empty for spectators and
  while a hold is on; a player's ``person``: its seat was made for a person, with a link;
  ``reaction_seconds`` = on a table with a ``reaction_limit``, the
  seconds left when the message was sent before the open reaction window of the seat in
  ``to_act`` closes with its default answer, CR-7; null when no such window is open or
  the table is paused: a pause stops that clock, which goes on from where it stopped;
  ``turn_deadlines``: on a table with a turn timer, each person deciding now and when
  their time runs out, in seconds since the epoch by the server's clock: then the table
  plays for them with the seat's fallback bot, the log says, after the move's own line,
  "Time ran out for seat 2 (Ana): the table made that move for them", ``last_move`` has ``"timed_out": true`` and the
  record lists the move in ``timed_out``; empty while the table is paused or no page is
  connected, when the clock holds; ``last_move``'s ``text`` (the move as text) goes to its
  own seat's pages only, and ``public`` holds its log lines as the spectator reads them).
* server -> client ``{"type": "update", "log_from": i, "log": [[n, text], ...], "view": {...},
  "view_gone": [name, ...], ...}`` after every change: the fields of a ``state``, except
  that ``log`` holds only the lines from index ``i`` of the log on (the lines the page has
  not had; ``i`` is the length of the log the page must have), ``view`` only the view's
  top-level fields whose value changed, and ``view_gone`` the fields the view no longer
  has. A client appends the lines, sets the view's fields and replaces every other field.
  Never the whole log again: an update's size does not grow with the game's length.
* client -> server ``{"type": "resync"}``: send the full ``state`` again. A client sends it
  when an update's ``log_from`` is not the length of its log (a gap) or a message's type
  is unknown to it, and applies no update until the state comes.
* client -> server ``{"type": "move", "id": client id, "move": text, "version": v}``;
  server -> client ``{"type": "result", "id": client id, "ok": true, "log": [text, ...]}``
  (the move's log lines in the sender's words, e.g. a claim "came too late: returned") after
  the move is stored and the new state sent, or ``{"ok": false, "error": text, "ruling": id}``
  (nothing changed; ``"unsaved": true`` when the store could not save it: it may be sent again,
  and over HTTP the answer is 503). A move sent against an older version is taken only if it is an open
  move still legal now; a resend of an id already played answers ``ok`` again.
* client -> server ``{"type": "continue"}``: this seat has seen the round's reveal.
* server -> client ``{"type": "closed", "reason": text}`` before the server closes the
  connection (a bad token, the same seat opened in a newer page, the table ended): closed
  for good, the client does not reconnect.

Limits: a request body or websocket message of at most 64 KiB (a body announced larger by
its ``Content-Length`` is answered 413 with a sentence before any of it is read); at most
1 MiB queued for one connection and not yet taken by its client (:data:`playtest.tables.web.QUEUE_LIMIT`):
past it the page is dropped, the connection closed with code 4000 and the reason "this page
fell over 1024 KiB behind the table; reconnect to get its state" (no ``closed`` message),
and the table forgets the page. A client that reconnects and joins again gets the full state.
"""
