"""Shared fixtures: hosts on temporary data directories, a standard Vabanque table, the in-process
Flet harness."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from companion.room import Host
from companion.store import Store

#: Three players in clockwise order. Names are distinctive so a leak search cannot hit UI words.
VABANQUE_PLAYERS: list[dict[str, str]] = [
    {"name": "Alice", "colour": "red"},
    {"name": "Bruno", "colour": "blue"},
    {"name": "Chloe", "colour": "green"},
]
VABANQUE_SEED = 20240611
BASE_URL = "http://referee.test"


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
    from views.app import AppConfig, build_main

    made: list[FletHarness] = []

    def make(host: Host, base_url: str = BASE_URL) -> FletHarness:
        harness = FletHarness(build_main(host, AppConfig(base_url=base_url)))
        made.append(harness)
        return harness

    yield make
    problems: list[str] = []
    for harness in made:
        problems.extend(harness.problems())
        await harness.aclose()
    assert not problems, "\n".join(problems)
