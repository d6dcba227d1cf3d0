"""Compose a variant's exercise book from its current puzzles and new mined candidates, to the book
rules (generator/puzzles/book_rules.py) and the books' 8-ply cook margin.

    python tools/compose_book.py american --candidates mined.yaml ... [--size 100] [--write]

Every puzzle, old or new, is proven again with the book margin (``damas check``'s own code on a
one-puzzle lesson); a line that wins the game is re-proven as ``win``; the per-puzzle rules drop
won endings and gains that take first; near-duplicates are judged against the whole course (the
deeper kept); the level comes from :mod:`generator.puzzles.difficulty`.  A person's caption is kept
when the caption audit finds nothing false in it, else the hint written from the proof replaces it
(in both languages).  New puzzles get hints written from the proof.  With ``--write`` the book's
``exercicios.yaml`` (and its English twin) are rewritten, easiest first; without, a report only.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from book_report import books  # noqa: E402

from generator.lessons.check import check_text  # noqa: E402
from generator.puzzles import book_rules  # noqa: E402
from generator.puzzles.caption_audit import audit_caption  # noqa: E402
from generator.puzzles.difficulty import measure  # noqa: E402
from generator.puzzles.hints import hint  # noqa: E402
from generator.puzzles.line_facts import LineFacts, line_facts  # noqa: E402
from generator.puzzles.themes import THEMES  # noqa: E402
from generator.rules.position import Position  # noqa: E402
from generator.rules.variants import get_variant  # noqa: E402

MARGIN = 8
BUDGET = 5_000_000
MARGIN_REASON = (
    "a printed book: no other first move may reach the goal within 8 plies past the printed line "
    "(docs/mining.md, 'The books' standard')"
)


@dataclass
class Item:
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
    out = []
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
    s = p.get("source") or {}
    if s.get("kind") == "pdn" and s.get("game"):
        return f"acf-{int(s['game']):04d}-{s.get('move', 0)}"
    if s.get("kind") == "self-play":
        return f"sp-{s.get('seed')}-{s.get('ply')}"
    return p.get("id", "x")


def clean_source(s: dict[str, Any]) -> dict[str, Any]:
    if s.get("kind") == "pdn" and s.get("game"):
        return {"kind": "pdn", "event": s.get("event", "ACF archive"), "game": int(s["game"]), "move": s["move"]}
    return s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("variant")
    parser.add_argument("--candidates", nargs="*", type=Path, default=[])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--real-share", type=float, default=0.0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    v = get_variant(args.variant)
    folder = ROOT / "lessons" / v.name
    pt_path = folder / "exercicios.yaml"
    en_path = folder / "en" / "exercises.yaml"
    pt_text = pt_path.read_text(encoding="utf-8")
    head = yaml.safe_load(pt_text)
    en_doc = yaml.safe_load(en_path.read_text(encoding="utf-8")) if en_path.exists() else None
    en_caps = {p["position"]: p.get("caption") for p in (en_doc or {}).get("puzzles", [])}

    items: list[Item] = []
    for p in head["puzzles"]:
        facts = line_facts(Position.from_fen(v, p["position"]), moves_of(p["solution"]))
        items.append(Item(dict(p), facts, True, en_caps.get(p["position"])))
    known = {p["position"] for p in head["puzzles"]}
    for p in load_candidates(args.candidates, v.name):
        if p["position"] in known:
            continue
        known.add(p["position"])
        facts = line_facts(Position.from_fen(v, p["position"]), moves_of(p["solution"]))
        q = {k: p[k] for k in ("position", "stipulation", "solution")}
        q["id"] = source_id(p, v.name)
        q["source"] = clean_source(p.get("source") or {})
        items.append(Item(q, facts, False))

    # the rest of the course: other books' puzzles, and this variant's other lessons
    course = books(ROOT / "lessons")
    others = [
        (e.name, e.facts, e.variant)
        for name, entries in course.items()
        for e in entries
        if not (name == v.name and e.lesson == "exercicios")
    ]
    same_rules = {
        name
        for name in course
        if get_variant(name).geometry == v.geometry
        and get_variant(name).men_capture_backward == v.men_capture_backward
        and get_variant(name).flying_kings == v.flying_kings
    }

    # new candidates: the longest lines first (the books lack long lines); old puzzles first of all
    order = sorted(items, key=lambda it: (not it.old, -it.plies))
    kept: list[Item] = []
    dropped: list[Item] = []
    for it in order:
        if any(ov in same_rules and book_rules.near_duplicate(it.facts, of) for _, of, ov in others):
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
        new = [k for k in kept if not k.old]
        if len(new) >= 3 * args.size:
            break
    choose(kept, args)
    for it in dropped:
        print(f"dropped {it.data['id']}: {'; '.join(it.notes)}")
    if args.write:
        write(v.name, pt_path, en_path, pt_text, en_doc, kept)
    return 0


def choose(kept: list[Item], args: argparse.Namespace) -> None:
    """Cut the kept puzzles to the book: the size, the real-game share, the length mix."""
    old = [k for k in kept if k.old]
    new = [k for k in kept if not k.old]
    want_real = math.ceil(args.real_share * args.size)
    chosen: list[Item] = []
    if want_real:
        # the long real-game lines first, then the mid-length ones, few 3-ply
        longs = [k for k in new if k.plies >= 7]
        mids = [k for k in new if 3 < k.plies < 7]
        shorts = [k for k in new if k.plies <= 3]
        chosen = longs[: want_real // 2] + mids
        chosen = chosen[: want_real - want_real // 8] + shorts[: want_real // 8]
        chosen += [k for k in longs + mids + shorts if k not in chosen][: max(0, want_real - len(chosen))]
    room = args.size - len(chosen)
    old_sorted = sorted(old, key=lambda k: (k.plies <= 3, -k.plies))
    chosen += old_sorted[:room]
    kept[:] = chosen
    mix = book_rules.length_mix(k.plies for k in chosen)
    real = sum(k.real for k in chosen)
    print(
        f"chosen {len(chosen)} (old {sum(k.old for k in chosen)}, real {real}), 3-ply {mix.short_share:.0%}, "
        f"7+ {mix.long_share:.0%}; candidates kept {len(new)}, old kept {len(old)}"
    )


def caption_for(it: Item, language: str) -> str:
    goal = it.data["stipulation"].split(":")[0]
    written = (it.data.get("caption") if language == "pt-BR" else it.en_caption) if it.old else None
    if written and not audit_caption(written, it.facts, language):
        return " ".join(written.split())
    return hint(it.facts, goal, language)


def write(variant: str, pt_path: Path, en_path: Path, pt_text: str, en_doc: Any, kept: list[Item]) -> None:
    kept.sort(key=lambda k: (k.level, k.plies))
    seen: dict[str, set[str]] = {"pt-BR": set(), "en": set()}
    puzzles = {"pt-BR": [], "en": []}
    for it in kept:
        for language in ("pt-BR", "en"):
            cap = caption_for(it, language)
            if cap in seen[language]:
                cap = unique(cap, it, language)
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


def unique(cap: str, it: Item, language: str) -> str:
    a, d = it.facts.material(it.facts.attacker).pieces, it.facts.material(it.facts.defender).pieces
    s = it.data.get("source") or {}
    if s.get("kind") == "pdn":
        extra = (
            f" (Partida {s['game']} do arquivo da ACF, lance {s['move']}.)"
            if language == "pt-BR"
            else f" (ACF archive, game {s['game']}, move {s['move']}.)"
        )
    else:
        extra = f" {a} contra {d}." if language == "pt-BR" else f" {a} against {d}."
    return cap + extra


def book_head(text: str) -> str:
    lines = [ln for ln in text.splitlines() if not ln.startswith(("margin:", "margin_reason:", "proof_budget:"))]
    out = []
    for ln in lines:
        out.append(ln)
        if ln.startswith("order:"):
            out.append(f"margin: {MARGIN}")
            out.append(f"margin_reason: >-\n  {MARGIN_REASON}")
            out.append(f"proof_budget: {BUDGET}")
    return "\n".join(out) + "\n"


def dump(doc: dict[str, Any]) -> str:
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100, indent=2)
    return text.replace("\n- id:", "\n\n- id:")


if __name__ == "__main__":
    raise SystemExit(main())
