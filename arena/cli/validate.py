"""``arena validate``: check an experiment without loading any model."""

from __future__ import annotations

from arena.cli import add_verb, catalog

EXAMPLES = """
  arena validate experiments/quickstart.yaml
  arena validate my.yaml --set claudes.0.params.device=cuda"""


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

    experiment = load_experiment(args.config, args.overrides)
    signatures = validate(experiment, catalog())
    print(f"{args.config}: OK — experiment {experiment.name!r}")
    for role, entries in signatures.items():
        for label, signature in entries.items():
            print(f"  {role[:-1]:7s} {label}: {signature}")
    cells = len(experiment.johns) * len(experiment.zelligs) * len(experiment.claudes) * len(experiment.seeds)
    print(f"  {cells} cells (johns × zelligs × claudes × seeds), executor: {experiment.executor}")
    from arena.game import play as game

    schedule = game.schedule_of(experiment, catalog())
    if schedule is not None:
        phases = "; ".join(
            f"{p.name} {'rest' if p.rounds is None else p.rounds} rounds, transparent to "
            f"{', '.join(sorted(p.transparent)) or 'nobody'}{'' if p.counts else ', not counted'}"
            for p in schedule.phases
        )
        print(f"  game: blocks of {schedule.block_size} instances; {phases}")
    for entry in game.collusion(experiment):
        print(f"  collusion: Zellig {entry['zellig']} consults Claude {entry['claude']} under test (params.{entry['param']})")
    return 0
