"""``arena show``: print a run's pairs with the corruption highlighted."""

from __future__ import annotations

import sys

from arena.cli import add_verb, run_directory
from arena.cli.ranges import integer

EXAMPLES = """
  arena show runs/quickstart-100a898585 --wrong
  arena show runs/quickstart-100a898585 --phenomenon placeholder_ding --claude toy --limit 5
  arena show runs/quickstart-100a898585 --wrong --no-color | less
  arena show runs/quickstart-100a898585 --wrong --claude toy --tokens --limit 3"""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "show", "print judged pairs, the edit highlighted (e.g. the misjudged ones)", EXAMPLES)
    parser.add_argument("run_dir", metavar="RUN", help="a run directory")
    parser.add_argument("--phenomenon", help="only this phenomenon label")
    parser.add_argument("--claude", help="only this Claude (label as in the scores table)")
    parser.add_argument("--zellig", help="only this Zellig (label)")
    parser.add_argument("--seed", type=int, help="only this seed")
    parser.add_argument("--wrong", action="store_true", help="only rounds the Claude got wrong")
    parser.add_argument("--limit", type=integer(0), default=20, help="at most this many pairs (default 20; 0 = all)")
    parser.add_argument("--no-color", action="store_true", help="mark edits with [before→after] instead of colour")
    parser.add_argument("--tokens", action="store_true",
                        help="per-token log-probabilities of both candidates and the token the decision turned on "
                             "(rebuilds the run's scoring Claudes; kept in RUN/report/tokens.jsonl for the report)")
    parser.set_defaults(func=run)


def highlight(reference: str, edits, color: bool) -> str:
    """The reference with each edit shown as before→after (coloured on a terminal); the
    texts terminal-safe (:func:`arena.text_policy.visible`), the colours arena's own."""
    from arena.text_policy import visible

    pieces, cursor = [], 0
    for edit in sorted(edits, key=lambda e: e.start):
        pieces.append(visible(reference[cursor : edit.start]))
        before, after = visible(edit.before), visible(edit.after)
        if color:
            pieces.append(f"\033[9;31m{before}\033[0m\033[1;32m{after}\033[0m")
        else:
            pieces.append(f"[{before}→{after}]")
        cursor = edit.end
    pieces.append(visible(reference[cursor:]))
    return "".join(pieces)


def run(args) -> int:
    from arena.present.tables import fmt
    from arena.record.run_dir import RunDir
    from arena.stats.aggregate import Outcome, join
    from arena.text_policy import visible, visible_lines

    run = RunDir.open(run_directory(args.run_dir))
    rounds, judgements, one_bests = run.rounds, run.judgements, run.one_bests
    color = not args.no_color and sys.stdout.isatty()
    chosen: list[tuple[str, Outcome]] = []
    matched = 0
    for claude, outcomes in join(rounds, judgements, one_bests).items():
        if args.claude and claude != args.claude:
            continue
        for outcome in outcomes:
            if selected(outcome, args):
                matched += 1
                if not args.limit or len(chosen) < args.limit:
                    chosen.append((claude, outcome))
    views = token_views(run.path, chosen) if args.tokens else {}
    for claude, outcome in chosen:
        r, j = outcome.round, outcome.judgement
        variant = r.variant
        assert variant is not None  # selected() keeps only rounds with a variant
        scores = outcome.scores
        verdict = "right" if j.correct else "WRONG"
        print(visible(f"── {r.id}  [{claude}: {verdict}, {j.resolved_by}]  {variant.phenomenon}"))
        print(f"   source:    {visible(r.instance.source)}")
        print(f"   edit:      {highlight(r.instance.reference, variant.edits, color)}")
        if scores is not None:
            print(f"   scores:    correct {fmt(scores[0], 4)}  corrupted {fmt(scores[1], 4)}")
        if outcome.one_best is not None:
            print(f"   1-best:    {visible(outcome.one_best.translation)}  ({fmt(outcome.one_best.score, 4)})")
        view = views.get((claude, r.id))
        if view is not None:
            from arena.run_tokens import render_view

            print(f"   blame:     {visible(view['summary']) or '(no difference)'}")
            print(visible_lines("\n".join("   " + line for line in render_view(view).split("\n"))))
    shown = len(chosen)
    if matched == 0:
        _check_names(args, rounds, judgements)
    print(f"{shown} of {matched} matching pairs shown" + (" (raise --limit for more)" if shown < matched else ""))
    return 0


def selected(outcome, args) -> bool:
    """Whether a judged round passes ``arena show``'s filters."""
    r, j = outcome.round, outcome.judgement
    if r.variant is None or (args.phenomenon and r.variant.phenomenon != args.phenomenon):
        return False
    if (args.zellig and r.zellig != args.zellig) or (args.seed is not None and r.seed != args.seed):
        return False
    return not (args.wrong and j.correct)


def token_views(run_dir, chosen) -> dict:
    """The token views of the pairs to show (:mod:`arena.run_tokens`)."""
    from arena.run_tokens import compute_tokens

    items = [{"claude": claude, "round": o.round.id, "source": o.round.instance.source,
              "reference": o.round.instance.reference, "corrupted": o.round.variant.text} for claude, o in chosen]
    from arena.cli import catalog

    return compute_tokens(run_dir, items, catalog())


def _check_names(args, rounds, judgements) -> None:
    """A filter naming something the run does not have is a usage error that lists what it has
    (instead of answering "0 of 0")."""
    from arena.errors import UsageError

    known = {
        "--claude": sorted({j.claude for j in judgements}),
        "--zellig": sorted({r.zellig for r in rounds}),
        "--phenomenon": sorted({r.variant.phenomenon for r in rounds if r.variant is not None}),
        "--seed": sorted({r.seed for r in rounds}),
    }
    given = {"--claude": args.claude, "--zellig": args.zellig, "--phenomenon": args.phenomenon, "--seed": args.seed}
    for flag, value in given.items():
        if value is not None and value not in known[flag]:
            names = ", ".join(str(name) for name in known[flag]) or "none"
            raise UsageError(f"{value!r} is not in {args.run_dir}; it has: {names}", key=flag)
