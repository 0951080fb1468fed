"""``arena false-positives RUN --validate N``: draw a validation sample of the run's 1-bests and have
people label it, in the terminal (``--name NAME``) or the browser (``--serve``); see
:mod:`arena.people.validation`.  ``arena false-positives RUN`` then corrects with the labels."""

from __future__ import annotations

from pathlib import Path

from arena.errors import UsageError


def add_arguments(parser) -> None:
    from arena.cli.serve import add_server_arguments

    group = parser.add_argument_group("validation sample: check the detector on the model's own 1-bests")
    group.add_argument("--validate", type=int, metavar="N",
                       help="draw N 1-bests the detector fired on and N it did not, per Claude and Zellig (seeded), "
                            "into RUN/validation/sample.json, and label them: --name NAME in the terminal, --serve in "
                            "the browser")
    group.add_argument("--validate-seed", type=int, default=1, metavar="SEED", help="seed of the draw (default 1)")
    group.add_argument("--name", help="label in the terminal under this name (y present, n absent, s skip, q stop)")
    group.add_argument("--serve", action="store_true", help="label in the browser (same sign-in and CSRF as arena serve)")
    add_server_arguments(group)


def one_bests(run_dir: Path) -> list:
    """The run's 1-bests (a :class:`UsageError` naming ``onebest.jsonl`` when there are none)."""
    from arena.codec import load
    from arena.record import transcripts
    from arena.record.rounds import OneBest

    path = run_dir / transcripts.ONEBEST
    records = [load(OneBest, record) for record in transcripts.read_jsonl(path)]
    if not records:
        raise UsageError(f"{'empty' if path.exists() else 'missing'}: the run has no 1-best translations to validate",
                         file=path, key="onebest.jsonl",
                         hint="run it with generative_rate: true and a scoring Claude (a model that translates)")
    return records


def detectors(run_dir: Path) -> dict[str, str]:
    """The detector behind each Zellig label of the run's manifest."""
    from arena.cli.fp_inputs import _labels, detector_of
    from arena.record.verify import load_manifest

    result = {}
    for spec in load_manifest(run_dir).experiment.get("zelligs", []):
        for label in _labels(spec):
            result[label] = detector_of(spec) or label
    return result


def validate(args) -> int:
    from arena.people import validation
    from arena.text_policy import visible

    if args.validate < 1:
        raise UsageError(f"--validate must be at least 1 (items per stratum), got {args.validate}", key="--validate")
    if args.validate_seed < 0:
        raise UsageError(f"--validate-seed must be 0 or more, got {args.validate_seed}", key="--validate-seed")
    if args.serve and args.name:
        raise UsageError("--serve and --name: label in the browser or in the terminal, not both", key="--name")
    if args.name is not None:
        from arena.record import people_store as store

        store.check_name(args.name)  # before anything is drawn
    run_dir = Path(args.run_dir)
    sample, drawn = validation.prepare(run_dir, one_bests(run_dir), args.validate, args.validate_seed,
                                       detectors(run_dir))
    review = validation.ValidationReview(run_dir)
    print(f"validation sample: {validation.sample_path(run_dir)} ({'drawn now' if drawn else 'drawn before'}, "
          f"{args.validate} per stratum, seed {args.validate_seed}); {review.labelled_before} of {len(review.items)} "
          "items labelled")
    for stratum in sample["strata"]:
        print(f"  {visible(stratum['claude'])} × {visible(stratum['zellig'])}: {stratum['flagged']} flagged, "
              f"{stratum['unflagged']} not flagged")
    if args.serve:
        return _serve(review, args)
    if args.name:
        return label_in_terminal(review, args.name, run_dir)
    print(f"label them: arena false-positives {run_dir} --validate {args.validate} --name NAME (terminal) or --serve "
          "(browser); then arena false-positives RUN corrects with the labels")
    return 0


def _serve(review, args) -> int:
    from arena.cli.serve import check_port, serve
    from arena.extras import require

    require("flask", "people", "arena false-positives --serve")
    from arena.people.validation_web import validation_app

    check_port(args.port)
    title = Path(args.run_dir).name
    serve(lambda token, hosts: validation_app(review, title, token, hosts), args, "validate/",
          f"{len(review.items)} translations to label ({review.labelled_before} labelled before)")
    progress = review.progress()
    print(f"stopped; {progress['labelled']} labelled, {progress['left']} left; labels: {review.path}")
    return 0


def label_in_terminal(review, name: str, run_dir: Path) -> int:
    """Label the pending items one by one: y present, n absent, s skip, q stop."""
    from arena.cli.play import read_key
    from arena.record import people_store as store
    from arena.text_policy import visible

    store.check_name(name)
    pending = review.pending()
    counts = {"present": 0, "absent": 0, "skip": 0}
    print(f"{len(pending)} translations to label; does the translation show the phenomenon? "
          "y present, n absent, s skip, q stop")
    try:
        for number, item in enumerate(pending, 1):
            print(f"\n[{number}/{len(pending)}] {item['id']}  phenomenon: {visible(item['detector'])}")
            print(f"  source:      {visible(item['source'])}")
            print(f"  translation: {visible(item['translation'])}")
            key = read_key("  [y/n/s/q] ")
            while key not in ("y", "n", "s", "q"):
                key = read_key("  press y, n, s or q: ")
            if key == "q":
                break
            if key == "s":
                counts["skip"] += 1
                continue
            record, written = review.label(name, item["id"], "present" if key == "y" else "absent")
            if not written:
                print(f"  {visible(record['labeller'])} labelled it first ({record['label']}); that label stands")
                continue
            counts[record["label"]] += 1
    except (KeyboardInterrupt, EOFError):
        print()
    progress = review.progress()
    print(f"present {counts['present']}, absent {counts['absent']}, skipped {counts['skip']}; "
          f"{progress['labelled']}/{progress['total']} labelled: {review.path}")
    print(f"corrected rates: arena false-positives {run_dir}")
    return 0
