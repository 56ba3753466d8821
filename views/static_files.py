"""Serve Flet's web client pre-compressed: brotli and gzip variants made once, cached on disk.

A phone's first visit downloads ~15 MiB of Flutter client (main.dart.js, CanvasKit/skwasm wasm,
fonts). Compressing live costs ~1 s of server CPU per first visit, so every compressible file is
compressed once, in a background thread, into a cache directory shared by every server of this
user (the client is the same whatever the data dir), and served from there afterwards.

How it plugs in: `install(app)` finds Flet's `FletStaticFiles` mount and replaces `file_response`
on that one instance: the single place where Starlette turns a resolved file into a response.
Flet's own logic stays: the SPA fallback to index.html, and its patched index.html /
manifest.json / FontManifest.json, which it writes once to a temp dir at its first request and
then serves byte-for-byte from disk like any other file (so they are compressed like the rest,
keyed by content).

Per response:
  * A variant is used only for a plain 200 GET/HEAD without a Range header, when the request's
    Accept-Encoding allows it (q > 0), and when the file on disk still has the size and mtime it
    had when hashed. Otherwise the identity file, exactly as Flet serves it (ranges included).
  * Variant responses keep the identity's Content-Type and Last-Modified, carry their own
    Content-Length, `Content-Encoding`, and an ETag of the identity's plus `-br` / `-gzip`, and
    do not advertise byte ranges. Every response of a compressible file has
    `Vary: Accept-Encoding`. Revalidation (If-None-Match / If-Modified-Since -> 304) is
    Starlette's own check, applied to the headers of the variant actually chosen.
  * Until a file's variant exists, identity is served and the file jumps the work queue.

Cache: `<cache>/flet-web-<version>/<sha256 of content>.<encoder>`, written to a temp name,
fsync'ed and renamed, so a reader never sees a partial file. Processes sharing the cache take
turns through a file lock (best effort: without fcntl they may duplicate work, never corrupt).
Directories of other flet-web versions are removed. Nothing is fetched from anywhere.

Environment: REFEREE_WEB_COMPRESSION=0 serves identity only (Flet's own way); REFEREE_WEB_CACHE_DIR
moves the cache (default: the per-user cache directory).
"""

from __future__ import annotations

import gzip
import hashlib
import heapq
import itertools
import logging
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

try:
    import brotli
except ImportError:  # no wheel on Android and iOS (pyproject.toml): gzip alone there
    brotli = None
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

log = logging.getLogger(__name__)

#: Files worth compressing: text, JavaScript, wasm, uncompressed fonts. Images, woff2 and
#: archives are already compressed.
COMPRESSIBLE_SUFFIXES = frozenset(
    {".js", ".mjs", ".wasm", ".json", ".html", ".css", ".svg", ".txt", ".otf", ".ttf", ".bin", ".frag", ".map", ".symbols", ".xml", ".ico"}
)
#: Extensionless files worth compressing (Flutter's licence notices: 1.5 MiB of text).
COMPRESSIBLE_NAMES = frozenset({"NOTICES"})
#: Below this the headers cost more than compression saves.
MIN_SIZE = 1024
#: A variant is served only when it is at most this fraction of the identity size.
MAX_RATIO = 0.9
#: Not compressed ahead of time: never loaded by a server-side Flet app (Pyodide runtime) or
#: only by developer tools (symbol and source maps). Still compressed when first requested.
EAGER_SKIP_DIRS = frozenset({"pyodide"})
EAGER_SKIP_SUFFIXES = frozenset({".symbols", ".map"})
#: Files Flet rewrites into its temp dir before serving: the packaged originals are never served.
FLET_REWRITTEN = frozenset({"index.html", "manifest.json", os.path.join("assets", "FontManifest.json")})
#: Stale temp files (from a killed writer) are removed after this long.
STALE_TMP_SECONDS = 3600.0


@dataclass(frozen=True)
class Encoder:
    """One content coding: its Accept-Encoding token, cache file tag and compressor."""

    coding: str
    tag: str
    compress: Callable[[bytes], bytes]


#: In the server's order of preference. Brotli at its best quality: ~25 % of identity over the
#: whole client against ~33 % for gzip -9 (see benchmarks/RESULTS.md). Browsers offer `br` only
#: over HTTPS and on localhost, so phones on a plain-HTTP LAN get the gzip variant.
ENCODERS: tuple[Encoder, ...] = (
    *([Encoder("br", "br11", lambda data: brotli.compress(data, quality=11))] if brotli is not None else []),
    Encoder("gzip", "gz9", lambda data: gzip.compress(data, compresslevel=9, mtime=0)),
)


def enabled() -> bool:
    return os.environ.get("REFEREE_WEB_COMPRESSION", "1").strip().lower() not in ("0", "off", "false", "no")


def default_cache_dir() -> Path:
    configured = os.environ.get("REFEREE_WEB_CACHE_DIR")
    if configured:
        return Path(configured)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("table-referee", appauthor=False)) / "web-client"


def flet_web_version() -> str:
    from flet_web.version import version

    return version


def is_compressible(path: str | os.PathLike[str], size: int) -> bool:
    name = os.path.basename(path)
    return size >= MIN_SIZE and (os.path.splitext(name)[1].lower() in COMPRESSIBLE_SUFFIXES or name in COMPRESSIBLE_NAMES)


def accepted_codings(accept_encoding: str | None) -> set[str]:
    """The content codings of ours that an Accept-Encoding header allows (q > 0)."""
    if not accept_encoding:
        return set()
    qualities: dict[str, float] = {}
    for item in accept_encoding.split(","):
        token, _, params = item.strip().partition(";")
        token = token.strip().lower()
        if not token:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        qualities[token] = q
    star = qualities.get("*")
    return {e.coding for e in ENCODERS if qualities.get(e.coding, star if star is not None else 0.0) > 0}


@dataclass
class Variants:
    """The variants of one served file, valid while the file keeps this size and mtime."""

    size: int
    mtime_ns: int
    #: coding -> (cache file, its stat)
    files: dict[str, tuple[str, os.stat_result]] = field(default_factory=dict)


class VariantCache:
    """Variants on disk, an in-memory index of them, and one background worker making them.

    The event loop only reads `index` (a dict) and pushes to the queue; the worker thread does
    all file reading, hashing and compression, at a lower CPU priority than the server.
    """

    def __init__(self, cache_root: Path, eager_dirs: Callable[[], list[str]] | None = None) -> None:
        self.cache_root = Path(cache_root)
        self.cache_dir = self.cache_root / f"flet-web-{flet_web_version()}"
        self.index: dict[str, Variants] = {}
        self._eager_dirs = eager_dirs
        self._queue: list[tuple[int, int, str]] = []
        self._queued: dict[str, int] = {}  # path -> best priority it is queued at
        self._counter = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self.compressed_files = 0  # made by this process (the rest came from the cache)

    # -- called on the event loop --

    def lookup(self, full_path: str, stat_result: os.stat_result) -> Variants | None:
        variants = self.index.get(full_path)
        if variants is None or variants.size != stat_result.st_size or variants.mtime_ns != stat_result.st_mtime_ns:
            self.request(full_path)
            return None
        return variants

    def request(self, full_path: str, priority: int = 0) -> None:
        """Queue a file (0: a client asked for it, ahead of the eager pass)."""
        with self._wake:
            if self._queued.get(full_path, priority + 1) <= priority:
                return  # already queued at this priority or ahead of it
            self._queued[full_path] = priority
            heapq.heappush(self._queue, (priority, next(self._counter), full_path))  # may bump it
            self._wake.notify()

    # -- lifecycle --

    def start(self) -> VariantCache:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="web-precompress", daemon=True)
            self._thread.start()
        return self

    # -- the worker --

    def _run(self) -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)  # Linux: this thread only
        except (AttributeError, OSError):
            pass
        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            self._remove_stale()
            for position, path in enumerate(self._eager_files()):
                self.request(path, priority=1 + position)
        except OSError as exc:
            log.warning("web client compression disabled: %s", exc)
            return
        while True:
            with self._wake:
                while not self._queue:
                    self._wake.wait()
                _, _, path = heapq.heappop(self._queue)
                if self._queued.pop(path, None) is None:
                    continue  # an older entry of a file that was bumped and is done
            try:
                self._prepare(path)
            except Exception as exc:  # noqa: BLE001 - one unreadable file must not stop the others
                log.warning("serving %s uncompressed: %r", path, exc)
                try:
                    failed = os.stat(path)
                    self.index[path] = Variants(size=failed.st_size, mtime_ns=failed.st_mtime_ns)  # no retry per request
                except OSError:
                    pass

    def prepare_all(self) -> int:
        """The eager pass, synchronously in the calling thread (benchmarks). Returns the number of
        variants this call had to make (0 when the cache was complete)."""
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        made = self.compressed_files
        for path in self._eager_files():
            self._prepare(path)
        return self.compressed_files - made

    def _eager_files(self) -> list[str]:
        """Every compressible client file, smallest first (most files are ready soonest)."""
        found: dict[str, int] = {}
        seen_relative: set[str] = set()
        for directory in self._eager_dirs() if self._eager_dirs else []:
            for full_path, relative, size in _walk(directory):
                if relative in seen_relative:
                    continue  # shadowed: the first directory wins, as in StaticFiles.lookup_path
                seen_relative.add(relative)
                parts = Path(relative).parts
                if relative in FLET_REWRITTEN or (parts and parts[0] in EAGER_SKIP_DIRS):
                    continue
                if os.path.splitext(relative)[1] in EAGER_SKIP_SUFFIXES or not is_compressible(full_path, size):
                    continue
                found[full_path] = size
        return sorted(found, key=lambda p: found[p])

    def _prepare(self, full_path: str) -> None:
        before = os.stat(full_path)
        if not is_compressible(full_path, before.st_size):
            return
        with open(full_path, "rb") as f:
            data = f.read()
        after = os.stat(full_path)
        if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns) or len(data) != after.st_size:
            return  # changing under us: identity until the next request queues it again
        digest = hashlib.sha256(data).hexdigest()
        variants = Variants(size=after.st_size, mtime_ns=after.st_mtime_ns)
        for encoder in ENCODERS:
            target = self.cache_dir / f"{digest}.{encoder.tag}"
            if not target.exists():
                with _CacheLock(self.cache_dir / ".lock"):
                    if not target.exists():  # another process may have made it meanwhile
                        _write_atomically(target, encoder.compress(data))
                        self.compressed_files += 1
            target_stat = target.stat()
            if target_stat.st_size <= len(data) * MAX_RATIO:
                variants.files[encoder.coding] = (str(target), target_stat)
        self.index[full_path] = variants  # one dict assignment: atomic for the event loop's reads

    def _remove_stale(self) -> None:
        for sibling in self.cache_root.glob("flet-web-*"):
            if sibling != self.cache_dir and sibling.is_dir():
                shutil.rmtree(sibling, ignore_errors=True)
        now = time.time()
        for tmp in self.cache_dir.glob("*.tmp"):
            try:
                if now - tmp.stat().st_mtime > STALE_TMP_SECONDS:
                    tmp.unlink()
            except OSError:
                pass


def _walk(directory: str) -> Iterator[tuple[str, str, int]]:
    for root, _dirs, files in os.walk(directory):
        for name in files:
            full_path = os.path.join(root, name)
            try:
                size = os.stat(full_path).st_size
            except OSError:
                continue
            yield os.path.realpath(full_path), os.path.relpath(full_path, directory), size


def _write_atomically(target: Path, data: bytes) -> None:
    tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_native_id()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


class _CacheLock:
    """An exclusive lock on the cache directory, across processes where fcntl exists."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: Any = None

    def __enter__(self) -> Self:
        try:
            import fcntl
        except ImportError:  # Windows: no lock, at worst the same variant is made twice
            return self
        self._file = open(self.path, "a+b")  # closed in __exit__
        fcntl.flock(self._file.fileno(), fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()  # releases the flock


def variant_response(identity: FileResponse, variants: Variants, coding: str) -> FileResponse:
    """The compressed variant of `identity`: its type and Last-Modified, its own length and ETag."""
    path, stat_result = variants.files[coding]
    etag = identity.headers["etag"]
    response = FileResponse(
        path,
        stat_result=stat_result,
        media_type=identity.media_type,
        headers={
            "content-encoding": coding,
            "last-modified": identity.headers["last-modified"],
            "etag": f'{etag[:-1]}-{coding}"' if etag.endswith('"') else f"{etag}-{coding}",
        },
    )
    del response.headers["accept-ranges"]  # ranges are served only of the identity bytes
    return response


def install(app: Any, cache_dir: Path | None = None, *, start: bool = True) -> VariantCache | None:
    """Serve the web client of this Flet ASGI app pre-compressed. Returns the cache (None if
    disabled by REFEREE_WEB_COMPRESSION=0). The worker starts at once, in the background."""
    if not enabled():
        return None
    static = find_static_files(app)
    cache = VariantCache(cache_dir or default_cache_dir(), eager_dirs=lambda: _served_directories(static))
    static.file_response = _compressing_file_response(static, cache)  # type: ignore[method-assign]
    return cache.start() if start else cache


def find_static_files(app: Any) -> StaticFiles:
    """Flet's FletStaticFiles instance, through the mounts of `ft.run(export_asgi_app=True)`."""
    from flet_web.fastapi.flet_static_files import FletStaticFiles

    stack = [app]
    while stack:
        current = stack.pop()
        if isinstance(current, FletStaticFiles):
            return current
        for route in getattr(getattr(current, "router", None), "routes", None) or getattr(current, "routes", None) or []:
            if isinstance(route, Mount):
                stack.append(route.app)
    raise LookupError("no FletStaticFiles mount in this app")


def _served_directories(static: StaticFiles) -> list[str]:
    """The directories Flet serves from, in lookup order. Before Flet's first request configures
    it, that is the packaged client and the app's assets (its temp dir does not exist yet)."""
    directories = [str(d) for d in getattr(static, "all_directories", []) or []]
    if not directories:
        from flet_web import get_package_web_dir

        assets = getattr(static, "_FletStaticFiles__assets_dir", None)
        directories = [d for d in (assets, get_package_web_dir()) if d]
    return directories


def _compressing_file_response(static: StaticFiles, cache: VariantCache) -> Callable[..., Response]:
    primed = False

    def prime_rewritten_files() -> None:
        """Queue Flet's patched copies as soon as its first request has written them (they exist
        only in its temp dir), so that the rest of a first visit finds them compressed."""
        nonlocal primed
        primed = True
        for relative in sorted(FLET_REWRITTEN):
            candidate = os.path.join(str(static.directory), relative)
            if os.path.isfile(candidate):
                cache.request(os.path.realpath(candidate))

    def file_response(full_path: Any, stat_result: os.stat_result, scope: Scope, status_code: int = 200) -> Response:
        if not primed and getattr(static, "directory", None) is not None:
            prime_rewritten_files()
        request_headers = Headers(scope=scope)
        response: FileResponse = FileResponse(full_path, status_code=status_code, stat_result=stat_result)
        if is_compressible(full_path, stat_result.st_size):
            variants = cache.lookup(str(full_path), stat_result)
            if variants is not None and status_code == 200 and "range" not in request_headers:
                accepted = accepted_codings(request_headers.get("accept-encoding"))
                coding = next((e.coding for e in ENCODERS if e.coding in accepted and e.coding in variants.files), None)
                if coding is not None:
                    response = variant_response(response, variants, coding)
            response.headers["vary"] = "Accept-Encoding"
        if static.is_not_modified(response.headers, request_headers):
            return NotModifiedResponse(response.headers)
        return response

    return file_response
