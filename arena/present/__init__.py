"""Presentation, fed by the typed results (arena.stats.results, arena.stats.leaderboards)
of a run read once: the console (console), the Markdown/HTML report (report, its section
renderers in sections, templates/), the PNG plots (plots) and text tables (tables).
"""
