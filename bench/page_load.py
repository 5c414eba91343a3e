"""What opening the browser client costs a player (not a test): Chromium over an emulated
network opens the lobby of ``python -m app`` (a fresh SQLite file) in a new profile (a first
visit), then again in a new tab of the same profile (a returning visit), ``--runs`` times per
network; prints per network and visit the median seconds until the lobby is drawn and the
client's files that came from the server (the rest came from the browser's cache).

    python -m bench.page_load [--latency-ms 150] [--kbps 10000 1600] [--runs 5]

Chromium is Debian's (``/usr/bin/chromium``, or ``CHROMIUM``); the network is Chromium's own
emulation (``Network.emulateNetworkConditions``: added latency per request, a download cap).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from typing import Any

from bench.load import running_server

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
DRAWN = "#app .lobby, #app section, #app h1"  # the lobby is on the page
# The client's files that came from the server: the page, and each not taken from the cache
# (the API's calls, which no cache answers, are left out).
ASKED = """() => 1 + performance.getEntriesByType('resource')
  .filter(e => !new URL(e.name).pathname.startsWith('/api/'))
  .filter(e => e.transferSize > 0 || e.decodedBodySize === 0).length"""


async def visit(context: Any, url: str, latency_ms: float, kbps: float) -> tuple[float, int]:
    """One page of ``context`` opened on the emulated network: seconds to drawn, files."""
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
    await page.close()
    return seconds, asked


async def measure(
    url: str, latency_ms: float, kbps: list[float], runs: int
) -> list[dict[str, Any]]:
    from playwright.async_api import async_playwright

    out = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        for rate in kbps:
            seen: dict[str, list[tuple[float, int]]] = {"first": [], "returning": []}
            for _ in range(runs):
                context = await browser.new_context()
                seen["first"].append(await visit(context, url, latency_ms, rate))
                seen["returning"].append(await visit(context, url, latency_ms, rate))
                await context.close()
            for kind, results in seen.items():
                out.append(
                    {
                        "visit": kind,
                        "latency_ms": latency_ms,
                        "kbps": rate,
                        "seconds_p50": round(statistics.median(s for s, _ in results), 3),
                        "seconds": [round(s, 3) for s, _ in results],
                        "files_from_server_p50": statistics.median(n for _, n in results),
                    }
                )
        await browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency-ms", type=float, default=150)
    parser.add_argument("--kbps", type=float, nargs="+", default=[10_000, 1_600])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with running_server({}) as (_server, base, _database):
        rows = asyncio.run(measure(f"{base}/", args.latency_ms, args.kbps, args.runs))
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
