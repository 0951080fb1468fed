"""The browser front end of people playing Claude (``arena serve``): a Flask app.

Pages: ``/`` (sign in with a name), ``/play`` (rounds with keyboard shortcuts ``1`` /
``2``, the time budget's countdown and progress), ``/summary`` (S, S per phenomenon,
the run's model Claudes and the other people on the same rounds).  JSON API:
``GET /api/next`` (the person's next round; the server notes when it showed it, so
the time budget is measured server-side) and ``POST /api/judge`` (``{"round": ID,
"choice": 0|1}``).  A judgement is written once per (round, person) under the
person's lock (:mod:`arena.record.people_store`); a second submission gets 409 and changes
nothing.

Security: the CLI listens on 127.0.0.1 unless told otherwise; off loopback an access
token (printed at start, passed once as ``?token=``) is required for every page.
Without a token, requests must name a loopback host (no DNS rebinding).  Every POST
carries the session's CSRF token (form field or ``X-CSRF-Token`` header) and, when
the browser sends one, an ``Origin`` (else ``Referer``) of this server.  Cookies are
``HttpOnly`` and ``SameSite=Strict`` and hold only a session id: the session lives on
the server (:mod:`arena.people.sessions`; signing out revokes it, an ended or unknown
one gets 401, the CSRF token is bound to it), and every text of a request body passes
the text policy (:func:`check_texts`).  Bad requests get a 4xx JSON or text message
and change nothing.  All assets are served from the package: it works offline.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

from arena.people.session import ClaudeSession, summary
from arena.record import people_store as store
from arena.record.rounds import Round

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")
BODY_DEPTH = 4  # the API takes flat objects: {"round": ..., "choice": ...}
HOMES = ("/", "/zellig/", "/repair/")  # the start pages signing out may return to


class Arena:
    """The server's state: the run, one session per person, when each round was shown."""

    def __init__(self, run_dir: Path, rounds: Sequence[Round], seconds_per_pair: float | None, title: str):
        self.run_dir = Path(run_dir)
        self.rounds = list(rounds)
        self.seconds_per_pair = seconds_per_pair
        self.title = title
        self._sessions: dict[str, ClaudeSession] = {}
        self._shown: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()

    @property
    def total(self) -> int:
        return sum(1 for r in self.rounds if r.judged)

    def session(self, name: str) -> ClaudeSession:
        with self._lock:
            if name not in self._sessions:
                self._sessions[name] = ClaudeSession(self.run_dir, name, self.rounds, self.seconds_per_pair)
            return self._sessions[name]

    def show(self, name: str, round_id: str) -> float:
        """When ``round_id`` was first shown to ``name`` (now, if not before)."""
        with self._lock:
            return self._shown.setdefault((name, round_id), time.monotonic())

    def shown(self, name: str, round_id: str) -> float | None:
        with self._lock:
            return self._shown.get((name, round_id))


def create_app(arena: Arena, token: str | None = None, allowed_hosts: Sequence[str] = ()) -> Any:
    """The Flask app of people playing Claude; ``token`` (if any) is required once per
    browser session; ``allowed_hosts`` (``host:port``) are the Host headers accepted
    without a token.  Sessions are kept in ``RUN/people/.sessions.json``."""
    app = base_app(arena.title, token, allowed_hosts, sessions=store.sessions_file(arena.run_dir))
    _add_pages(app, arena)
    _add_api(app, arena)
    return app


def one_page_app(pages: Any, title: str, token: str | None, allowed_hosts: Sequence[str], sessions: Path) -> Any:
    """A :func:`base_app` serving one blueprint of pages (the repair and validation pages),
    ``/`` leading to its index."""
    from flask import redirect, url_for

    app = base_app(title, token, allowed_hosts, sessions=sessions)
    app.register_blueprint(pages)

    @app.get("/")
    def index():
        return redirect(url_for(f"{pages.name}.index"))

    return app


def base_app(title: str, token: str | None = None, allowed_hosts: Sequence[str] = (),
             sessions: Path | None = None) -> Any:
    """What every page of ``arena serve`` shares: server-side sessions (kept in the file
    ``sessions``, so that they survive a restart; ``None``: in memory, see
    :mod:`arena.people.sessions`), the guard (host, ended sessions, access token, CSRF,
    origin), error pages, bounded requests and signing out; the pages are added to it
    (:func:`create_app`, the ``/zellig/`` and ``/repair/`` blueprints)."""
    from flask import Flask
    from flask.json.provider import DefaultJSONProvider

    from arena.people.sessions import SessionStore, cookie_name, interface

    app = Flask(__name__)
    session_store = SessionStore(sessions)
    app.session_interface = interface(session_store)
    app.config.update(
        SESSION_COOKIE_NAME=cookie_name(sessions),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=64 * 1024,
        MAX_FORM_MEMORY_SIZE=64 * 1024,
        MAX_FORM_PARTS=100,
        JSON_AS_ASCII=False,
    )
    if isinstance(app.json, DefaultJSONProvider):  # Flask's own provider (the only one set here)
        app.json.ensure_ascii = False
    _add_error_pages(app, title)
    _add_guard(app, token, allowed_hosts)
    _add_sign_out(app, session_store)
    return app


def fail(status: int, message: str) -> NoReturn:
    """End the request with ``status``: a JSON ``{"error": message}`` under ``/api/``,
    else the error page."""
    from flask import abort, jsonify, request

    if "/api/" in request.path:
        response = jsonify(error=message)
        response.status_code = status
        abort(response)
    abort(status, description=message)


def sign_in(endpoint: str) -> Any:
    """Sign the person in under the posted name (letters, digits, ``_`` and ``-``; a 400
    otherwise) and redirect to ``endpoint``."""
    from flask import redirect, request, session, url_for

    name = request.form.get("name", "")
    try:
        store.check_name(name)
    except ValueError as error:
        fail(400, str(error))
    session["name"] = name
    return redirect(url_for(endpoint))


def signed_in_person() -> str:
    """The signed-in person's name (401 under ``/api/``, else 403, when nobody is)."""
    from flask import request, session

    name = session.get("name")
    if name is None:
        fail(401 if "/api/" in request.path else 403, "sign in with your name first")
    return name


def _add_error_pages(app: Any, title: str) -> None:
    from flask import jsonify, render_template, request

    @app.errorhandler(400)
    @app.errorhandler(401)
    @app.errorhandler(403)
    @app.errorhandler(404)
    @app.errorhandler(405)
    @app.errorhandler(409)
    @app.errorhandler(413)
    def error_page(error):
        if "/api/" in request.path:
            return jsonify(error=error.description), error.code
        return render_template("error.html", title=title, error=error), error.code


def _add_guard(app: Any, token: str | None, allowed_hosts: Sequence[str]) -> None:
    """Before every request: the host (no DNS rebinding); a session that has ended (signed
    out, expired, unknown: a 401 but on a page, which starts a new one); the access token;
    on a POST, the origin and the session's CSRF token."""
    from flask import request, session

    @app.before_request
    def guard():
        if token is None and request.host not in allowed_hosts:
            fail(400, f"unknown host {request.host!r}: open the address arena serve printed")
        if getattr(session, "ended", False) and (request.method != "GET" or "/api/" in request.path):
            fail(401, "your session has ended (signed out, expired or unknown to this server): sign in again")
        if token is not None and not session.get("access"):
            given = request.args.get("token") or request.headers.get("X-Access-Token") or ""
            if not hmac.compare_digest(given.encode(), token.encode()):
                fail(403, "an access token is required: open the address (with ?token=) that arena serve printed")
            session["access"] = True
        if request.method == "POST":
            origin = request.headers.get("Origin") or request.headers.get("Referer")
            if origin is not None:
                parts = urlsplit(origin)
                if f"{parts.scheme}://{parts.netloc}" != request.host_url.rstrip("/"):
                    fail(403, f"cross-site request refused (origin {origin!r})")
            given = request.headers.get("X-CSRF-Token") or request.form.get("csrf") or ""
            if not hmac.compare_digest(given.encode(), session["csrf"].encode()):
                fail(403, "missing or invalid CSRF token: reload the page")


def _add_sign_out(app: Any, sessions: Any) -> None:
    """``POST /logout``: revoke the session (:func:`arena.people.sessions.end_session`),
    back to the start page the form names (one of :data:`HOMES`)."""
    from flask import redirect, request

    from arena.people.sessions import end_session

    @app.post("/logout")
    def logout():
        end_session(sessions)
        home = request.form.get("home", "/")
        return redirect(home if home in HOMES else "/")


def _add_pages(app: Any, arena: Arena) -> None:
    """The HTML pages: sign in and out, play, the summary."""
    from flask import redirect, render_template, session, url_for

    @app.get("/")
    def index():
        if session.get("name"):
            return redirect(url_for("play"))
        return render_template("login.html", title=arena.title, csrf=session["csrf"], total=arena.total)

    @app.post("/login")
    def login():
        return sign_in("play")

    @app.get("/play")
    def play():
        name = session.get("name")
        if name is None:
            return redirect(url_for("index"))
        return render_template("play.html", title=arena.title, name=name, csrf=session["csrf"],
                               budget=arena.seconds_per_pair)

    @app.get("/summary")
    def summary_page():
        name = signed_in_person()
        return render_template("summary.html", title=arena.title, name=name, csrf=session["csrf"],
                               summary=summary(arena.run_dir, name))


def _add_api(app: Any, arena: Arena) -> None:
    """The JSON API: the next round, a judgement, the summary."""
    from flask import jsonify, request

    @app.get("/api/next")
    def next_round():
        name = signed_in_person()
        current = arena.session(name)
        r = current.next_round()
        done, total = current.progress()
        if r is None:
            return jsonify(finished=True, done=done, total=total)
        shown = arena.show(name, r.id)
        remaining = None
        if arena.seconds_per_pair is not None:
            remaining = max(0.0, arena.seconds_per_pair - (time.monotonic() - shown))
        return jsonify(finished=False, round=r.id, source=r.instance.source, candidates=list(r.candidates),
                       done=done, total=total, budget=arena.seconds_per_pair, remaining=remaining)

    @app.post("/api/judge")
    def judge():
        name = signed_in_person()
        data = json_body(request.get_data(cache=False))
        if not isinstance(data, dict) or set(data) != {"round", "choice"}:
            fail(400, 'expected a JSON object {"round": ROUND_ID, "choice": 0 or 1}')
        check_texts(data)
        round_id, choice = data["round"], data["choice"]
        current = arena.session(name)
        if not isinstance(round_id, str) or round_id not in current.by_id:
            fail(404, f"unknown round {round_id!r}")
        if not isinstance(choice, int) or isinstance(choice, bool) or choice not in (0, 1):
            fail(400, f"choice must be 0 or 1, not {choice!r}")
        shown = arena.shown(name, round_id)
        if round_id in current.done():
            fail(409, "this round is already judged; the first answer stands")
        if shown is None:
            fail(409, "this round was not shown to you by this server; reload the page")
        record, written = current.answer(round_id, choice, time.monotonic() - shown)
        if not written:
            fail(409, "this round is already judged; the first answer stands")
        done, total = current.progress()
        return jsonify(written=True, resolved_by=record["resolved_by"], seconds=record["seconds"], done=done, total=total)

    @app.get("/api/summary")
    def summary_json():
        return jsonify(summary(arena.run_dir, signed_in_person()))


def body(keys: set[str]) -> dict[str, Any]:
    """The request's JSON object with exactly ``keys``, parsed with the app's bounds, each
    text passing the text policy (:func:`check_texts`); a 400 otherwise."""
    from flask import request

    data = json_body(request.get_data(cache=False))
    if not isinstance(data, dict) or set(data) != keys:
        fail(400, f"expected a JSON object with {', '.join(sorted(keys)) or 'no keys'}")
    check_texts(data)
    return data


def check_texts(data: dict[str, Any]) -> None:
    """A 400 naming the field when a text of a request body is no text that arena stores
    (:func:`arena.text_policy.text_problem`: a control character, a bidi override, a line
    break, only invisible characters, half a surrogate pair, too long)."""
    from arena.text_policy import text_problem

    for key, value in data.items():
        problem = text_problem(value) if isinstance(value, str) else None
        if problem is not None:
            fail(400, f"{key} {problem}")


def json_body(body: bytes) -> Any:
    """A request's JSON body (at most ``MAX_CONTENT_LENGTH`` bytes), or ``None`` when it is
    no JSON, not UTF-8 or nested more than a judgement needs (a 100k-deep array would
    exhaust the parser's recursion: a 400, never a 500)."""
    import json

    from arena.specs.yamlio import json_depth

    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None
    return data if json_depth(data, stop=BODY_DEPTH) <= BODY_DEPTH else None


def is_loopback(host: str) -> bool:
    import ipaddress

    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
