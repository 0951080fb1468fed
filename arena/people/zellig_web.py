"""``arena serve --zellig``: people write corruptions in the browser against a live model.

A Flask blueprint under ``/zellig/``, registered on the app of :mod:`arena.people.web`
(whose guard — host check, access token, CSRF, same origin — covers it).  A person signs
in, gets the run's instances one at a time (source and reference), edits the reference
into an error of a phenomenon they pick, and sees, while typing, each scoring Claude's
scores for the reference and the edit, whether the edit fooled it, and the phenomenon's
detector verdict (:mod:`arena.people.live`).  Submitting stores the corruption once per
(person, instance) with author and time (:class:`arena.people.session.ZelligSession`);
an unchanged text records that no corruption applies.  Other people check submitted
pairs (:mod:`arena.people.checks`, agreement at ``/zellig/api/agreement``), and
``/zellig/api/export`` writes a person's corruptions as a test set with a ``replay``
config that plays them as rounds against the run's Claudes.

API (JSON): ``GET api/next``; ``POST api/live`` and ``POST api/submit`` with
``{"instance", "text", "phenomenon"}``; ``GET api/check/next``; ``POST api/check`` with
``{"author", "instance", "valid"}``; ``GET api/agreement``; ``POST api/export``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.people import checks
from arena.people.live import LiveScorer
from arena.people.session import ZelligSession, check_phenomenon
from arena.people.web import body, fail, sign_in, signed_in_person


class ZelligArena:
    """What the Zellig pages share: the run, its instances, the live scorer, per-person sessions."""

    def __init__(self, run_dir: Path, rounds: Sequence[Any], experiment: Mapping[str, Any], scorer: LiveScorer,
                 title: str, phenomena: Sequence[str] = ()):
        self.run_dir = Path(run_dir)
        self.rounds = list(rounds)
        self.experiment = dict(experiment)
        self.scorer = scorer
        self.title = title
        self.extra_phenomena = list(phenomena)
        self._sessions: dict[str, ZelligSession] = {}
        self._shown: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()

    def session(self, name: str) -> ZelligSession:
        with self._lock:
            if name not in self._sessions:
                self._sessions[name] = ZelligSession(self.run_dir, name, self.rounds)
            return self._sessions[name]

    def shown(self, name: str, instance_id: str) -> float:
        with self._lock:
            return self._shown.setdefault((name, instance_id), time.monotonic())

    def phenomena(self, name: str) -> list[str]:
        return list(dict.fromkeys([*self.session(name).phenomena(), *self.extra_phenomena]))


def blueprint(zellig: ZelligArena) -> Any:
    """The ``/zellig/`` pages and API."""
    from flask import Blueprint

    pages = Blueprint("zellig", __name__, url_prefix="/zellig")
    _sign_in_pages(pages, zellig)
    _edit_api(pages, zellig)
    _check_api(pages, zellig)
    return pages


def _sign_in_pages(pages: Any, zellig: ZelligArena) -> None:
    """The page, signing in and the next instance to corrupt."""
    from flask import jsonify, render_template, session

    @pages.get("/")
    def index():
        name = session.get("name")
        return render_template("zellig.html", title=zellig.title, name=name, csrf=session["csrf"],
                               total=len(zellig.session(name).targets) if name else None)

    @pages.post("/login")
    def login():
        return sign_in("zellig.index")

    @pages.get("/api/next")
    def next_instance():
        name = signed_in_person()
        current = zellig.session(name)
        pending = current.pending()
        done, total = current.progress()
        if not pending:
            return jsonify(finished=True, done=done, total=total)
        target = pending[0]
        zellig.shown(name, target.instance.id)
        return jsonify(finished=False, instance=target.instance.id, source=target.instance.source,
                       reference=target.instance.reference, done=done, total=total, phenomena=zellig.phenomena(name))


def _edit_api(pages: Any, zellig: ZelligArena) -> None:
    """Live scores of an edit, and submitting it."""
    from flask import jsonify

    @pages.post("/api/live")
    def live():
        name, target, text, phenomenon = edit_request(zellig)
        started = time.monotonic()
        result = zellig.scorer.evaluate(target.instance.source, target.instance.reference, text, phenomenon)
        return jsonify(**result, changed=text != target.instance.reference, seconds=time.monotonic() - started)

    @pages.post("/api/submit")
    def submit():
        name, target, text, phenomenon = edit_request(zellig)
        if text != target.instance.reference and phenomenon is None:
            fail(400, "pick the phenomenon of your edit")
        seconds = time.monotonic() - zellig.shown(name, target.instance.id)
        record, written = zellig.session(name).corrupt(target, text, phenomenon, seconds)
        if not written:
            fail(409, "this instance is already corrupted; the first submission stands")
        done, total = zellig.session(name).progress()
        return jsonify(written=True, variant=record["variant"], done=done, total=total)


def _check_api(pages: Any, zellig: ZelligArena) -> None:
    """Checking other people's corruptions, their agreement, and the export."""
    from flask import jsonify

    @pages.get("/api/check/next")
    def check_next():
        item = checks.next_to_check(zellig.run_dir, signed_in_person())
        if item is None:
            return jsonify(finished=True)
        return jsonify(finished=False, author=item["author"], instance=item["instance"]["id"],
                       source=item["instance"]["source"], reference=item["instance"]["reference"],
                       edit=item["variant"]["text"], phenomenon=item["variant"]["phenomenon"])

    @pages.post("/api/check")
    def check():
        name = signed_in_person()
        data = body({"author", "instance", "valid"})
        if not isinstance(data["valid"], bool):
            fail(400, "valid must be true or false")
        try:
            _, written = checks.record_check(zellig.run_dir, name, data["author"], data["instance"], data["valid"])
        except ValueError as error:
            fail(400, str(error))
        if not written:
            fail(409, "you have checked this pair already; the first verdict stands")
        return jsonify(written=True)

    @pages.get("/api/agreement")
    def agreement():
        signed_in_person()
        return jsonify(checks.agreement(zellig.run_dir))

    @pages.post("/api/export")
    def export():
        name = signed_in_person()
        try:
            path = zellig.session(name).export(zellig.experiment)
        except ValueError as error:
            fail(409, str(error))
        return jsonify(config=str(path), command=f"arena run {path}")


# -- request helpers: a failed check aborts the request with a JSON error ----------------------------

def edit_request(zellig: ZelligArena) -> tuple[str, Any, str, str | None]:
    """The signed-in person, the instance they edit, and their edit and phenomenon, from the
    body of ``/api/live`` or ``/api/submit``."""
    name = signed_in_person()
    data = body({"instance", "text", "phenomenon"})
    target = target_of(zellig, name, data["instance"])
    text, phenomenon = edit_of(data)
    return name, target, text, phenomenon


def target_of(zellig: ZelligArena, name: str, instance_id: Any) -> Any:
    for target in zellig.session(name).targets:
        if target.instance.id == instance_id:
            return target
    fail(404, f"unknown instance {instance_id!r}")


def edit_of(data: Mapping[str, Any]) -> tuple[str, str | None]:
    text, phenomenon = data["text"], data["phenomenon"]  # body() applied the text policy to both
    if not isinstance(text, str) or not text.strip() or len(text) > 2000:
        fail(400, "text must be a non-empty string of at most 2000 characters")
    if phenomenon is not None:
        try:
            check_phenomenon(phenomenon)
        except ValueError as error:
            fail(400, str(error))
    return text, phenomenon
