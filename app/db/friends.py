"""Friends: two players who both said so see at which tables the other sits, and invite each
other to theirs.

A friendship is asked and accepted: one player asks (a row asker → asked, not yet accepted),
and it holds once the other asks back or accepts (the row accepted). Two asking each other at
the same moment may leave a row each way, neither accepted: that is a friendship too, so no
lock is needed. Asking is one-sided until then, because a friend sees where the other plays:
nobody is watched who did not agree. A request from a player one muted is never shown to one
(it stays, unanswered). Dropping a friend, withdrawing a request and declining one are the same
act: every row between the two goes, with the invitations between them.

An invitation is a friend's word "come to my table": the inviter holds a seat at the table, so
they hold its code, and giving the code to a friend is theirs to decide. An invitation is shown
for ``INVITATION_TTL`` and while the two are friends; the invitee dismisses it, or it goes by
itself. Either player's erasure deletes their friendships and invitations.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, and_, delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.db import models as m
from app.db.engine import upsert
from app.rooms.errors import RoomError

MOST = 200
"""Friends and requests a player may have in all: a list a person reads, not a mailing list."""
INVITATIONS_KEPT = 50
"""The invitations a player keeps; beyond, the oldest go."""
INVITATION_TTL = timedelta(hours=1)
"""How long an invitation is shown: a table is a matter of the evening, not of the week."""


@dataclass(frozen=True, slots=True)
class Person:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Friend(Person):
    seen_at: datetime | None
    """When they were last seen on the site (``app.db.presence``); None: not since it kept
    the time."""


@dataclass(frozen=True, slots=True)
class FriendList:
    friends: list[Friend]
    """Friends, by name."""
    asked: list[Person]
    """Those the player asked, who have not answered; the newest first."""
    asking: list[Person]
    """Those who asked the player (but for players the player muted); the newest first."""


@dataclass(frozen=True, slots=True)
class Invitation:
    id: int
    inviter: Person
    room_code: str
    preset: str
    at: datetime


def _between(a: str, b: str) -> ColumnElement[bool]:
    return or_(
        and_(m.Friendship.asker_id == a, m.Friendship.asked_id == b),
        and_(m.Friendship.asker_id == b, m.Friendship.asked_id == a),
    )


async def friends_among(session: AsyncSession, player_id: str, others: set[str]) -> set[str]:
    """Which of ``others`` are the player's friends: a row accepted, or one each way."""
    if not others:
        return set()
    rows = await session.execute(
        select(m.Friendship.asker_id, m.Friendship.asked_id, m.Friendship.accepted_at).where(
            or_(
                and_(m.Friendship.asker_id == player_id, m.Friendship.asked_id.in_(others)),
                and_(m.Friendship.asked_id == player_id, m.Friendship.asker_id.in_(others)),
            )
        )
    )
    return _friends_in(player_id, rows.all())


def _friends_in(player_id: str, rows: Iterable[tuple[str, str, datetime | None]]) -> set[str]:
    """The friendship rule, in one place: of the player's rows (asker, asked, accepted at),
    the others with a row accepted, or with a row each way."""
    rows_of: dict[str, int] = {}
    friends = set()
    for asker, asked, accepted in rows:
        other = asked if asker == player_id else asker
        rows_of[other] = rows_of.get(other, 0) + 1
        if accepted is not None or rows_of[other] == 2:
            friends.add(other)
    return friends


async def are_friends(session: AsyncSession, a: str, b: str) -> bool:
    return b in await friends_among(session, a, {b})


class Friends:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def ask(self, asker_id: str, asked_id: str) -> bool:
        """Ask ``asked_id`` to be friends, or accept their request; whether they are friends
        now. ``unknown_player``: no such player (or erased); ``too_many_friends``: the asker
        has ``MOST`` friends and requests already (accepting one more is refused too)."""
        now = datetime.now(UTC)
        async with self._sessions.begin() as session:
            asked = await session.get(m.Player, asked_id)
            if asked is None or asked.erased_at is not None:
                raise RoomError("unknown_player", "No player has that id.")
            if await are_friends(session, asker_id, asked_id):
                return True
            held = await session.scalar(
                select(func.count())
                .select_from(m.Friendship)
                .where(
                    or_(
                        m.Friendship.asker_id == asker_id,
                        and_(
                            m.Friendship.asked_id == asker_id,
                            m.Friendship.accepted_at.is_not(None),
                        ),
                    )
                )
            )
            if (held or 0) >= MOST:
                raise RoomError(
                    "too_many_friends",
                    f"You have {MOST} friends and requests: drop some before asking more.",
                )
            theirs = await session.get(m.Friendship, (asked_id, asker_id))
            if theirs is not None:
                theirs.accepted_at = now
                return True
            dialect = session.get_bind().dialect.name
            await session.execute(
                upsert(dialect, m.Friendship)
                .values(asker_id=asker_id, asked_id=asked_id, created_at=now, accepted_at=None)
                .on_conflict_do_nothing(index_elements=["asker_id", "asked_id"])
            )
            return False

    async def heard(self, player_id: str, others: set[str]) -> set[str]:
        """Which of ``others`` are the player's friends and not muted by the player: those
        whose asks (to play together) the player is shown."""
        async with self._sessions() as session:
            friends = await friends_among(session, player_id, others)
            if not friends:
                return set()
            muted = set(
                await session.scalars(
                    select(m.Mute.muted_id).where(
                        m.Mute.muter_id == player_id, m.Mute.muted_id.in_(friends)
                    )
                )
            )
        return friends - muted

    async def between(self, player_id: str, other_id: str) -> str | None:
        """Where the player stands with the other: ``friends``, ``asked`` (the player asked,
        no answer yet), ``asking`` (the other asked the player; not from one the player
        muted, as in ``of``), or None."""
        async with self._sessions() as session:
            rows = (
                await session.execute(
                    select(
                        m.Friendship.asker_id, m.Friendship.asked_id, m.Friendship.accepted_at
                    ).where(_between(player_id, other_id))
                )
            ).all()
            if other_id in _friends_in(player_id, rows):
                return "friends"
            if any(asker == player_id for asker, _, _ in rows):
                return "asked"
            if not rows:
                return None
            muted = await session.get(m.Mute, (player_id, other_id))
        return None if muted is not None else "asking"

    async def drop(self, player_id: str, other_id: str) -> None:
        """Drop a friend, withdraw a request or decline one: nothing stays between the two."""
        async with self._sessions.begin() as session:
            await session.execute(delete(m.Friendship).where(_between(player_id, other_id)))
            await session.execute(
                delete(m.Invitation).where(
                    or_(
                        and_(m.Invitation.inviter_id == player_id, m.Invitation.to_id == other_id),
                        and_(m.Invitation.inviter_id == other_id, m.Invitation.to_id == player_id),
                    )
                )
            )

    async def of(self, player_id: str) -> FriendList:
        """The player's friends and the requests either way."""
        other = aliased(m.Player)
        async with self._sessions() as session:
            rows = (
                await session.execute(
                    select(m.Friendship, other.id, other.name, other.seen_at)
                    .join(
                        other,
                        other.id
                        == func.coalesce(
                            func.nullif(m.Friendship.asker_id, player_id),
                            m.Friendship.asked_id,
                        ),
                    )
                    .where(
                        or_(m.Friendship.asker_id == player_id, m.Friendship.asked_id == player_id)
                    )
                    .order_by(m.Friendship.created_at.desc(), other.id)
                )
            ).all()
            muted = set(
                await session.scalars(select(m.Mute.muted_id).where(m.Mute.muter_id == player_id))
            )
        friend_ids = _friends_in(
            player_id, ((row.asker_id, row.asked_id, row.accepted_at) for row, *_ in rows)
        )
        mine: dict[str, Person] = {}
        theirs: dict[str, Person] = {}
        friends: dict[str, Friend] = {}
        for row, other_id, name, seen_at in rows:
            person = Person(other_id, name)
            if other_id in friend_ids:
                friends[other_id] = Friend(other_id, name, seen_at)
            elif row.asker_id == player_id:
                mine[other_id] = person
            else:
                theirs[other_id] = person
        return FriendList(
            sorted(friends.values(), key=lambda p: (p.name.casefold(), p.id)),
            list(mine.values()),
            [p for p in theirs.values() if p.id not in muted],
        )

    async def invite(self, inviter_id: str, to_id: str, room_code: str) -> None:
        """Invite a friend to a table (again: the invitation is renewed). ``not_friends``:
        they are not the inviter's friend. The caller checks the inviter's seat."""
        now = datetime.now(UTC)
        async with self._sessions.begin() as session:
            if not await are_friends(session, inviter_id, to_id):
                raise RoomError("not_friends", "You may invite only your friends.")
            dialect = session.get_bind().dialect.name
            values = {"inviter_id": inviter_id, "created_at": now}
            await session.execute(
                upsert(dialect, m.Invitation)
                .values(to_id=to_id, room_code=room_code, **values)
                .on_conflict_do_update(index_elements=["to_id", "room_code"], set_=values)
            )
            kept = (
                select(m.Invitation.id)
                .where(m.Invitation.to_id == to_id)
                .order_by(m.Invitation.created_at.desc())
                .limit(INVITATIONS_KEPT)
            )
            await session.execute(
                delete(m.Invitation).where(
                    m.Invitation.to_id == to_id, m.Invitation.id.not_in(kept.scalar_subquery())
                )
            )

    async def invitations(self, to_id: str) -> list[Invitation]:
        """The invitations shown to the player now, the newest first: younger than
        ``INVITATION_TTL``, from a friend still, to a table that waits or plays without the
        player in it. One query for them all, from the stored rooms and seats (stored before
        any change is told, so as current as the rooms in memory): asking every few seconds
        loads no room."""
        since = datetime.now(UTC) - INVITATION_TTL
        seated = (
            select(m.Seat.room_id)
            .where(m.Seat.room_id == m.Room.id, m.Seat.player_id == to_id)
            .exists()
        )
        async with self._sessions() as session:
            rows = (
                await session.execute(
                    select(m.Invitation, m.Player.name, m.Room.rules)
                    .join(m.Player, m.Player.id == m.Invitation.inviter_id)
                    .join(m.Room, m.Room.code == m.Invitation.room_code)
                    .where(
                        m.Invitation.to_id == to_id,
                        m.Invitation.created_at >= since,
                        m.Room.status.in_(("waiting", "playing")),
                        ~seated,
                    )
                    .order_by(m.Invitation.created_at.desc(), m.Invitation.id.desc())
                )
            ).all()
            friends = await friends_among(session, to_id, {row.inviter_id for row, _, _ in rows})
        return [
            Invitation(
                row.id,
                Person(row.inviter_id, name),
                row.room_code,
                str(rules.get("preset", "")),
                row.created_at,
            )
            for row, name, rules in rows
            if row.inviter_id in friends
        ]

    async def dismiss(self, to_id: str, invitation_id: int) -> None:
        """The invitee puts an invitation away (nothing happens for another's or an unknown
        one)."""
        async with self._sessions.begin() as session:
            await session.execute(
                delete(m.Invitation).where(
                    m.Invitation.id == invitation_id, m.Invitation.to_id == to_id
                )
            )

    async def tables_of(self, player_ids: list[str]) -> dict[str, list[FriendTable]]:
        """Where each of these players holds a seat at a table waiting or being played: the
        code only of public tables (a private table's code is its players' to give)."""
        if not player_ids:
            return {}
        async with self._sessions() as session:
            rows = await session.execute(
                select(m.Seat.player_id, m.Room.code, m.Room.public, m.Room.status, m.Room.rules)
                .join(m.Room, m.Room.id == m.Seat.room_id)
                .where(
                    m.Seat.player_id.in_(player_ids),
                    m.Room.status.in_(("waiting", "playing")),
                )
                .order_by(m.Room.updated_at.desc(), m.Room.id.desc())
            )
            found: dict[str, list[FriendTable]] = {}
            for player_id, code, public, status, rules in rows:
                table = FriendTable(code if public else None, str(rules.get("preset", "")), status)
                found.setdefault(str(player_id), []).append(table)
            return found


@dataclass(frozen=True, slots=True)
class FriendTable:
    code: str | None
    """The table's code if it is public; None for a private one."""
    preset: str
    status: str
    """``waiting`` or ``playing``."""


async def forget(session: AsyncSession, player_id: str) -> None:
    """Erasure's part: the player's friendships, requests and invitations, either way."""
    await session.execute(
        delete(m.Friendship).where(
            or_(m.Friendship.asker_id == player_id, m.Friendship.asked_id == player_id)
        )
    )
    await session.execute(
        delete(m.Invitation).where(
            or_(m.Invitation.inviter_id == player_id, m.Invitation.to_id == player_id)
        )
    )
