"""Aggregation and statistics: a run read once (run), per-round outcomes and their
resampling statistics (aggregate), the metric registry (registry), scores.json (metrics)
and the leaderboards (leaderboards) as typed results (results) with one serialiser and a
JSON Schema (schema), LingEval97 bins and the false-positive analysis.
"""
