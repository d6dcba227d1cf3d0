"""Puzzles: proof search, themes and difficulty (between the rules engine and the lessons).

It reads positions and moves from :mod:`generator.rules` and knows nothing of YAML or rendering.
"""
