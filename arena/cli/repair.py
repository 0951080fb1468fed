"""``arena repair``: review, in the terminal, the machine references that validation flagged,
and fix or reject each; the decisions go to a patch file that the ``mt-reference`` John
applies (``repairs: FILE``; see :mod:`performers.john.repairs`).

Each flagged reference is shown with its source, the human reference, the phenomenon and
the evidence (the contrastive form found in the machine translation).  Keys: ``f`` fix
(edit the prefilled machine reference), ``r`` reject (leave the instance out), ``s`` skip
(decide later), ``q`` stop.  Decisions already in the patch file are not asked again.
"""

from __future__ import annotations

from arena.cli import add_verb, catalog
from arena.errors import UsageError

EXAMPLES = """
  arena repair --john mt-reference.yaml --zellig polarity-affix-del --patch sets/affix-mt/repairs.jsonl --name ann
  # then the John applies them:  {name: mt-reference, params: {..., repairs: sets/affix-mt/repairs.jsonl}}"""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "repair", "review flagged machine references: fix or reject each (a patch file)",
                      EXAMPLES, description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--john", required=True, metavar="SPEC", help="an mt-reference John (SPEC or YAML file)")
    parser.add_argument("--zellig", required=True, metavar="SPEC", help="the Zellig whose validation flags them")
    parser.add_argument("--patch", required=True, metavar="FILE", help="the patch file (JSON lines; appended to)")
    parser.add_argument("--name", required=True, help="your name, recorded with each decision")
    parser.set_defaults(func=run)


def run(args) -> int:
    from arena.cli.play import edit_line, read_key
    from arena.people.store import check_name
    from arena.specs.registry import build
    from arena.specs.spec import PerformerSpec, parse_spec
    from performers.john.repairs import append_repair, flagged, read_repairs

    check_name(args.name)
    done = read_repairs(args.patch)  # a bad patch file fails before any work
    spec = parse_spec(args.john, where="--john")
    if spec.name != "mt-reference":
        raise UsageError(f"--john {spec.name}: give an mt-reference John (the references validation checks)")
    params = {key: value for key, value in spec.params.items() if key != "repairs"}  # review the unrepaired ones
    john = build("john", PerformerSpec(spec.name, params), catalog(), where="--john")
    zellig = build("zellig", parse_spec(args.zellig, where="--zellig"), catalog(), where="--zellig")
    counts = {"fix": 0, "reject": 0, "skip": 0}
    pending = [(i, checks) for i, checks in flagged(john.instances(), zellig) if i.id not in done]
    print(f"{len(pending)} flagged references to review ({len(done)} decided before); f fix, r reject, s skip, q stop")
    try:
        for number, (instance, checks) in enumerate(pending, 1):
            print(f"\n[{number}/{len(pending)}] {instance.id}")
            print(f"  source:  {instance.source}")
            print(f"  human:   {instance.meta['human_reference']}")
            print(f"  machine: {instance.reference}")
            for check in checks:
                print(f"  flagged: {check.phenomenon}" + (f" ({check.evidence})" if check.evidence else ""))
            key = read_key("  [f/r/s/q] ")
            while key not in ("f", "r", "s", "q"):
                key = read_key("  press f, r, s or q: ")
            if key == "q":
                break
            if key == "s":
                counts["skip"] += 1
                continue
            if key == "r":
                append_repair(args.patch, instance, "reject", args.name)
                counts["reject"] += 1
                print("  rejected")
                continue
            fixed = edit_line("  fixed:   ", instance.reference).strip()
            if not fixed or fixed == instance.reference:
                counts["skip"] += 1
                print("  unchanged: skipped")
                continue
            append_repair(args.patch, instance, "fix", args.name, fixed)
            counts["fix"] += 1
            print("  fixed")
    except (KeyboardInterrupt, EOFError):
        print()
    print(f"fixed {counts['fix']}, rejected {counts['reject']}, skipped {counts['skip']}; patch: {args.patch}")
    return 0
