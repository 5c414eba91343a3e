"""The browser client's files, served so that a browser never runs a stale module.

With no ``Cache-Control`` a browser caches a file by heuristic, for a tenth of the time since
its ``Last-Modified``, and a normal reload does not ask for it again: after a deploy a player's
browser kept running month-old modules beside new ones, whatever they reloaded (measured in
Chromium: a module changed on the server was still the old one after a new tab and a reload).
So the client is served in two ways:

- Under ``/v/<version>/``, where the version is a digest of every file of the client. The page
  (``/``, ``/index.html``, an invite's ``/r/<code>``) names its stylesheets and modules under
  that prefix, and every module's relative imports stay in it, so a browser may keep them a
  year without asking (``immutable``): a returning player's page costs one request, and a
  deploy's page names new addresses. A request for another version (a page of the new code
  asking a node of the old during a rolling restart, or the reverse) gets this node's file,
  ``no-cache``, so that nothing is kept under an address it does not belong to.
- The page itself, and the files at their plain addresses (``/js/main.js``: other clients,
  old pages), are ``no-cache``: asked again each time, answered 304 while unchanged.

The page also names every module with ``modulepreload``, so a first visit asks for them all at
once rather than one level of imports after another (nine levels deep). The files are held in
memory with their gzip form, made once per version (some 440 KB of modules are 130 KB
gzipped), and only the names the client has are served — no path reaches the file system.

The version is worked out again when a file's size or modification time changes (looked at
at most once a second), so ``make run``'s developer sees an edit on reload; being a digest of
contents, not of times, it is the same on every node that runs the same code.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import time
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

PAGE = "index.html"
PREFIX = "/v"
FOREVER = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
ASSETS = ('="/js/', '="/css/')  # how the page names its files; each gets the version prefix
LOOK_EVERY = 1.0  # seconds between looks at the files' sizes and times
OWN_TYPES = {".webmanifest": "application/manifest+json"}  # types ``mimetypes`` may not know


@dataclass(frozen=True, slots=True)
class ClientFile:
    """One file as served: its bytes, their gzip form when smaller, its tag and type."""

    body: bytes
    gzipped: bytes | None
    etag: str
    media_type: str

    @classmethod
    def of(cls, body: bytes, name: str) -> ClientFile:
        known = OWN_TYPES.get(Path(name).suffix) or mimetypes.guess_type(name)[0]
        media_type = known or "application/octet-stream"
        if media_type.startswith("text/") or media_type.endswith(("javascript", "json")):
            media_type += "; charset=utf-8"
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        smaller = packed if len(packed) < len(body) else None
        return cls(body, smaller, f'"{hashlib.sha256(body).hexdigest()[:16]}"', media_type)

    def response(self, request: Headers, cache_control: str) -> Response:
        """This file for a request with these headers: 304 if it has it, gzip if it takes it."""
        headers = {"cache-control": cache_control, "etag": self.etag, "vary": "accept-encoding"}
        if self.etag in request.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        body = self.body
        if self.gzipped is not None and "gzip" in request.get("accept-encoding", ""):
            body, headers["content-encoding"] = self.gzipped, "gzip"
        return Response(body, media_type=self.media_type, headers=headers)


class ClientFiles:
    """The client's directory as served: its version, its page and its files, in memory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._stamp: tuple[tuple[str, int, int], ...] = ()
        self._looked = -LOOK_EVERY
        self.version = ""
        self.page = ClientFile(b"", None, '""', "text/html")
        self.files: dict[str, ClientFile] = {}
        self.refresh()

    def refresh(self) -> None:
        """Read the files again if any changed since the last look, a second ago or more."""
        now = time.monotonic()
        if now - self._looked < LOOK_EVERY:
            return
        self._looked = now
        paths = sorted(p for p in self.directory.rglob("*") if p.is_file())
        names = [p.relative_to(self.directory).as_posix() for p in paths]
        stats = [p.stat() for p in paths]
        stamp = tuple((n, s.st_size, s.st_mtime_ns) for n, s in zip(names, stats, strict=True))
        if stamp == self._stamp:
            return
        bodies = {name: path.read_bytes() for name, path in zip(names, paths, strict=True)}
        digest = hashlib.sha256()
        for name, body in bodies.items():
            digest.update(f"{name}\0{len(body)}\0".encode() + body)
        version = digest.hexdigest()[:16]
        page = bodies[PAGE].decode()
        for asset in ASSETS:
            page = page.replace(asset, f'="{PREFIX}/{version}/{asset[3:]}')
        preloads = "".join(
            f'<link rel="modulepreload" href="{PREFIX}/{version}/{name}">\n  '
            for name in names
            if name.endswith(".js")
        )
        page = page.replace('<script type="module"', preloads + '<script type="module"', 1)
        self.files = {name: ClientFile.of(body, name) for name, body in bodies.items()}
        self.page = ClientFile.of(page.encode(), PAGE)
        self._stamp, self.version = stamp, version


class ClientFileApp:
    """ASGI app: ``/v/<version>/<name>`` and ``/<name>`` for each of the client's files."""

    def __init__(self, client: ClientFiles) -> None:
        self.client = client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(status_code=405, headers={"allow": "GET, HEAD"})
        self.client.refresh()
        path = scope["path"].removeprefix(scope.get("root_path", "")).lstrip("/")
        cache_control = NO_CACHE
        if path.startswith(PREFIX[1:] + "/"):
            version, _, path = path[len(PREFIX) :].partition("/")
            if version == self.client.version:
                cache_control = FOREVER
        file = self.client.files.get(path)
        if file is None or path == PAGE:  # the page is served by its own routes, with the version
            raise HTTPException(status_code=404)
        await file.response(Headers(scope=scope), cache_control)(scope, receive, send)


def mount_client(app: FastAPI, directory: Path) -> None:
    """Serve the browser client from ``directory``: its page, and its files both ways."""
    client = ClientFiles(directory)

    async def page(request: Request) -> Response:
        """The client's page; an invite link opens it, and the client reads the code."""
        client.refresh()
        return client.page.response(request.headers, NO_CACHE)

    for path in ("/", f"/{PAGE}", "/r/{code}"):
        app.add_route(path, page, methods=["GET"], include_in_schema=False)
    app.mount("/", ClientFileApp(client), name="client")
