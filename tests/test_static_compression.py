"""The web client is served pre-compressed (views/static_files.py), by the real server process.

One server on a fresh, private variant cache (REFEREE_WEB_CACHE_DIR): until a file's variant is
made it is served as identity; then brotli / gzip bodies that decode to exactly the identity
bytes, with Vary, their own ETag and 304s; identity without Accept-Encoding and for ranges; and
after a restart the variants on disk are served again without being remade.
"""

from __future__ import annotations

import gzip
import hashlib
import http.client
import time
from collections.abc import Iterator
from pathlib import Path

import brotli
import pytest

from tests.harness.server import RefereeServer
from views.static_files import accepted_codings

#: Loaded on every first visit, 1.2 MiB, and quick enough to compress while a test waits.
LARGE_FILE = "/assets/fonts/MaterialIcons-Regular.otf"
WAIT_SECONDS = 300.0  # the compressing thread runs at a lower priority: slow on a busy machine


def package_file(url_path: str) -> bytes:
    from flet_web import get_package_web_dir

    return (Path(get_package_web_dir()) / url_path.lstrip("/")).read_bytes()


def fetch(server: RefereeServer, path: str, headers: dict[str, str] | None = None, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """One request with exactly these headers (http.client adds no Accept-Encoding of its own)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        conn.endheaders()
        response = conn.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        conn.close()


def wait_until_encoded(server: RefereeServer, path: str, coding: str) -> tuple[dict[str, str], bytes]:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        status, headers, body = fetch(server, path, {"Accept-Encoding": coding})
        assert status == 200
        if headers.get("content-encoding") == coding:
            return headers, body
        assert "content-encoding" not in headers, headers  # identity until the variant exists
        assert body == package_file(path)
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} not served with {coding} after {WAIT_SECONDS} s")
        time.sleep(0.25)


def variant_files(cache_dir: Path, identity: bytes) -> dict[str, Path]:
    digest = hashlib.sha256(identity).hexdigest()
    return {p.suffix: p for p in cache_dir.glob(f"flet-web-*/{digest}.*") if not p.name.endswith(".tmp")}


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web-cache")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> Iterator[RefereeServer]:
    srv = RefereeServer(tmp_path_factory.mktemp("data"), env={"REFEREE_WEB_CACHE_DIR": str(cache_dir), "REFEREE_WEB_COMPRESSION": "1"})
    srv.start(timeout=120)
    try:
        yield srv
    finally:
        srv.stop()


def test_accept_encoding_parsing() -> None:
    assert accepted_codings("gzip, deflate, br, zstd") == {"br", "gzip"}
    assert accepted_codings("gzip, deflate") == {"gzip"}
    assert accepted_codings("BR;q=0.5, gzip;q=0") == {"br"}
    assert accepted_codings("*") == {"br", "gzip"}
    assert accepted_codings("*, br;q=0") == {"gzip"}
    assert accepted_codings("identity") == set()
    assert accepted_codings("") == set()
    assert accepted_codings(None) == set()


def test_large_file_decodes_to_identity(server: RefereeServer, cache_dir: Path) -> None:
    identity = package_file(LARGE_FILE)
    br_headers, br_body = wait_until_encoded(server, LARGE_FILE, "br")
    assert brotli.decompress(br_body) == identity
    assert int(br_headers["content-length"]) == len(br_body) < len(identity) * 0.9
    assert br_headers["vary"] == "Accept-Encoding"
    assert br_headers["content-type"].startswith("font/otf")
    assert "accept-ranges" not in br_headers

    # What a phone on a plain-HTTP LAN offers (browsers send br only over HTTPS and on localhost).
    status, gz_headers, gz_body = fetch(server, LARGE_FILE, {"Accept-Encoding": "gzip, deflate"})
    assert status == 200 and gz_headers["content-encoding"] == "gzip"
    assert gzip.decompress(gz_body) == identity
    assert gz_headers["vary"] == "Accept-Encoding"
    assert gz_headers["content-type"] == br_headers["content-type"]
    assert gz_headers["last-modified"] == br_headers["last-modified"]
    assert len({br_headers["etag"], gz_headers["etag"]}) == 2
    assert set(variant_files(cache_dir, identity)) == {".br11", ".gz9"}


def test_identity_without_accept_encoding(server: RefereeServer) -> None:
    identity = package_file(LARGE_FILE)
    wait_until_encoded(server, LARGE_FILE, "br")
    for headers in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "br;q=0, gzip;q=0"}):
        status, response, body = fetch(server, LARGE_FILE, headers)
        assert status == 200, headers
        assert "content-encoding" not in response, headers
        assert body == identity
        assert int(response["content-length"]) == len(identity)
        assert response["vary"] == "Accept-Encoding"


def test_range_is_served_of_identity_bytes(server: RefereeServer) -> None:
    identity = package_file(LARGE_FILE)
    wait_until_encoded(server, LARGE_FILE, "br")
    status, headers, body = fetch(server, LARGE_FILE, {"Accept-Encoding": "gzip, br", "Range": "bytes=100-1099"})
    assert status == 206
    assert "content-encoding" not in headers
    assert body == identity[100:1100]
    assert headers["content-range"] == f"bytes 100-1099/{len(identity)}"


def test_revalidation_per_variant(server: RefereeServer) -> None:
    br_headers, _ = wait_until_encoded(server, LARGE_FILE, "br")
    _, identity_headers, _ = fetch(server, LARGE_FILE)
    _, gzip_headers, _ = fetch(server, LARGE_FILE, {"Accept-Encoding": "gzip"})
    assert identity_headers["etag"] not in (br_headers["etag"], gzip_headers["etag"])
    for accept, etag in (("", identity_headers["etag"]), ("gzip, deflate, br", br_headers["etag"]), ("gzip", gzip_headers["etag"])):
        headers = {"If-None-Match": etag, **({"Accept-Encoding": accept} if accept else {})}
        status, response, body = fetch(server, LARGE_FILE, headers)
        assert status == 304, (accept, etag)
        assert body == b""
        assert response["etag"] == etag
        assert response["vary"] == "Accept-Encoding"
    # A validator of another representation is not a match: the full body comes back.
    status, response, body = fetch(server, LARGE_FILE, {"Accept-Encoding": "br", "If-None-Match": identity_headers["etag"]})
    assert status == 200 and response["content-encoding"] == "br" and brotli.decompress(body) == package_file(LARGE_FILE)
    # Last-Modified revalidation still works for a compressed variant.
    status, _, _ = fetch(server, LARGE_FILE, {"Accept-Encoding": "br", "If-Modified-Since": br_headers["last-modified"]})
    assert status == 304


def test_rewritten_index_is_compressed_as_served(server: RefereeServer) -> None:
    """index.html is Flet's patched copy (no-CDN, renderer): its variant decodes to that copy."""
    status, identity_headers, identity = fetch(server, "/")
    assert status == 200 and b"flet.noCdn=true" in identity
    headers, body = wait_until_encoded_index(server)
    assert gzip.decompress(body) == identity
    assert headers["content-type"] == identity_headers["content-type"]


def wait_until_encoded_index(server: RefereeServer) -> tuple[dict[str, str], bytes]:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        status, headers, body = fetch(server, "/", {"Accept-Encoding": "gzip"})
        assert status == 200
        if headers.get("content-encoding") == "gzip":
            return headers, body
        if time.monotonic() > deadline:
            raise TimeoutError("index.html never served with gzip")
        time.sleep(0.25)


def test_cache_is_reused_on_restart(server: RefereeServer, cache_dir: Path) -> None:
    identity = package_file(LARGE_FILE)
    wait_until_encoded(server, LARGE_FILE, "br")
    before = {suffix: (p.stat().st_ino, p.stat().st_mtime_ns) for suffix, p in variant_files(cache_dir, identity).items()}
    assert set(before) == {".br11", ".gz9"}
    server.stop()
    server.start(timeout=120)
    started = time.monotonic()
    _, body = wait_until_encoded(server, LARGE_FILE, "br")
    assert brotli.decompress(body) == identity
    after = {suffix: (p.stat().st_ino, p.stat().st_mtime_ns) for suffix, p in variant_files(cache_dir, identity).items()}
    assert after == before  # served from the files made by the first process, not remade
    print(f"variant served {time.monotonic() - started:.2f} s after the restarted server answered")
