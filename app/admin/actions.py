"""What the operator's commands do (``python -m app.admin``, ``app.admin.cli``): each opens the
database ``DATABASE_URL`` names, does its work through the same stores as the server, and
closes it. A player is named by their id or an account's username.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.accounts import Accounts
from app.db.announcements import Announcements
from app.db.appeals import Appeals, FiledAppeal
from app.db.engine import make_engine, make_sessionmaker
from app.db.history import History
from app.db.moderation import Entry, ModerationLog
from app.db.networks import Networks
from app.db.players import Players
from app.db.reports import FiledReport, Reports
from app.db.tournaments import SqlTournaments
from app.rooms.errors import RoomError
from app.settings import Settings

T = TypeVar("T")


async def on_database(
    settings: Settings, work: Callable[[async_sessionmaker[AsyncSession]], Awaitable[T]]
) -> T:
    """``work`` on an engine of its own for the settings' database, disposed of after (a
    command runs once, beside the servers, and holds no connection when it ends)."""
    engine = make_engine(settings.database_url)
    try:
        return await work(make_sessionmaker(engine))
    finally:
        await engine.dispose()


async def reset_password(settings: Settings, username: str) -> tuple[str, str] | None:
    """The account's player id and its new password, or None for an unknown username."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> tuple[str, str] | None:
        accounts = Accounts(sessions)
        player_id = await accounts.player_of(username)
        password = await accounts.reset_password(username)
        return None if player_id is None or password is None else (player_id, password)

    return await on_database(settings, work)


async def player_of(sessions: async_sessionmaker[AsyncSession], who: str) -> str | None:
    """The id of the player whose id or account's username is ``who``."""
    if await Players(sessions).by_id(who) is not None:
        return who
    return await Accounts(sessions).player_of(who)


Done = tuple[str, int] | None
"""The player's id and how many open reports on them the command closed; None for nobody."""


async def rename(settings: Settings, who: str, name: str) -> tuple[str, str, int] | None:
    """Rename the player whose id or account's username is ``who``, closing the open reports
    about their name as upheld: their id, their name before, the reports closed."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> tuple[str, str, int] | None:
        player_id = await player_of(sessions, who)
        players = Players(sessions)
        before = None if player_id is None else await players.by_id(player_id)
        if player_id is None or before is None:
            return None
        await players.rename(player_id, name)
        closed = await Reports(sessions).close(player_id, "upheld", ("name",))
        return player_id, before.name, closed

    return await on_database(settings, work)


async def rename_username(
    settings: Settings, who: str, username: str
) -> tuple[str, str, int] | None:
    """Give the account whose player id or username is ``who`` the username ``username``,
    closing the open reports about the player's name as upheld: their id, the username
    before, the reports closed. None for nobody; ``not_an_account`` for a guest,
    ``bad_username`` and ``username_taken`` as ``Accounts.change_username`` refuses."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> tuple[str, str, int] | None:
        player_id = await player_of(sessions, who)
        if player_id is None:
            return None
        before = await Accounts(sessions).change_username(player_id, username)
        if before is None:
            raise RoomError("not_an_account", f"Player {player_id} is a guest: no username.")
        closed = await Reports(sessions).close(player_id, "upheld", ("name",))
        return player_id, before, closed

    return await on_database(settings, work)


async def suspend(
    settings: Settings,
    who: str,
    reason: str | None,
    until: datetime | None,
    networks: bool = False,
) -> Done:
    """Suspend (``reason`` None: lift the suspension of) the player whose id or account's
    username is ``who`` (with ``networks``: and bar new guests from their networks); a
    suspension closes the open reports on them as upheld."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> Done:
        player_id = await player_of(sessions, who)
        if player_id is None:
            return None
        players = Players(sessions)
        if reason is None:
            await players.lift_suspension(player_id)
            return player_id, 0
        await players.suspend(player_id, reason, until, networks)
        return player_id, await Reports(sessions).close(player_id, "upheld")

    return await on_database(settings, work)


async def networks_shared(settings: Settings, player_id: str) -> tuple[int, int]:
    """The player's networks, and the other players who used them (``Networks.shared``)."""
    return await on_database(settings, lambda s: Networks(s).shared(player_id))


async def close(settings: Settings, who: str, outcome: str) -> Done:
    """Close the open reports on the player whose id or account's username is ``who``."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> Done:
        player_id = await player_of(sessions, who)
        if player_id is None:
            return None
        return player_id, await Reports(sessions).close(player_id, outcome)

    return await on_database(settings, work)


async def erase(settings: Settings, who: str) -> tuple[str, list[str]] | None:
    """Erase the player whose id or account's username is ``who``: their id and the tables
    that keep them (nothing was erased then), or None for nobody."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> tuple[str, list[str]] | None:
        player_id = await player_of(sessions, who)
        if player_id is None:
            return None
        tables = await History(sessions).rooms_to_leave(player_id)
        if tables:
            return player_id, tables
        try:
            await Accounts(sessions).erase(player_id)
        except RoomError:  # sat down since the tables were read: nothing was erased
            tables = await History(sessions).rooms_to_leave(player_id)
            return player_id, tables or ["a table they sat at just now"]
        return player_id, []

    return await on_database(settings, work)


async def appeals(settings: Settings, answered: bool = False) -> list[FiledAppeal]:
    """The appeals against suspensions in force not yet answered (``answered``: all of them)."""
    return await on_database(settings, lambda s: Appeals(s).waiting(answered))


async def deny_appeal(settings: Settings, who: str) -> tuple[str, bool] | None:
    """Keep the suspension of the player whose id or account's username is ``who``: their id
    and whether they had an appeal waiting, or None for nobody."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> tuple[str, bool] | None:
        player_id = await player_of(sessions, who)
        if player_id is None:
            return None
        return player_id, await Appeals(sessions).deny(player_id)

    return await on_database(settings, work)


async def reports(settings: Settings, days: float, closed: bool = False) -> list[FiledReport]:
    """The open reports of the last ``days`` days (``closed``: all of them, ``Reports.since``)."""
    since = datetime.now(UTC) - timedelta(days=days)
    return await on_database(settings, lambda s: Reports(s).since(since, closed))


async def note(
    settings: Settings,
    operator: str,
    action: str,
    player_id: str | None,
    detail: str | None = None,
) -> None:
    """Write the operator's change to the log (``app.db.moderation``)."""
    await on_database(
        settings, lambda s: ModerationLog(s).note(operator, action, player_id, detail)
    )


async def log(settings: Settings, days: float, who: str | None = None) -> list[Entry] | None:
    """The log of the last ``days`` days, of the player ``who`` names (an erased player's id
    too) or of everyone; None when ``who`` names nobody the log knows."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> list[Entry] | None:
        since = datetime.now(UTC) - timedelta(days=days)
        if who is None:
            return await ModerationLog(sessions).since(since)
        found = await player_of(sessions, who)
        entries = await ModerationLog(sessions).since(since, found or who)
        return None if found is None and not entries else entries

    return await on_database(settings, work)


async def rename_tournament(
    settings: Settings, tournament_id: str, name: str
) -> tuple[str, str] | None:
    """Rename a tournament whose name breaks the site's rules: its host's id and its name
    before, or None for no such tournament."""
    return await on_database(settings, lambda s: SqlTournaments(s).rename(tournament_id, name))


async def announce(
    settings: Settings, text: str, texts: dict[str, str], until: datetime | None
) -> None:
    """Make this the announcement (``app.db.announcements``), in place of any other."""
    await on_database(settings, lambda s: Announcements(s, 0).set(text, texts, until))


async def unannounce(settings: Settings) -> bool:
    """Take the announcement down; whether there was one."""
    return await on_database(settings, lambda s: Announcements(s, 0).clear())
