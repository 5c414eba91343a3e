"""A double-dummy solver for the card play: every hand known, the best card-point outcome.

Given a deal in its play phase with all hands visible (a determinized world from the sampler),
the solver finds the card points (last trick's 10 included) that the side to move takes from
here on if both sides play perfectly. It is alpha-beta over single cards, with a transposition
table at trick starts keyed on the remaining hands and the leader (the points still to come depend
only on those), and a move order that tries the likely best cards first.

Why not the engine's `apply` at every node: copying a `DealState` and listing its actions costs
tens of microseconds, and a search visits tens of thousands of nodes. So the search walks bare
bitmasks, and takes the legal cards from the engine's tables (`TABLES`: trumps, ruffs and the
cards that beat each card) by the same rule as `app.rules`' legal mask (BG-8..BG-11, FR-6,
`must_undertrump`). The cards it returns at the root are always the engine's own
`legal_actions`, and tests/bots/test_solver.py checks the two agree at every node of many
searches.

Its objective is card points only: declarations and belote are left out, since the card play
barely changes them. The work is counted in nodes, not seconds, so a search is repeatable:
`solve` deepens one trick at a time and keeps the deepest search that fit the budget. A search cut
short at a trick boundary scores the tricks it did not reach with `estimate`, a static guess; one
that reaches the end of the deal is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from app.rules import SUIT_MASK, Contract, DealState, Phase, Play, Table, legal_actions

from .cards import bits

LAST_TRICK = 10
"""The last trick's bonus card points (BG-23, FR-9)."""
_INF = 1e9


class _OutOfBudget(Exception):
    """Raised inside a search that has spent its nodes; the previous depth's answer stands."""


@dataclass(frozen=True, slots=True)
class Solution:
    """What `solve` found: each legal card's value for the side to move, and how sure it is."""

    values: dict[int, float]
    """Card points the mover's side takes from here on after each legal card."""
    exact: bool
    """True when the search reached the end of the deal (no estimate was used)."""
    depth: int
    """Tricks (counting the current one) the search looked ahead."""
    nodes: int


class Solver:
    """Alpha-beta with a transposition table, within a budget of `budget` nodes per `solve`."""

    def __init__(self, budget: int = 20_000) -> None:
        self.budget = budget
        self.nodes = 0
        self._limit = 0
        self._stop = 0
        self._tt: dict[int, tuple[float, float]] = {}

    def solve(self, state: DealState, max_depth: int | None = None) -> Solution:
        """Each legal card's value for the side to move, searched as deep as the budget allows
        (and no deeper than `max_depth` tricks, the current one counted).

        The first depth (to the end of the current trick) is always searched to completion,
        whatever the budget, so there is always an answer.
        """
        if state.phase is not Phase.PLAYING or state.turn is None:
            raise ValueError("the solver needs a deal in its play phase")
        self.bind(state)
        seat = state.turn
        remaining = state.hands[seat].bit_count() + (1 if state.trick else 0)
        deepest = remaining if max_depth is None else min(remaining, max_depth)
        legal = sorted({int(a.card) for a in legal_actions(state) if isinstance(a, Play)})
        self.nodes = 0
        best: Solution | None = None
        for depth in range(1, deepest + 1):
            self._limit = self.budget if best is not None else 1 << 62
            try:
                values = self._root(state, legal, len(state.tricks) + depth)
            except _OutOfBudget:
                break
            best = Solution(values, depth == remaining, depth, self.nodes)
        assert best is not None
        return Solution(best.values, best.exact, best.depth, self.nodes)

    def value(self, state: DealState) -> float:
        """Card points the side to move takes from here on with best play by both sides."""
        return max(self.solve(state).values.values())

    # ---------------------------------------------------------------------------- the search

    def bind(self, state: DealState) -> None:
        """Read the deal's fixed facts (contract, teams, house rules) for the hot loop."""
        table = state.table
        assert table is not None
        self._table: Table = table
        self._teams = state.ruleset.seat_sides
        self._seats = state.ruleset.seats
        self._undertrump = state.ruleset.house_rules.must_undertrump
        strength, points = table.strength, table.points
        self._lead_key = tuple(-2 * strength[c] - points[c] for c in range(32))
        self._points_desc = tuple(-p for p in points)

    def _root(self, state: DealState, legal: list[int], stop: int) -> dict[int, float]:
        self._tt = {}
        self._stop = stop
        seat = state.turn
        assert seat is not None
        hands = list(state.hands)
        trick = tuple(int(c) for c in state.trick)
        total = _points_left(self._table, hands, trick)
        team = self._teams[seat]
        values: dict[int, float] = {}
        for card in legal:
            hands[seat] ^= 1 << card
            future = self._after(
                hands, trick, card, state.leader, state.best, state.best_pos, len(state.tricks),
                -_INF, _INF,
            )  # fmt: skip
            hands[seat] ^= 1 << card
            values[card] = future if team == 0 else total - future
        return values

    def _search(
        self,
        hands: list[int],
        trick: tuple[int, ...],
        leader: int,
        best: int,
        best_pos: int,
        done: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Points team 0 takes from here on (the cards on the table included), exact within
        (alpha, beta). `done` counts the completed tricks."""
        seats = self._seats
        seat = (leader + len(trick)) % seats
        hand = hands[seat]
        key = 0
        if not trick:
            if not hand:
                return 0.0
            if done >= self._stop:
                return estimate(self._table, self._teams, hands)
            key = leader + 1
            for held in hands:
                key = key << 32 | held
            low, high = self._tt.get(key, (-_INF, _INF))
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
            alpha, beta = max(alpha, low), min(beta, high)
            order = self._lead_key
        else:
            winner = (leader + best_pos) % seats
            if self._teams[winner] == self._teams[seat]:
                order = self._points_desc
            else:
                order = self._table.points
        a0, b0 = alpha, beta
        maximize = self._teams[seat] == 0
        result = -_INF if maximize else _INF
        for card in sorted(
            bits(self.legal(hand, trick, leader, best, best_pos)), key=order.__getitem__
        ):
            hands[seat] = hand ^ 1 << card
            value = self._after(hands, trick, card, leader, best, best_pos, done, alpha, beta)
            hands[seat] = hand
            if maximize:
                if value > result:
                    result = value
                    if value > alpha:
                        alpha = value
            elif value < result:
                result = value
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        if key:
            low, high = self._tt.get(key, (-_INF, _INF))
            if result <= a0:
                high = min(high, result)
            elif result >= b0:
                low = max(low, result)
            else:
                low = high = result
            self._tt[key] = (low, high)
        return result

    def _after(
        self,
        hands: list[int],
        trick: tuple[int, ...],
        card: int,
        leader: int,
        best: int,
        best_pos: int,
        done: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Points team 0 takes from the moment `card` lands on `trick` (already out of its
        player's hand in `hands`)."""
        self.nodes += 1
        if self.nodes > self._limit:
            raise _OutOfBudget
        table = self._table
        strength = table.strength
        if not trick or (
            (card >> 3 == trick[0] >> 3 or table.ruffs >> card & 1)
            and strength[card] > strength[best]
        ):
            best, best_pos = card, len(trick)
        trick = (*trick, card)
        if len(trick) < self._seats:
            return self._search(hands, trick, leader, best, best_pos, done, alpha, beta)
        winner = (leader + best_pos) % self._seats
        points = table.points
        taken = float(sum(points[c] for c in trick))
        if not any(hands):
            taken += LAST_TRICK
        if self._teams[winner] != 0:
            return self._search(hands, (), winner, -1, -1, done + 1, alpha, beta)
        return taken + self._search(
            hands, (), winner, -1, -1, done + 1, alpha - taken, beta - taken
        )

    def legal(
        self, hand: int, trick: tuple[int, ...], leader: int, best: int, best_pos: int
    ) -> int:
        """The cards `hand` may play on `trick` (led by `leader`, `best` winning it from position
        `best_pos`), by the engine's rule (see the module doc), in the deal last `bind`-ed."""
        if not trick:
            return hand
        table = self._table
        led = trick[0] >> 3
        follow = hand & SUIT_MASK[led]
        contract = table.contract
        if contract == Contract.NO_TRUMPS:
            return follow or hand
        if contract == Contract.ALL_TRUMPS or led == contract:
            return ((follow & table.beaters[best]) or follow) if follow else hand
        if follow:
            return follow
        seats = self._seats
        turn = (leader + len(trick)) % seats
        winner = (leader + best_pos) % seats
        if winner != turn and self._teams[winner] == self._teams[turn]:
            return hand
        trumps = hand & table.trumps
        if not trumps:
            return hand
        if not table.trumps >> best & 1:
            return trumps
        over = trumps & table.beaters[best]
        if over:
            return over
        return trumps if self._undertrump else hand


@lru_cache(maxsize=8)
def _byte_sums(table: Table) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For each suit and each byte of that suit's bits: the cards' points, and their weight in
    `estimate` (1 + strength + points). Sums of a mask are then four look-ups."""
    strength, points = table.strength, table.points
    point_sums, weight_sums = [], []
    for suit in range(4):
        cards = [[suit * 8 + r for r in range(8) if byte >> r & 1] for byte in range(256)]
        point_sums.append(tuple(sum(points[c] for c in cs) for cs in cards))
        weight_sums.append(tuple(sum(1 + strength[c] + points[c] for c in cs) for cs in cards))
    return tuple(point_sums), tuple(weight_sums)


def _sum(sums: tuple[tuple[int, ...], ...], mask: int) -> int:
    return (
        sums[0][mask & 0xFF]
        + sums[1][mask >> 8 & 0xFF]
        + sums[2][mask >> 16 & 0xFF]
        + sums[3][mask >> 24 & 0xFF]
    )


def _points_left(table: Table, hands: list[int], trick: tuple[int, ...]) -> float:
    """Every card point still to be taken: cards in hands and on the table, and the last
    trick's bonus."""
    cards = 0
    for hand in hands:
        cards |= hand
    for card in trick:
        cards |= 1 << card
    return float(_sum(_byte_sums(table)[0], cards) + LAST_TRICK)


def estimate(table: Table, teams: tuple[int, ...], hands: list[int]) -> float:
    """A static guess at the points team 0 takes from a trick start on, for a search cut short:
    the points still out, shared in proportion to how strong each side's cards are (a trump or
    a card high in its suit counts more)."""
    point_sums, weight_sums = _byte_sums(table)
    weight = [0, 0]
    cards = 0
    for seat, hand in enumerate(hands):
        weight[teams[seat]] += _sum(weight_sums, hand)
        cards |= hand
    total = weight[0] + weight[1]
    left = _sum(point_sums, cards) + LAST_TRICK
    return left * weight[0] / total if total else left / 2
