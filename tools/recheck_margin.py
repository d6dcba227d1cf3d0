"""Re-prove every puzzle of lesson files with a wider cook margin (the books' standard), one
puzzle at a time, and print the cooked ones with the cook the check names.

    python tools/recheck_margin.py lessons/american/exercicios.yaml [--margin 8]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.lessons.check import check_text


def recheck(path: Path, margin: int, only: set[str] | None = None) -> int:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    bad = 0
    for p in doc.get("puzzles") or []:
        if only and p["id"] not in only:
            continue
        one = {k: v for k, v in p.items() if k not in ("margin", "margin_reason")}
        one.update(margin=margin, margin_reason="book standard")
        lesson = {k: doc[k] for k in ("variant", "language", "title", "slug") if k in doc}
        lesson.update(summary="x", sections=[{"title": "x", "text": "x"}], puzzles=[one])
        for key in ("draw_profile",):
            if key in doc:
                lesson[key] = doc[key]
        started = time.perf_counter()
        _, errors = check_text(yaml.safe_dump(lesson, allow_unicode=True, sort_keys=False), f"{path}#{p['id']}")
        took = time.perf_counter() - started
        status = "ok" if not errors else "FAIL " + "; ".join(e.message for e in errors)
        if errors:
            bad += 1
        print(f"{p['id']}\t{len(p['solution'])}\t{took:.1f}s\t{status}", flush=True)
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--margin", type=int, default=8)
    parser.add_argument("--only", default="")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    bad = sum(recheck(f, args.margin, only) for f in args.files)
    print(f"{bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
