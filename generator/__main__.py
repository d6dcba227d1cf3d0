"""``python -m generator``: the damas command line."""

import sys

from .cli import main

sys.exit(main())
