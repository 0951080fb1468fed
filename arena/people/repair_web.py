"""``arena repair --serve``: people fix or reject, in the browser, the machine references
that validation flagged.

A Flask blueprint under ``/repair/`` on :func:`arena.people.web.base_app` (whose guard —
host check, access token, CSRF, same origin, bounded bodies — covers it).  A person signs
in and gets the flagged references one at a time: the source, the human reference, the
machine reference and why it was flagged (phenomenon and evidence).  They **fix** it
(edit the prefilled machine reference), **keep** it (the reference is right, the flag is
wrong), **reject** it or **skip** it; the progress (fixed, kept, rejected, left) is on the
page.  Decisions go through :class:`arena.people.repairs.RepairReview`,
the same review ``arena repair`` runs in the terminal: written once per reference into the
patch file, atomically and under a lock, so several people (and a terminal) can review at
once; a decision on a reference someone else decided first gets 409 and changes nothing.

API (JSON): ``GET api/next``; ``POST api/decide`` with ``{"id", "action": "fix"|"keep"|"reject",
"reference"}`` (``reference``: the fixed text; for a keep ``null`` or the machine reference
unchanged — a changed one is a 400; ``null`` for a rejection); every text passes the text
policy (:func:`arena.people.web.check_texts`); ``POST api/skip``
with ``{"id"}``; ``POST api/unskip`` with ``{}`` (the skipped ones come back).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.formats.repairs import Flagged
from arena.people.repairs import RepairReview
from arena.people.web import body, fail, one_page_app, sign_in, signed_in_person


def repair_app(review: RepairReview, title: str, token: str | None = None, allowed_hosts: Sequence[str] = ()) -> Any:
    """The app of ``arena repair --serve``: the ``/repair/`` pages, ``/`` leading there."""
    return one_page_app(blueprint(review, title), title, token, allowed_hosts,
                        review.patch.with_name(f".{review.patch.name}.sessions.json"))


def blueprint(review: RepairReview, title: str) -> Any:
    """The ``/repair/`` page and API."""
    from flask import Blueprint, jsonify, render_template, session

    pages = Blueprint("repair", __name__, url_prefix="/repair")

    @pages.get("/")
    def index():
        return render_template("repair.html", title=title, name=session.get("name"), csrf=session["csrf"],
                               total=len(review.items), patch=str(review.patch))

    @pages.post("/login")
    def login():
        return sign_in("repair.index")

    @pages.get("/api/next")
    def next_reference():
        name = signed_in_person()
        item = review.next_for(name)
        progress = review.progress(name)
        if item is None:
            return jsonify(finished=True, progress=progress)
        return jsonify(finished=False, progress=progress, **shown(item))

    @pages.post("/api/decide")
    def decide():
        name = signed_in_person()
        data = body({"id", "action", "reference"})
        key, action, reference = data["id"], data["action"], data["reference"]
        known(review, key)
        if action not in ("fix", "keep", "reject"):
            fail(400, "action must be fix, keep or reject")
        if action == "reject" and reference is not None:
            fail(400, "a rejection takes no reference (null)")
        if action == "fix" and not isinstance(reference, str):
            fail(400, "a fix needs the corrected reference as a string")
        if action == "keep" and reference is not None and not isinstance(reference, str):
            fail(400, "a keep takes the machine reference unchanged (a string) or null")
        try:
            record, written = review.decide(name, key, action, reference)
        except ValueError as error:  # the arena's own checks of a decision: what the person must change
            fail(400, str(error))
        if not written:
            fail(409, f"{record['reviewer']} decided this reference first ({record['action']}); that decision stands")
        return jsonify(written=True, action=record["action"], progress=review.progress(name))

    @pages.post("/api/skip")
    def skip():
        name = signed_in_person()
        key = body({"id"})["id"]
        known(review, key)
        review.skip(name, key)
        return jsonify(skipped=True, progress=review.progress(name))

    @pages.post("/api/unskip")
    def unskip():
        name = signed_in_person()
        body(set())
        review.unskip(name)
        return jsonify(progress=review.progress(name))

    return pages


def known(review: RepairReview, key: Any) -> None:
    """404 unless ``key`` is one of the references under review."""
    if not isinstance(key, str) or key not in review.by_id:
        fail(404, f"unknown reference {str(key)[:80]!r}")


def shown(item: Flagged) -> dict[str, Any]:
    """What the page shows of a flagged reference."""
    instance = item.instance
    return {"id": instance.id, "source": instance.source, "human": instance.meta.get("human_reference", ""),
            "machine": instance.reference, "system": instance.meta.get("system", ""),
            "flags": [{"phenomenon": flag.phenomenon, "evidence": flag.evidence} for flag in item.flags]}
