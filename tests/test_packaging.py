"""The runtime dependencies alone run the server.

``make run`` installs the development extras as well, so a package that only a test tool brings
along would go unnoticed until a production install or the Docker image failed at start. That
happened: SQLAlchemy 2.1 no longer installs greenlet, which its asyncio layer needs, and only
Playwright had been bringing it. This test installs the project without extras into a fresh
virtual environment and migrates and serves from there.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from tests.conftest import free_port
from tests.test_restart import server_process, wait_healthy

ROOT = Path(__file__).resolve().parents[1]


async def test_the_project_without_its_dev_extras_migrates_and_serves(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(ROOT)],
        check=True,
        timeout=900,
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with server_process(f"sqlite+aiosqlite:///{tmp_path / 'belote.sqlite3'}", port, python) as proc:
        await wait_healthy(url, proc)
        async with httpx.AsyncClient(base_url=url) as http:
            guest = await http.post("/api/players", json={"name": "Packaged"})
            assert guest.status_code == 201, guest.text
            headers = {"Authorization": f"Bearer {guest.json()['token']}"}
            room = await http.post("/api/rooms", json={"bots": [1, 2, 3]}, headers=headers)
            assert room.status_code == 201, room.text
            code = room.json()["room"]["code"]
            started = await http.post(f"/api/rooms/{code}/start", headers=headers)
            assert started.status_code == 200, started.text
            assert started.json()["room"]["status"] == "playing"
