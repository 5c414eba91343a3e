"""The browser client's files (app/api/client_files.py): the page names one version's files,
kept a year; everything else is asked again; a changed file is a new version; gzip; nothing
outside the client's own names is served."""

from __future__ import annotations

import gzip
import os
import re
import shutil
import struct
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from app.api import client_files
from app.api.client_files import FOREVER, NO_CACHE, ClientFiles, mount_client
from app.main import STATIC

ADDRESS = re.compile(r'(?:href|src)="(/v/[0-9a-f]+/[^"]+)"')


def client_app(directory: Path) -> FastAPI:
    app = FastAPI()
    mount_client(app, directory)
    return app


@pytest.fixture
async def files() -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=client_app(STATIC))
    async with httpx.AsyncClient(transport=transport, base_url="http://client") as client:
        yield client


async def test_the_page_names_one_version_s_files_which_are_kept_a_year(
    files: httpx.AsyncClient,
) -> None:
    for path in ("/", "/index.html", "/r/someinvitecode"):
        page = await files.get(path)
        assert page.status_code == 200, path
        assert page.headers["cache-control"] == NO_CACHE  # so a deploy's page is seen at once
        assert page.text == (await files.get("/")).text
    html = page.text
    assert '="/js/' not in html and '="/css/' not in html  # every file under the version
    addresses = ADDRESS.findall(html)
    versions = {a.split("/")[2] for a in addresses}
    assert len(versions) == 1
    named = {a.split("/", 3)[3] for a in addresses}
    modules = {p.relative_to(STATIC).as_posix() for p in (STATIC / "js").glob("*.js")}
    assert modules <= named  # every module preloaded: one round of requests, not nine
    assert {"css/style.css", "css/accounts.css", "js/main.js"} <= named
    for address in addresses:
        response = await files.get(address)
        assert response.status_code == 200, address
        assert response.headers["cache-control"] == FOREVER == "public, max-age=31536000, immutable"
        assert response.content == (STATIC / address.split("/", 3)[3]).read_bytes(), address


async def test_the_page_and_the_plain_addresses_are_asked_again_and_answered_304(
    files: httpx.AsyncClient,
) -> None:
    for path in ("/", "/js/main.js", "/css/style.css"):
        first = await files.get(path)
        assert first.headers["cache-control"] == "no-cache", path
        again = await files.get(path, headers={"if-none-match": first.headers["etag"]})
        assert (again.status_code, again.content) == (304, b""), path
        assert again.headers["etag"] == first.headers["etag"]
    assert (await files.get("/js/main.js")).content == (STATIC / "js" / "main.js").read_bytes()


async def test_another_version_s_address_is_served_but_never_kept(
    files: httpx.AsyncClient,
) -> None:
    # A page of the new code asking a node of the old during a rolling restart, or the reverse.
    response = await files.get("/v/0123456789abcdef/js/main.js")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-cache"
    assert response.content == (STATIC / "js" / "main.js").read_bytes()


async def test_text_goes_gzipped_to_who_takes_it(files: httpx.AsyncClient) -> None:
    body = (STATIC / "js" / "room.js").read_bytes()
    packed = await files.get("/js/room.js", headers={"accept-encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["vary"] == "accept-encoding"
    assert int(packed.headers["content-length"]) < len(body) / 2
    assert packed.content == body  # httpx unpacks it
    plain = await files.get("/js/room.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == body


async def test_only_the_client_s_own_files_are_served(files: httpx.AsyncClient) -> None:
    version = ADDRESS.findall((await files.get("/")).text)[0].split("/")[2]
    for path in (
        "/js/%2e%2e/%2e%2e/app/main.py",
        "/js/..%2f..%2fapp/main.py",
        f"/v/{version}/%2e%2e/app/main.py",
        f"/v/{version}/index.html",  # the page is served only with its version filled in
        f"/v/{version}",
        "/v/",
        "/js/",
        "/js/nope.js",
        "/pyproject.toml",
    ):
        assert (await files.get(path)).status_code == 404, path
    refused = await files.post("/js/main.js")
    assert (refused.status_code, refused.headers["allow"]) == (405, "GET, HEAD")
    assert (await files.post("/")).status_code == 405


async def test_a_node_s_answers_for_what_is_not_a_file_are_the_api_s_errors(
    http: httpx.AsyncClient,
) -> None:
    missing = await http.get("/js/nope.js")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")
    refused = await http.post("/js/main.js")
    assert (refused.status_code, refused.json()["error"]["code"]) == (405, "http_error")


def copy_of_client(to: Path, *, age_days: float) -> Path:
    shutil.copytree(STATIC, to)
    then = os.path.getmtime(STATIC / "index.html") - age_days * 86400
    for path in to.rglob("*"):
        os.utime(path, (then, then))
    return to


def test_the_version_is_the_contents_digest_the_same_on_every_node(tmp_path: Path) -> None:
    # Two nodes of one deploy: the same files, unpacked at different times.
    one = ClientFiles(copy_of_client(tmp_path / "one", age_days=30))
    two = ClientFiles(copy_of_client(tmp_path / "two", age_days=1))
    assert one.version == two.version
    assert one.page.body == two.page.body


def test_a_changed_file_is_a_new_version_and_the_page_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client_files, "LOOK_EVERY", 0.0)  # look at every call
    directory = copy_of_client(tmp_path / "client", age_days=30)
    client = ClientFiles(directory)
    old = client.version
    assert f"/v/{old}/js/main.js".encode() in client.page.body
    client.refresh()
    assert client.version == old  # nothing changed
    with (directory / "js" / "i18n.js").open("a") as module:
        module.write("\n// the next deploy\n")
    client.refresh()
    assert client.version != old
    assert f"/v/{client.version}/js/main.js".encode() in client.page.body
    assert f"/v/{old}/".encode() not in client.page.body
    assert client.files["js/i18n.js"].body.endswith(b"// the next deploy\n")
    assert gzip.decompress(client.files["js/i18n.js"].gzipped or b"").endswith(b"deploy\n")


async def test_an_old_version_s_address_after_a_deploy_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client_files, "LOOK_EVERY", 0.0)
    directory = copy_of_client(tmp_path / "client", age_days=30)
    transport = httpx.ASGITransport(app=client_app(directory))
    async with httpx.AsyncClient(transport=transport, base_url="http://client") as http:
        old = ADDRESS.findall((await http.get("/")).text)[0].split("/")[2]
        (directory / "js" / "dom.js").write_text("export const changed = true;\n")
        stale = await http.get(f"/v/{old}/js/dom.js")
        assert stale.headers["cache-control"] == "no-cache"
        assert stale.text == "export const changed = true;\n"
        new = ADDRESS.findall((await http.get("/")).text)[0].split("/")[2]
        assert new != old
        fresh = await http.get(f"/v/{new}/js/dom.js")
        assert fresh.headers["cache-control"] == FOREVER


async def test_the_app_manifest_names_what_a_phone_installs(files: httpx.AsyncClient) -> None:
    page = (await files.get("/")).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#12472f">' in page
    answer = await files.get("/manifest.webmanifest")
    assert answer.headers["content-type"] == "application/manifest+json; charset=utf-8"
    manifest = answer.json()
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    assert manifest["theme_color"] == "#12472f"
    assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}
    for icon in manifest["icons"]:
        art = await files.get(icon["src"])
        assert art.status_code == 200
        assert art.headers["content-type"].startswith(icon["type"])
    # iOS takes no SVG for a home-screen icon: a 180 px PNG, named by the page and at the
    # address Safari asks for without one (test_install.py checks it looks like the SVG).
    assert '<link rel="apple-touch-icon" href="/apple-touch-icon.png">' in page
    touch = await files.get("/apple-touch-icon.png")
    assert touch.headers["content-type"] == "image/png"
    header = touch.content[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR"
    assert struct.unpack(">II", header[16:24]) == (180, 180)


async def raw(http: httpx.AsyncClient, path: str, encoding: str) -> tuple[httpx.Headers, bytes]:
    """The answer's headers and its bytes as sent (httpx unpacks a body it is handed)."""
    async with http.stream("GET", path, headers={"accept-encoding": encoding}) as answer:
        return answer.headers, b"".join([chunk async for chunk in answer.aiter_raw()])


async def test_a_node_gzips_what_is_worth_it_once(http: httpx.AsyncClient) -> None:
    headers, body = await raw(http, "/api/rules", "gzip")  # some 5 KB of JSON
    assert headers["content-encoding"] == "gzip"
    plain_headers, plain = await raw(http, "/api/rules", "identity")
    assert "content-encoding" not in plain_headers
    assert gzip.decompress(body) == plain and len(body) < len(plain) / 2
    headers, body = await raw(http, "/healthz", "gzip")  # too small to be worth it
    assert "content-encoding" not in headers and body == b'{"status":"ok"}'
    headers, body = await raw(http, "/js/room.js", "gzip")  # packed by client_files, not twice
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == (STATIC / "js" / "room.js").read_bytes()
