"""``python -m generator.cli``: the damas command line."""

import sys

from . import main

sys.exit(main())
