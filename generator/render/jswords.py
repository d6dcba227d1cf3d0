"""The words damas.js shows (status lines, editor errors), in the page's language.

The script carries no text of its own: the build writes these, from the catalog, as JSON into each
page that loads it (``templates/html/_scripts.html.j2``); ``%(name)s`` is filled in by the script.
"""

from __future__ import annotations

from functools import cache

from ..i18n import N_, translator

JS_WORDS = {
    "selected": N_("Text selected: copy it with Ctrl+C."),
    "line_start": N_("Start of the line."),
    "move_of": N_("Move %(num)s of %(count)s: %(move)s."),
    "move_piece": N_("Move the piece from %(from)s to %(to)s"),
    "piece_chosen": N_("Piece on %(square)s chosen: click again to undo"),
    "choose_piece": N_("Choose the piece on %(square)s"),
    "which_way": N_("Which way?"),
    "solved": N_("Correct! You solved the puzzle."),
    "good_move": N_("Good move: %(move)s. %(side)s replies…"),
    "reply_your_turn": N_("%(side)s replies %(move)s. Your turn."),
    "also_wins": N_("The move %(move)s wins too, but the stored solution takes another way: try another."),
    "not_this": N_("Not this move: %(move)s."),
    "after_reply": N_("After %(move)s, %(side)s replies %(reply)s."),
    "they_reply": N_("%(side)s replies %(reply)s (%(line)s)."),
    "try_again": N_("Try again"),
    "play_as": N_("Play as %(side)s."),
    "already_solved": N_("You have already solved this puzzle."),
    "the_solution": N_("The solution: use the buttons to see each move."),
    "white man": N_("white man"),
    "white king": N_("white king"),
    "black man": N_("black man"),
    "black king": N_("black king"),
    "empty": N_("empty"),
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
def js_words(language: str) -> dict[str, str]:
    """The script's words in ``language`` (a msgid the catalog lacks is an error, as everywhere)."""
    tr = translator(language)
    return {key: tr.gettext(msgid) for key, msgid in JS_WORDS.items()}
