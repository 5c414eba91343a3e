"""``python -m app.admin``: what an operator does by hand, on the database ``DATABASE_URL`` names
(the same settings as the server; run it beside a running server or a cluster's nodes).

- ``reset-password USERNAME``: a person lost their password. There is no e-mail on file to send
  a link to, so the operator, once satisfied the person is who they say (their history, their
  devices, what the site's terms ask), draws a new password and hands it over; every device of
  the account is signed out. The person then signs in and changes it on the account page.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from app.db.accounts import Accounts
from app.db.engine import make_engine, make_sessionmaker
from app.settings import Settings


async def reset_password(settings: Settings, username: str) -> str | None:
    engine = make_engine(settings.database_url)
    try:
        return await Accounts(make_sessionmaker(engine)).reset_password(username)
    finally:
        await engine.dispose()


def main(argv: Sequence[str] | None = None, settings: Settings | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.admin", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    reset = commands.add_parser(
        "reset-password", help="draw a new password for an account and sign out its devices"
    )
    reset.add_argument("username")
    args = parser.parse_args(argv)
    settings = settings or Settings()
    password = asyncio.run(reset_password(settings, args.username))
    if password is None:
        print(f"No account is called {args.username!r}.", file=sys.stderr)
        return 1
    print(f"New password for {args.username}: {password}")
    print("Every device of the account is signed out; ask the person to change the password.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
