"""Rendering: board diagrams (SVG), single-diagram exports (PNG/PDF), pages and books."""

from .svg import ROLES, THEMES, Arrow, Svg, describe_position, diagram, move_overlay, square_xy

__all__ = ["ROLES", "THEMES", "Arrow", "Svg", "describe_position", "diagram", "move_overlay", "square_xy"]
