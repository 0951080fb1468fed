"""Zellig performers."""
