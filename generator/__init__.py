"""damas: verified draughts courseware (rules engine, lessons, diagrams, pages and books)."""

__version__ = "0.1.0"
