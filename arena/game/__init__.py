"""The adversarial game (Smith 2012, §7) above the engine: observation schedules, the
block-by-block driver with observing performers, and S over time (timelines).
"""
