"""What a foreseen ending's card points are worth on the scoresheet.

The double-dummy solver counts card points, but a deal is scored by its contract's fate: a
contract one point short gives the defenders everything (French: all 162 and the declarations;
Bulgarian: the whole deal's match points). Averaged over sampled worlds, card points undervalue
the card that makes (or sinks) the contract in more of them. With `ExpertBot(by_score=True)`
(the bench variant `expert-score`) each world's value of a card is settled as the deal would
be, by the rules' own arithmetic (`settle_taken`), for the card points that world's perfect
play gives each side. Measured in whole French games it won more contract fates and lost as
much in card points elsewhere, level overall (docs/architecture.md), so the expert's default
stays card points.

Only the card points are foreseen: declarations are those already shown (they are shown in the
first trick), belote is counted when announced and, in a suit contract, for whoever holds both
cards of the trump pair still unplayed or for whose first card it was deferred (OB-16): a bot
always announces it. In all trumps a pair counts only when its first card is played to a trick
of its suit (BG-19), which is not foreseen, so there it is counted once announced. A valat
is foreseen for a side that took every trick so far and would take every
point left. With three players the solver's sides are the contractor against both defenders,
whose split of the defence's points it does not know, so there the card points stand.
"""

from __future__ import annotations

from app.rules import (
    BELOTE_POINTS,
    LAST_TRICK,
    TABLES,
    DealState,
    scoring_declarations,
    settle_taken,
)


class DealScore:
    """Maps the card points the side to move in `world` takes from here on to its margin on
    the scoresheet (its match points minus the other side's; French: points)."""

    def __init__(self, world: DealState) -> None:
        ruleset = world.ruleset
        assert world.turn is not None and world.contract is not None
        sides = ruleset.seat_sides
        self._world = world
        self._side = sides[world.turn]
        table = TABLES[world.contract]
        unplayed = 0
        for seat in range(ruleset.seats):
            unplayed |= world.holding(seat)
        for card in world.trick:
            unplayed |= 1 << int(card)
        self._left = LAST_TRICK + sum(table.points[c] for c in range(32) if unplayed >> c & 1)
        announces = [0, 0]
        for announced in scoring_declarations(world, as_shown=True):
            announces[sides[announced.seat]] += announced.declaration.points
        belote = [0, 0]
        for seat, _suit in world.belotes:
            belote[sides[seat]] += BELOTE_POINTS
        if world.contract.is_suit:
            (pair,) = table.belote_pairs
            for seat in range(ruleset.seats):
                if world.holding(seat) & pair == pair:
                    belote[sides[seat]] += BELOTE_POINTS
            if world.layout is not None:  # OB-16: one card played, the other face down
                for seat, _suit in set(world.layout.deferred) - set(world.belotes):
                    belote[sides[seat]] += BELOTE_POINTS
        self._announces = (announces[0], announces[1])
        self._belote = (belote[0], belote[1])
        winners = {sides[trick.winner] for trick in world.tricks}
        self._sweeping = winners.pop() if len(winners) == 1 else None
        """The side that took every trick so far, if one did: it may still take a valat."""

    def __call__(self, points: float) -> float:
        mine = round(points)
        taken = list(self._world.points)
        taken[self._side] += mine
        taken[1 - self._side] += self._left - mine
        valat = None
        if mine == self._left and self._sweeping in (None, self._side):
            valat = self._side
        elif mine == 0 and self._sweeping in (None, 1 - self._side):
            valat = 1 - self._side
        _, settle = settle_taken(
            self._world, (taken[0], taken[1]), self._belote, self._announces, valat
        )
        mp = settle.mp
        return (mp[self._side] or 0) - (mp[1 - self._side] or 0)
