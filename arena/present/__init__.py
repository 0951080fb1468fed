"""Presentation: console summaries and tables, leaderboards, Markdown/HTML reports and
PNG plots, all fed by the aggregated results.
"""
