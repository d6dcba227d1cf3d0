"""Worksheets on demand (``damas worksheet``): puzzles picked from the course or from given lesson
files by variant, theme and level, deterministically for a seed, printed as the books print them
(worksheet and answer key), with a header for the title, the class and the date.

* :mod:`.gather`: the proven puzzles of the lessons, planned as the books plan them;
* :mod:`.pick`: the filters and the seeded choice (pure, no files);
* :mod:`.write`: the PDF pair (Typst, the books' templates) or the HTML pair.
"""

from __future__ import annotations

from .gather import Candidate, gather
from .pick import Filters, NotEnough, pick
from .write import Sheet, write_sheet

__all__ = ["Candidate", "Filters", "NotEnough", "Sheet", "gather", "pick", "write_sheet"]
