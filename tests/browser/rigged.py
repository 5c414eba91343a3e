"""A rigged first deal for browser tests that need a known hand: the server runs in the test's
process (a thread), so its deck and first dealer can be fixed with pytest's monkeypatch."""

from __future__ import annotations

import secrets
from types import SimpleNamespace

import pytest

import app.rooms.room as room_module
from app.rooms.shuffle import DrawnDeck
from app.rules import Ruleset
from tests.rules.helpers import layout_deck

DECLARER_HANDS = {
    0: ["JH", "9H", "AH", "KH", "QH", "JS", "JD", "JC"],
    1: ["7H", "8H", "7S", "8S", "7D", "8D", "7C", "AS"],
    2: ["9S", "TS", "9D", "TD", "9C", "AD", "TC", "AC"],
    3: ["QS", "KS", "TH", "8C", "QD", "KD", "QC", "KC"],
}
"""Seat 0 (the player who creates the room) gets the four jacks and hearts J-9-A-K-Q (dealer
3: the player bids and leads first): a carré of jacks (BG-14), a tierce Q-K-A (BG-13) and,
with hearts trumps, a belote (BG-19), so the widest panel of announcements the table shows;
the bots get hands too weak to bid and no sequence (an equal tierce of theirs would cancel
the player's, BG-17)."""


def rig_deals(
    monkeypatch: pytest.MonkeyPatch, hands: dict[int, list[str]], dealer: int = 3
) -> None:
    """Every deal of the Bulgarian rooms started from now on deals `hands` (seat -> cards),
    and the first dealer is `dealer`."""
    deck = tuple(layout_deck(Ruleset.bulgarian(), dealer, hands))
    monkeypatch.setattr(room_module, "draw_deck", lambda *_: DrawnDeck("", 0, deck))
    fixed = SimpleNamespace(randbelow=lambda n: dealer, token_urlsafe=secrets.token_urlsafe)
    monkeypatch.setattr(room_module, "secrets", fixed)
