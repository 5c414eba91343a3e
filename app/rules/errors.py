"""The engine's errors: each names a stable code for clients and the RULES.md id it enforces.

An error is raised before anything changes, so the state the caller holds stays valid.
"""

from __future__ import annotations


class RuleError(ValueError):
    """An action the rules do not allow; `code` is stable, `rule` is a RULES.md id."""

    code = "illegal_action"

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule

    @property
    def message(self) -> str:
        return str(self.args[0])


class NotYourTurn(RuleError):
    code = "not_your_turn"


class WrongPhase(RuleError):
    code = "wrong_phase"


class IllegalBid(RuleError):
    code = "illegal_bid"


class IllegalCard(RuleError):
    code = "illegal_card"


class IllegalDeclaration(RuleError):
    code = "illegal_declaration"


class IllegalBelote(RuleError):
    code = "illegal_belote"


class BadRecord(ValueError):
    """A record that cannot be read at all (not an illegal action: a malformed document)."""

    code = "bad_record"
    rule = "record"
