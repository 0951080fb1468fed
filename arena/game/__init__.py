"""The adversarial game (Smith 2012, §7) above the engine.

It plays what makes a run a game: the observation schedule (parsed from the config's
``schedule:`` by :mod:`arena.specs.schedule`), what each performer may see of a played
round (:mod:`arena.game.visibility`), the block-by-block driver that plans each block,
plays it on the engine and lets observing performers learn (:mod:`arena.game.play`:
:class:`~arena.game.play.Game` is the engine's :class:`~arena.engine.driver.Driver`).
S over time is scored with the rest (:mod:`arena.stats.timeline`).  The engine never
imports this package.
"""
