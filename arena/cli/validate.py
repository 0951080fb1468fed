"""``arena validate``: check an experiment without loading any model."""

from __future__ import annotations

from arena.cli import add_verb, catalog
from arena.text_policy import visible

EXAMPLES = """
  arena validate experiments/quickstart.yaml
  arena validate my.yaml --set claudes.0.params.device=cuda
A config with a transfer: block (arena transfer) is checked with its expanded Zelligs."""


def add_parser(subparsers) -> None:
    parser = add_verb(
        subparsers, "validate", "check a config: keys, performer names and their params (no model is loaded)", EXAMPLES
    )
    parser.add_argument("config", help="experiment YAML file")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.set_defaults(func=run)


def run(args) -> int:
    from arena.engine import validate
    from arena.specs.config import load_experiment
    from arena.specs.transfer import is_transfer, load_transfer

    if is_transfer(args.config):  # a transfer config: its expanded Zelligs (arena transfer)
        experiment, _ = load_transfer(args.config, catalog(), tuple(args.overrides))
    else:
        experiment = load_experiment(args.config, args.overrides)
    signatures = validate(experiment, catalog())
    check_models(experiment)
    from arena.game import play as game
    from arena.game.fits import check_johns, check_learners
    from arena.game.judges import check_learn_from, judge_labels

    schedule = game.schedule_of(experiment, catalog())
    if schedule is not None:
        check_learners(experiment, schedule, catalog())  # as arena run does before its first round
        check_johns(experiment, schedule, catalog())
        check_learn_from(experiment, catalog())
    print(visible(f"{args.config}: OK — experiment {experiment.name!r}"))
    for role, entries in signatures.items():
        for label, signature in entries.items():
            print(visible(f"  {role[:-1]:7s} {label}: {signature}"))
    cells = len(experiment.johns) * len(experiment.zelligs) * len(experiment.claudes) * len(experiment.seeds)
    print(f"  {cells} cells (johns × zelligs × claudes × seeds), executor: {experiment.executor}")
    if schedule is not None:
        phases = "; ".join(
            f"{p.name} {'rest' if p.rounds is None else p.rounds} rounds, transparent to "
            f"{', '.join(sorted(p.transparent)) or 'nobody'}{'' if p.counts else ', not counted'}"
            for p in schedule.phases
        )
        print(f"  game: blocks of {schedule.block_size} instances; {phases}")
    for entry in game.collusion(experiment):
        print(f"  collusion: Zellig {entry['zellig']} consults Claude {entry['claude']} under test (params.{entry['param']})")
    for entry in judge_labels(experiment, catalog()):
        print(f"  judge: Zellig {entry['zellig']} judged by Claude {entry['claude']}: {entry['judge']}")
    return 0


def check_models(experiment) -> None:
    """Every Claude's models can be had here (local, cached, or the hub reachable when not
    offline): :class:`arena.roles.Available`; replicas' params are checked too."""
    from arena.roles import Available
    from arena.specs.registry import resolve

    for index, spec in enumerate(experiment.claudes):
        cls = resolve("claude", spec.name, catalog())
        if not isinstance(cls, Available):
            continue
        for params in (spec.params, *({**spec.params, **extra} for extra in spec.replicas.values())):
            try:
                cls.check_available(params)
            except ValueError as error:
                from arena.errors import EnvError

                raise EnvError(str(error), key=f"claudes.{index}.params.model", file=experiment.source or None) \
                    from None
