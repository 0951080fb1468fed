"""The catalog: one table per role, catalog name (kebab-case) → ``"module:Class"``.

Nothing is imported here; the arena imports a performer's module only when a spec
names it.  Add a performer by adding one line to its role's table.
"""

from __future__ import annotations

from arena.registry import Catalog

JOHNS: dict[str, str] = {
}

ZELLIGS: dict[str, str] = {
}

CLAUDES: dict[str, str] = {
}

CATALOG = Catalog(johns=JOHNS, zelligs=ZELLIGS, claudes=CLAUDES)
