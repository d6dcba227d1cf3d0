"""Lessons planned during the check (``build.LessonPlans``) make the same site as lessons planned
after it, and a lesson that fails its check is not planned."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from generator import build as stages


def test_lessons_planned_during_the_check_make_the_same_site(lessons_dir: Path, tmp_path: Path) -> None:
    config = stages.configure(tmp_path / "out", lessons=[lessons_dir], formats=["html", "pdf"])
    checked = stages.check(config, stages.collect(config))
    assert len(checked.lessons) >= 3
    assert len(checked.plans.planned) == len(checked.lessons), "every lesson was planned while checked"
    early = stages.render(config, checked)
    late = stages.render(config, dataclasses.replace(checked, plans=stages.LessonPlans(None)))
    assert early.svgs and dict(early.svgs) == dict(late.svgs)
    assert early.pages and early.pages == late.pages
    assert early.pdfs and [j.data for j in early.pdfs] == [j.data for j in late.pdfs]


def test_a_lesson_that_fails_or_is_not_built_is_not_planned(lessons_dir: Path) -> None:
    files = sorted(lessons_dir.rglob("*.yaml"))
    assert len(files) >= 2
    broken = files[0]
    broken.write_text(broken.read_text(encoding="utf-8").replace("title:", "title: [", 1), encoding="utf-8")
    plans = stages.LessonPlans(None)
    assert plans.check_file(broken, None)[1], "the broken lesson has errors"
    checked, errors = plans.check_file(files[1], None)
    assert checked is not None and not errors
    assert list(plans.planned) == [id(checked)]
    other = stages.LessonPlans({"no-such-variant"})
    other.check_file(files[1], None)
    assert other.planned == {}
