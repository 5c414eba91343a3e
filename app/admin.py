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
  name, cannot be changed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.api.players import clean_name
from app.db.accounts import Accounts
from app.db.engine import make_engine, make_sessionmaker
from app.db.players import Players
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


async def reset_password(settings: Settings, username: str) -> str | None:
    """The new password, or None for an unknown username."""
    return await _on_database(settings, lambda s: Accounts(s).reset_password(username))


async def rename(settings: Settings, who: str, name: str) -> str | None:
    """Rename the player whose id or account's username is ``who``; their id, or None."""

    async def work(sessions: async_sessionmaker[AsyncSession]) -> str | None:
        players = Players(sessions)
        player_id = who if await players.by_id(who) is not None else None
        player_id = player_id or await Accounts(sessions).player_of(who)
        if player_id is not None:
            await players.rename(player_id, name)
        return player_id

    return await _on_database(settings, work)


def main(argv: Sequence[str] | None = None, settings: Settings | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app.admin",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    reset = commands.add_parser(
        "reset-password", help="draw a new password for an account and sign out its devices"
    )
    reset.add_argument("username")
    renaming = commands.add_parser("rename", help="give a player another display name")
    renaming.add_argument("player", help="the player's id, or an account's username")
    renaming.add_argument("name", type=_name, help="the new display name (1 to 32 characters)")
    args = parser.parse_args(argv)
    settings = settings or Settings()
    if args.command == "reset-password":
        password = asyncio.run(reset_password(settings, args.username))
        if password is None:
            print(f"No account is called {args.username!r}.", file=sys.stderr)
            return 1
        print(f"New password for {args.username}: {password}")
        print("Every device of the account is signed out; ask the person to change the password.")
        return 0
    player_id = asyncio.run(rename(settings, args.player, args.name))
    if player_id is None:
        print(f"No player has the id or username {args.player!r}.", file=sys.stderr)
        return 1
    print(f"Player {player_id} is now called {args.name}.")
    return 0


def _name(raw: str) -> str:
    try:
        return clean_name(raw)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


if __name__ == "__main__":
    sys.exit(main())
