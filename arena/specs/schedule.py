"""Observation schedules of the adversarial game (Smith 2012, §7).

A schedule is a list of *phases*.  Each phase has a number of rounds, says for each
role whether its rounds are **transparent** to that performer (after the round it
observes the others' actions: the candidates, the answer key, the Claudes' choices)
or not (it observes only its own inputs and outputs), and whether its rounds
**count** toward S (observation phases do not)::

    schedule:
      block_size: 50            # rounds are played in blocks; performers observe after each
      window: 50                # rounds per window of the S timeline (default: block_size)
      epsilon: 0.05             # convergence: rounds until S stays within ε of its final value
      phases:
        - {rounds: 200, transparent: [claude], counts: false}   # supervised observation
        - {rounds: null}                                         # evaluation: the rest

Smith's named schedules are one-line presets (``N`` observation rounds)::

    schedule: zero-observation      # evaluation only
    schedule: supervised:200        # 200 rounds transparent to Claude, then evaluation
    schedule: semi-supervised:100+300   # 100 transparent + 300 non-transparent, then evaluation
    schedule: unsupervised:200      # 200 non-transparent observation rounds, then evaluation

or, with options, ``schedule: {preset: supervised, rounds: 200, block_size: 25}``.

Rounds are counted per cell (seed, John, Zellig) among the rounds that are played
(the Zellig applied, or timed out); the phase of a round is fixed by that count, so
a block may hold rounds of two phases.  ``rounds: null`` (only in the last phase)
means "until the John runs out (or ``max_instances``)".  A phase has
``rounds ≥ 0``; at least one phase must count toward S.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, NoReturn

from pydantic import PlainSerializer

from arena.errors import ConfigError

ROLES = ("john", "zellig", "claude")
PRESETS = ("zero-observation", "supervised", "semi-supervised", "unsupervised")
PHASE_KEYS = ("rounds", "transparent", "counts", "name")
SCHEDULE_KEYS = ("phases", "preset", "rounds", "block_size", "window", "epsilon")
DEFAULT_BLOCK_SIZE = 50
DEFAULT_EPSILON = 0.05


@dataclass(frozen=True, kw_only=True)
class Phase:
    """``rounds`` rounds per cell (``None``: the rest), transparent to the roles in
    ``transparent``, counting toward S when ``counts``.  The fields are in the order of
    the JSON that records them (``manifest.json``, pydantic's serialisation)."""

    name: str = ""
    rounds: int | None
    transparent: Annotated[frozenset[str], PlainSerializer(sorted)] = frozenset()
    counts: bool = True


@dataclass(frozen=True, kw_only=True)
class Schedule:
    """The phases of a game and how it is cut into blocks and timeline windows (``window``:
    rounds per timeline window, the block size when not given).  The fields are in the order
    of the JSON that records them (``manifest.json``, the game's report, pydantic's serialisation)."""

    preset: str | None = None
    block_size: int = DEFAULT_BLOCK_SIZE
    window: int | None = None
    epsilon: float = DEFAULT_EPSILON
    phases: tuple[Phase, ...]

    def __post_init__(self) -> None:
        if self.window is None:
            object.__setattr__(self, "window", self.block_size)


    @property
    def window_size(self) -> int:
        return self.window or self.block_size

    @property
    def total(self) -> int | None:
        """Rounds per cell the schedule plays (``None``: open-ended)."""
        if any(phase.rounds is None for phase in self.phases):
            return None
        return sum(phase.rounds or 0 for phase in self.phases)

    @property
    def observation_rounds(self) -> int | None:
        """Rounds per cell played before the first phase that counts toward S
        (``None`` when an open-ended observation phase comes first)."""
        total = 0
        for phase in self.phases:
            if phase.counts:
                return total
            if phase.rounds is None:
                return None
            total += phase.rounds
        return total

    def check_counted(self, played: int, cell: str, file: str | None = None, line: int | None = None) -> None:
        """Refuse a cell whose John ran out after ``played`` rounds, every one of them an
        observation round: S would have no rounds (a :class:`~arena.errors.ConfigError`)."""
        from arena.errors import ConfigError

        observation = self.observation_rounds
        if played == 0 or observation is None or played > observation:
            return
        name = f"schedule {self.preset}" if self.preset else "the schedule"
        raise ConfigError(
            f"{cell}: the John ran out after {played} played rounds, all within the {observation} observation "
            f"rounds of {name}: no round is left to count toward S", file=file, line=line, key="schedule",
            hint=f"use fewer observation rounds than {played} (e.g. supervised:{max(1, played // 2)}) "
                 "or give the John more instances")

    def phase_of(self, index: int) -> int | None:
        """The phase of a cell's ``index``-th played round (0-based); ``None`` past the end."""
        start = 0
        for number, phase in enumerate(self.phases):
            if phase.rounds is None or index < start + phase.rounds:
                return number
            start += phase.rounds
        return None


def preset(name: str, rounds: tuple[int, ...] = ()) -> tuple[Phase, ...]:
    """Smith's named schedules (§7) as phases; ``rounds`` are the observation rounds."""
    evaluation = Phase(rounds=None, name="evaluation")
    if name == "zero-observation":
        if rounds:
            raise ConfigError("zero-observation takes no rounds")
        return (evaluation,)
    expected = 2 if name == "semi-supervised" else 1
    if len(rounds) != expected:
        example = "semi-supervised:100+300" if expected == 2 else f"{name}:200"
        raise ConfigError(f"{name} needs {expected} round count(s), e.g. {example}")
    if name == "supervised":
        return (Phase(rounds=rounds[0], transparent=frozenset({"claude"}), counts=False, name="supervised observation"), evaluation)
    if name == "unsupervised":
        return (Phase(rounds=rounds[0], counts=False, name="unsupervised observation"), evaluation)
    if name == "semi-supervised":
        return (
            Phase(rounds=rounds[0], transparent=frozenset({"claude"}), counts=False, name="supervised observation"),
            Phase(rounds=rounds[1], counts=False, name="unsupervised observation"),
            evaluation,
        )
    raise ConfigError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")


class ScheduleError(ConfigError):
    pass


def parse_schedule(value: Any, path: str = "<config>", lines: Mapping[tuple[str, ...], int] | None = None) -> Schedule:
    """Check a raw ``schedule:`` value and map it onto :class:`Schedule`; errors name
    the file, line and key (``schedule.phases.1.rounds``)."""
    fail = _Failure(path, lines or {})
    if isinstance(value, str):
        value = {"preset": value}
    if not isinstance(value, Mapping):
        fail((), f"must be a preset ({', '.join(PRESETS)}) or a mapping with 'phases'")
    unknown = sorted(set(value) - set(SCHEDULE_KEYS))
    if unknown:
        fail((unknown[0],), f"is not a schedule key; allowed keys: {', '.join(SCHEDULE_KEYS)}")
    block_size, window, epsilon = _cutting(value, fail)
    name = value.get("preset")
    if name is not None:
        phases, label = _preset_phases(value, name, fail)
        return Schedule(phases=phases, block_size=block_size, window=window, epsilon=epsilon, preset=label)
    if "rounds" in value:
        fail(("rounds",), "is the observation rounds of a 'preset'; with 'phases' give rounds per phase")
    raw_phases = value.get("phases")
    if not isinstance(raw_phases, list) or not raw_phases:
        fail(("phases",), "must be a non-empty list of phases ({rounds, transparent, counts})")
    last = len(raw_phases) - 1
    phases = tuple(_phase(raw, ("phases", str(number)), number == last, fail) for number, raw in enumerate(raw_phases))
    if not any(phase.counts and phase.rounds != 0 for phase in phases):
        fail(("phases",), "has no evaluation phase (a phase with counts: true and rounds > 0 or null); S would be empty")
    return Schedule(phases=phases, block_size=block_size, window=window, epsilon=epsilon)


class _Failure:
    """Raises a :class:`ScheduleError` naming the file, the line of the nearest key that
    has one, and the dotted key (``schedule.phases.1.rounds``)."""

    def __init__(self, path: str, lines: Mapping[tuple[str, ...], int]):
        self.path = path
        self.lines = lines

    def __call__(self, keys: tuple[str, ...], message: str) -> NoReturn:
        for cut in range(len(keys), 0, -1):  # the nearest key that has a line
            line = self.lines.get(("schedule", *keys[:cut]))
            if line:
                break
        else:
            line = self.lines.get(("schedule",))
        where = f"{self.path}:{line}" if line else self.path
        raise ScheduleError(f"{where}: '{'.'.join(('schedule', *keys))}' {message}")


def _cutting(value: Mapping[str, Any], fail: _Failure) -> tuple[int, int | None, float]:
    """``block_size``, ``window`` and ``epsilon``, checked."""
    block_size = value.get("block_size", DEFAULT_BLOCK_SIZE)
    if not _positive_int(block_size):
        fail(("block_size",), f"must be an integer ≥ 1, not {block_size!r}")
    window = value.get("window")
    if window is not None and not _positive_int(window):
        fail(("window",), f"must be an integer ≥ 1 or null, not {window!r}")
    epsilon = value.get("epsilon", DEFAULT_EPSILON)
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0 < epsilon < 1:
        fail(("epsilon",), f"must be a number between 0 and 1, not {epsilon!r}")
    return block_size, window, float(epsilon)


def _preset_phases(value: Mapping[str, Any], name: Any, fail: _Failure) -> tuple[tuple[Phase, ...], str]:
    """The phases of ``preset: name`` (``supervised:200`` or ``rounds: 200``) and the
    preset's name as the schedule records it."""
    if "phases" in value:
        fail(("phases",), "give either 'preset' or 'phases', not both")
    if not isinstance(name, str):
        fail(("preset",), f"must be one of {', '.join(PRESETS)}")
    base, _, counts = name.partition(":")
    try:
        phases = preset(base, _preset_rounds(value.get("rounds", counts or None)))
    except ValueError as error:
        fail(("rounds",) if "rounds" in value else ("preset",), str(error).replace("\n", " "))
    return phases, name if not counts else base


def _phase(raw: Any, key: tuple[str, ...], last: bool, fail: _Failure) -> Phase:
    """One entry of ``phases``, checked; ``last``: the last phase (which may be open-ended)."""
    if not isinstance(raw, Mapping):
        fail(key, "must be a mapping {rounds, transparent, counts}")
    unknown = sorted(set(raw) - set(PHASE_KEYS))
    if unknown:
        fail((*key, unknown[0]), f"is not a phase key; allowed keys: {', '.join(PHASE_KEYS)}")
    if "rounds" not in raw:
        fail(key, "has no 'rounds' (an integer ≥ 0; null for the rest in the last phase)")
    rounds = raw["rounds"]
    if rounds is None:
        if not last:
            fail((*key, "rounds"), "may be null (the rest) only in the last phase")
    elif isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        fail((*key, "rounds"), f"must be an integer ≥ 0, not {rounds!r}")
    transparent = raw.get("transparent", [])
    if isinstance(transparent, str):
        transparent = [transparent]
    if not isinstance(transparent, list):
        fail((*key, "transparent"), f"must be a list of roles ({', '.join(ROLES)})")
    for role_index, role in enumerate(transparent):
        if role not in ROLES:
            fail((*key, "transparent", str(role_index)), f"names unknown role {role!r}; roles: {', '.join(ROLES)}")
    counts = raw.get("counts", True)
    if not isinstance(counts, bool):
        fail((*key, "counts"), f"must be true or false, not {counts!r}")
    label = raw.get("name", "evaluation" if counts else "observation")
    if not isinstance(label, str):
        fail((*key, "name"), "must be a string")
    return Phase(rounds=rounds, transparent=frozenset(transparent), counts=counts, name=label)


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _preset_rounds(value: Any) -> tuple[int, ...]:
    if value is None:
        return ()
    parts = str(value).split("+") if isinstance(value, str) else [value]
    result = []
    for part in parts:
        try:
            number = int(part)
        except (TypeError, ValueError):
            raise ConfigError(f"observation rounds must be integers, not {value!r}") from None
        if isinstance(part, bool) or number < 0:
            raise ConfigError(f"observation rounds must be integers ≥ 0, not {value!r}")
        result.append(number)
    return tuple(result)
