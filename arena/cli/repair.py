"""``arena repair``: review the machine references that validation flagged, and fix, keep or
reject each; the decisions go to a patch file that the ``mt-reference`` John applies
(``repairs: FILE`` in its params; docs/people.md).  In the terminal by default, in the
browser with ``--serve`` (several people at once).

Each flagged reference is shown with its source, the human reference, the phenomenon and
the evidence (the contrastive form found in the machine translation).  Terminal keys:
``f`` fix (edit the prefilled machine reference), ``k`` keep (the reference is right, the
flag is wrong: it stays, marked as reviewed), ``r`` reject (leave the instance out), ``s``
skip (decide later), ``q`` stop.  Decisions already in the patch file are not asked
again; each reference is decided once, whoever decides it first.
"""

from __future__ import annotations

from arena.cli import add_verb, catalog
from arena.errors import UsageError
from arena.text_policy import visible

EXAMPLES = """
  arena repair --john experiments/johns/mt-reference.yaml --zellig np-agreement --patch sets/np-mt/repairs.jsonl --name ann
  arena repair --john experiments/johns/mt-reference.yaml --zellig np-agreement --patch sets/np-mt/repairs.jsonl --serve
  # the browser: http://127.0.0.1:8765/repair/ (--host 0.0.0.0 for others: prints an address with a token)
  # then the John applies them:  {name: mt-reference, params: {..., repairs: sets/np-mt/repairs.jsonl}}"""


def add_parser(subparsers) -> None:
    from arena.cli.serve import add_server_arguments

    parser = add_verb(subparsers, "repair", "review flagged machine references: fix, keep or reject each (a patch file)",
                      EXAMPLES, description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--john", required=True, metavar="SPEC", help="an mt-reference John (SPEC or YAML file)")
    parser.add_argument("--zellig", required=True, metavar="SPEC", help="the Zellig whose validation flags them")
    parser.add_argument("--patch", required=True, metavar="FILE", help="the patch file (JSON lines; one decision per id)")
    parser.add_argument("--name", help="your name, recorded with each decision (in the terminal)")
    parser.add_argument("--serve", action="store_true",
                        help="review in the browser instead: people sign in with their names at /repair/")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    from arena.record.people_store import check_name

    if args.serve:
        return serve_review(args)
    if args.name is None:
        raise UsageError("--name is required in the terminal (in the browser, with --serve, people sign in)",
                         key="--name")
    check_name(args.name)
    return review_in_terminal(build_review(args), args.name, args.patch)


def build_review(args):
    """The flagged references of ``--john`` for ``--zellig``, under review into ``--patch``
    (:class:`arena.people.repairs.RepairReview`; a bad patch file fails before any work)."""
    from arena.formats.repairs import read_repairs
    from arena.people.repairs import RepairReview
    from arena.specs.registry import build
    from arena.specs.spec import PerformerSpec, parse_spec
    from performers.john.repairs import flagged

    read_repairs(args.patch)
    spec = parse_spec(args.john, where="--john")
    if spec.name != "mt-reference":
        raise UsageError(f"--john {spec.name}: give an mt-reference John (the references validation checks)")
    params = {key: value for key, value in spec.params.items() if key != "repairs"}  # review the unrepaired ones
    john = build("john", PerformerSpec(spec.name, params), catalog(), where="--john")
    zellig = build("zellig", parse_spec(args.zellig, where="--zellig"), catalog(), where="--zellig")
    return RepairReview(args.patch, list(flagged(john.instances(), zellig)))


def serve_review(args) -> int:
    from arena.cli.serve import check_port, serve
    from arena.extras import require

    require("flask", "people", "arena repair --serve")
    from arena.people.repair_web import repair_app

    check_port(args.port)
    review = build_review(args)
    title = f"repairs of {args.patch}"
    serve(lambda token, hosts: repair_app(review, title, token, hosts), args, "repair/",
          f"{len(review.items)} flagged references ({review.decided_before} decided before)")
    progress = review.progress()
    print(f"stopped; fixed {progress['fixed']}, kept {progress['kept']}, rejected {progress['rejected']}, "
          f"left {progress['left']}; patch: {visible(args.patch)}")
    return 0


KEYS = {"f": "fix", "k": "keep", "r": "reject"}


def review_in_terminal(review, name: str, patch: str) -> int:
    from arena.cli.play import read_key

    counts = {"fix": 0, "keep": 0, "reject": 0, "skip": 0}
    pending = review.pending()
    print(f"{len(pending)} flagged references to review ({review.decided_before} decided before); "
          "f fix, k keep (the flag is wrong), r reject, s skip, q stop")
    try:
        for number, item in enumerate(pending, 1):
            show_flagged(item, number, len(pending))
            key = read_key("  [f/k/r/s/q] ")
            while key not in ("f", "k", "r", "s", "q"):
                key = read_key("  press f, k, r, s or q: ")
            if key == "q":
                break
            counts[decide_in_terminal(review, name, item, key)] += 1
    except (KeyboardInterrupt, EOFError):
        print()
    print(f"fixed {counts['fix']}, kept {counts['keep']}, rejected {counts['reject']}, skipped {counts['skip']}; "
          f"patch: {visible(patch)}")
    return 0


def show_flagged(item, number: int, total: int) -> None:
    instance = item.instance
    print(f"\n[{number}/{total}] {visible(instance.id)}")
    print(f"  source:  {visible(instance.source)}")
    print(f"  human:   {visible(instance.meta['human_reference'])}")
    print(f"  machine: {visible(instance.reference)}")
    for flag in item.flags:
        print(visible(f"  flagged: {flag.phenomenon}" + (f" ({flag.evidence})" if flag.evidence else "")))


def decide_in_terminal(review, name: str, item, key: str) -> str:
    """Ask for the fix (``f``), write the decision; what to count: the action, or ``skip``."""
    from arena.cli.play import edit_line

    instance = item.instance
    if key == "s":
        print("  skipped")
        return "skip"
    fixed = edit_line("  fixed:   ", instance.reference).strip() if key == "f" else None
    if key == "f" and fixed in ("", instance.reference):
        print("  unchanged: skipped (press k to keep a reference whose flag is wrong)")
        return "skip"
    action = KEYS[key]
    try:
        record, written = review.decide(name, instance.id, action, fixed)
    except ValueError as error:  # a fix the review refuses (a control character, too long): say why, ask later
        print(f"  not saved: {visible(str(error))}; skipped")
        return "skip"
    if not written:
        print(f"  {record['reviewer']} decided it first ({record['action']}); that decision stands")
        return "skip"
    print({"fix": "  fixed", "keep": "  kept (marked as reviewed)", "reject": "  rejected"}[action])
    return action
