"""People as performers (Smith 2012, §4.1 and §7): a person plays Claude or Zellig.

A person's judgements and corruptions are transcripts like any model's, kept per
person in the run directory::

    RUN/people/NAME/judgements.jsonl    one line per (round, person): the run's own
                                        JudgementRecord, claude = "person:NAME"
    RUN/people/NAME/corruptions.jsonl   one line per (instance, person): the instance
                                        and the person's Variant (edits derived) or null
    RUN/people/NAME/replay/             the corruptions as a LingEval97 test set and a
                                        config that replays them against the run's Claudes

The files are the run's (:mod:`arena.record.people_store`: names, paths, one record per
key under a lock), and so is what the scores read of them (:mod:`arena.stats.agreement`:
Cohen's / Fleiss' kappa and the majority vote, the ``human`` Claude). This package is
the people's side:

- :mod:`arena.people.session` — what a person plays next, how an answer is resolved
  (the arena's own rule: late → recorded coin), the end-of-session summary;
- :mod:`arena.people.web` — the browser front end (``arena serve``): the guard, sign
  in and out, the Claude pages; :mod:`arena.people.zellig_web` its ``/zellig/`` pages
  (with :mod:`arena.people.live` and :mod:`arena.people.checks`); the terminal one is
  ``arena play`` (:mod:`arena.cli.play`);
- :mod:`arena.people.repairs` — the manual repair of flagged machine references: the
  patch file and the review shared by ``arena repair`` (terminal) and its ``--serve``
  pages (:mod:`arena.people.repair_web`).
"""
