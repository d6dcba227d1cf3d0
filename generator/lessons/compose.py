"""Compose a variant's exercise book from its current puzzles and new mined candidates, to the book
rules (generator/puzzles/book_rules.py) and the books' 8-ply cook margin
(``damas book compose VARIANT --candidates mined.yaml ... [--size 100] [--write]``, docs/mining.md).

Every puzzle, old or new, is proven again with the book margin (``damas check``'s own code on a
one-puzzle lesson); a line that wins the game is re-proven as ``win``; the per-puzzle rules drop
won endings and gains that take first; near-duplicates are judged against the whole course (the
deeper kept); the level comes from :mod:`generator.puzzles.difficulty`.  A person's caption is kept
when the caption audit finds nothing false in it, else the hint written from the proof replaces it
(in both languages).  New puzzles get hints written from the proof.  With ``--write`` the book's
``exercicios.yaml`` (and its English twin) are rewritten, easiest first; without, a report only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..puzzles import book_rules
from ..puzzles.caption_audit import audit_caption
from ..puzzles.difficulty import measure
from ..puzzles.hints import hint
from ..puzzles.line_facts import LineFacts, line_facts
from ..puzzles.themes import THEMES
from ..rules import Variant
from ..rules.position import Position
from .books import books
from .check import check_text

MARGIN = 8
BUDGET = 5_000_000
MARGIN_REASON = (
    "a printed book: no other first move may reach the goal within 8 plies past the printed line "
    "(docs/mining.md, 'The books' standard')"
)


@dataclass
class Item:
    """A puzzle on its way into the book: its YAML, the facts of its line, whether the book had it."""

    data: dict[str, Any]
    facts: LineFacts
    old: bool
    en_caption: str | None = None
    level: int = 0
    themes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def plies(self) -> int:
        return len(self.facts.moves)

    @property
    def real(self) -> bool:
        return (self.data.get("source") or {}).get("kind") == "pdn"


def moves_of(solution: list[Any]) -> list[str]:
    """The moves of a solution written as plain moves or as ``{move: ..., others: ...}``."""
    return [m if isinstance(m, str) else m["move"] for m in solution]


def prove(variant: str, puzzle: dict[str, Any], head: dict[str, Any]) -> tuple[Any, list[str]]:
    """damas check on a one-puzzle lesson with the book's margin and budget."""
    one = {k: v for k, v in puzzle.items() if k not in ("margin", "margin_reason", "difficulty", "themes")}
    one["id"] = "candidate"
    lesson = {
        "variant": variant,
        "language": "pt-BR",
        "title": "x",
        "slug": "x",
        "margin": MARGIN,
        "margin_reason": "book",
        "proof_budget": BUDGET,
        "sections": [{"title": "x", "text": "x"}],
        "puzzles": [one],
    }
    if head.get("draw_profile"):
        lesson["draw_profile"] = head["draw_profile"]
    checked, errors = check_text(yaml.safe_dump(lesson, allow_unicode=True, sort_keys=False), "<book>")
    proof = next(iter(checked.puzzle_proofs.values()), None) if checked is not None else None
    return proof, [e.message for e in errors]


def admit(variant: str, item: Item, head: dict[str, Any]) -> bool:
    """Prove, upgrade an understated stipulation, apply the rules; False when the puzzle goes."""
    p = item.data
    goal = p["stipulation"].split(":")[0]
    if book_rules.understated(item.facts, goal):
        trial = dict(p, stipulation="win")
        proof, errors = prove(variant, trial, head)
        if not errors:
            p["stipulation"] = "win"
            item.notes.append("stipulation raised to win")
        else:
            item.notes.append(f"wins the game on the line but not against every defence: {errors[0][:80]}")
            return False
    verdict = book_rules.judge(item.facts, p["stipulation"])
    if not verdict.ok:
        item.notes.extend(verdict.reasons)
        return False
    proof, errors = prove(variant, p, head)
    if errors:
        item.notes.append(errors[0][:160])
        return False
    engine_tags = list(proof.themes)
    kept = [t for t in p.get("themes") or [] if t not in THEMES]
    kept = [t for t in kept if not book_rules.theme_problems(item.facts, [t])]
    item.themes = engine_tags + [t for t in kept if t not in engine_tags]
    item.level = measure(item.facts).level
    return True


def load_candidates(paths: list[Path], variant: str) -> list[dict[str, Any]]:
    """The puzzles of ``damas mine`` outputs, or of their checkpoints (a run still going)."""
    out: list[dict[str, Any]] = []
    for path in paths:
        if path.suffix == ".jsonl":
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                out.extend(record.get("puzzles") or [])
        else:
            out.extend(yaml.safe_load(path.read_text(encoding="utf-8")).get("puzzles") or [])
    return out


def source_id(p: dict[str, Any], variant: str) -> str:
    """An id that says where the puzzle comes from (archive game and move, or self-play seed and ply)."""
    s = p.get("source") or {}
    if s.get("kind") == "pdn" and s.get("game"):
        return f"acf-{int(s['game']):04d}-{s.get('move', 0)}"
    if s.get("kind") == "self-play":
        return f"sp-{s.get('seed')}-{s.get('ply')}"
    return p.get("id", "x")


def clean_source(s: dict[str, Any]) -> dict[str, Any]:
    """The provenance the answer key prints, without the miner's file paths."""
    if s.get("kind") == "pdn" and s.get("game"):
        return {"kind": "pdn", "event": s.get("event", "ACF archive"), "game": int(s["game"]), "move": s["move"]}
    return s


@dataclass
class Plan:
    """What ``damas book compose`` was asked for."""

    variant: Variant
    lessons: Path
    candidates: list[Path]
    size: int = 100
    real_share: float = 0.0
    write: bool = False


def compose(plan: Plan, say: Callable[[str], None]) -> list[Item]:
    """Prove and judge the book's puzzles and the candidates, choose the book, write it when asked.

    Returns the chosen puzzles; ``say`` hears the figures and every dropped puzzle with its reason.
    """
    v = plan.variant
    folder = plan.lessons / v.name
    pt_path, en_path = folder / "exercicios.yaml", folder / "en" / "exercises.yaml"
    pt_text = pt_path.read_text(encoding="utf-8")
    head = yaml.safe_load(pt_text)
    en_doc = yaml.safe_load(en_path.read_text(encoding="utf-8")) if en_path.exists() else None
    items = gather(v, head, en_doc, plan.candidates)
    others, rest_of_book = course_around(v, plan.lessons)
    kept, dropped = sift(v, head, items, others, 3 * plan.size)
    report: list[str] = []
    choose(kept, plan, rest_of_book, report.append)
    report.extend(f"dropped {it.data['id']}: {'; '.join(it.notes)}" for it in dropped)
    if plan.write:  # before the report: a reader that stops reading (``| head``) must not stop the write
        write(pt_path, en_path, pt_text, en_doc, kept)
    for line in report:
        say(line)
    return kept


def gather(v: Variant, head: dict[str, Any], en_doc: Any, candidates: list[Path]) -> list[Item]:
    """The book's puzzles (old, with their English captions), then the new candidates, each once."""
    en_caps = {p["position"]: p.get("caption") for p in (en_doc or {}).get("puzzles", [])}
    items: list[Item] = []
    for p in head["puzzles"]:
        facts = line_facts(Position.from_fen(v, p["position"]), moves_of(p["solution"]))
        items.append(Item(dict(p), facts, True, en_caps.get(p["position"])))
    known = {p["position"] for p in head["puzzles"]}
    for p in load_candidates(candidates, v.name):
        if p["position"] in known:
            continue
        known.add(p["position"])
        facts = line_facts(Position.from_fen(v, p["position"]), moves_of(p["solution"]))
        q = {k: p[k] for k in ("position", "stipulation", "solution")}
        q["id"] = source_id(p, v.name)
        q["source"] = clean_source(p.get("source") or {})
        items.append(Item(q, facts, False))
    return items


def course_around(v: Variant, lessons: Path) -> tuple[list[LineFacts], list[int]]:
    """The rest of the course a new puzzle must not repeat (every other book: the near-duplicate
    rule itself says which boards compare, and this variant's other lessons), and the line lengths
    of this variant's other puzzle lessons (they count in the book's mix of lengths)."""
    course = books(lessons)
    others = [
        e.facts
        for name, entries in course.items()
        for e in entries
        if not (name == v.name and e.lesson == "exercicios")
    ]
    rest = [len(e.facts.moves) for e in course.get(v.name, []) if e.lesson != "exercicios"]
    return others, rest


def sift(
    v: Variant, head: dict[str, Any], items: list[Item], others: list[LineFacts], enough: int
) -> tuple[list[Item], list[Item]]:
    """Old puzzles first, then the candidates longest first (the books lack long lines): drop
    near-duplicates of the course (the deeper kept) and what fails the proof or a rule; stop once
    ``enough`` new puzzles are kept."""
    kept: list[Item] = []
    dropped: list[Item] = []
    for it in sorted(items, key=lambda it: (not it.old, -it.plies)):
        if any(book_rules.near_duplicate(it.facts, of) for of in others):
            it.notes.append("near-duplicate of a puzzle elsewhere in the course")
            dropped.append(it)
            continue
        twin = next((k for k in kept if book_rules.near_duplicate(it.facts, k.facts)), None)
        if twin is not None and book_rules.keep_deeper(twin.facts, it.facts) is twin:
            it.notes.append(f"near-duplicate of {twin.data['id']}")
            dropped.append(it)
            continue
        if not admit(v.name, it, head):
            dropped.append(it)
            continue
        if twin is not None:
            kept.remove(twin)
            twin.notes.append(f"near-duplicate of the deeper {it.data['id']}")
            dropped.append(twin)
        kept.append(it)
        if sum(not k.old for k in kept) >= enough:
            break
    return kept, dropped


LONG_TARGET = 0.30
SHORT_MOST = 0.20
"""The composer aims inside the book rules' 25 % bounds (at least 30 % long lines, at most 20 %
3-ply), so that a later edit of one or two puzzles does not tip the book over a bound."""


def choose(kept: list[Item], plan: Plan, rest_of_book: list[int], say: Callable[[str], None]) -> None:
    """Cut the kept puzzles to the book: the size, the real-game share, then the length mix.

    Real-game puzzles first (when a share is asked), then long lines up to 30 % of the whole book
    (its other lessons included), mid-length lines, and 3-ply lines up to 20 %; among equals the
    old puzzles (their captions were written by a person) before the new."""
    size = plan.size
    total = size + len(rest_of_book)
    chosen = pick_real(kept, math.ceil(plan.real_share * size))
    by_length = sorted((k for k in kept if k not in chosen), key=lambda k: (not k.old, -k.plies))
    longs = [k for k in by_length if k.plies >= 7]
    mids = [k for k in by_length if 3 < k.plies < 7]
    shorts = [k for k in by_length if k.plies <= 3]
    have_long = sum(k.plies >= 7 for k in chosen) + sum(n >= 7 for n in rest_of_book)
    have_short = sum(k.plies <= 3 for k in chosen) + sum(n <= 3 for n in rest_of_book)
    want_long = max(0, math.ceil(LONG_TARGET * total) - have_long)
    room_short = max(0, math.floor(SHORT_MOST * total) - have_short)
    chosen += longs[:want_long]
    chosen += mids[: max(0, size - len(chosen) - room_short)]
    chosen += shorts[: max(0, min(room_short, size - len(chosen)))]
    leftovers = [k for k in longs + mids + shorts if k not in chosen]
    chosen += leftovers[: max(0, size - len(chosen))]
    proven_new = sum(not k.old for k in kept)
    kept[:] = chosen
    mix = book_rules.length_mix([*(k.plies for k in chosen), *rest_of_book])
    real = sum(k.real for k in chosen)
    say(
        f"chosen {len(chosen)} (old {sum(k.old for k in chosen)}, real {real}), book 3-ply {mix.short_share:.0%}, "
        f"7+ {mix.long_share:.0%}; {proven_new} new candidates passed"
    )


def pick_real(kept: list[Item], want: int) -> list[Item]:
    """``want`` real-game puzzles: long lines first, then mid-length ones, few 3-ply (an eighth)."""
    if not want:
        return []
    new = [k for k in kept if not k.old and k.real]
    longs = [k for k in new if k.plies >= 7]
    mids = [k for k in new if 3 < k.plies < 7]
    shorts = [k for k in new if k.plies <= 3]
    chosen = longs[: want // 2] + mids
    chosen = chosen[: want - want // 8] + shorts[: want // 8]
    chosen += [k for k in longs + mids + shorts if k not in chosen][: max(0, want - len(chosen))]
    return chosen


def caption_for(it: Item, language: str) -> str:
    """A person's caption when the audit finds nothing false in it, else the hint from the proof."""
    goal = it.data["stipulation"].split(":")[0]
    written = (it.data.get("caption") if language == "pt-BR" else it.en_caption) if it.old else None
    if written and not audit_caption(written, it.facts, language):
        return " ".join(written.split())
    return hint(it.facts, goal, language)


def write(pt_path: Path, en_path: Path, pt_text: str, en_doc: Any, kept: list[Item]) -> None:
    """Rewrite the book (and its English twin, in step), easiest first, keeping each file's head."""
    kept.sort(key=lambda k: (k.level, k.plies))
    seen: dict[str, set[str]] = {"pt-BR": set(), "en": set()}
    puzzles: dict[str, list[dict[str, Any]]] = {"pt-BR": [], "en": []}
    for it in kept:
        for language in ("pt-BR", "en"):
            cap = caption_for(it, language)
            if cap in seen[language]:
                cap = unique(cap, it, language, seen[language])
            seen[language].add(cap)
            p: dict[str, Any] = {"id": it.data["id"], "position": it.data["position"], "caption": cap}
            p["stipulation"] = it.data["stipulation"]
            p["solution"] = it.data["solution"]
            if it.themes:
                p["themes"] = it.themes if language == "pt-BR" else [EN_THEMES.get(t, t) for t in it.themes]
            p["difficulty"] = it.level
            if it.data.get("source"):
                p["source"] = it.data["source"]
            puzzles[language].append(p)
    cut = pt_text.index("\npuzzles:")
    head = book_head(pt_text[:cut])
    pt_path.write_text(head + "\n" + dump({"puzzles": puzzles["pt-BR"]}), encoding="utf-8")
    if en_doc is not None:
        en_text = en_path.read_text(encoding="utf-8")
        en_head = book_head(en_text[: en_text.index("\npuzzles:")])
        en_path.write_text(en_head + "\n" + dump({"puzzles": puzzles["en"]}), encoding="utf-8")


EN_THEMES = {
    "final": "ending",
    "troca": "exchange",
    "três por um": "three-for-one",
    "entrega dupla": "double offer",
    "atração": "attraction",
    "captura em cadeia": "multiple capture",
    "coroação forçada": "breakthrough",
}
"""The authors' own tags in the English twins (the engine's tags are keys, translated when shown)."""


def unique(cap: str, it: Item, language: str, seen: set[str]) -> str:
    """A caption made distinct by its provenance, else its material, else also the length of its
    line (a book never prints one caption twice); the first of these the book has not printed."""
    a, d = it.facts.material(it.facts.attacker).pieces, it.facts.material(it.facts.defender).pieces
    n = len(it.facts.moves)
    s = it.data.get("source") or {}
    if s.get("kind") == "pdn":
        extras = [
            f" (Partida {s['game']} do arquivo da ACF, lance {s['move']}.)"
            if language == "pt-BR"
            else f" (ACF archive, game {s['game']}, move {s['move']}.)"
        ]
    elif language == "pt-BR":
        extras = [f" {a} contra {d}.", f" {a} contra {d}; a solução tem {n} lances."]
    else:
        extras = [f" {a} against {d}.", f" {a} against {d}; the solution is {n} moves long."]
    return next((cap + e for e in extras if cap + e not in seen), cap + extras[-1])


def book_head(text: str) -> str:
    """The lesson's head with the book's margin, its reason and the proof budget set once (an
    earlier composition's keys are dropped with their folded continuation lines)."""
    out: list[str] = []
    dropping = False
    for ln in text.splitlines():
        if ln.startswith(("margin:", "margin_reason:", "proof_budget:")):
            dropping = True
            continue
        if dropping and ln.startswith(" "):
            continue
        dropping = False
        out.append(ln)
        if ln.startswith("order:"):
            out.append(f"margin: {MARGIN}")
            out.append(f"margin_reason: >-\n  {MARGIN_REASON}")
            out.append(f"proof_budget: {BUDGET}")
    return "\n".join(out) + "\n"


def dump(doc: dict[str, Any]) -> str:
    """YAML with a blank line between puzzles (a person reads and edits the book)."""
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100, indent=2)
    return text.replace("\n- id:", "\n\n- id:")
