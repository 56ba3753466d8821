"""The server's garbage collector runs less often than CPython's default (main.SERVER_GC_THRESHOLDS:
why, with the figures)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

import main


def test_the_lan_server_sets_the_collectors_thresholds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # lan_server also sets Flet's session timeout in the environment: put back after the test
    monkeypatch.setenv("FLET_SESSION_TIMEOUT", str(main.SESSION_TIMEOUT_SECONDS))
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)  # CPython's default, whatever an earlier test left
        _, host, _ = main.lan_server(main.parse(["--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path)]))
        host.close()
        assert gc.get_threshold() == main.SERVER_GC_THRESHOLDS
        assert main.SERVER_GC_THRESHOLDS[0] > 700
    finally:
        gc.set_threshold(*before)
