"""Aggregation and statistics: per-cell outcomes from transcripts, S and contrastive
accuracy with bootstrap CIs, paired tests, metrics, LingEval97 bins and false-positive analysis.
"""
