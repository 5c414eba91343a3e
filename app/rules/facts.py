"""The numbers a player learns before a first deal, as data (the client's "How to play" page
draws its tables from them, so that the page and the engine cannot disagree): the order and
points of the cards (C-3, C-4), the last trick (BG-21, FR-9), the declarations (BG-13, BG-14)
and belote (BG-19, FR-7)."""

from __future__ import annotations

from typing import Any

from .cards import (
    PLAIN_POINTS_BY_RANK,
    PLAIN_STRENGTH_BY_RANK,
    RANK_LETTERS,
    TRUMP_POINTS_BY_RANK,
    TRUMP_STRENGTH_BY_RANK,
)
from .declarations import CARRE_POINTS, SEQUENCE_KINDS, SEQUENCE_POINTS
from .ruleset import Ruleset
from .scoring import BELOTE_POINTS, LAST_TRICK, VALAT_MP


def _order(strength: tuple[int, ...], points: tuple[int, ...]) -> list[dict[str, Any]]:
    ranks = sorted(range(8), key=lambda r: -strength[r])
    return [{"rank": RANK_LETTERS[r], "points": points[r]} for r in ranks]


def card_facts() -> dict[str, Any]:
    """Trumps and plain suits high to low with their points; the last trick; the sequences by
    length (three to five: a longer run counts as a quinte, BG-13) and the carrés by rank,
    highest first (four 8s or 7s count nothing, BG-14); belote; the valat's match points."""
    carres = sorted(CARRE_POINTS, key=lambda r: -TRUMP_STRENGTH_BY_RANK[r])
    return {
        "trump": _order(TRUMP_STRENGTH_BY_RANK, TRUMP_POINTS_BY_RANK),
        "plain": _order(PLAIN_STRENGTH_BY_RANK, PLAIN_POINTS_BY_RANK),
        "last_trick": LAST_TRICK,
        "sequences": [
            {"kind": SEQUENCE_KINDS[n], "cards": n, "points": SEQUENCE_POINTS[n]} for n in (3, 4, 5)
        ],
        "carres": [{"rank": RANK_LETTERS[r], "points": CARRE_POINTS[r]} for r in carres],
        "belote": BELOTE_POINTS,
        "valat_mp": VALAT_MP,
    }


def ranks_in(ruleset: Ruleset) -> str:
    """The ranks the preset's deck holds, low to high (``"9TJQKA"`` at three and two seats)."""
    return "".join(RANK_LETTERS[r] for r in ruleset.deck_ranks)
