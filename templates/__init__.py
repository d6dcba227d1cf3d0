"""Templates (Jinja and Typst) as package data.

This folder is the package ``generator._templates``: pyproject.toml maps that name onto it, so the
wheel carries it inside ``generator/`` and the editable install resolves it here.  The file only
makes the folder an importable package for ``importlib.resources``; read it through
``generator.resources``.
"""
