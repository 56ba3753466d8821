"""Another device on the network: a test host in its own network namespace reaches the real
server over a non-loopback address.

Each test makes a namespace and a veth pair with addresses from the benchmarking range
198.18.0.0/15 (RFC 2544): host side 198.18.N.1/24, namespace side 198.18.N.2/24, N picked free,
names unique per run; everything is deleted afterwards. The server (`main.py`, in a subprocess)
listens on 198.18.N.1 only. The "phone" is a protocol-level Flet client
(benchmarks/flet_client.py) run inside the namespace with `ip netns exec`; its browser storage
(SharedPreferences) lives in a JSON file between runs, as a phone keeps it.

Needs root and iproute2. Without them these tests skip locally and FAIL on CI (CI=true).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from benchmarks.flet_client import FletClient
from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup
from tests.harness.server import ROOT, RefereeServer, prepare_rooms
from views.i18n import translator

#: They add interfaces to this host and take them away: one after another, on the worker that
#: runs the tests reading the host's interfaces (tests/plugins/parallel.py), so no reading
#: sees one come or go, and no two pick one subnet at once.
pytestmark = pytest.mark.xdist_group("host-interfaces")

STEP_TIMEOUT = 60.0
BENCHMARK_NET = ipaddress.ip_network("198.18.0.0/15")


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True, timeout=30)


@dataclass
class LanNet:
    """A namespace `ns` joined to this host by a veth pair on 198.18.N.0/24."""

    ns: str
    host_if: str
    ns_if: str
    subnet: int
    #: the namespace side's last octet now (2 at the start)
    device: int = 2

    @property
    def host_ip(self) -> str:
        return f"198.18.{self.subnet}.1"

    @property
    def device_ip(self) -> str:
        return f"198.18.{self.subnet}.{self.device}"

    def run(self, *command: str, timeout: float = 120.0, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Run a command inside the namespace (as another device on the network)."""
        return subprocess.run(
            ["ip", "netns", "exec", self.ns, *command],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        )

    def move_device(self, last_octet: int) -> None:
        """The device gets another address (a phone rejoining the Wi-Fi, a new DHCP lease)."""
        ip("netns", "exec", self.ns, "ip", "addr", "del", f"{self.device_ip}/24", "dev", self.ns_if)
        self.device = last_octet
        ip("netns", "exec", self.ns, "ip", "addr", "add", f"{self.device_ip}/24", "dev", self.ns_if)


def free_subnet() -> int:
    """A 198.18.N.0/24 that no interface of this machine uses yet."""
    taken = ip("-4", "-o", "addr", "show").stdout
    used = {ipaddress.ip_interface(word).network for word in taken.split() if "/" in word and word[0].isdigit()}
    choices = [n for n in range(1, 255) if not any(net.overlaps(ipaddress.ip_network(f"198.18.{n}.0/24")) for net in used)]
    assert choices, "no free /24 in 198.18.0.0/16"
    return secrets.choice(choices)


def unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"network namespace tests are required on CI: {reason}")
    pytest.skip(reason)


@pytest.fixture
def testnet() -> Iterator[LanNet]:
    if shutil.which("ip") is None:
        unavailable("iproute2 (`ip`) is not installed")
    if os.geteuid() != 0:
        unavailable("creating network namespaces needs root")
    tag = secrets.token_hex(3)
    net = LanNet(ns=f"referee-lan-{tag}", host_if=f"vrh{tag}", ns_if=f"vrn{tag}", subnet=free_subnet())
    assert ipaddress.ip_address(net.host_ip) in BENCHMARK_NET
    created_ns = created_link = False
    try:
        made = ip("netns", "add", net.ns, check=False)
        if made.returncode != 0:
            unavailable(f"`ip netns add` failed: {made.stderr.strip()}")
        created_ns = True
        ip("link", "add", net.host_if, "type", "veth", "peer", "name", net.ns_if)
        created_link = True
        ip("link", "set", net.ns_if, "netns", net.ns)
        ip("addr", "add", f"{net.host_ip}/24", "dev", net.host_if)
        ip("link", "set", net.host_if, "up")
        ip("netns", "exec", net.ns, "ip", "link", "set", "lo", "up")
        ip("netns", "exec", net.ns, "ip", "addr", "add", f"{net.device_ip}/24", "dev", net.ns_if)
        ip("netns", "exec", net.ns, "ip", "link", "set", net.ns_if, "up")
        yield net
    finally:
        if created_link:
            ip("link", "del", net.host_if, check=False)  # takes its peer with it
        if created_ns:
            ip("netns", "del", net.ns, check=False)


@pytest.fixture
def room_and_server(testnet: LanNet, tmp_path: Path) -> Iterator[tuple[dict[str, Any], RefereeServer]]:
    async def script(host: Any) -> dict[str, Any]:
        room = await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED)
        return {"room": room.id, "tokens": [s.token for s in room.seats], "host_token": host.token}

    data_dir = tmp_path / "data"
    info = prepare_rooms(data_dir, script)
    server = RefereeServer(data_dir, host=testnet.host_ip)
    server.start(timeout=120)
    try:
        yield info, server
    finally:
        server.stop()


def fetch_in_namespace(net: LanNet, url: str, accept_language: str = "") -> tuple[int, str]:
    code = (
        "import sys, urllib.request\n"
        "request = urllib.request.Request(sys.argv[1], headers={'Accept-Language': sys.argv[2]})\n"
        "with urllib.request.urlopen(request, timeout=20) as r:\n"
        "    sys.stdout.write(str(r.status) + '\\n' + r.read().decode('utf-8'))\n"
    )
    done = net.run(sys.executable, "-c", code, url, accept_language, timeout=60)
    assert done.returncode == 0, f"fetch {url} from {net.ns} failed:\n{done.stderr}"
    status, _, body = done.stdout.partition("\n")
    return int(status), body


def test_the_check_page_answers_another_device_over_the_lan(testnet: LanNet, room_and_server: Any) -> None:
    _info, server = room_and_server
    assert server.base == f"http://{testnet.host_ip}:{server.port}"
    status, body = fetch_in_namespace(testnet, server.url("/check.json"))
    report = json.loads(body)
    assert status == 200 and report["reached"] is True
    assert report["client_ip"] == testnet.device_ip == f"198.18.{testnet.subnet}.2"
    assert report["host"] == server.base and report["join_url"] == server.base
    assert report["game_url"] == server.base + "/"
    assert any(f"port {server.port}" in cause for cause in report["causes"])

    # the HTML page, in the phone's language (Accept-Language), with the same facts
    status, page = fetch_in_namespace(testnet, server.url("/check"), "ru-RU,ru;q=0.9,en;q=0.5")
    tr = translator("ru")
    assert status == 200 and '<html lang="ru">' in page
    assert tr.t("lan.check.title") in page and tr.t("lan.check.phone", address=testnet.device_ip) in page
    assert "<script" not in page.lower()
    # ?lang= wins over the header
    _status, page = fetch_in_namespace(testnet, server.url("/check", lang="fr"), "ru")
    assert translator("fr").t("lan.check.title") in page


#: The phone: one protocol client run in the namespace. Its storage (prefs) and Flet session id
#: are read from and written back to a JSON file; it opens `route`, waits until every expected
#: line is on the page, and optionally clicks one control, then waits for more lines.
PHONE_SCRIPT = r"""
import asyncio, json, sys
from pathlib import Path
from benchmarks.flet_client import PHONE, FletClient

base, route, state_file, expect, click, after = sys.argv[1], sys.argv[2], Path(sys.argv[3]), json.loads(sys.argv[4]), sys.argv[5], json.loads(sys.argv[6])
TIMEOUT = float(sys.argv[7])

async def main():
    state = json.loads(state_file.read_text()) if state_file.exists() else {"prefs": {}, "session_id": None}
    phone = FletClient(base, route, width=PHONE[0], height=PHONE[1], prefs=state["prefs"], name="phone")
    phone.session_id = state["session_id"]  # a reconnecting Flutter client registers with its old session id
    await phone.connect(TIMEOUT)
    result = {"session_before": state["session_id"]}
    try:
        await phone.wait_for(lambda c: all(line in c.texts() for line in expect), TIMEOUT, what=f"phone showing {expect}")
        result["texts"] = phone.texts()
        result["tables"] = {c["identifier"]: phone.text_of(c["identifier"]) for c in phone.find_all("seat-table-")}
        if click:
            await phone.click(click, TIMEOUT)
            await phone.wait_for(lambda c: all(line in c.texts() for line in after), TIMEOUT, what=f"phone showing {after}")
            result["after_click"] = phone.texts()
    finally:
        result["session_id"] = phone.session_id
        await phone.close()
    state_file.write_text(json.dumps({"prefs": phone.prefs, "session_id": phone.session_id}))
    print(json.dumps(result))

asyncio.run(main())
"""


def run_phone(net: LanNet, tmp_path: Path, base: str, route: str, state: Path, expect: list[str], click: str = "", after: Sequence[str] = ()) -> dict[str, Any]:
    script = tmp_path / "phone.py"
    script.write_text(PHONE_SCRIPT)
    done = net.run(
        sys.executable, str(script), base, route, str(state), json.dumps(expect), click, json.dumps(list(after)), str(STEP_TIMEOUT),
        timeout=STEP_TIMEOUT * 3,
    )  # fmt: skip
    assert done.returncode == 0, f"phone in {net.ns} failed:\n{done.stdout}\n{done.stderr}"
    return json.loads(done.stdout.strip().splitlines()[-1])


async def board_taps(server: RefereeServer, info: dict[str, Any], tables: list[int], sums: dict[int, str]) -> None:
    """The host board (on this machine) enters chips for the players, as the host does, and
    waits until its tables show `sums` ({table: "chips: 5"})."""
    board = FletClient(server.base, f"/room/{info['room']}?k={info['host_token']}", width=1280, height=800, name="board")
    await board.connect(STEP_TIMEOUT)
    try:
        for table in tables:
            await board.wait_for(lambda c: c.clickable(f"table-{table}"), STEP_TIMEOUT, what=f"table-{table} on the board")
            await board.click(f"table-{table}", STEP_TIMEOUT)
            # the next tap acts for the next player, on that player's control (act-for controls
            # are keyed by player): wait for this chip to be drawn, not for any frame
            await board.wait_for(lambda c: sums[table] in c.text_of(f"table-{table}"), STEP_TIMEOUT, what=f"chip on table {table}")
        await board.wait_for(
            lambda c: all(total in c.text_of(f"table-{n}") for n, total in sums.items()), STEP_TIMEOUT, what=f"board showing {sums}"
        )
    finally:
        await board.close()


def test_a_phone_whose_ip_changed_returns_to_its_seat(testnet: LanNet, room_and_server: Any, tmp_path: Path) -> None:
    """Bruno's phone joins by his seat link from 198.18.N.2, drops off, comes back as
    198.18.N.3 while the game moved on: Flet starts a new session for the new address, and the
    seat comes back from the token in the phone's storage, showing the current state; the seat
    still acts."""
    info, server = room_and_server
    seat, name = 1, VABANQUE_PLAYERS[1]["name"]
    tr = translator("en")
    names = [p["name"] for p in VABANQUE_PLAYERS]
    header = f"■ {name}"  # Bruno is blue: the square glyph
    state = tmp_path / "phone-storage.json"

    joined = run_phone(
        testnet, tmp_path, server.base, f"/join/{info['room']}/{info['tokens'][seat]}", state,
        [header, tr.t("ui.waiting_for", names, seats=[2])],
    )  # fmt: skip
    stored = json.loads(state.read_text())
    # the seat's link and the device's own secret: the seat answers this phone, at any address
    assert stored["prefs"] == {f"referee.seat.{info['room']}": info["tokens"][seat], "referee.device": stored["prefs"]["referee.device"]}
    assert joined["session_id"]
    assert json.loads(fetch_in_namespace(testnet, server.url("/check.json"))[1])["client_ip"] == f"198.18.{testnet.subnet}.2"

    # The game goes on without the phone: Chloe and Alice place their chips (on the board).
    five = tr.t("vabanque.table_total", total=5)
    asyncio.run(board_taps(server, info, [2, 4], {2: five, 4: five}))

    testnet.move_device(3)
    assert json.loads(fetch_in_namespace(testnet, server.url("/check.json"))[1])["client_ip"] == f"198.18.{testnet.subnet}.3"

    # The phone reopens its seat page (the address bar holds /seat/<room>, the token is in storage).
    back = run_phone(
        testnet, tmp_path, server.base, f"/seat/{info['room']}", state,
        [header, tr.t("ui.your_turn")],
        click="seat-table-6", after=[tr.t("ui.waiting_for", names, seats=[2])],
    )  # fmt: skip
    assert back["session_before"] == joined["session_id"]
    assert back["session_id"] != joined["session_id"], "Flet reused the session across an address change"
    # the current state: the two chips placed while it was away are on its page
    tables = back["tables"]
    assert [tables[f"seat-table-{n}"] for n in (2, 4, 6)] == [["2", five], ["4", five], ["6", tr.t("vabanque.table_total", total=0)]], tables
    # and its own chip reached the board
    asyncio.run(board_taps(server, info, [], {2: five, 4: five, 6: five}))
