"""A double-dummy solver for the card play: every hand known, the best card-point outcome.

Given a deal in its play phase with all hands visible (a determinized world from the sampler),
the solver finds the card points (last trick's 10 included) that the side to move takes from
here on if both sides play perfectly. It is alpha-beta over single cards, on every table:

- sides: the two teams at four, the two players at two; at three (BGN-3, every player a side
  of his own) the contractor against the two defenders together, whose aim is his defeat
  (BG3-14); the search is then a two-sided game as at four;
- legality: the engine's own rule, `app.rules.playable`, on bare bitmasks (copying a
  `DealState` and listing its actions costs tens of microseconds, and a search visits tens of
  thousands of nodes); the cards it returns at the root are the engine's `legal_actions`;
- Open Belot's table stacks (OB-9..OB-11): a face-down card joins its owner's playable cards
  when the trick that played the card over it ends (with every hand open, it is known).

What makes it fast enough to solve from the middle of a deal:

- a transposition table at trick starts, keyed on the remaining playable cards of each seat
  and the leader (the points still to come depend only on those; a face-down card is still
  down exactly when the card over it is still there), holding lower and upper bounds, so a
  search with a narrow window reuses what a wider one proved;
- equivalent cards: two cards of one suit in one hand with no card still in play (in a hand or
  on the table) between them win and lose the same tricks; of such a run only the cards of the
  lowest and highest points are tried (`_REPS`), the others never do better than both;
- move order: the best card found at this trick start before (kept across depths), then cards
  that win the trick (the cheapest first, or the richest when nobody plays after), then the
  rest by their points;
- the last trick is counted directly, with no search.

Its objective is card points only: declarations and belote are left out, since the card play
barely changes them. The work is counted in nodes (cards tried), not seconds, so a search is
repeatable: `solve` deepens one trick at a time and keeps the deepest search that fit the
budget. A search cut short at a trick boundary scores the tricks it did not reach with
`estimate`, a static guess; one that reaches the end of the deal is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from app.rules import TABLES, Contract, DealState, Phase, Play, Table, legal_actions, playable

from .cards import bits
from .native import NATIVE, Native, NativeSearch, rules_for

LAST_TRICK = 10
"""The last trick's bonus card points (BG-23, FR-9)."""
_INF = 1 << 20


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


def tricks_left(state: DealState) -> int:
    """Tricks still to play, the current one counted: every card not yet played that a seat
    holds (in hand, face up or face down on the table) or that lies on the table."""
    cards = sum(state.holding(s).bit_count() for s in range(state.ruleset.seats))
    return (cards + len(state.trick)) // state.ruleset.seats


def solver_sides(state: DealState) -> tuple[int, ...]:
    """The search's two sides, 0 or 1 for each seat: the rules' sides, except at three where
    the contractor plays against both defenders (see the module doc)."""
    ruleset = state.ruleset
    if ruleset.seats == 3:
        return tuple(0 if seat == state.bidder else 1 for seat in range(3))
    return ruleset.seat_sides


class Solver:
    """Alpha-beta with a transposition table, within a budget of `budget` nodes per `solve`."""

    def __init__(self, budget: int = 20_000, native: Native | None = None) -> None:
        self.budget = budget
        self._native = NATIVE if native is None else native
        """The native search (app/bots/native) used when it is built, for deals without
        Open Belot's stacks: the same values, many times the nodes per second."""
        self._fast: NativeSearch | None = None
        self._fresh = False
        self.nodes = 0
        self._limit = 0
        self._stop = 0
        self._tt: dict[int, tuple[int, int]] = {}
        self._hint: dict[int, int] = {}

    def solve(self, state: DealState, max_depth: int | None = None) -> Solution:
        """Each legal card's value for the side to move, searched as deep as the budget allows
        (and no deeper than `max_depth` tricks, the current one counted).

        First the whole search, to the end (or to `max_depth`), within the budget. If that runs
        out, the search deepens one trick at a time from the current trick, within a quarter of
        the budget more, and the deepest depth that fit stands (the shallow searches would cost
        as much as the whole one again when it fits: their estimates cut off less). The first
        depth is always searched to completion, whatever the budget, so there is always an
        answer: at most 1.25 budgets and one trick's search in all.
        """
        if state.phase is not Phase.PLAYING or state.turn is None:
            raise ValueError("the solver needs a deal in its play phase")
        self.bind(state)
        remaining = tricks_left(state)
        deepest = remaining if max_depth is None else min(remaining, max_depth)
        legal = sorted({int(a.card) for a in legal_actions(state) if isinstance(a, Play)})
        self.nodes = 0
        self._hint = {}
        self._fast = None if self._under or self._down else self._native.search()
        self._fresh = True
        start = len(state.tricks)
        self._limit = self.budget
        try:
            if deepest < remaining:
                values = self._run_root(state, legal, start + deepest, {})
            else:  # to the end: a card's twin has its value
                twins = self._twins(state, legal)
                values = self._run_root(
                    state, [c for c in legal if c not in twins], start + deepest, {}
                )
                for card, twin in twins.items():
                    values[card] = values[twin]
                values = {card: values[card] for card in legal}
            return self._solution(values, deepest == remaining, deepest)
        except _OutOfBudget:
            pass
        best: dict[int, int] = {}
        found = 0
        self._limit = 1 << 62
        for depth in range(1, deepest + 1):
            try:
                values = self._run_root(state, legal, start + depth, best)
            except _OutOfBudget:
                break
            best, found = values, depth
            self._limit = self.nodes + self.budget // 4
        return self._solution(best, False, found)

    def _solution(self, values: dict[int, int], exact: bool, depth: int) -> Solution:
        return Solution({c: float(v) for c, v in values.items()}, exact, depth, self.nodes)

    def value(self, state: DealState) -> float:
        """Card points the side to move takes from here on with best play by both sides."""
        return max(self.solve(state).values.values())

    # ---------------------------------------------------------------------------- the search

    def bind(self, state: DealState) -> None:
        """Read the deal's fixed facts (contract, sides, house rules, stacks) for the hot loop."""
        table = state.table
        assert table is not None
        ruleset = state.ruleset
        self._table: Table = table
        self._teams = solver_sides(state)
        seats = self._seats = ruleset.seats
        self._undertrump = ruleset.house_rules.must_undertrump
        together = ruleset.house_rules.defenders_partners and seats == 3
        self._free = tuple(
            tuple(
                ruleset.partner[turn] == winner or (together and state.bidder not in (winner, turn))
                for winner in range(seats)
            )
            for turn in range(seats)
        )
        """BG-9 / BG3-9: may `turn` play any card while `winner` is master of the trick?"""
        strength, points = table.strength, table.points
        self._lead_key = tuple(-2 * strength[c] - points[c] for c in range(32))
        self._cheap_win = tuple(strength[c] + 2 * points[c] for c in range(32))
        self._points_desc = tuple(-p for p in points)
        self._trump_suits = table.trumps & 0x01010101
        """Bit 8 * s set when suit s is trumps."""
        self._live = 0
        """The cards in play in the trick under way: in hands, on the table, face down."""
        self._down = 0
        """Open Belot: every face-down card, counted as in play (it splits runs of equivalent
        cards until it is played; counting it longer only tries more cards)."""
        self._covers = 0
        """Open Belot: the face-up cards that lie over a face-down one."""
        self._under: dict[int, tuple[int, int]] = {}
        """Open Belot: a face-up card still in play -> (its owner, the face-down card's bit)."""
        layout = state.layout
        if layout is not None and layout.stacks:
            for seat, own in enumerate(layout.stacks):
                for up, down in own:
                    if up >= 0 and down >= 0:
                        self._under[up] = (seat, 1 << down)
                        self._covers |= 1 << up
                    if down >= 0:
                        self._down |= 1 << down
            for seat, k in layout.uncover:  # covered by a card on the table: up at trick end
                card = state.trick[(seat - state.leader) % seats]
                self._under[int(card)] = (seat, 1 << layout.stacks[seat][k][1])

    def _twins(self, state: DealState, legal: list[int]) -> dict[int, int]:
        """Legal cards that are another legal card's twin -> that card: of one suit and the
        same points, with no card of another seat still in play (in a hand or on the table)
        between them in strength. Playing one or the other leads to the same game with two of
        the mover's cards renamed (his own cards never meet in a trick), so to the end of the
        deal they are worth the same; a search cut short is not (its estimate reads
        strengths). Open Belot's face-down cards rule it out (`solve` does not ask then)."""
        seat = state.turn
        assert seat is not None
        if self._under or self._down:
            return {}
        others = 0
        for s, held in enumerate(state.hands):
            if s != seat:
                others |= held
        for played in state.trick:
            others |= 1 << int(played)
        strength, points = self._table.strength, self._table.points
        twins: dict[int, int] = {}
        firsts: list[int] = []
        for card in legal:
            for first in firsts:
                if first >> 3 != card >> 3 or points[first] != points[card]:
                    continue
                low, high = sorted((strength[first], strength[card]))
                between = others >> (card & 24) & 0xFF
                if not any(
                    low < strength[(card & 24) + r] < high for r in range(8) if between >> r & 1
                ):
                    twins[card] = first
                    break
            else:
                firsts.append(card)
        return twins

    @property
    def native(self) -> bool:
        """Whether the last `solve` ran in the native search."""
        return self._fast is not None

    def _run_root(
        self, state: DealState, legal: list[int], stop: int, guess: dict[int, int]
    ) -> dict[int, int]:
        """`_root` in the native search when there is one, else in Python."""
        if self._fast is None:
            return self._root(state, legal, stop, guess)
        rules = rules_for(self._table, self._teams, self._free, self._undertrump)
        values, self.nodes = self._fast.root(
            rules, list(state.hands), tuple(int(c) for c in state.trick),
            (state.leader, state.best, state.best_pos, len(state.tricks)),
            stop, legal, guess, self.nodes, self._limit, self._fresh,
        )  # fmt: skip
        self._fresh = False
        if values is None:
            raise _OutOfBudget
        return values

    def _root(
        self, state: DealState, legal: list[int], stop: int, guess: dict[int, int]
    ) -> dict[int, int]:
        """Each legal card's exact value (to trick `stop`) for the mover's side, each found by
        null-window searches around the previous depth's value (MTD(f)) that share the table."""
        self._tt = {}
        self._stop = stop
        seat = state.turn
        assert seat is not None
        hands = list(state.hands)
        trick = tuple(int(c) for c in state.trick)
        total = _points_left(self._table, [state.holding(s) for s in range(self._seats)], trick)
        self._live = self._down
        for held in hands:
            self._live |= held
        for c in trick:
            self._live |= 1 << c
        team = self._teams[seat]
        values: dict[int, int] = {}
        previous = 0
        for card in legal:
            hands[seat] ^= 1 << card
            g = guess.get(card, previous)
            low, high = -_INF, _INF
            while low < high:
                beta = g + 1 if g == low else g
                g = self._place(
                    hands, trick, card, state.leader, state.best, state.best_pos,
                    len(state.tricks), beta - 1, beta,
                )  # fmt: skip
                if g < beta:
                    high = g
                else:
                    low = g
            hands[seat] ^= 1 << card
            previous = g
            values[card] = g if team == 0 else total - g
        return values

    def _search(
        self,
        hands: list[int],
        trick: tuple[int, ...],
        leader: int,
        best: int,
        best_pos: int,
        done: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Points team 0 takes from here on (the cards on the table included), exact within
        (alpha, beta), a bound beyond (fail-soft). `done` counts the completed tricks."""
        seats = self._seats
        seat = (leader + len(trick)) % seats
        hand = hands[seat]
        key = 0
        table = self._table
        if not trick:
            if not hand:
                return 0
            if done >= self._stop:
                return estimate(table, self._teams, hands)
            if hand.bit_count() == 1 and not self._under:
                return self._last_trick(hands, leader)
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
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
            live = 0
            for held in hands:
                live |= held
            self._live = live | self._down
            cards = self._candidates(hand)
            cards.sort(key=self._lead_key.__getitem__)
            hint = self._hint.get(key, -1)
            if hint in cards:
                cards.remove(hint)
                cards.insert(0, hint)
        else:
            cards = self._candidates(self.legal(hand, trick, leader, best, best_pos))
            if len(cards) > 1:
                cards = self._follow_order(cards, seat, leader, best, best_pos, len(trick))
        a0, b0 = alpha, beta
        maximize = self._teams[seat] == 0
        result = -_INF if maximize else _INF
        chosen = -1
        for card in cards:
            hands[seat] = hand ^ 1 << card
            value = self._place(hands, trick, card, leader, best, best_pos, done, alpha, beta)
            hands[seat] = hand
            if maximize:
                if value > result:
                    result, chosen = value, card
                    if value > alpha:
                        alpha = value
            elif value < result:
                result, chosen = value, card
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
            self._hint[key] = chosen
        return result

    def legal(
        self, hand: int, trick: tuple[int, ...], leader: int, best: int, best_pos: int
    ) -> int:
        """The cards `hand` may play on `trick` (led by `leader`, `best` winning it from
        position `best_pos`) in the deal last `bind`-ed: the engine's `playable`, told whether
        the partner is master."""
        if not trick:
            return hand
        seats = self._seats
        free = self._free[(leader + len(trick)) % seats][(leader + best_pos) % seats]
        return playable(self._table, hand, trick[0] >> 3, best, free, self._undertrump)

    def _candidates(self, legal: int) -> list[int]:
        """The legal cards worth trying: one or two of each run of equivalent cards (module
        doc), judged against the cards still in play in this trick (`_live`); and every card
        that lies over a face-down one, which no other card is like (it turns that card)."""
        cards: list[int] = []
        covers = legal & self._covers
        if covers:
            cards.extend(bits(covers))
            legal ^= covers
        live = self._live
        trumps = self._trump_suits
        while legal:
            base = (legal & -legal).bit_length() - 1 & 24
            mine = legal >> base & 0xFF
            legal ^= mine << base
            key = base << 17 | (trumps >> base & 1) << 16 | (live >> base & 0xFF) << 8 | mine
            found = _CARDS.get(key)
            if found is None:
                found = _cards_to_try(key)
            cards += found
        return cards

    def _follow_order(
        self, cards: list[int], seat: int, leader: int, best: int, best_pos: int, played: int
    ) -> list[int]:
        """Cards to a trick under way, the likely best first: when the mover's side is master,
        the richest; otherwise the cards that take the trick (the richest if nobody plays after,
        else the cheapest), then the rest, the poorest first."""
        table = self._table
        teams = self._teams
        if teams[(leader + best_pos) % self._seats] == teams[seat]:
            return sorted(cards, key=self._points_desc.__getitem__)
        beats = table.beaters[best] | (0 if table.ruffs >> best & 1 else table.ruffs)
        winners = [c for c in cards if beats >> c & 1]
        losers = [c for c in cards if not beats >> c & 1]
        losers.sort(key=table.points.__getitem__)
        if played == self._seats - 1:
            winners.sort(key=self._points_desc.__getitem__)
        else:
            winners.sort(key=self._cheap_win.__getitem__)
        return winners + losers

    def _place(
        self,
        hands: list[int],
        trick: tuple[int, ...],
        card: int,
        leader: int,
        best: int,
        best_pos: int,
        done: int,
        alpha: int,
        beta: int,
    ) -> int:
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
        taken = 0
        for c in trick:
            taken += points[c]
        uncovered = self._uncover(hands, trick) if self._under else ()
        if not any(hands):
            taken += LAST_TRICK
        live = self._live
        if self._teams[winner] != 0:
            value = self._search(hands, (), winner, -1, -1, done + 1, alpha, beta)
        else:
            value = taken + self._search(
                hands, (), winner, -1, -1, done + 1, alpha - taken, beta - taken
            )
        self._live = live
        for seat, bit in uncovered:
            hands[seat] ^= bit
        return value

    def _uncover(self, hands: list[int], trick: tuple[int, ...]) -> list[tuple[int, int]]:
        """OB-11: the face-down cards under the trick's cards join their owners' cards (the
        caller takes them back after the search below)."""
        turned = []
        for card in trick:
            under = self._under.get(card)
            if under is not None:
                hands[under[0]] |= under[1]
                turned.append(under)
        return turned

    def _last_trick(self, hands: list[int], leader: int) -> int:
        """Points team 0 takes in the last trick, one card in each hand: no choice is left."""
        self.nodes += self._seats
        table = self._table
        strength, ruffs = table.strength, table.ruffs
        seats = self._seats
        best = lead = hands[leader].bit_length() - 1
        taken = LAST_TRICK + table.points[lead]
        best_pos = 0
        for pos in range(1, seats):
            card = hands[(leader + pos) % seats].bit_length() - 1
            taken += table.points[card]
            if (card >> 3 == lead >> 3 or ruffs >> card & 1) and strength[card] > strength[best]:
                best, best_pos = card, pos
        return 0 if self._teams[(leader + best_pos) % seats] else taken


def _cards_to_try(key: int) -> tuple[int, ...]:
    """The cards of one suit worth trying, for `key` = suit * 8 << 17 | trump << 16 |
    live << 8 | mine: of the ranks `mine` held among the ranks `live` still in play (bytes of
    rank bits), in a plain (`trump` 0) or trump suit, of each run of held ranks with no other
    live rank between them in strength order the ones of the lowest and highest points."""
    base, trump, live, mine = key >> 17, key >> 16 & 1, key >> 8 & 0xFF, key & 0xFF
    order, points = _ORDER[trump]
    reps: list[int] = []
    run: list[int] = []
    for rank in (*order, -1):
        if rank >= 0 and not live >> rank & 1:
            continue
        if rank >= 0 and mine >> rank & 1:
            run.append(rank)
        elif run:
            reps.append(min(run, key=points.__getitem__))  # the weakest of the poorest
            richest = max(reversed(run), key=points.__getitem__)  # the strongest of the richest
            if richest != reps[-1]:
                reps.append(richest)
            run = []
    _CARDS[key] = found = tuple(base + r for r in reps)
    return found


def _orders() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """(ranks weakest first, points by rank) in a plain suit and in a trump suit: alike in every
    contract (the engine's tables of No Trumps and All Trumps)."""
    out = []
    for contract in (Contract.NO_TRUMPS, Contract.ALL_TRUMPS):
        table = TABLES[contract]
        out.append((tuple(sorted(range(8), key=table.strength.__getitem__)), table.points[:8]))
    return tuple(out)


_ORDER = _orders()
_CARDS: dict[int, tuple[int, ...]] = {}
"""`_cards_to_try`'s answers, computed on first use."""


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


def _points_left(table: Table, hands: list[int], trick: tuple[int, ...]) -> int:
    """Every card point still to be taken from the cards held and the cards on the table, and
    the last trick's bonus."""
    cards = 0
    for hand in hands:
        cards |= hand
    for card in trick:
        cards |= 1 << card
    return _sum(_byte_sums(table)[0], cards) + LAST_TRICK


def estimate(table: Table, teams: tuple[int, ...], hands: list[int]) -> int:
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
    return left * weight[0] // total if total else left // 2
