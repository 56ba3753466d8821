"""Shared fixtures: hosts on temporary data directories, a standard Vabanque table, the in-process
Flet harness; the fault drills' options (`--soak=SECONDS`, `--drill-seed=N`)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from companion.room import Host
from companion.store import Store

# Test servers serve the web client uncompressed: filling the compressed-variant cache costs
# minutes of background CPU that every other test on a 2-core machine would pay for.
# tests/test_static_compression.py turns it on, with a private cache.
os.environ.setdefault("REFEREE_WEB_COMPRESSION", "0")
# Tests about something else tap for one player after another at machine speed: the handover
# window (views/screen.py HANDOVER_SECONDS) is off for them, servers started by tests included.
# tests/test_handover*.py turn it on.
os.environ.setdefault("REFEREE_HANDOVER_SECONDS", "0")
# A claimed seat whose phone has been away 20 s gets "Play here" on the board (companion.room
# AWAY_PLAY_SECONDS): a timed change of the board, which tests comparing two boards frame by frame
# must not see depending on how fast the machine is. Off here; tests of it set it on the room.
os.environ.setdefault("REFEREE_AWAY_PLAY_SECONDS", "86400")
# Every part of a page reused from its last drawing (views/sections.py) is built again and
# compared with the reused one: a part drawn from more than its props fails the test it is in.
os.environ.setdefault("REFEREE_CHECK_SECTIONS", "1")


def pytest_configure(config: pytest.Config) -> None:
    """Flet's work-arounds applied before any test makes a control, as the server applies them
    before any session: patch 14 lays out each control class before its instances are many
    (a test making dozens of Texts first would leave the class unlaid and fail another test)."""
    from views import flet_patches

    flet_patches.apply()

#: Three players in clockwise order. Names are distinctive so a leak search cannot hit UI words.
VABANQUE_PLAYERS: list[dict[str, str]] = [
    {"name": "Alice", "colour": "red"},
    {"name": "Bruno", "colour": "blue"},
    {"name": "Chloe", "colour": "green"},
]
VABANQUE_SEED = 20240611
BASE_URL = "http://referee.test"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("fault drills")
    group.addoption(
        "--soak",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="run the crash and reconnect drills over and over for about this long (each stops by itself); "
        "0 (default) = their short CI length",
    )
    group.addoption("--drill-seed", type=int, default=None, help="seed of the fault drills' random kill points (default: random, printed)")


@pytest.fixture
def soak(request: pytest.FixtureRequest) -> float:
    """Seconds a fault drill should keep repeating (0: one quick CI round)."""
    return max(0.0, float(request.config.getoption("--soak")))


@pytest.fixture
def drill_seed(request: pytest.FixtureRequest) -> int:
    """The drill's seed: --drill-seed, else a fresh one; printed so a failure can be replayed."""
    import random

    seed = request.config.getoption("--drill-seed")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    print(f"drill seed {seed} (replay: --drill-seed={seed})")
    return seed


def vabanque_setup(**extra: Any) -> dict[str, Any]:
    return {"players": VABANQUE_PLAYERS, **extra}


@pytest.fixture
def make_host(tmp_path: Path) -> Any:
    """A factory of hosts, each on its own data directory; all closed at teardown."""
    hosts: list[Host] = []

    def make(name: str = "host") -> Host:
        host = Host(Store(tmp_path / name / "referee.sqlite3"))
        hosts.append(host)
        return host

    yield make
    for host in hosts:
        host.close()


@pytest.fixture
async def harness_factory() -> AsyncIterator[Callable[..., Any]]:
    """Build `FletHarness`es around `build_main(host, AppConfig(base_url=...))`.

    At teardown every harness is closed and checked: no crashed session, no logged error, no
    client call the fake browser could not answer.
    """
    from tests.harness.flet_inprocess import FletHarness
    from views import flet_patches
    from views.app import AppConfig, build_main

    flet_patches.apply()  # as the server does: events reach controls through the same lookup

    made: list[FletHarness] = []

    def make(host: Host, base_url: str = BASE_URL, data_dir: Path | None = None) -> FletHarness:
        harness = FletHarness(build_main(host, AppConfig(base_url=base_url, data_dir=data_dir)))
        made.append(harness)
        return harness

    yield make
    problems: list[str] = []
    for harness in made:
        problems.extend(harness.problems())
        await harness.aclose()
    assert not problems, "\n".join(problems)
