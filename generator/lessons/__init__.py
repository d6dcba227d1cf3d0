"""Lessons: YAML files with source positions, their JSON Schema, and the verification of every claim.

Knows nothing of SVG or HTML; uses the rules engine to prove what the text says.
"""
