"""The words damas.js shows (status lines, text alternatives, editor errors), in the page's language.

The script carries no text of its own: the build writes these, from the catalog, as JSON into each
page that loads it (``templates/html/_scripts.html.j2``); ``%(name)s`` is filled in by the script.
Sentences whose subject is a side come in two keys (``_w``, ``_b``): languages agree the verb with it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..i18n import N_, translator
from .svg import description_words

JS_WORDS = {
    "selected": N_("Text selected: copy it with Ctrl+C."),
    "copied": N_("Copied."),
    "line_start": N_("Start of the line."),
    "move_of": N_("Move %(num)s of %(count)s: %(move)s."),
    "move_piece": N_("Move the piece from %(from)s to %(to)s"),
    "piece_chosen": N_("Piece on %(square)s chosen: click again to undo"),
    "choose_piece": N_("Choose the piece on %(square)s"),
    "board_moves": N_("Pieces you can move (arrow keys go from one to the next)"),
    "which_way": N_("Which way?"),
    "solved": N_("Correct! You solved the puzzle."),
    "good_move_w": N_("Good move: %(move)s. White replies…"),
    "good_move_b": N_("Good move: %(move)s. Black replies…"),
    "reply_your_turn_w": N_("White replied %(move)s. Your turn."),
    "reply_your_turn_b": N_("Black replied %(move)s. Your turn."),
    "other_defences": N_("(Start again to meet the other defenses: %(count)s more.)"),
    "also_wins": N_("The move %(move)s wins too, but the stored solution takes another way: try another."),
    "not_this": N_("Not this move: %(move)s."),
    "they_reply_w": N_("White replies %(reply)s (%(line)s)."),
    "they_reply_b": N_("Black replies %(reply)s (%(line)s)."),
    "try_again": N_("Try again"),
    "play_as_w": N_("Play as White: choose a piece, then the square it goes to."),
    "play_as_b": N_("Play as Black: choose a piece, then the square it goes to."),
    "played_w": N_("White played %(move)s."),
    "played_b": N_("Black played %(move)s."),
    "already_solved": N_("You have already solved this puzzle."),
    "the_solution": N_("The solution: use the buttons to see each move."),
    "white man": N_("white man"),
    "white king": N_("white king"),
    "black man": N_("black man"),
    "black king": N_("black king"),
    "empty": N_("empty"),
    "switch_clears": N_("Switch to %(variant)s? The board starts empty: the pieces placed so far are removed."),
    "fen_empty": N_("Empty FEN (write start for the starting position)."),
    "fen_side": N_("The side to move must be W or B, not '%(got)s'."),
    "not_square_alg": N_("'%(got)s' is not a square (write a letter and a number, like c3)."),
    "not_playable": N_("The square '%(got)s' is not a playing square of this board."),
    "not_number": N_("'%(got)s' is not the number of a square."),
    "no_such_square": N_("Square %(num)s does not exist (1-%(max)s)."),
    "expected_list": N_("Expected a list of pieces starting with W or B: '%(got)s'."),
    "white_twice": N_("The white pieces appear twice."),
    "black_twice": N_("The black pieces appear twice."),
    "ranges_numbered": N_("Ranges like '%(got)s' only work on numbered boards."),
    "range_backwards": N_("The range '%(got)s' is backward."),
    "square_twice": N_("Square %(num)s appears twice."),
    "white_on_crown": N_("White man on %(square)s, its king row (it would be a king)."),
    "black_on_crown": N_("Black man on %(square)s, its king row (it would be a king)."),
    "lists_missing": N_("The lists of pieces are missing (something like W:W31-50:B1-20)."),
    "too_many": N_("Too many pieces: %(count)s; at most %(max)s fit."),
    "would_be_king": N_("A man on that row would already be a king: choose the king."),
    "too_many_each": N_("Too many pieces: at most %(max)s of each color fit."),
    "fen_read": N_("FEN read."),
}
"""Key used by damas.js -> English msgid."""


@cache
def js_words(language: str) -> dict[str, Any]:
    """The script's words in ``language`` (a msgid the catalog lacks is an error, as everywhere),
    with the words of a position's description (``describe``) as the diagrams write them."""
    tr = translator(language)
    out: dict[str, Any] = {key: tr.gettext(msgid) for key, msgid in JS_WORDS.items()}
    for key, n in (("captured_one", 1), ("captured_many", 2)):
        out[key] = tr.ngettext("Captured: %(squares)s.", "Captured: %(squares)s.", n)
    out["describe"] = description_words(language)
    return out
