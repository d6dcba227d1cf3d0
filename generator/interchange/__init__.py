"""Puzzle collections in and out of the course: ``damas import`` (:mod:`.entries`: PDN games and
``FEN ; solution`` lines read as a stream; :mod:`.importer`: each entry proven, the sound ones written
as lessons) and ``damas export`` (:mod:`.export`: the course's puzzles as PDN)."""
