"""The suite on several workers at once (pytest-xdist, `-n 3 --dist loadgroup` in pyproject.toml's
addopts; docs/decisions/ci-parallel-tests.md). What this plugin adds to xdist:

* Tests sharing a fixture wider than a test (a module's server or browser) run on one worker, one
  after another: each such module is its own xdist group, so the fixture is set up once, as in a
  serial run, and never twice at the same time.
* `@pytest.mark.xdist_group("name")` by hand: tests of different modules that share something of
  the machine (its network interfaces) run on one worker, one after another.
* `@pytest.mark.alone`: a test whose figures are about the machine's time (latency under its own
  load, counts per second) runs with nothing else running: every other worker waits at the start
  of its next test until it is done. A readers-writer lock on a file of the run: every test
  holds it shared, an `alone` test exclusively; a gate taken first keeps a waiting `alone` test
  from being overtaken again and again.
* Browser tests (`browser` marker): at most BROWSER_SLOTS at a time, whatever the number of
  workers. Chromium paints Flutter's canvas on the CPU: four at once on two cores left pages
  without a frame for the 30 s a step waits (two failures in one run of `-n 4`), while many other
  tests mostly wait (for a server, a session to expire, a socket) and can fill the cores between.

`-n 0` runs the suite in this one process, in file order (no lock is taken then).
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: scopes of fixtures that live across tests: tests sharing one are kept on one worker
SHARED_SCOPES = ("class", "module", "package", "session")
LOCK_KEY = "referee_machine_lock"
#: browser tests running at once, at most
BROWSER_SLOTS = 2


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "alone: measures time on the machine: runs while no other test runs (tests/plugins/parallel.py)")
    config.addinivalue_line("markers", "xdist_group(name): tests of one group run on one worker, one after another (pytest-xdist)")


def shares_a_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope in SHARED_SCOPES for defs in info.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None and shares_a_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__ if item.module else item.nodeid.split("::")[0]))


# -- the machine lock: shared by every test, exclusive for an `alone` test ----------------------


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(controller) Every worker locks the same files, made once for the run."""
    config = node.config
    directory = getattr(config, "_referee_lock_dir", None)
    if directory is None:
        directory = tempfile.mkdtemp(prefix="referee-test-lock-")
        config._referee_lock_dir = directory
    node.workerinput[LOCK_KEY] = directory


def _open(directory: str, name: str) -> int:
    return os.open(os.path.join(directory, name), os.O_RDWR | os.O_CREAT, 0o600)


class MachineLock:
    def __init__(self, directory: str, worker: int):
        self.main = _open(directory, "machine")
        self.gate = _open(directory, "gate")
        self.slots = [_open(directory, f"browser-{n}") for n in range(BROWSER_SLOTS)]
        self.worker = worker
        self.slot: int | None = None

    def acquire(self, exclusive: bool, browser: bool) -> None:
        # Through the gate: an `alone` test keeps it while it waits for the running tests to end,
        # so no new test starts meanwhile.
        fcntl.flock(self.gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(self.main, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        finally:
            fcntl.flock(self.gate, fcntl.LOCK_UN)
        if browser:
            for slot in self.slots:  # a free one, else wait for this worker's own
                try:
                    fcntl.flock(slot, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                self.slot = slot
                break
            else:
                self.slot = self.slots[self.worker % BROWSER_SLOTS]
                fcntl.flock(self.slot, fcntl.LOCK_EX)

    def release(self) -> None:
        if self.slot is not None:
            fcntl.flock(self.slot, fcntl.LOCK_UN)
            self.slot = None
        fcntl.flock(self.main, fcntl.LOCK_UN)


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    directory = getattr(item.config, "workerinput", {}).get(LOCK_KEY)
    if directory is None:  # not a worker: nothing else runs beside this test
        yield
        return
    lock = getattr(item.config, "_referee_machine_lock", None)
    if lock is None:
        worker = int(item.config.workerinput.get("workerid", "gw0").removeprefix("gw") or 0)
        lock = item.config._referee_machine_lock = MachineLock(directory, worker)
    lock.acquire(exclusive=item.get_closest_marker("alone") is not None, browser=item.get_closest_marker("browser") is not None)
    try:
        yield  # setup, call and teardown (a module's fixtures end in its last test's teardown)
    finally:
        lock.release()


def pytest_unconfigure(config: pytest.Config) -> None:
    directory = getattr(config, "_referee_lock_dir", None)
    if directory is not None:
        for name in ("machine", "gate", *(f"browser-{n}" for n in range(BROWSER_SLOTS))):
            Path(directory, name).unlink(missing_ok=True)
        os.rmdir(directory)
