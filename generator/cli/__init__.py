"""The ``damas`` command line (the contract is the README's command list), one module per command group.

``main()`` is the entry point.  The ``cli`` group (``app.py``) lists every command by name and imports a
command's module only when that command runs, so the engine commands start without loading the
course, rendering or PDF machinery.
"""

from __future__ import annotations

from .app import EXIT_CONTENT, EXIT_USAGE, cli, main

__all__ = ["EXIT_CONTENT", "EXIT_USAGE", "cli", "main"]
