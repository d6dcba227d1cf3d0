"""The ``damas`` command line (the contract is the README's command list), one module per command group.

``main()`` is the entry point; the command modules register themselves on the ``cli`` group when imported.
"""

from __future__ import annotations

from . import board, course, endgame, engine, init, mine, play, serve, solve  # noqa: F401  (register their commands)
from .app import EXIT_CONTENT, EXIT_USAGE, cli, main
from .pdn import pdn
from .render import render

cli.add_command(render)
cli.add_command(pdn)

__all__ = ["EXIT_CONTENT", "EXIT_USAGE", "cli", "main"]
