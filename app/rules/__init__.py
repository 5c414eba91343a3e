"""The rules engine: pure game logic, standard library only (DESIGN.md, docs/architecture.md).

Import from here; the submodules are the engine's own business.
"""

from .actions import Action, Bid, Call, Play, action_from_dict, action_to_dict
from .cards import CARDS, SUIT_MASK, Card, Suit, iter_bits, mask_of
from .contracts import TABLES, Contract, Table
from .deal import (
    DealState,
    Phase,
    Trick,
    apply,
    forced_last_card,
    legal_actions,
    new_deal,
    playable,
)
from .deck import cut_deck, first_dealer_from_draw, full_deck, gathered_deck
from .errors import (
    BadRecord,
    IllegalBelote,
    IllegalBid,
    IllegalCard,
    IllegalDeclaration,
    NotYourTurn,
    RuleError,
    WrongPhase,
)
from .facts import card_facts, ranks_in
from .match import MatchState, ScoreLine, new_match, record_deal
from .records import (
    DEAL_FORMAT,
    MATCH_FORMAT,
    ReplayError,
    deal_record,
    match_record,
    replay_deal,
    replay_match,
)
from .ruleset import HOUSE_RULES, PRESETS, HouseRule, HouseRules, Ruleset, house_rules_for
from .scoring import BELOTE_POINTS, LAST_TRICK, DealResult, scoring_declarations, settle_taken
from .tally import TALLY_COUNTERS, Tally, record_calls, tally_deal
from .view import AnnouncedView, SeatView, view, wire_view

__all__ = [
    "BELOTE_POINTS",
    "CARDS",
    "DEAL_FORMAT",
    "HOUSE_RULES",
    "LAST_TRICK",
    "MATCH_FORMAT",
    "PRESETS",
    "SUIT_MASK",
    "TABLES",
    "TALLY_COUNTERS",
    "Action",
    "AnnouncedView",
    "BadRecord",
    "Bid",
    "Call",
    "Card",
    "Contract",
    "DealResult",
    "DealState",
    "HouseRule",
    "HouseRules",
    "IllegalBelote",
    "IllegalBid",
    "IllegalCard",
    "IllegalDeclaration",
    "MatchState",
    "NotYourTurn",
    "Phase",
    "Play",
    "ReplayError",
    "RuleError",
    "Ruleset",
    "ScoreLine",
    "SeatView",
    "Suit",
    "Table",
    "Tally",
    "Trick",
    "WrongPhase",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "card_facts",
    "cut_deck",
    "deal_record",
    "first_dealer_from_draw",
    "forced_last_card",
    "full_deck",
    "gathered_deck",
    "house_rules_for",
    "iter_bits",
    "legal_actions",
    "mask_of",
    "match_record",
    "new_deal",
    "new_match",
    "playable",
    "ranks_in",
    "record_calls",
    "record_deal",
    "replay_deal",
    "replay_match",
    "scoring_declarations",
    "settle_taken",
    "tally_deal",
    "view",
    "wire_view",
]
