"""What the operator reads (``python -m app.admin``): reports, appeals and the log, a line each
thing, times in UTC."""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from datetime import UTC, datetime

from app.db.appeals import FiledAppeal
from app.db.moderation import Entry
from app.db.reports import FiledReport
from app.rooms.suspensions import Suspension


def appeal_lines(filed: Sequence[FiledAppeal]) -> list[str]:
    """The appeals as the operator reads them: whose, against what, their words."""
    lines: list[str] = []
    for f in filed:
        username = f", username {f.username}" if f.username else ""
        lines.append(f"{f.name} (id {f.player_id}{username}){suspended(f.suspension)}")
        read = f.appeal.read_at
        kept = "" if read is None else f"; suspension kept {read:%Y-%m-%d %H:%M} UTC"
        lines.append(f"  appealed {f.appeal.at:%Y-%m-%d %H:%M} UTC{kept}: {f.appeal.text}")
    return lines


def log_lines(entries: Sequence[Entry]) -> list[str]:
    """The log as the operator reads it: a line per change, when, who, what, to whom (an
    announcement: to everyone)."""
    lines: list[str] = []
    for e in entries:
        whom = (
            "everyone"
            if e.player_id is None
            else f"{e.player_name or '(erased)'} (id {e.player_id})"
        )
        detail = f": {e.detail}" if e.detail else ""
        lines.append(f"{e.at:%Y-%m-%d %H:%M} UTC  {e.operator}  {e.action}  {whom}{detail}")
    return lines


def report_lines(filed: Sequence[FiledReport]) -> list[str]:
    """The reports as the operator reads them: each reported player, then their reports."""
    lines: list[str] = []
    for player_id, group in itertools.groupby(filed, key=lambda f: f.reported_id):
        mine = list(group)
        first = mine[0]
        username = f", username {first.reported_username}" if first.reported_username else ""
        reporters = len({f.reporter_id for f in mine})
        shut = sum(f.closed_at is not None for f in mine)
        closed = f" ({shut} closed)" if shut else ""
        lines.append(
            f"{first.reported_name} (id {player_id}{username}): {count_of(len(mine), 'report')}"
            f"{closed} by {count_of(reporters, 'player')}{suspended(first.suspension)}"
        )
        for f in mine:
            where = f" at table {f.room_code}" if f.room_code else ""
            how = "" if f.closed_at is None else f"; {f.outcome} {f.closed_at:%Y-%m-%d %H:%M} UTC"
            lines.append(
                f"  {f.created_at:%Y-%m-%d %H:%M} UTC, {f.reason}{where}, "
                f"by {f.reporter_name} (id {f.reporter_id}){how}"
            )
            if f.text:
                lines.append(f"    says: {f.text}")
            for line in f.evidence:
                at = datetime.fromtimestamp(line["at"], UTC)
                lines.append(f"    chat {at:%Y-%m-%d %H:%M:%S}: {line['text']}")
    return lines


def suspended(held: Suspension | None) -> str:
    """``, suspended until …: reason`` for a suspension that holds, else nothing."""
    if held is None or (held.until is not None and held.until <= time.time()):
        return ""
    end = (
        "lifted"
        if held.until is None
        else f"{datetime.fromtimestamp(held.until, UTC):%Y-%m-%d %H:%M} UTC"
    )
    return f"; suspended until {end}: {held.reason}"


def count_of(n: float, thing: str) -> str:
    """``1 report``, ``2 reports``, ``0.5 days``."""
    return f"{n:g} {thing}" if n == 1 else f"{n:g} {thing}s"


def closed_words(count: int, outcome: str) -> str:
    """``2 open reports closed as upheld.``, or nothing for none."""
    return f"{count_of(count, 'open report')} closed as {outcome}." if count else ""
