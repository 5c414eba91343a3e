"""The native solver for the bot tests: a copy compiled from app/bots/native/dd.c by the system's
C compiler (so the source is what is tested, whatever the Makefile left behind), else the
prebuilt library, else the native tests are skipped, saying why."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator

import pytest

from app.bots import solver
from app.bots.native import LIBRARY, SOURCE, Native, load


@pytest.fixture(scope="session")
def native_library(tmp_path_factory: pytest.TempPathFactory) -> Native:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is not None:
        out = tmp_path_factory.mktemp("native") / "_dd.so"
        subprocess.run(
            [compiler, "-O2", "-shared", "-fPIC", str(SOURCE), "-o", str(out)], check=True
        )
        return Native(load(out))
    if LIBRARY.exists():
        return Native(load(LIBRARY))
    pytest.skip(
        "NATIVE SOLVER NOT TESTED: no C compiler (cc, gcc) to build app/bots/native/dd.c "
        "and no prebuilt _dd.so (the Makefile builds it with cc)"
    )


@pytest.fixture(params=["pure", "native"])
def solver_backend(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """Every `Solver` built in the test uses this backend: the pure search, or the native
    library (compiled for the tests)."""
    if request.param == "native":
        backend = request.getfixturevalue("native_library")
    else:
        backend = Native(None)
    monkeypatch.setattr(solver, "NATIVE", backend)
    yield request.param
