"""What to play: experiment configs (YAML onto dataclasses), performer SPECs, the
registry that resolves them against a catalog, declared types checked without building
anything, bounded YAML/JSON loading, run signatures and the performers' conformance checks.
"""
