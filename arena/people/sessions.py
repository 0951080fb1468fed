"""Server-side sessions for every page ``arena`` serves (``arena serve``, ``serve --zellig``,
``arena repair --serve`` and any page built on :func:`arena.people.web.base_app`).

The cookie holds only a session id: 256 random bits, ``HttpOnly``, ``SameSite=Strict``,
host-only.  What the session knows — the signed-in name, whether the access token was
given — lives on the server:

- a **signed-in** session is written to a JSON file in the run's or patch's directory
  (``RUN/people/.sessions.json``; ``.PATCH.sessions.json`` beside a patch file), so it
  **survives a restart** of the server: ``arena serve`` run again on the same run keeps
  everyone signed in.  The file holds the SHA-256 of each id, never the id itself, so
  reading it does not give anyone a cookie;
- an **anonymous** session (the sign-in page, before a name) lives in memory only (at
  most :data:`MAX_ANONYMOUS`, oldest dropped first) and ends with the server.

A session ends when the person signs out (``POST /logout`` revokes it: the id is deleted
from the file, and a copy of the old cookie is worth nothing from then on, in this server
and in any other serving the same directory), after :data:`SESSION_DAYS` days, or, for
an anonymous one, when the server stops.  A request whose cookie names an ended or
unknown session gets **401** (``sign in again``) on every write and every API call; a
page asked for with such a cookie starts a new anonymous session (the sign-in page).

The CSRF token is derived from the session id (HMAC-SHA256 keyed by the id), so it is
bound to the session: another session's token is refused, and signing out changes it.

The cookie's name is the store's own (:func:`cookie_name`: from the sessions file's path),
because browsers share cookies between the ports of one host: ``arena serve`` and ``arena
repair --serve`` open side by side in one browser keep their sessions apart, and the same
run served again finds its cookie.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from arena.errors import DataError

log = logging.getLogger(__name__)

SESSION_DAYS = 7
MAX_ANONYMOUS = 4096
MAX_FILE_BYTES = 8 * 1024 * 1024
KEYS = {"name": str, "access": bool}  # what a session may hold (the CSRF token is derived, never stored)
VERSION = 1


def new_id() -> str:
    return secrets.token_urlsafe(32)


def cookie_name(path: Path | None) -> str:
    """``arena_`` and a digest of the sessions file's resolved path (random when in memory)."""
    if path is None:
        return "arena_" + secrets.token_hex(5)
    return "arena_" + hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:10]


def csrf_token(sid: str) -> str:
    """The session's CSRF token: HMAC-SHA256 keyed by its id (bound to it, useless elsewhere)."""
    digest = hmac.new(sid.encode(), b"arena csrf", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _key(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


def _clean(data: Any) -> dict[str, Any] | None:
    """The stored keys of a session's data, or ``None`` when a value has the wrong type."""
    if not isinstance(data, dict):
        return None
    kept = {key: value for key, value in data.items() if key in KEYS}
    return kept if all(isinstance(value, KEYS[key]) for key, value in kept.items()) else None


class SessionStore:
    """Sessions by id: signed-in ones in ``path`` (``None``: in memory, ending with the
    server), anonymous ones in memory; safe to share between threads and, through a
    lock file, between processes serving the same directory."""

    def __init__(self, path: Path | None = None, days: float = SESSION_DAYS):
        self.path = Path(path) if path is not None else None
        self.seconds = days * 86400
        self._lock = threading.Lock()
        self._anonymous: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._signed_in: dict[str, dict[str, Any]] = {}
        self._seen: tuple[int, int, int] | None = None
        if self.path is not None and self.path.exists():
            self._signed_in = self._read()  # a corrupt file is a DataError before the server starts

    def load(self, sid: str) -> dict[str, Any] | None:
        """The data of the live session ``sid``, or ``None`` (ended, expired or never known)."""
        key = _key(sid)
        with self._lock:
            if key in self._anonymous:
                return dict(self._anonymous[key]["data"])
            self._refresh()
            entry = self._signed_in.get(key)
        if entry is None or time.time() - entry["created"] > self.seconds:
            return None
        return dict(entry["data"])

    def save(self, sid: str, data: dict[str, Any]) -> None:
        """Keep ``data`` (its :data:`KEYS`) as the session ``sid``'s; signed-in ones on disk."""
        key, kept = _key(sid), {k: v for k, v in data.items() if k in KEYS}
        with self._lock:
            if "name" not in kept:
                entry = self._anonymous.pop(key, None) or {"created": time.time()}
                self._anonymous[key] = {**entry, "data": kept}
                while len(self._anonymous) > MAX_ANONYMOUS:
                    self._anonymous.popitem(last=False)
                return
            previous = self._anonymous.pop(key, None)
        created = previous["created"] if previous else time.time()
        self._update(lambda sessions: sessions.__setitem__(key, {
            "created": sessions.get(key, {"created": created})["created"], "data": kept}))

    def revoke(self, sid: str) -> None:
        """End the session ``sid`` (signing out): its id is worth nothing from now on."""
        key = _key(sid)
        with self._lock:
            self._anonymous.pop(key, None)
        self._update(lambda sessions: sessions.pop(key, None))

    # -- the file ---------------------------------------------------------------------------

    def _stamp(self) -> tuple[int, int, int] | None:
        assert self.path is not None
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            return None
        return status.st_ino, status.st_mtime_ns, status.st_size

    def _refresh(self) -> None:
        """Re-read the file when another process (or a restart) changed it (under ``_lock``)."""
        if self.path is None:
            return
        stamp = self._stamp()
        if stamp != self._seen:
            try:
                self._signed_in = self._read() if stamp is not None else {}
            except DataError as error:  # fail closed: nobody is signed in until the file is readable
                log.warning("%s; every session has ended", error)
                self._signed_in = {}
            self._seen = stamp

    def _read(self) -> dict[str, dict[str, Any]]:
        assert self.path is not None
        stamp = self._stamp()
        if stamp is not None and stamp[2] > MAX_FILE_BYTES:
            raise DataError(f"holds {stamp[2]:,} bytes; a sessions file has at most {MAX_FILE_BYTES:,}", file=self.path)
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise DataError("not a sessions file (JSON); delete it to sign everyone out", file=self.path) from None
        if not isinstance(document, dict) or not isinstance(document.get("sessions"), dict):
            raise DataError('expected {"version": 1, "sessions": {...}}; delete it to sign everyone out',
                            file=self.path, key="sessions")
        sessions = {}
        for key, entry in document["sessions"].items():
            data = _clean(entry.get("data")) if isinstance(entry, dict) else None
            created = entry.get("created") if isinstance(entry, dict) else None
            if data is not None and isinstance(created, (int, float)):
                sessions[key] = {"created": float(created), "data": data}
        self._seen = stamp
        return sessions

    def _update(self, change: Any) -> None:
        """Apply ``change`` to the signed-in sessions, re-read and written whole under the lock file."""
        from arena.record.people_store import lock_file
        from arena.record.transcripts import atomic_write_text

        if self.path is None:
            with self._lock:
                change(self._signed_in)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with lock_file(self.path.with_name(f"{self.path.name}.lock")), self._lock:
            self._seen = None
            self._refresh()
            change(self._signed_in)
            now = time.time()
            self._signed_in = {k: v for k, v in self._signed_in.items() if now - v["created"] <= self.seconds}
            document = {"version": VERSION, "sessions": self._signed_in}
            atomic_write_text(self.path, json.dumps(document, ensure_ascii=False, sort_keys=True) + "\n")
            self._seen = self._stamp()


def interface(store: SessionStore) -> Any:
    """A Flask session interface keeping sessions in ``store`` (the cookie: the id only)."""
    from flask.sessions import SessionInterface, SessionMixin
    from werkzeug.datastructures import CallbackDict

    class ServerSession(CallbackDict, SessionMixin):
        def __init__(self, sid: str, data: dict[str, Any], new: bool, ended: bool = False):
            def changed(_: Any) -> None:
                self.modified = True

            super().__init__({**data, "csrf": csrf_token(sid)}, changed)
            self.sid, self.new, self.ended, self.modified = sid, new, ended, False

    class ServerSessions(SessionInterface):
        def open_session(self, app: Any, request: Any) -> ServerSession:
            sid = request.cookies.get(self.get_cookie_name(app))
            data = store.load(sid) if isinstance(sid, str) and 0 < len(sid) <= 128 else None
            if sid is not None and data is not None:
                return ServerSession(sid, data, new=False)
            return ServerSession(new_id(), {}, new=True, ended=sid is not None)

        def save_session(self, app: Any, session: Any, response: Any) -> None:
            if not (session.new or session.modified):
                return
            store.save(session.sid, dict(session))
            response.set_cookie(self.get_cookie_name(app), session.sid, httponly=True, samesite="Strict",
                                path=self.get_cookie_path(app), secure=self.get_cookie_secure(app))
            response.vary.add("Cookie")

    return ServerSessions()


def end_session(store: SessionStore) -> None:
    """Sign the current request's person out: revoke the session and give the browser a
    new anonymous one that keeps only the access grant (the token need not be given again)."""
    from flask import session

    access = session.get("access")
    store.revoke(session.sid)  # type: ignore[attr-defined]
    sid = new_id()
    session.clear()
    session.sid = sid  # type: ignore[attr-defined]
    session["csrf"] = csrf_token(sid)
    if access:
        session["access"] = True
    session.new = True
