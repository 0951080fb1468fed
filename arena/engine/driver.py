"""The engine's one hook for what plays above it: a :class:`Driver` plans and plays a
run's blocks one at a time (the game, :class:`arena.game.play.Game`).

The engine knows blocks, sessions and the run store; it knows nothing of schedules,
phases, visibility or observers.  Without a driver it plays a run's static plan (every
round planned up front) as one wave.  With one, it hands the driver the run's one
:class:`~arena.engine.session.Session` (its backend and :class:`~arena.record.store.RunStore`
included) and the manifest; the driver plans each block from the pure, precomputed
corruptions (:func:`arena.engine.plan.corrupt`), plays it with
:meth:`Session.play <arena.engine.session.Session.play>`, reads the block's judgements
back (:meth:`Session.judgements <arena.engine.session.Session.judgements>`), lets its
performers observe them, plans the next, and at the end writes the plan (the rounds of
every block, in transcript order) through the store.  The engine then decodes the
1-bests, assembles the transcripts and scores them, as for any run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from arena.engine.session import Session
    from arena.record.manifest import Manifest
    from arena.record.rounds import Round


@runtime_checkable
class Driver(Protocol):
    """Plans and plays the blocks of a run on the engine, block by block."""

    def manifest(self) -> dict[str, Any]:
        """Entries ``manifest.json`` records beside the engine's (e.g. the game's schedule)."""
        ...

    def play(self, session: Session, manifest: Manifest) -> list[Round]:
        """Play (or resume) every block through ``session``; write ``manifest`` before the
        first block (:meth:`RunStore.write_manifest <arena.record.store.RunStore.write_manifest>`)
        and the plan with it at the end (:meth:`RunStore.write_plan
        <arena.record.store.RunStore.write_plan>`); return every round in transcript order,
        each carrying its block number (:func:`arena.record.order.blocks` regroups them)."""
        ...
