"""Which announcements go with a card: the best scoring declaration offered, belote, rebelote.

The engine lists each card once per combination of announcements it allows. A bot picks its card
first and then the richest announcement for it: declaring the best combination is what scores
(BG-17, FR-8), and belote is 20 points that nothing can take away (BG-19, FR-7).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules import Action, Card, Play

from .cards import R9, RJ

_SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 120}  # BG-13


def declaration_points(cards: Sequence[Card]) -> int:
    """What one declaration is worth when it scores (BG-13, BG-14)."""
    if len(cards) == 4 and len({c & 7 for c in cards}) == 1:
        rank = cards[0] & 7
        return 200 if rank == RJ else 150 if rank == R9 else 100
    return _SEQUENCE_POINTS[len(cards)]


def play_with_card(card: int, legal: Sequence[Action]) -> Play:
    """The legal play of `card` with the most valuable announcements."""
    plays = [a for a in legal if isinstance(a, Play) and a.card == card]
    return max(
        plays,
        key=lambda p: (sum(declaration_points(d) for d in p.declare), p.belote, p.rebelote),
    )
