"""What opening the browser client costs a player (not a test): Chromium over an emulated
network opens the lobby of ``python -m app`` (a fresh SQLite file) in a new profile (a first
visit), then again in a new tab of the same profile (a returning visit), ``--runs`` times per
network; prints per network and visit the median seconds until the lobby is drawn and the
client's files that came from the server (the rest came from the browser's cache).

    python -m bench.page_load [--latency-ms 150] [--kbps 10000 1600] [--runs 5]
                              [--via node proxy proxy-https]

``--via``: straight from the node (HTTP/1.1, uvicorn), through the shipped HAProxy
configuration (deploy/haproxy.cfg) in plain HTTP/1.1, or through it over HTTPS and HTTP/2 with
a certificate made for the run (trustme, a dev dependency; the browser is told to take it).
Chromium is Debian's (``/usr/bin/chromium``, or ``CHROMIUM``); the network is Chromium's own
emulation (``Network.emulateNetworkConditions``: added latency per request, a download cap; a
connection's own set-up, TLS's included, is not slowed by it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from bench.load import HAPROXY_CONFIG, free_port, proxy_env, running_server, started, wait_healthy

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
DRAWN = "#app .lobby, #app section, #app h1"  # the lobby is on the page
# The client's files that came from the server: the page, and each not taken from the cache
# (the API's calls, which no cache answers, are left out).
ASKED = """() => 1 + performance.getEntriesByType('resource')
  .filter(e => !new URL(e.name).pathname.startsWith('/api/'))
  .filter(e => e.transferSize > 0 || e.decodedBodySize === 0).length"""


PROTOCOL = "() => performance.getEntriesByType('navigation')[0].nextHopProtocol"


async def visit(context: Any, url: str, latency_ms: float, kbps: float) -> tuple[float, int, str]:
    """One page of ``context`` opened on the emulated network: seconds to drawn, files, and the
    page's protocol (``http/1.1``, ``h2``)."""
    page = await context.new_page()
    devtools = await context.new_cdp_session(page)
    await devtools.send("Network.enable")
    await devtools.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": latency_ms,
            "downloadThroughput": kbps * 1000 / 8,
            "uploadThroughput": kbps * 1000 / 8,
        },
    )
    began = time.perf_counter()
    await page.goto(url)
    await page.wait_for_selector(DRAWN, timeout=60_000)
    seconds = time.perf_counter() - began
    asked = int(await page.evaluate(ASKED))
    protocol = str(await page.evaluate(PROTOCOL))
    await page.close()
    return seconds, asked, protocol


async def measure(
    url: str, latency_ms: float, kbps: list[float], runs: int, args: list[str]
) -> list[dict[str, Any]]:
    from playwright.async_api import async_playwright

    out = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        for rate in kbps:
            seen: dict[str, list[tuple[float, int, str]]] = {"first": [], "returning": []}
            for _ in range(runs):
                context = await browser.new_context()
                seen["first"].append(await visit(context, url, latency_ms, rate))
                seen["returning"].append(await visit(context, url, latency_ms, rate))
                await context.close()
            for kind, results in seen.items():
                out.append(
                    {
                        "visit": kind,
                        "protocol": results[0][2],
                        "latency_ms": latency_ms,
                        "kbps": rate,
                        "seconds_p50": round(statistics.median(r[0] for r in results), 3),
                        "seconds": [round(r[0], 3) for r in results],
                        "files_from_server_p50": statistics.median(r[1] for r in results),
                    }
                )
        await browser.close()
    return out


@contextmanager
def proxied(node: str, https: bool) -> Iterator[tuple[str, list[str]]]:
    """The shipped HAProxy configuration in front of the node at ``node`` (host:port), with a
    certificate for 127.0.0.1 when ``https``: the address the browser opens, and Chromium's
    flag that takes that certificate as valid (its key's hash: a certificate error would also
    keep the browser from caching anything)."""
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not os.path.exists(haproxy):
        raise SystemExit("the proxy is HAProxy: apt-get install haproxy")
    with ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        plain = free_port()
        env = proxy_env(f"127.0.0.1:{plain}", {"n1": node})
        base, url, flags = f"http://127.0.0.1:{plain}", f"http://127.0.0.1:{plain}/", []
        if https:
            pem, spki = certificate(scratch)
            secure = free_port()
            env |= {"BELOTE_PROXY_TLS_BIND": f"127.0.0.1:{secure}", "BELOTE_PROXY_CERT": str(pem)}
            url, flags = (
                f"https://127.0.0.1:{secure}/",
                [f"--ignore-certificate-errors-spki-list={spki}"],
            )
        argv = [haproxy, "-q", "-f", str(HAPROXY_CONFIG)]
        proxy = stack.enter_context(started(argv, env))
        wait_healthy(base, proxy, "/")  # with a certificate: its 301 to HTTPS
        yield url, flags


def certificate(directory: Path) -> tuple[Path, str]:
    """A certificate for 127.0.0.1 from an authority made here (trustme, a dev dependency): the
    PEM file HAProxy serves, and the base64 SHA-256 of its public key."""
    import base64
    import hashlib

    import trustme
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    leaf = trustme.CA().issue_cert("127.0.0.1")
    pem = directory / "site.pem"
    leaf.private_key_and_cert_chain_pem.write_to_path(str(pem))
    key = x509.load_pem_x509_certificate(leaf.cert_chain_pems[0].bytes()).public_key()
    der = key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return pem, base64.b64encode(hashlib.sha256(der).digest()).decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency-ms", type=float, default=150)
    parser.add_argument("--kbps", type=float, nargs="+", default=[10_000, 1_600])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--via", nargs="+", choices=["node", "proxy", "proxy-https"], default=["node"]
    )
    args = parser.parse_args()
    with running_server({}) as (_server, base, _database):
        for via in args.via:
            with ExitStack() as stack:
                url, flags = f"{base}/", []
                if via != "node":
                    node = base.removeprefix("http://")
                    url, flags = stack.enter_context(proxied(node, https=via == "proxy-https"))
                    time.sleep(1.5)  # the proxy's first health check of the node
                rows = measure(url, args.latency_ms, args.kbps, args.runs, flags)
                for row in asyncio.run(rows):
                    print(json.dumps({"via": via, **row}))


if __name__ == "__main__":
    main()
