"""With REQUIRE_BROWSER=1 (CI), a skipped or missing browser test fails the run.

A browser test that quietly skips on a machine without Chromium would let CI pass while proving
nothing about the pages people actually use.

On several workers (pytest-xdist) the controller decides: it sees every worker's reports through
pytest_runtest_logreport, and its exit status is the run's. A worker sees only its own tests (it may
run no browser test at all), so it leaves the verdict alone.
"""

from __future__ import annotations

import os

import pytest

_skipped: list[str] = []
_ran: list[str] = []


def _required() -> bool:
    return os.environ.get("REQUIRE_BROWSER") == "1"


def _worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "browser" not in report.keywords:
        return
    if report.skipped:  # an xfailed browser test counts as skipped too: known bugs get fixed, not hidden
        _skipped.append(report.nodeid)
    elif report.when == "call":
        _ran.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _required() or session.config.option.collectonly or _worker(session.config):
        return
    if _skipped or not _ran:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = f"REQUIRE_BROWSER=1 but browser tests skipped: {_skipped}" if _skipped else "REQUIRE_BROWSER=1 but no browser test ran"
        if reporter:
            reporter.write_line(message, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
