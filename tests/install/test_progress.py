"""The terminal progress bar of long commands (``generator.cli.app.Progress``)."""

from __future__ import annotations

import io

import pytest

from generator.cli import app


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_finished_stage_leaves_the_bar_and_a_running_one_follows_its_total(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stderr", _Terminal())
    progress = app.Progress()
    update = progress.__enter__()
    try:
        for name in ("1k-1k", "2k-1k", "1k-2k"):
            update(f"{name} levels", 1, 2)
        update("2k-1k levels", 5, 9)  # a solve learns its number of levels as it goes
        update("1k-1k levels", 3, 3)
        shown = {t.description: (t.completed, t.total) for t in progress.bar.tasks}
        assert shown == {"2k-1k levels": (5, 9), "1k-2k levels": (1, 2)}
    finally:
        progress.__exit__(None, None, None)
