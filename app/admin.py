"""``python -m app.admin``: what an operator does by hand, on the database ``DATABASE_URL`` names
(the same settings as the server; run it beside a running server or a cluster's nodes).

- ``reset-password USERNAME``: a person lost their password. There is no e-mail on file to send
  a link to, so the operator, once satisfied the person is who they say (their history, their
  devices, what the site's terms ask), draws a new password and hands it over; every device of
  the account is signed out. The person then signs in and changes it on the account page.
- ``rename PLAYER NAME``: a display name that breaks the site's rules (the lobby, the tables
  and the leaderboards show it), by the player's id or an account's username. The tables where
  the player sits show the new name within ``BELOTE_TOKEN_CHECK_SECONDS`` (every server reads
  the renames, ``app.db.player_news``); a username, which the leaderboards show beside the
  name, cannot be changed. The open reports about the player's name are closed as upheld.
- ``suspend PLAYER --reason TEXT [--days N]``: a player who breaks the site's rules (abuse in
  the chat, throwing matches) may watch but not play (``app.rooms.suspensions``), for N days
  (fractions allowed) or until lifted. They are told the reason and the end, nobody else is.
  Every server applies it within ``BELOTE_TOKEN_CHECK_SECONDS``: the player stands up at the
  tables where they sit between matches, and at the end of a match they are playing. The open
  reports on the player are closed as upheld.
- ``lift PLAYER``: the suspension ends now.
- ``reports [--days N] [--all]``: the open reports of the last N days (7; ``--all``: the closed
  ones too, with how they were closed), the most reported player first: who, by whom, where,
  why, in the reporter's words, and the reported player's last chat lines at that table when
  the report was made. Only the operator reads them.
- ``close PLAYER [--upheld]``: the open reports on a player were read: dismissed (nothing to
  act on), or upheld (the operator acted some other way, a word with the player). They leave
  the list ``reports`` shows.
- ``appeals [--all]``: what suspended players wrote against their suspension (one appeal per
  suspension, ``app.db.appeals``), the oldest first, with the suspension; ``--all``: the
  appeals answered already too. To grant one, ``lift`` the suspension.
- ``deny-appeal PLAYER``: the appeal was read and the suspension stands; the player is told.
- ``erase PLAYER --yes``: erase a player for good, as they could themselves (``Accounts.erase``:
  for a person who asks by other means and cannot sign in). Not while they hold a seat or host
  others at a table, which only a running server can change: suspend them first (they stand up
  within seconds, at the end of a match they are playing), then erase.
- ``announce TEXT [--fr TEXT] [--bg TEXT] [--en TEXT] [--hours N]``: a word to everyone on the
  site, at the top of every page (``app.db.announcements``; a maintenance, a tournament), in
  place of any other, for N hours or until ``unannounce``; the same in other languages for
  their readers. Every server shows it within seconds, clients within minutes.
- ``unannounce``: take the announcement down.
- ``log [--days N] [--player PLAYER]``: what operators did to players in the last N days (30),
  the oldest first (``app.db.moderation``). Every command above that changes something writes
  its line there, under the operator's name: ``--by NAME``, or the system user running it.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import itertools
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.api.players import clean_name
from app.db.accounts import Accounts
from app.db.announcements import TEXT_MAX as ANNOUNCEMENT_MAX
from app.db.announcements import Announcements
from app.db.appeals import Appeals, FiledAppeal
from app.db.engine import make_engine, make_sessionmaker
from app.db.history import History
from app.db.moderation import Entry, ModerationLog
from app.db.players import Players
from app.db.reports import FiledReport, Reports
from app.rooms.errors import RoomError
from app.rooms.suspensions import Suspension
from app.settings import Settings

T = TypeVar("T")


async def _on_database(
    settings: Settings, work: Callable[[async_sessionmaker[AsyncSession]], Awaitable[T]]
) -> T:
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

    return await _on_database(settings, work)


async def _player_of(sessions: async_sessionmaker[AsyncSession], who: str) -> str | None:
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
        player_id = await _player_of(sessions, who)
        players = Players(sessions)
        before = None if player_id is None else await players.by_id(player_id)
        if player_id is None or before is None:
            return None
        await players.rename(player_id, name)
        closed = await Reports(sessions).close(player_id, "upheld", ("name",))
        return player_id, before.name, closed

    return await _on_database(settings, work)


async def suspend(settings: Settings, who: str, reason: str | None, until: datetime | None) -> Done:
    """Suspend (``reason`` None: lift the suspension of) the player whose id or account's
    username is ``who``; a suspension closes the open reports on them as upheld."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> Done:
        player_id = await _player_of(sessions, who)
        if player_id is None:
            return None
        players = Players(sessions)
        if reason is None:
            await players.lift_suspension(player_id)
            return player_id, 0
        await players.suspend(player_id, reason, until)
        return player_id, await Reports(sessions).close(player_id, "upheld")

    return await _on_database(settings, work)


async def close(settings: Settings, who: str, outcome: str) -> Done:
    """Close the open reports on the player whose id or account's username is ``who``."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> Done:
        player_id = await _player_of(sessions, who)
        if player_id is None:
            return None
        return player_id, await Reports(sessions).close(player_id, outcome)

    return await _on_database(settings, work)


async def erase(settings: Settings, who: str) -> tuple[str, list[str]] | None:
    """Erase the player whose id or account's username is ``who``: their id and the tables
    that keep them (nothing was erased then), or None for nobody."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> tuple[str, list[str]] | None:
        player_id = await _player_of(sessions, who)
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

    return await _on_database(settings, work)


async def appeals(settings: Settings, answered: bool = False) -> list[FiledAppeal]:
    """The appeals against suspensions in force not yet answered (``answered``: all of them)."""
    return await _on_database(settings, lambda s: Appeals(s).waiting(answered))


async def deny_appeal(settings: Settings, who: str) -> tuple[str, bool] | None:
    """Keep the suspension of the player whose id or account's username is ``who``: their id
    and whether they had an appeal waiting, or None for nobody."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> tuple[str, bool] | None:
        player_id = await _player_of(sessions, who)
        if player_id is None:
            return None
        return player_id, await Appeals(sessions).deny(player_id)

    return await _on_database(settings, work)


def appeal_lines(filed: Sequence[FiledAppeal]) -> list[str]:
    """The appeals as the operator reads them: whose, against what, their words."""
    lines: list[str] = []
    for f in filed:
        username = f", username {f.username}" if f.username else ""
        lines.append(f"{f.name} (id {f.player_id}{username}){_suspended(f.suspension)}")
        read = f.appeal.read_at
        kept = "" if read is None else f"; suspension kept {read:%Y-%m-%d %H:%M} UTC"
        lines.append(f"  appealed {f.appeal.at:%Y-%m-%d %H:%M} UTC{kept}: {f.appeal.text}")
    return lines


async def reports(settings: Settings, days: float, closed: bool = False) -> list[FiledReport]:
    """The open reports of the last ``days`` days (``closed``: all of them, ``Reports.since``)."""
    since = datetime.now(UTC) - timedelta(days=days)
    return await _on_database(settings, lambda s: Reports(s).since(since, closed))


async def note(
    settings: Settings, operator: str, action: str, player_id: str, detail: str | None = None
) -> None:
    """Write the operator's change to the log (``app.db.moderation``)."""
    await _on_database(
        settings, lambda s: ModerationLog(s).note(operator, action, player_id, detail)
    )


async def log(settings: Settings, days: float, who: str | None = None) -> list[Entry] | None:
    """The log of the last ``days`` days, of the player ``who`` names (an erased player's id
    too) or of everyone; None when ``who`` names nobody the log knows."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> list[Entry] | None:
        since = datetime.now(UTC) - timedelta(days=days)
        if who is None:
            return await ModerationLog(sessions).since(since)
        found = await _player_of(sessions, who)
        entries = await ModerationLog(sessions).since(since, found or who)
        return None if found is None and not entries else entries

    return await _on_database(settings, work)


def log_lines(entries: Sequence[Entry]) -> list[str]:
    """The log as the operator reads it: a line per change, when, who, what, to whom."""
    lines: list[str] = []
    for e in entries:
        name = e.player_name or "(erased)"
        detail = f": {e.detail}" if e.detail else ""
        lines.append(
            f"{e.at:%Y-%m-%d %H:%M} UTC  {e.operator}  {e.action}  {name} (id {e.player_id})"
            f"{detail}"
        )
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
            f"{first.reported_name} (id {player_id}{username}): {_count(len(mine), 'report')}"
            f"{closed} by {_count(reporters, 'player')}{_suspended(first.suspension)}"
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


def main(argv: Sequence[str] | None = None, settings: Settings | None = None) -> int:
    args = _parser().parse_args(argv)
    settings = settings or Settings()
    by: str = args.by
    if args.command == "erase":
        if not args.yes:
            print("Erasing cannot be undone: say --yes.", file=sys.stderr)
            return 1
        erased = asyncio.run(erase(settings, args.player))
        if erased is None:
            return _nobody(args.player)
        player_id, tables = erased
        if tables:
            print(
                f"Player {player_id} still sits or hosts others at {', '.join(tables)}: suspend "
                "them first (they stand up within seconds, at the end of a match they play), "
                "then erase.",
                file=sys.stderr,
            )
            return 1
        asyncio.run(note(settings, by, "erase", player_id))
        print(f"Player {player_id} is erased; the servers forget them within seconds.")
        return 0
    if args.command == "announce":
        until = None if args.hours is None else datetime.now(UTC) + timedelta(hours=args.hours)
        texts = {lang: getattr(args, lang) for lang in LANGUAGES if getattr(args, lang)}
        asyncio.run(
            _on_database(settings, lambda s: Announcements(s, 0).set(args.text, texts, until))
        )
        end = "until unannounce" if until is None else f"until {until:%Y-%m-%d %H:%M} UTC"
        print(f"Announced {end}: {args.text}")
        return 0
    if args.command == "unannounce":
        had = asyncio.run(_on_database(settings, lambda s: Announcements(s, 0).clear()))
        print("The announcement is down." if had else "There was no announcement.")
        return 0
    if args.command == "log":
        entries = asyncio.run(log(settings, args.days, args.player))
        if entries is None:
            return _nobody(args.player)
        print(f"{_count(len(entries), 'change')} in the last {_count(args.days, 'day')}.")
        for line in log_lines(entries):
            print(line)
        return 0
    if args.command == "appeals":
        waiting = asyncio.run(appeals(settings, args.all))
        head = _count(len(waiting), "appeal") if waiting else "No appeal"
        print(f"{head}." if args.all else f"{head} waiting.")
        for line in appeal_lines(waiting):
            print(line)
        return 0
    if args.command == "deny-appeal":
        denied = asyncio.run(deny_appeal(settings, args.player))
        if denied is None:
            return _nobody(args.player)
        if not denied[1]:
            print(f"Player {denied[0]} has no appeal waiting.", file=sys.stderr)
            return 1
        asyncio.run(note(settings, by, "deny-appeal", denied[0]))
        print(f"Player {denied[0]} stays suspended and is told the appeal was read.")
        return 0
    if args.command == "reports":
        filed = asyncio.run(reports(settings, args.days, args.all))
        kind = "report" if args.all else "open report"
        print(f"{_count(len(filed), kind)} in the last {_count(args.days, 'day')}.")
        for line in report_lines(filed):
            print(line)
        return 0
    if args.command == "close":
        outcome = "upheld" if args.upheld else "dismissed"
        done = asyncio.run(close(settings, args.player, outcome))
        if done is None:
            return _nobody(args.player)
        closed = _closed(done[1], outcome)
        if closed:
            asyncio.run(note(settings, by, "close", done[0], closed))
        print(f"Player {done[0]}: {closed or 'no open report.'}")
        return 0
    if args.command in ("suspend", "lift"):
        return _suspend(settings, args)
    if args.command == "reset-password":
        reset = asyncio.run(reset_password(settings, args.username))
        if reset is None:
            print(f"No account is called {args.username!r}.", file=sys.stderr)
            return 1
        asyncio.run(note(settings, by, "reset-password", reset[0]))
        print(f"New password for {args.username}: {reset[1]}")
        print("Every device of the account is signed out; ask the person to change the password.")
        return 0
    renamed = asyncio.run(rename(settings, args.player, args.name))
    if renamed is None:
        return _nobody(args.player)
    player_id, before, closed_count = renamed
    _changed(settings, by, "rename", player_id, f"from {before} to {args.name}", closed_count)
    print(f"Player {player_id} is now called {args.name}.")
    _say_closed(closed_count, "upheld")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m app.admin",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--by",
        type=_operator,
        default=_operator(_system_user()),
        help="the operator's name in the log (the system user running the command)",
    )

    def command(name: str, purpose: str) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=purpose, parents=[common])

    commands = parser.add_subparsers(dest="command", required=True)
    reset = command("reset-password", "draw a new password for an account and sign out its devices")
    reset.add_argument("username")
    renaming = command("rename", "give a player another display name")
    renaming.add_argument("player", help="the player's id, or an account's username")
    renaming.add_argument("name", type=_name, help="the new display name (1 to 32 characters)")
    suspending = command("suspend", "let a player watch but not play")
    suspending.add_argument("player", help="the player's id, or an account's username")
    suspending.add_argument(
        "--reason",
        required=True,
        type=_reason,
        help="what the player is told (1 to 200 characters)",
    )
    suspending.add_argument(
        "--days", type=_days, help="how long (fractions allowed); without it, until lifted"
    )
    lifting = command("lift", "end a player's suspension now")
    lifting.add_argument("player", help="the player's id, or an account's username")
    reading = command("reports", "read what players reported of others")
    reading.add_argument(
        "--days", type=_days, default=7.0, help="how far back (fractions allowed; 7)"
    )
    reading.add_argument("--all", action="store_true", help="the closed reports too")
    closing = command("close", "close the open reports on a player")
    closing.add_argument("player", help="the player's id, or an account's username")
    closing.add_argument(
        "--upheld",
        action="store_true",
        help="you acted on them (without it: dismissed, nothing to act on)",
    )
    listing = command("appeals", "read suspended players' appeals")
    listing.add_argument("--all", action="store_true", help="the answered appeals too")
    denying = command(
        "deny-appeal", "keep a suspension after reading its appeal (the player is told)"
    )
    denying.add_argument("player", help="the player's id, or an account's username")
    erasing = command("erase", "erase a player for good (as they could themselves)")
    erasing.add_argument("player", help="the player's id, or an account's username")
    erasing.add_argument("--yes", action="store_true", help="yes, it cannot be undone")
    announcing = command("announce", "say something to everyone on the site")
    announcing.add_argument("text", type=_announcement, help="what everyone reads")
    for lang in LANGUAGES:
        announcing.add_argument(
            f"--{lang}", type=_announcement, help=f"the same for readers in {lang}"
        )
    announcing.add_argument(
        "--hours", type=_hours, help="how long (fractions allowed); without it, until taken down"
    )
    command("unannounce", "take the announcement down")
    history = command("log", "read what operators did to players")
    history.add_argument(
        "--days", type=_days, default=30.0, help="how far back (fractions allowed; 30)"
    )
    history.add_argument("--player", help="only this player (an id, or an account's username)")
    return parser


def _nobody(who: str) -> int:
    print(f"No player has the id or username {who!r}.", file=sys.stderr)
    return 1


def _closed(count: int, outcome: str) -> str:
    """``2 open reports closed as upheld.``, or nothing for none."""
    return f"{_count(count, 'open report')} closed as {outcome}." if count else ""


def _changed(
    settings: Settings, by: str, action: str, player_id: str, detail: str, upheld: int
) -> None:
    """Write the change to the log, and the reports it closed as upheld as an entry of their
    own (``close``, which the player's export leaves out: ``app.db.export``)."""
    asyncio.run(note(settings, by, action, player_id, detail))
    if upheld:
        asyncio.run(note(settings, by, "close", player_id, _closed(upheld, "upheld")))


def _system_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for the process's user (a bare container)
        return "operator"


LANGUAGES = ("en", "fr", "bg")
"""The client's languages, which an announcement may be written in too."""


def _announcement(raw: str) -> str:
    text = " ".join(raw.split())
    if not 1 <= len(text) <= ANNOUNCEMENT_MAX:
        raise argparse.ArgumentTypeError(f"an announcement has 1 to {ANNOUNCEMENT_MAX} characters")
    return text


def _hours(raw: str) -> float:
    try:
        hours = float(raw)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not a number of hours: {raw!r}") from error
    if not 0 < hours <= 24 * 366:
        raise argparse.ArgumentTypeError("hours are more than 0 and at most a year's")
    return hours


def _operator(raw: str) -> str:
    name = " ".join(raw.split())
    if not 1 <= len(name) <= 64:
        raise argparse.ArgumentTypeError("an operator's name has 1 to 64 characters")
    return name


def _say_closed(count: int, outcome: str) -> None:
    if count:
        print(_closed(count, outcome))


def _suspend(settings: Settings, args: argparse.Namespace) -> int:
    lifting = args.command == "lift"
    until = None
    if not lifting and args.days is not None:
        until = datetime.now(UTC) + timedelta(days=args.days)
    reason = None if lifting else args.reason
    done = asyncio.run(suspend(settings, args.player, reason, until))
    if done is None:
        return _nobody(args.player)
    player_id, closed = done
    if lifting:
        asyncio.run(note(settings, args.by, "lift", player_id))
        print(f"Player {player_id} may play again.")
    else:
        end = "until lifted" if until is None else f"until {until:%Y-%m-%d %H:%M} UTC"
        _changed(settings, args.by, "suspend", player_id, f"{end}: {args.reason}", closed)
        print(f"Player {player_id} is suspended {end}.")
        _say_closed(closed, "upheld")
    seconds = settings.token_check_seconds
    print(f"Every server applies it within BELOTE_TOKEN_CHECK_SECONDS ({seconds:g} s).")
    return 0


def _suspended(held: Suspension | None) -> str:
    """``, suspended until …: reason`` for a suspension that holds, else nothing."""
    if held is None or (held.until is not None and held.until <= time.time()):
        return ""
    end = (
        "lifted"
        if held.until is None
        else f"{datetime.fromtimestamp(held.until, UTC):%Y-%m-%d %H:%M} UTC"
    )
    return f"; suspended until {end}: {held.reason}"


def _count(n: float, thing: str) -> str:
    return f"{n:g} {thing}" if n == 1 else f"{n:g} {thing}s"


def _reason(raw: str) -> str:
    text = " ".join(raw.split())
    if not 1 <= len(text) <= 200:
        raise argparse.ArgumentTypeError("a reason has 1 to 200 characters")
    return text


def _days(raw: str) -> float:
    try:
        days = float(raw)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not a number of days: {raw!r}") from error
    if not 0 < days <= 36500:
        raise argparse.ArgumentTypeError("days are more than 0 and at most 36500")
    return days


def _name(raw: str) -> str:
    try:
        return clean_name(raw)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


if __name__ == "__main__":
    sys.exit(main())
