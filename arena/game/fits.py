"""Does a game's schedule fit its Johns?  Checked before the first round.

A schedule with observation rounds (``supervised:200``) needs every John to yield more
instances than those rounds, else no round is left to count toward S.  A John that yields
too few is refused here, by ``arena validate`` and at the start of ``arena run`` alike
(:func:`check_johns`, the same code), before any run directory exists: the John is built
and its instances are counted up to one more than the observation rounds (a John reads
its files lazily, so ``supervised:1000`` reads at most 1,001 instances).

Johns whose params hold a Claude (``mt-reference`` translating with a model, ``select``
asking one) are left out: counting their instances would load a model, which
``validate`` never does.  For them, and for Zelligs that have nothing to offer for
most instances (fewer rounds than instances), the game still refuses a cell whose John
ran out within the observation rounds once it has played them
(:meth:`arena.specs.schedule.Schedule.check_counted`).

A fitted cue Claude (``length``, ``edit-words``: :class:`arena.roles.Fittable`) learns only from
rounds transparent to Claudes; in a run where no phase is (a run without a schedule plays the
implicit ``zero-observation`` one) it would abstain on every round and be ranked as a baseline at
chance.  :func:`check_learners` refuses it there, with the reason: its figure on a run's pairs is
the out-of-fold one of ``arena cues RUN``.
"""

from __future__ import annotations

from typing import Any

from arena.errors import ConfigError
from arena.roles import take
from arena.specs.config import Experiment
from arena.specs.registry import Catalog, build, resolve
from arena.specs.registry import validate as validate_spec
from arena.specs.schedule import Schedule


def check_learners(experiment: Experiment, schedule: Schedule, catalog: Catalog) -> None:
    """Refuse (a :class:`~arena.errors.ConfigError` naming the Claude's entry) a fitted cue Claude
    in a run whose schedule shows Claudes no labelled round."""
    from arena.roles import Fittable

    if any("claude" in phase.transparent for phase in schedule.phases):
        return
    for index, spec in enumerate(experiment.claudes):
        cls = resolve("claude", spec.name, catalog)
        if not (isinstance(cls, type) and issubclass(cls, Fittable)):
            continue
        at = f"{experiment.where('claudes', str(index))}: claudes[{index}]"
        validate_spec("claude", spec, catalog, where=at)  # a bad parameter is said first, as validate says it
        line = experiment.key_lines.get(("claudes", str(index)))
        raise ConfigError(
            f"Claude {spec.label} is fitted on labelled pairs, and no round of this run is transparent to "
            "Claudes: it would abstain on every round and be ranked at chance",
            file=experiment.source or None, line=line if isinstance(line, int) and line > 0 else None,
            key=f"claudes[{index}]",
            hint=f"audit the run's pairs out of fold with 'arena cues RUN' (it fits {spec.name} on them), or let "
                 "it learn in a game: schedule: supervised:200")


def check_johns(experiment: Experiment, schedule: Schedule, catalog: Catalog) -> None:
    """Refuse (a :class:`~arena.errors.ConfigError` naming the config's ``schedule`` line)
    a schedule whose observation rounds take every instance some John yields."""
    observation = schedule.observation_rounds
    if not observation:  # none, or an open-ended observation phase
        return
    cap = experiment.max_instances
    for index, spec in enumerate(experiment.johns):
        if cap is not None and cap <= observation:
            count, source = cap, f"is capped at {cap} instances (max_instances)"
        else:
            if _asks_a_claude(resolve("john", spec.name, catalog), spec.params, catalog):
                continue
            where = f"{experiment.where('johns', str(index))}: johns[{index}]"
            john = build("john", spec, catalog, where=where)
            count = sum(1 for _ in take(john.instances(), observation + 1))
            source = f"yields {count} instances"
            if count > observation:
                continue
        name = f"schedule {schedule.preset}" if schedule.preset else "the schedule"
        raise ConfigError(
            f"John {spec.label} {source}, all within the {observation} observation "
            f"rounds of {name}: no round would be left to count toward S",
            file=experiment.source or None, line=_line(experiment), key="schedule",
            hint=f"use fewer observation rounds than {count} (e.g. supervised:{max(1, count // 2)}) "
                 "or give the John more instances")


def _line(experiment: Experiment) -> int | None:
    line = experiment.key_lines.get(("schedule",))
    return line if isinstance(line, int) and line > 0 else None


def _asks_a_claude(cls: type, params: Any, catalog: Catalog) -> bool:
    """Whether a performer's params name a Claude, directly or in a nested John."""
    from arena.errors import ArenaError
    from arena.specs.spec import spec_from_mapping
    from arena.specs.typecheck import nested_performers, type_hints

    hints = type_hints(cls)
    for key, value in dict(params).items():
        for role, nested in nested_performers(value, hints[key]) if key in hints else ():
            if role == "claude":
                return True
            try:
                spec = spec_from_mapping(nested, where=key)
                inner = resolve(role, spec.name, catalog)
            except ArenaError:  # the build names what is wrong with it
                continue
            if _asks_a_claude(inner, spec.params, catalog):
                return True
    return False
