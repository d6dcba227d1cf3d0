"""Endgame tables: the exact result of every position of a few pieces (docs/endgames.md).

Layers run rules -> endgame -> puzzles -> lessons: this package reads the engine's variant records
and move generator, and reads and writes the user's cache folder (the engine itself reads no files).

* :mod:`.material`, :mod:`.board`, :mod:`.index`: slices, dense squares, the perfect index;
* :mod:`.retro` (the pure reference) and ``_retro.pyx`` (the compiled kernel): solving one slice;
* :mod:`.store`, :mod:`.tables`: slices on disk, built on demand; :mod:`.probe`: a position's
  value and best moves; :mod:`.claims`: lesson claims combined with the draw rules.
"""
