"""HTTPS for a host that has a certificate: `main.py --certfile --keyfile` (README "Who can reach
the host, and what it holds").

The real server in a subprocess with a certificate for 127.0.0.1 issued by a throw-away CA
(trustme); the clients trust that CA only: a protocol-level device over wss, Chromium over https
and wss (trusting exactly that certificate's key), and a client trusting another CA is refused.
"""

from __future__ import annotations

import base64
import hashlib
import ssl
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from benchmarks.flet_client import TABLET, FletClient
from benchmarks.latency import RoomInfo, ServerProcess, create_room, vabanque_setup
from tests.harness.browser import BOARD_VIEWPORT, enable_semantics, launch_args, require_chromium
from views.i18n import translator

pytestmark = pytest.mark.slow

HEADING = translator("en").t("ui.last_rulings")


class TlsServer(ServerProcess):
    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TlsServer, RoomInfo, Path, bytes]]:
    tmp = tmp_path_factory.mktemp("tls")
    ca = trustme.CA()
    leaf = ca.issue_cert("127.0.0.1", "localhost")
    certfile, keyfile, cafile = tmp / "cert.pem", tmp / "key.pem", tmp / "ca.pem"
    leaf.cert_chain_pems[0].write_to_path(str(certfile))
    for pem in leaf.cert_chain_pems[1:]:
        pem.write_to_path(str(certfile), append=True)
    leaf.private_key_pem.write_to_path(str(keyfile))
    ca.cert_pem.write_to_path(str(cafile))
    info = create_room(tmp / "data", vabanque_setup(3), 11)
    server = TlsServer(tmp / "data", env={"REFEREE_CERTFILE": str(certfile), "REFEREE_KEYFILE": str(keyfile)})
    # This process's TLS clients (urllib, websockets) trust the test CA and nothing else.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SSL_CERT_FILE", str(cafile))
        patch.delenv("SSL_CERT_DIR", raising=False)
        server.start()
        try:
            yield server, info, cafile, leaf.cert_chain_pems[0].bytes()
        finally:
            server.stop()


def test_links_are_https_and_plain_http_gets_nothing(tls: Any) -> None:
    server, info, cafile, _ = tls
    assert server.host_token == info.host_token
    assert any(line.strip().startswith(f"https://127.0.0.1:{server.port}/?k=") for line in server.lines), server.lines[:8]
    status, body = server.get("/healthz")
    assert status == 200 and b'"ok":true' in body
    with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
        urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz", timeout=5).read()
    # A client that trusts another CA refuses the connection: the certificate is really checked.
    stranger = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies, trusting only what is loaded
    stranger.load_verify_locations(cadata=trustme.CA().cert_pem.bytes().decode())
    with pytest.raises(urllib.error.URLError) as refused:
        urllib.request.urlopen(server.base_url + "/healthz", timeout=5, context=stranger)
    assert isinstance(refused.value.reason, ssl.SSLCertVerificationError)


async def test_a_board_over_wss(tls: Any) -> None:
    server, info, _, _ = tls
    board = FletClient(server.base_url, f"/room/{info.room}?k={info.host_token}", width=TABLET[0], height=TABLET[1], name="board")
    assert board.ws_url.startswith("wss://")
    await board.connect(30)
    try:
        await board.wait_for(lambda c: HEADING in c.texts(), 30, what="the board over wss")
    finally:
        await board.close()


def spki_hash(cert_pem: bytes) -> str:
    """What Chromium's --ignore-certificate-errors-spki-list takes: base64 SHA-256 of the key."""
    key = x509.load_pem_x509_certificate(cert_pem).public_key()
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


@pytest.mark.browser
def test_chromium_plays_over_https_and_wss(tls: Any) -> None:
    from playwright.sync_api import expect, sync_playwright

    server, info, _, leaf_pem = tls
    expect.set_options(timeout=60_000)  # Flutter on two busy cores
    try:
        with sync_playwright() as pw:
            # Chromium trusts exactly this certificate's key, as a phone would after installing the CA.
            args = [*launch_args(), f"--ignore-certificate-errors-spki-list={spki_hash(leaf_pem)}"]
            browser = pw.chromium.launch(executable_path=require_chromium(), args=args)
            try:
                page = browser.new_page(viewport=BOARD_VIEWPORT)
                sockets: list[str] = []
                page.on("websocket", lambda ws: sockets.append(ws.url))
                page.goto(f"{server.base_url}/room/{info.room}?k={info.host_token}")
                assert page.evaluate("window.isSecureContext") is True
                enable_semantics(page)
                expect(page.get_by_text(HEADING, exact=False).first).to_be_visible()
                assert sockets and all(url.startswith(f"wss://127.0.0.1:{server.port}/") for url in sockets), sockets
            finally:
                browser.close()
    finally:
        expect.set_options(timeout=None)
