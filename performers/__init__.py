"""Concrete performers of the arena: Johns (data), Zelligs (corruptors), Claudes
(discriminators), and the shared German analysis.  :mod:`performers.catalog` maps
catalog names to classes."""
