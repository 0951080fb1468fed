"""``breakdowns:`` keys checked against what the performers say they give, before anything is
built, by ``arena validate`` and ``arena run`` alike (:func:`arena.engine.manifest.validate`).

A ``john.KEY`` breakdown reads the instances' metadata; it is refused when every John declares
its instance keys (:class:`arena.roles.MetaDeclaring`) and none has ``KEY``.  A variant
breakdown ``KEY`` reads the variants' metadata; it is refused when every Zellig is ``replay``
(which passes on the John's variants and their metadata), every John declares its variants'
keys and none has ``KEY``.  Where a performer cannot say (a Zellig that makes its own variants,
a John without the declaration), the key is taken on trust.
"""

from __future__ import annotations

from typing import Any

from arena.errors import ConfigError

JOHN_PREFIX = "john."
REPLAY = "replay"


def check_breakdowns(experiment: Any, classes: dict[str, list[type]]) -> None:
    """A :class:`ConfigError` at the ``breakdowns`` line for a key no performer gives;
    ``classes`` maps ``johns``/``zelligs`` to the resolved classes in config order."""
    if not experiment.breakdowns:
        return
    from arena.roles import MetaDeclaring

    declared = [cls.declared_meta(dict(spec.params)) if isinstance(cls, MetaDeclaring) else (None, None)
                for cls, spec in zip(classes["johns"], experiment.johns)]
    replayed = all(spec.name == REPLAY for spec in experiment.zelligs)
    for key in experiment.breakdowns:
        if key.startswith(JOHN_PREFIX):
            known = _union([instance for instance, _ in declared])
            name, what = key[len(JOHN_PREFIX):], "instance metadata"
        else:
            known = _union([variant for _, variant in declared]) if replayed else None
            name, what = key, "variant metadata (which replay passes on)"
        if known is not None and name not in known:
            raise ConfigError(f"{experiment.where('breakdowns')}: breakdowns: {key!r}: no John gives {what} "
                              f"{name!r} (they give: {', '.join(sorted(known)) or 'none'})", key="breakdowns",
                              hint="name a column of the pairs file or a key the performers record; "
                                   "john.KEY for the John's instance metadata")


def _union(sets: list[frozenset[str] | None]) -> frozenset[str] | None:
    """The union of every John's keys, ``None`` when one of them cannot say."""
    if any(keys is None for keys in sets):
        return None
    return frozenset().union(*sets)  # type: ignore[arg-type]
