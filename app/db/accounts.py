"""Accounts: a guest claims its identity with a username and a password, and signs in on other
devices; each device holds a session token that can be revoked.

An account is the guest's own ``players`` row with an ``accounts`` row beside it, so every
match played as a guest stays theirs. Passwords are hashed with Argon2 through pwdlib (never
by hand, never logged); session tokens, like guest tokens, are kept only as SHA-256 digests.
Failed logins are counted in the database per username and per address, so that a limit holds
across server nodes, and the refusal is the same whether or not the username exists.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from pwdlib import PasswordHash
from sqlalchemy import String, case, cast, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import friends, moderation, tournaments
from app.db import models as m
from app.db.engine import upsert
from app.db.players import hash_token
from app.rooms.errors import RoomError
from app.rooms.ports import Player

USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,32}")  # the whole name: ``fullmatch``, never ``$``
PASSWORD_MIN, PASSWORD_MAX = 8, 128


@dataclass(frozen=True, slots=True)
class LoginLimits:
    per_account: int = 10
    per_address: int = 50
    window_seconds: float = 900.0


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: str
    label: str
    created_at: datetime
    current: bool


@dataclass(frozen=True, slots=True)
class SignedIn:
    player: Player
    username: str
    token: str


def check_username(raw: str) -> str:
    if USERNAME.fullmatch(raw) is None:  # "$" would let "admin\n" through
        raise RoomError(
            "bad_username", "A username has 3 to 32 letters, digits, dots, dashes or underscores."
        )
    return raw


def check_password(raw: str) -> str:
    if not PASSWORD_MIN <= len(raw) <= PASSWORD_MAX:
        raise RoomError(
            "weak_password", f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters."
        )
    return raw


class Accounts:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        limits: LoginLimits = LoginLimits(),
        hasher: PasswordHash | None = None,
    ) -> None:
        self._sessions = sessions
        self._limits = limits
        self._hasher = hasher or PasswordHash.recommended()
        self._dummy: str | None = None  # verified against for unknown usernames (same cost)

    # ---- hashing, off the event loop (Argon2 costs tens of milliseconds by design) -------

    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def _verify(self, password: str, stored: str | None) -> tuple[bool, str | None]:
        """Whether ``password`` matches, and a fresh hash when the stored one uses outdated
        parameters. An unknown user (``stored`` None) costs the same as a wrong password."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self._hash(secrets.token_urlsafe(16))
            await asyncio.to_thread(self._hasher.verify, password, self._dummy)
            return False, None
        return await asyncio.to_thread(self._hasher.verify_and_update, password, stored)

    # ---- reading ---------------------------------------------------------------------------

    async def username_of(self, player_id: str) -> str | None:
        async with self._sessions() as session:
            row = await session.get(m.Account, player_id)
        return None if row is None else row.username

    async def _session_by_token(self, session: AsyncSession, token: str) -> m.AccountSession | None:
        return await session.scalar(
            select(m.AccountSession).where(m.AccountSession.token_hash == hash_token(token))
        )

    # ---- claiming, signing in and out ----------------------------------------------------

    async def claim(
        self, player: Player, token: str, username: str, password: str, label: str
    ) -> str:
        """Make the guest holding ``token`` an account. Its token becomes the first session
        (this device stays signed in) and stops being a guest token, so that it can be
        revoked like any other."""
        check_username(username)
        check_password(password)
        # Refused before the (slow, by design) hash: a refusal must not cost the server an
        # Argon2 run, or one guest could repeat it without end. Checked again below, where a
        # claim racing this one is caught by the unique username.
        async with self._sessions() as session:
            await _claimable(session, player.id, username)
        digest = await self._hash(password)
        try:
            async with self._sessions.begin() as session:
                await _claimable(session, player.id, username)
                session.add(
                    m.Account(
                        player_id=player.id,
                        username=username,
                        username_key=username.casefold(),
                        password_hash=digest,
                    )
                )
                await session.flush()
                await session.execute(
                    update(m.Player)
                    .where(m.Player.id == player.id)
                    .values(token_hash=hash_token(secrets.token_urlsafe(32)))
                )
                session.add(_new_session(player.id, token, label))
        except IntegrityError as error:
            raise RoomError("username_taken", "That username is taken.") from error
        return username

    async def login(self, username: str, password: str, address: str, label: str) -> SignedIn:
        """A new session for the account, or ``bad_login`` (whatever was wrong), or
        ``login_limited`` once the username or the address failed too often."""
        keys = _keys(username, address)
        caps = [self._limits.per_account, self._limits.per_address]
        # A name no account can have is neither looked up nor written as a key: it may hold
        # what the database refuses (a NUL byte, in PostgreSQL). The address's try counts.
        named = USERNAME.fullmatch(username) is not None
        if not await self._take_try(keys if named else keys[1:], caps if named else caps[1:]):
            raise RoomError("login_limited", "Too many failed logins; try again later.")
        if not named:
            raise RoomError("bad_login", "The username or the password is wrong.")
        async with self._sessions() as session:
            account = await session.scalar(
                select(m.Account).where(m.Account.username_key == username.casefold())
            )
        ok, rehashed = await self._verify(
            password, None if account is None else account.password_hash
        )
        if account is None or not ok:  # the try taken stays counted: a failure
            raise RoomError("bad_login", "The username or the password is wrong.")
        token = secrets.token_urlsafe(32)
        async with self._sessions.begin() as session:
            await self._forgive(session, keys)
            if rehashed is not None:
                await session.execute(
                    update(m.Account)
                    .where(m.Account.player_id == account.player_id)
                    .values(password_hash=rehashed)
                )
            session.add(_new_session(account.player_id, token, label))
            await session.flush()
            await session.execute(_oldest_beyond_cap(account.player_id))
            row = await session.get(m.Player, account.player_id)
            assert row is not None
        return SignedIn(Player(row.id, row.name, account=True), account.username, token)

    async def logout(self, token: str) -> None:
        """Revoke the session holding ``token``; a guest token is not a session."""
        async with self._sessions.begin() as session:
            await session.execute(
                delete(m.AccountSession).where(m.AccountSession.token_hash == hash_token(token))
            )

    async def change_password(
        self, player_id: str, token: str, old: str, new: str, address: str
    ) -> None:
        """Check the old password, store the new one, and sign out every other device."""
        check_password(new)
        keys = await self._check_password(player_id, old, address)
        digest = await self._hash(new)
        async with self._sessions.begin() as session:
            await self._forgive(session, keys)
            await session.execute(
                update(m.Account)
                .where(m.Account.player_id == player_id)
                .values(password_hash=digest)
            )
            await session.execute(
                delete(m.AccountSession).where(
                    m.AccountSession.player_id == player_id,
                    m.AccountSession.token_hash != hash_token(token),
                )
            )

    async def player_of(self, username: str) -> str | None:
        """The player id of the account called ``username`` (in any case), if there is one."""
        async with self._sessions() as session:
            return await session.scalar(
                select(m.Account.player_id).where(m.Account.username_key == username.casefold())
            )

    async def change_username(self, player_id: str, username: str) -> str | None:
        """Give the account another username: an operator's (``python -m app.admin
        rename-username``), for one that breaks the site's rules, which the leaderboards and
        the profile show beside the name. Its devices stay signed in (a session is the
        player's, not the username's); from now on the person signs in with the new one. The
        username before, None if the player is no account; ``bad_username`` or
        ``username_taken`` as a claim of it would be refused (the account's own, in another
        case, is no other's)."""
        check_username(username)
        try:
            async with self._sessions.begin() as session:
                account = await session.get(m.Account, player_id)
                if account is None:
                    return None
                taken = select(m.Account.player_id).where(
                    m.Account.username_key == username.casefold(),
                    m.Account.player_id != player_id,
                )
                if await session.scalar(taken) is not None:
                    raise RoomError("username_taken", "That username is taken.")
                before = account.username
                account.username, account.username_key = username, username.casefold()
        except IntegrityError as error:  # taken meanwhile by a claim
            raise RoomError("username_taken", "That username is taken.") from error
        return before

    async def reset_password(self, username: str) -> str | None:
        """A new password for the account, drawn here, for an operator to hand to a person who
        lost theirs (there is no e-mail to send a link to: ``python -m app.admin``). Every
        device is signed out (their sockets close: ``TokenWatch``) and the username's failed
        logins are forgiven. None for an unknown username."""
        player_id = await self.player_of(username)
        if player_id is None:
            return None
        password = secrets.token_urlsafe(12)  # 16 characters, 96 random bits
        digest = await self._hash(password)
        async with self._sessions.begin() as session:
            await session.execute(
                update(m.Account)
                .where(m.Account.player_id == player_id)
                .values(password_hash=digest)
            )
            await session.execute(
                delete(m.AccountSession).where(m.AccountSession.player_id == player_id)
            )
            failures = _keys(username, "")[0]
            await session.execute(delete(m.LoginFailure).where(m.LoginFailure.key == failures))
        return password

    async def check_password(self, player_id: str, password: str, address: str) -> None:
        """Refuse (``bad_login``) unless ``password`` is the account's: what a signed-in
        device must say before an act it cannot take back (erasing the account)."""
        keys = await self._check_password(player_id, password, address)
        async with self._sessions.begin() as session:
            await self._forgive(session, keys)

    async def _check_password(self, player_id: str, password: str, address: str) -> list[str]:
        """The failure keys of a correct ``password``, else a refusal. A wrong password is a
        failed login of the account's username and of ``address`` (the same counts and caps
        as ``login``): a token alone must not buy unlimited guesses at the password, nor
        unlimited Argon2 runs."""
        async with self._sessions() as session:
            account = await session.get(m.Account, player_id)
        if account is None:
            raise RoomError("not_an_account", "Claim your player as an account first.")
        keys = _keys(account.username, address)
        if not await self._take_try(keys, [self._limits.per_account, self._limits.per_address]):
            raise RoomError("login_limited", "Too many failed logins; try again later.")
        if not (await self._verify(password, account.password_hash))[0]:  # the try stays counted
            raise RoomError("bad_login", "The username or the password is wrong.")
        return keys

    @staticmethod
    async def _forgive(session: AsyncSession, keys: list[str]) -> None:
        """A correct password clears the account's failures and gives the address its try back
        (a success is not the address's failure)."""
        await session.execute(delete(m.LoginFailure).where(m.LoginFailure.key == keys[0]))
        await session.execute(_give_back(keys[1:]))

    async def erase(self, player_id: str) -> None:
        """Erase the player — an account or a guest — and what names the person, for good (the
        right to erasure; the caller has checked an account's password).

        Gone: the account (its username is free again), every device's session and the old
        guest token (the player's open sockets are closed: ``TokenWatch``), the ratings (off the
        leaderboards), the rating history, the player's chat lines, a quick-play ticket, the
        reports and mutes they made and those made about them, the operator's suspension and
        the appeal against it (and the words of the operators' log about them: its entries
        stay), the failed logins counted against the username. The matches stay, for the others
        who played them, with the seat's name left out (``name`` null: the client says "Deleted
        player").
        The ``players`` row stays as a nameless tombstone (``erased_at``): rooms it hosted and
        the matches' seats still point at its id, which now names nobody (``Players.by_id`` and
        the profile answer ``unknown_player``).

        The player must hold no seat (``seated``): a live room keeps its seats' names in memory
        and writes them back with its next change, so the caller stands the player up through
        the rooms first (``app.api.accounts``)."""
        async with self._sessions.begin() as session:
            seated = select(m.Seat.room_id).where(m.Seat.player_id == player_id).limit(1)
            if await session.scalar(seated) is not None:
                raise RoomError("seated", "Leave the tables where you hold a seat first.")
            account = await session.get(m.Account, player_id)
            if account is not None:
                failures = _keys(account.username, "")[0]
                await session.execute(delete(m.LoginFailure).where(m.LoginFailure.key == failures))
            for table in (
                m.AccountSession,
                m.Account,
                m.Rating,
                m.RatingChange,
                m.ChatMessage,
                m.QuickPlayTicket,
                m.PlayerNetwork,
            ):
                await session.execute(delete(table).where(table.player_id == player_id))
            stats = m.PlayStats.__table__
            await session.execute(delete(stats).where(stats.c.player_id == player_id))
            await session.execute(  # made by them, or about them (their words as evidence)
                delete(m.Report).where(
                    (m.Report.reporter_id == player_id) | (m.Report.reported_id == player_id)
                )
            )
            await session.execute(  # theirs, and others' of them
                delete(m.Mute).where(
                    (m.Mute.muter_id == player_id) | (m.Mute.muted_id == player_id)
                )
            )
            await friends.forget(session, player_id)
            await moderation.forget_words(session, player_id)
            await session.execute(
                update(m.MatchSeat).where(m.MatchSeat.player_id == player_id).values(name=None)
            )
            await tournaments.forget(session, player_id)
            await _unname_removed(session, player_id)
            await session.execute(
                update(m.Player)
                .where(m.Player.id == player_id)
                .values(
                    name="",
                    token_hash=hash_token(secrets.token_urlsafe(32)),
                    erased_at=datetime.now(UTC),
                    suspension_reason=None,  # the operator's words about the person
                    suspended_until=None,
                    appeal_text=None,  # and the person's to the operator
                    appealed_at=None,
                    appeal_read_at=None,
                    seen_at=None,
                )
            )

    async def sessions_of(self, player_id: str, token: str) -> list[SessionInfo]:
        current = hash_token(token)
        async with self._sessions() as session:
            rows = await session.scalars(
                select(m.AccountSession)
                .where(m.AccountSession.player_id == player_id)
                .order_by(m.AccountSession.created_at)
            )
            return [SessionInfo(r.id, r.label, r.created_at, r.token_hash == current) for r in rows]

    async def revoke(self, player_id: str, session_id: str) -> None:
        async with self._sessions.begin() as session:
            result = await session.execute(
                delete(m.AccountSession).where(
                    m.AccountSession.player_id == player_id, m.AccountSession.id == session_id
                )
            )
        if getattr(result, "rowcount", 0) == 0:
            raise RoomError("unknown_session", "You have no session with that id.")

    # ---- failed logins -----------------------------------------------------------------------

    async def _take_try(self, keys: list[str], caps: list[int]) -> bool:
        """Count a failure for every key before the password is checked, atomically (each
        key's row is locked by its upsert until the commit), and give the tries back if one
        key is over its cap: False, the login is refused. Checking first and counting after
        the (slow, by design) hash let every attempt that overlapped in time through, on any
        number of nodes: N parallel guesses were N guesses, whatever the cap."""
        now = datetime.now(UTC)
        since = now - timedelta(seconds=self._limits.window_seconds)
        async with self._sessions.begin() as session:
            dialect = session.get_bind().dialect.name
            counts = [
                (await session.execute(_count_try(dialect, k, now, since))).scalar_one()
                for k in keys
            ]
            if all(count <= cap for count, cap in zip(counts, caps, strict=True)):
                return True
            await session.execute(_give_back(keys))
        return False


async def _unname_removed(session: AsyncSession, player_id: str) -> None:
    """Blank the name an erased player has in the lists of those removed from rooms (kept for
    the host to let them back in); the id stays, and keeps them out."""
    holding = select(m.Room.id, m.Room.removed).where(
        cast(m.Room.removed, String).contains(player_id)
    )
    for room_id, removed in (await session.execute(holding)).all():
        unnamed = [
            {**item, "name": None} if isinstance(item, dict) and item["id"] == player_id else item
            for item in removed or ()
        ]
        await session.execute(update(m.Room).where(m.Room.id == room_id).values(removed=unnamed))


def _keys(username: str, address: str) -> list[str]:
    """The failure counters a login attempt counts against: the username's, the address's."""
    return [f"user:{username.casefold()[:64]}", f"addr:{address[:64]}"]


async def _claimable(session: AsyncSession, player_id: str, username: str) -> None:
    """Refuse a claim by a player who is an account already, or of a username taken."""
    if await session.get(m.Account, player_id) is not None:
        raise RoomError("already_claimed", "This player is already an account.")
    taken = select(m.Account.player_id).where(m.Account.username_key == username.casefold())
    if await session.scalar(taken) is not None:
        raise RoomError("username_taken", "That username is taken.")


def _count_try(dialect: str, key: str, now: datetime, since: datetime) -> Any:
    """One more failure for ``key`` (a new window if the last one is over); its count."""
    table = m.LoginFailure.__table__.c
    stale = table.window_start < since
    return (
        upsert(dialect, m.LoginFailure)
        .values(key=key, count=1, window_start=now)
        .on_conflict_do_update(
            index_elements=[table.key],
            set_={
                "count": case((stale, 1), else_=table.count + 1),
                "window_start": case((stale, now), else_=table.window_start),
            },
        )
        .returning(table.count)
    )


def _give_back(keys: list[str]) -> Any:
    return (
        update(m.LoginFailure)
        .where(m.LoginFailure.key.in_(keys), m.LoginFailure.count > 0)
        .values(count=m.LoginFailure.count - 1)
    )


SESSIONS_MAX = 50
"""Signed-in devices an account keeps: a login beyond them signs out the oldest, so that
logging in again and again (each login a row) cannot grow the table or the sessions list
without end."""


def _oldest_beyond_cap(player_id: str) -> Any:
    """Delete the account's sessions but its ``SESSIONS_MAX`` newest."""
    newest = (
        select(m.AccountSession.id)
        .where(m.AccountSession.player_id == player_id)
        .order_by(m.AccountSession.created_at.desc(), m.AccountSession.id)
        .limit(SESSIONS_MAX)
    )
    return delete(m.AccountSession).where(
        m.AccountSession.player_id == player_id,
        m.AccountSession.id.not_in(newest.scalar_subquery()),
    )


def _new_session(player_id: str, token: str, label: str) -> m.AccountSession:
    return m.AccountSession(
        id=secrets.token_hex(8),
        player_id=player_id,
        token_hash=hash_token(token),
        label=label[:100],
        created_at=datetime.now(UTC),
    )
