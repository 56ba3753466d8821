"""The type checker and the linter pass: CI runs the tests, so it runs them too
(docs/decisions/types-and-lint.md). Both are pinned in pyproject.toml's dev group and configured
there: mypy strict over companion/ and basic over main.py, ruff over the whole repository.

Run them alone with `uv run mypy` and `uv run ruff check`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*tool: str) -> subprocess.CompletedProcess[str]:
    """The tool of this environment (the pinned one), from the repository root, with its
    configuration from pyproject.toml."""
    return subprocess.run([sys.executable, "-m", *tool], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", "--output-format", "concise")
    assert done.returncode == 0, f"`uv run ruff check` found problems:\n{done.stdout}{done.stderr}"


def test_mypy_finds_nothing() -> None:
    done = run("mypy")
    assert done.returncode == 0, f"`uv run mypy` found problems:\n{done.stdout}{done.stderr}"
    assert "companion" in done.stdout or "Success" in done.stdout, done.stdout
