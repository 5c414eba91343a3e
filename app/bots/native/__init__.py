"""The native double-dummy solver: `dd.c` built into `_dd.so` by `make run` / `make test`.

`Solver` (app/bots/solver.py) hands its root searches to `NativeSearch` when the library is
built and the deal has no Open Belot stacks; otherwise, or when it was never built, the pure
search runs, with the same values (tests/bots/test_native.py compares them on hundreds of
positions). The library holds the search only: every rule it plays by comes from the engine as
tables (`rules_for`), legality included, probed from `app.rules.playable` itself, so the
engine stays the one place where the rules are written.

The library is loaded with ctypes (standard library, nothing to install); `load(path)` loads
another build, which the tests use to compile a copy of their own.
"""

from __future__ import annotations

import ctypes
import threading
from functools import lru_cache
from pathlib import Path

from app.rules import TABLES, Contract, Table, playable

SOURCE = Path(__file__).with_name("dd.c")
LIBRARY = Path(__file__).with_name("_dd.so")
MAX_PRIORITIES = 6
"""Masks per (suit led, best card, free) in `Rules.legal`; dd.c's MAXP."""
TT_LOG2 = 20
"""The transposition table holds 2**TT_LOG2 entries (32 bytes each) per thread."""
_NONE = -(1 << 31)
"""dd_root's mark for a card without a guess."""

_I4 = ctypes.c_int32 * 4
_I8 = ctypes.c_int32 * 8
_I32 = ctypes.c_int32 * 32
_U32 = ctypes.c_uint32 * 32


class Rules(ctypes.Structure):
    """dd.c's `Rules`: what the search needs of the contract, the sides and the house rules."""

    _fields_ = [
        ("seats", ctypes.c_int32),
        ("teams", _I4),
        ("free", _I4 * 4),
        ("strength", _I32),
        ("points", _I32),
        ("beaters", _U32),
        ("ruffs", ctypes.c_uint32),
        ("trump_suits", ctypes.c_uint32),
        ("order", _I8 * 2),
        ("rpoints", _I8 * 2),
        ("legal", ((ctypes.c_uint32 * MAX_PRIORITIES) * 2 * 32) * 4),
    ]


def priorities(table: Table, led: int, best: int, free: bool, undertrump: bool) -> list[int]:
    """`playable` for this trick as masks in priority order: a hand's legal cards are its cards
    in the first mask it meets. Probed from `playable` (its answer for all 32 cards, then for
    the cards it left out, and so on), which has this shape: follow, else beat, else trump..."""
    masks: list[int] = []
    rest = (1 << 32) - 1
    while rest:
        allowed = playable(table, rest, led, best, free, undertrump)
        if not allowed or allowed & ~rest:
            raise ValueError("playable is not a priority list of masks")
        masks.append(allowed)
        rest &= ~allowed
    if len(masks) > MAX_PRIORITIES:
        raise ValueError(f"playable needs {len(masks)} masks, dd.c holds {MAX_PRIORITIES}")
    return masks


def _orders() -> tuple[list[list[int]], list[list[int]]]:
    """Ranks weakest first and points by rank, in a plain and in a trump suit (solver._ORDER)."""
    order, points = [], []
    for contract in (Contract.NO_TRUMPS, Contract.ALL_TRUMPS):
        table = TABLES[contract]
        order.append(sorted(range(8), key=table.strength.__getitem__))
        points.append(list(table.points[:8]))
    return order, points


@lru_cache(maxsize=256)
def rules_for(
    table: Table,
    teams: tuple[int, ...],
    free: tuple[tuple[bool, ...], ...],
    undertrump: bool,
) -> Rules:
    """The `Rules` of one contract at one table (the solver's `bind` facts), built once."""
    rules = Rules()
    rules.seats = len(teams)
    for seat, team in enumerate(teams):
        rules.teams[seat] = team
        for winner, ok in enumerate(free[seat]):
            rules.free[seat][winner] = ok
    for card in range(32):
        rules.strength[card] = table.strength[card]
        rules.points[card] = table.points[card]
        rules.beaters[card] = table.beaters[card]
    rules.ruffs = table.ruffs
    rules.trump_suits = table.trumps & 0x01010101
    order, points = _orders()
    for kind in range(2):
        for rank in range(8):
            rules.order[kind][rank] = order[kind][rank]
            rules.rpoints[kind][rank] = points[kind][rank]
    for led in range(4):
        for best in range(32):
            for ok in (False, True):
                for i, mask in enumerate(priorities(table, led, best, ok, undertrump)):
                    rules.legal[led][best][ok][i] = mask
    return rules


class NativeSearch:
    """One thread's handle on the library: its transposition table and its root search."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self._lib = lib
        self._ctx = lib.dd_new(TT_LOG2)
        if not self._ctx:
            raise MemoryError("dd_new could not allocate the transposition table")
        self._values = _I32()
        self._guess = _I32()
        self._legal = _I32()
        self._hands = (ctypes.c_uint32 * 4)()
        self._trick = _I4()
        self._nodes = ctypes.c_int64()

    def __del__(self) -> None:
        ctx, self._ctx = getattr(self, "_ctx", None), None
        if ctx:
            self._lib.dd_free(ctx)

    def root(
        self,
        rules: Rules,
        hands: list[int],
        trick: tuple[int, ...],
        position: tuple[int, int, int, int],
        stop: int,
        legal: list[int],
        guess: dict[int, int],
        nodes: int,
        limit: int,
        fresh: bool,
    ) -> tuple[dict[int, int] | None, int]:
        """Each legal card's value as `Solver._root` finds it and the nodes spent so far, or
        None for the values when the count passed `limit`. `position` is (leader, best,
        best_pos, tricks done); `fresh` starts a new solve (forgets the move hints)."""
        for seat, held in enumerate(hands):
            self._hands[seat] = held
        for i, card in enumerate(trick):
            self._trick[i] = card
        for i, card in enumerate(legal):
            self._legal[i] = card
            self._guess[i] = guess.get(card, _NONE)
        self._nodes.value = nodes
        leader, best, best_pos, done = position
        out = self._lib.dd_root(
            self._ctx, ctypes.byref(rules), self._hands, self._trick, len(trick),
            leader, best, best_pos, done, stop, self._legal, len(legal), self._guess,
            limit, ctypes.byref(self._nodes), fresh, self._values,
        )  # fmt: skip
        if out:
            return None, self._nodes.value
        return {card: self._values[i] for i, card in enumerate(legal)}, self._nodes.value


def load(path: Path) -> ctypes.CDLL:
    """The library at `path`, its functions typed; ValueError if its `Rules` is not ours."""
    lib = ctypes.CDLL(str(path))
    lib.dd_new.restype = ctypes.c_void_p
    lib.dd_new.argtypes = [ctypes.c_int]
    lib.dd_free.argtypes = [ctypes.c_void_p]
    lib.dd_rules_size.restype = ctypes.c_int
    lib.dd_root.restype = ctypes.c_int
    lib.dd_root.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
        ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
        ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
        ctypes.c_int, ctypes.c_void_p,
    ]  # fmt: skip
    if lib.dd_rules_size() != ctypes.sizeof(Rules):
        raise ValueError(f"{path} was built from another dd.c (its Rules differ); rebuild it")
    return lib


class Native:
    """The loaded library (or none) and a `NativeSearch` per thread."""

    def __init__(self, lib: ctypes.CDLL | None) -> None:
        self.lib = lib
        self._local = threading.local()

    def search(self) -> NativeSearch | None:
        """This thread's search, or None when the library is not loaded."""
        if self.lib is None:
            return None
        search: NativeSearch | None = getattr(self._local, "search", None)
        if search is None:
            search = self._local.search = NativeSearch(self.lib)
        return search


def _default() -> Native:
    """The prebuilt library if the Makefile built one that loads, else none."""
    try:
        return Native(load(LIBRARY)) if LIBRARY.exists() else Native(None)
    except (OSError, ValueError):
        return Native(None)


NATIVE = _default()
"""The library `Solver` uses by default; `available()` says whether there is one."""


def available() -> bool:
    """Whether the native solver is built and loaded (`make run` builds it with a C compiler)."""
    return NATIVE.lib is not None
