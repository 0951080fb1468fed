"""``arena false-positives RUN --validate N --serve``: people label, in the browser, the validation
sample of a run's 1-bests (:mod:`arena.people.validation`).

A Flask blueprint under ``/validate/`` on :func:`arena.people.web.base_app` (whose guard — host check,
access token, CSRF, same origin, bounded bodies — covers it, and whose sign-in it uses).  A person
signs in and gets the sample's translations one at a time, with their source and the phenomenon to
look for, but not what the detector said; they answer **present** (key ``y``) or **absent** (key
``n``).  Labels go through :class:`arena.people.validation.ValidationReview`, the same review the
terminal uses: written once per item, atomically and under a lock; a label of an item someone
labelled first gets 409 and changes nothing.

API (JSON): ``GET api/next``; ``POST api/label`` with ``{"id", "label": "present"|"absent"}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.people.validation import LABEL_VALUES, ValidationReview, sessions_path, shown
from arena.people.web import body, fail, one_page_app, sign_in, signed_in_person


def validation_app(review: ValidationReview, title: str, token: str | None = None,
                   allowed_hosts: Sequence[str] = ()) -> Any:
    """The app of ``arena false-positives --validate N --serve``: the ``/validate/`` pages, ``/`` leading there."""
    return one_page_app(blueprint(review, title), title, token, allowed_hosts, sessions_path(review.run_dir))


def blueprint(review: ValidationReview, title: str) -> Any:
    """The ``/validate/`` page and API."""
    from flask import Blueprint, jsonify, render_template, session

    pages = Blueprint("validate", __name__, url_prefix="/validate")

    @pages.get("/")
    def index():
        return render_template("validate.html", title=title, name=session.get("name"), csrf=session["csrf"],
                               total=len(review.items), labels=str(review.path))

    @pages.post("/login")
    def login():
        return sign_in("validate.index")

    @pages.get("/api/next")
    def next_item():
        name = signed_in_person()
        item = review.next_for(name)
        progress = review.progress()
        if item is None:
            return jsonify(finished=True, progress=progress)
        return jsonify(finished=False, progress=progress, **shown(item))

    @pages.post("/api/label")
    def label():
        name = signed_in_person()
        data = body({"id", "label"})
        key, value = data["id"], data["label"]
        if not isinstance(key, str) or key not in review.by_id:
            fail(404, f"unknown item {str(key)[:80]!r}")
        if value not in LABEL_VALUES:
            fail(400, f"label must be one of {', '.join(LABEL_VALUES)}")
        record, written = review.label(name, key, value)
        if not written:
            fail(409, f"{record['labeller']} labelled this translation first ({record['label']}); that label stands")
        return jsonify(written=True, label=record["label"], progress=review.progress())

    return pages
