"""Live tables: one game played by several people, each on their own device, in real time.

A table lives in the server process that serves the dashboards (``playtest serve``, or
Jupyter Server with the ``playtest.tables`` server extension), never in a page's kernel.
The :class:`~playtest.tables.service.TableService` holds each table's Match and bots,
applies every move (so arrival order at the service is the order of play: "first tap
registered by the server wins", Lazy Sunday edge case 6), stores every move in SQLite
before acknowledging it (:mod:`playtest.tables.store`), and sends each connected seat
only ``Match.view(seat)``, ``Match.log_for(seat)`` and that seat's moves. Pages are
clients: a seat page's kernel (:mod:`playtest.widgets.live`) connects with the seat's
token from the page address and renders what it is sent; it never holds the raw state.

Addresses (all under ``<base_url>playtest/api``; JSON in and out; errors are
``{"error": "one sentence"}`` with a 4xx status):

==========================================  =====================================================
``GET  games``                              the games: seats range, bots, presets, option defaults
``GET  tables?status=playing``              the tables: id, game, seats, players, free seats,
                                            moves, status (``playing`` / ``over`` / ``ended``);
                                            by default (no ``status``) only those still being
                                            played; ``?status=over`` (game over), ``ended``
                                            (ended by the host), ``over,ended`` or ``all``
``POST tables``                             create (body below); 201 with the tokens
``POST tables/<id>/join``                   ``{"seat": n}`` (or ``{}``: the first free human seat)
                                            of a listed table: ``{"seat", "token", "path"}``;
                                            409 when taken
``GET  tables/<id>/state``                  the token's view (header ``Authorization: Bearer T``)
``POST tables/<id>/moves``                  ``{"move": "1 claim 0 2 3", "id": "c1", "version": 7}``
                                            with a seat token: the move's result (below)
``POST tables/<id>/host``                   host controls with the host token (below)
``GET  tables/<id>/record``                 the record JSON, host token, once the game is over
                                            or the table ended (LS-11: no record while it runs)
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

Create body: ``{"game": "lazy_sunday", "seats": 4, "players": ["human", "human",
"heuristic", "random"], "options": {}, "preset": null, "seed": null, "pace": "human",
"listed": true}``; ``players`` defaults to seat 0 human and the game's first bot
elsewhere (a search bot's budget at most ``ismcts:20000`` iterations or ``ismcts:5000ms``
a decision, :data:`playtest.tables.thinking.BUDGET_LIMITS`; the host's ``bot`` action
alike); ``pace`` is one of :data:`playtest.tables.live.PACES`; optional
``"scenario"`` (start where a shipped scenario stops: its game, seats, options and
deal; ``game`` and ``seats`` may be left out, and when sent must be the scenario's;
``options``, ``preset`` and ``seed`` are refused),
``"reaction_limit"`` (seconds, CR-7) and ``"open_seats"``: see
:meth:`playtest.tables.service.TableService.create`. Answer: ``{"id",
"host_token", "spectator_token", "seats": [{"seat": 0, "player": "human", "token": T,
"path": "table.ipynb?table=<id>&token=T"}, ...], "spectator_path", "host_path"}``. Paths
are relative to the dashboards folder's address (``.../voila/render/``).

Host body: ``{"action": "pause" | "resume" | "pace" | "bot" | "continue" | "end",
"pace": "instant" | "fast" | "human" | "slow", "seat": n, "bot": "heuristic", "force":
false}``: pause or resume the bots, set their pace, hand seat ``n`` to a bot (a
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
  null | {"finished", "winners", "scores", "reason"}, "last_move": null | {"seat", "kind",
  "text", "by_bot"}, "players": [{"seat", "player", "connected", "person"}, ...], "hold": null |
  {"reason": text, "waiting": [seats]}, "paused": bool, "pace": name, "reaction_seconds": null |
  seconds, "status": text}`` after every change (``version`` = moves in the record; ``moves``
  = the seat's decision moves, ``open_moves`` its open moves; both empty for spectators and
  while a hold is on; a player's ``person``: its seat was made for a person, with a link;
  ``reaction_seconds`` = on a table with a ``reaction_limit``, the
  seconds left when the message was sent before the open reaction window of the seat in
  ``to_act`` closes with its default answer, CR-7; null when no such window is open or
  the table is paused: a pause stops that clock, which goes on from where it stopped).
* client -> server ``{"type": "move", "id": client id, "move": text, "version": v}``;
  server -> client ``{"type": "result", "id": client id, "ok": true, "log": [text, ...]}``
  (the move's log lines in the sender's words, e.g. a claim "came too late: returned") after
  the move is stored and the new state sent, or ``{"ok": false, "error": text, "ruling": id}``
  (nothing changed). A move sent against an older version is taken only if it is an open
  move still legal now; a resend of an id already played answers ``ok`` again.
* client -> server ``{"type": "continue"}``: this seat has seen the round's reveal.
* server -> client ``{"type": "closed", "reason": text}`` before the server closes the
  connection (a bad token, the same seat opened in a newer page, the table ended).
"""
