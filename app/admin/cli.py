"""``python -m app.admin``: what an operator does by hand, on the database ``DATABASE_URL`` names
(the same settings as the server; run it beside a running server or a cluster's nodes).

- ``reset-password USERNAME``: a person lost their password. There is no e-mail on file to send
  a link to, so the operator, once satisfied the person is who they say (their history, their
  devices, what the site's terms ask), draws a new password and hands it over; every device of
  the account is signed out. The person then signs in and changes it on the account page.
- ``rename PLAYER NAME``: a display name that breaks the site's rules (the lobby, the tables
  and the leaderboards show it), by the player's id or an account's username. The tables where
  the player sits show the new name within ``BELOTE_TOKEN_CHECK_SECONDS`` (every server reads
  the renames, ``app.db.player_news``). The open reports about the player's name are closed
  as upheld.
- ``rename-username PLAYER USERNAME``: an account's username that breaks the site's rules
  (the leaderboards and the profile show it beside the name). The account's devices stay
  signed in; the person signs in with the new username from now on, and their account page
  shows it, so tell them. The open reports about the player's name are closed as upheld.
- ``rename-tournament TOURNAMENT NAME``: a tournament's name that breaks the site's rules (the
  tournaments' list shows it to everyone); the line in the log names its host. Every page
  shows the new name at its next question.
- ``suspend PLAYER --reason TEXT [--days N] [--network]``: a player who breaks the site's
  rules (abuse in the chat, throwing matches) may watch but not play
  (``app.rooms.suspensions``), for N days
  (fractions allowed) or until lifted. They are told the reason and the end, nobody else is.
  Every server applies it within ``BELOTE_TOKEN_CHECK_SECONDS``: the player stands up at the
  tables where they sit between matches, and at the end of a match they are playing. The open
  reports on the player are closed as upheld.
  With ``--network``, meanwhile no new guest is made from the networks the player used in the
  last 30 days (``app.db.networks``: an IPv4 address, an IPv6 /64), for a person who comes back
  as a new guest; the players already made there play on, but a shared address (a school, a
  phone operator's) bars others' first visit too, so it is the operator's choice each time;
  the command says how many networks the player used and how many other players used them.
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
- ``log [--days N] [--player PLAYER]``: what operators did to players, and the announcements
  they made and took down, in the last N days (30), the oldest first (``app.db.moderation``;
  ``--player``: that player's alone). Every command above that changes something writes its
  line there, under the operator's name: ``--by NAME``, or the system user running it.

The work itself is ``app.admin.actions``, what is read is set out by ``app.admin.lines``.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from app.admin import actions
from app.admin.lines import appeal_lines, closed_words, count_of, log_lines, report_lines
from app.api.players import clean_name
from app.db.accounts import check_username
from app.db.announcements import TEXT_MAX as ANNOUNCEMENT_MAX
from app.db.networks import NETWORK_RETENTION_DAYS
from app.rooms.errors import RoomError
from app.settings import Settings

LANGUAGES = ("en", "fr", "bg")
"""The client's languages, which an announcement may be written in too."""

Command = Callable[[argparse.Namespace, Settings], int]


def main(argv: Sequence[str] | None = None, settings: Settings | None = None) -> int:
    args = _parser().parse_args(argv)
    return COMMANDS[args.command](args, settings or Settings())


def system_user() -> str:
    """The name of the system user running the command: the operator, unless ``--by``."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for the process's user (a bare container)
        return "operator"


# ---- the commands ------------------------------------------------------------------------


def _reset_password(args: argparse.Namespace, settings: Settings) -> int:
    reset = asyncio.run(actions.reset_password(settings, args.username))
    if reset is None:
        print(f"No account is called {args.username!r}.", file=sys.stderr)
        return 1
    asyncio.run(actions.note(settings, args.by, "reset-password", reset[0]))
    print(f"New password for {args.username}: {reset[1]}")
    print("Every device of the account is signed out; ask the person to change the password.")
    return 0


def _rename(args: argparse.Namespace, settings: Settings) -> int:
    renamed = asyncio.run(actions.rename(settings, args.player, args.name))
    if renamed is None:
        return _nobody(args.player)
    player_id, before, closed = renamed
    _changed(settings, args.by, "rename", player_id, f"from {before} to {args.name}", closed)
    print(f"Player {player_id} is now called {args.name}.")
    _say_closed(closed)
    return 0


def _rename_username(args: argparse.Namespace, settings: Settings) -> int:
    try:
        renamed = asyncio.run(actions.rename_username(settings, args.player, args.username))
    except RoomError as error:  # a guest, or the username is another account's
        print(error.message, file=sys.stderr)
        return 1
    if renamed is None:
        return _nobody(args.player)
    player_id, before, closed = renamed
    detail = f"username from {before} to {args.username}"
    _changed(settings, args.by, "rename-username", player_id, detail, closed)
    print(f"Player {player_id} now signs in as {args.username} (was {before}).")
    print("Their devices stay signed in; tell them the new username.")
    _say_closed(closed)
    return 0


def _rename_tournament(args: argparse.Namespace, settings: Settings) -> int:
    renamed = asyncio.run(actions.rename_tournament(settings, args.tournament, args.name))
    if renamed is None:
        print(f"No tournament has the id {args.tournament!r}.", file=sys.stderr)
        return 1
    host_id, before = renamed
    detail = f"tournament {args.tournament} from {before} to {args.name}"
    asyncio.run(actions.note(settings, args.by, "rename-tournament", host_id, detail))
    print(f"Tournament {args.tournament} is now called {args.name}.")
    return 0


def _suspend(args: argparse.Namespace, settings: Settings) -> int:
    lifting = args.command == "lift"
    until = None
    if not lifting and args.days is not None:
        until = datetime.now(UTC) + timedelta(days=args.days)
    reason = None if lifting else args.reason
    networks = not lifting and args.network
    done = asyncio.run(actions.suspend(settings, args.player, reason, until, networks))
    if done is None:
        return _nobody(args.player)
    player_id, closed = done
    if lifting:
        asyncio.run(actions.note(settings, args.by, "lift", player_id))
        print(f"Player {player_id} may play again.")
    else:
        end = "until lifted" if until is None else f"until {until:%Y-%m-%d %H:%M} UTC"
        barred = ", no new guest from their networks" if networks else ""
        said = f"{end}{barred}: {args.reason}"
        _changed(settings, args.by, "suspend", player_id, said, closed)
        print(f"Player {player_id} is suspended {end}{barred}.")
        if networks:
            used, others = asyncio.run(actions.networks_shared(settings, player_id))
            print(
                f"They used {count_of(used, 'network')} in the last {NETWORK_RETENTION_DAYS} "
                f"days, where {count_of(others, 'other player')} played too (those play on; "
                "newcomers from there are refused until the suspension ends)."
            )
        _say_closed(closed)
    seconds = settings.token_check_seconds
    print(f"Every server applies it within BELOTE_TOKEN_CHECK_SECONDS ({seconds:g} s).")
    return 0


def _reports(args: argparse.Namespace, settings: Settings) -> int:
    filed = asyncio.run(actions.reports(settings, args.days, args.all))
    kind = "report" if args.all else "open report"
    print(f"{count_of(len(filed), kind)} in the last {count_of(args.days, 'day')}.")
    for line in report_lines(filed):
        print(line)
    return 0


def _close(args: argparse.Namespace, settings: Settings) -> int:
    outcome = "upheld" if args.upheld else "dismissed"
    done = asyncio.run(actions.close(settings, args.player, outcome))
    if done is None:
        return _nobody(args.player)
    closed = closed_words(done[1], outcome)
    if closed:
        asyncio.run(actions.note(settings, args.by, "close", done[0], closed))
    print(f"Player {done[0]}: {closed or 'no open report.'}")
    return 0


def _appeals(args: argparse.Namespace, settings: Settings) -> int:
    waiting = asyncio.run(actions.appeals(settings, args.all))
    head = count_of(len(waiting), "appeal") if waiting else "No appeal"
    print(f"{head}." if args.all else f"{head} waiting.")
    for line in appeal_lines(waiting):
        print(line)
    return 0


def _deny_appeal(args: argparse.Namespace, settings: Settings) -> int:
    denied = asyncio.run(actions.deny_appeal(settings, args.player))
    if denied is None:
        return _nobody(args.player)
    if not denied[1]:
        print(f"Player {denied[0]} has no appeal waiting.", file=sys.stderr)
        return 1
    asyncio.run(actions.note(settings, args.by, "deny-appeal", denied[0]))
    print(f"Player {denied[0]} stays suspended and is told the appeal was read.")
    return 0


def _erase(args: argparse.Namespace, settings: Settings) -> int:
    if not args.yes:
        print("Erasing cannot be undone: say --yes.", file=sys.stderr)
        return 1
    erased = asyncio.run(actions.erase(settings, args.player))
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
    asyncio.run(actions.note(settings, args.by, "erase", player_id))
    print(f"Player {player_id} is erased; the servers forget them within seconds.")
    return 0


def _announce(args: argparse.Namespace, settings: Settings) -> int:
    until = None if args.hours is None else datetime.now(UTC) + timedelta(hours=args.hours)
    texts = {lang: getattr(args, lang) for lang in LANGUAGES if getattr(args, lang)}
    asyncio.run(actions.announce(settings, args.text, texts, until))
    end = "until unannounce" if until is None else f"until {until:%Y-%m-%d %H:%M} UTC"
    also = f" (also in {', '.join(texts)})" if texts else ""
    asyncio.run(actions.note(settings, args.by, "announce", None, f"{end}{also}: {args.text}"))
    print(f"Announced {end}: {args.text}")
    return 0


def _unannounce(args: argparse.Namespace, settings: Settings) -> int:
    had = asyncio.run(actions.unannounce(settings))
    if had:
        asyncio.run(actions.note(settings, args.by, "unannounce", None))
    print("The announcement is down." if had else "There was no announcement.")
    return 0


def _log(args: argparse.Namespace, settings: Settings) -> int:
    entries = asyncio.run(actions.log(settings, args.days, args.player))
    if entries is None:
        return _nobody(args.player)
    print(f"{count_of(len(entries), 'change')} in the last {count_of(args.days, 'day')}.")
    for line in log_lines(entries):
        print(line)
    return 0


COMMANDS: dict[str, Command] = {
    "reset-password": _reset_password,
    "rename": _rename,
    "rename-username": _rename_username,
    "rename-tournament": _rename_tournament,
    "suspend": _suspend,
    "lift": _suspend,
    "reports": _reports,
    "close": _close,
    "appeals": _appeals,
    "deny-appeal": _deny_appeal,
    "erase": _erase,
    "announce": _announce,
    "unannounce": _unannounce,
    "log": _log,
}


def _nobody(who: str) -> int:
    print(f"No player has the id or username {who!r}.", file=sys.stderr)
    return 1


def _changed(
    settings: Settings, by: str, action: str, player_id: str, detail: str, upheld: int
) -> None:
    """Write the change to the log, and the reports it closed as upheld as an entry of their
    own (``close``, which the player's export leaves out: ``app.db.export``)."""
    asyncio.run(actions.note(settings, by, action, player_id, detail))
    if upheld:
        asyncio.run(actions.note(settings, by, "close", player_id, closed_words(upheld, "upheld")))


def _say_closed(count: int) -> None:
    if count:
        print(closed_words(count, "upheld"))


# ---- the arguments ------------------------------------------------------------------------


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
        default=_operator(system_user()),
        help="the operator's name in the log (the system user running the command)",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, purpose: str) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=purpose, parents=[common])

    def player(on: argparse.ArgumentParser) -> None:
        on.add_argument("player", help="the player's id, or an account's username")

    reset = command("reset-password", "draw a new password for an account and sign out its devices")
    reset.add_argument("username")
    renaming = command("rename", "give a player another display name")
    player(renaming)
    renaming.add_argument("name", type=_name, help="the new display name (1 to 32 characters)")
    renaming = command("rename-username", "give an account another username")
    player(renaming)
    renaming.add_argument(
        "username", type=_username, help="the new username (3 to 32 letters, digits, . - _)"
    )
    renaming = command("rename-tournament", "give a tournament another name")
    renaming.add_argument(
        "tournament", help="the tournament's id (its page's address ends with it)"
    )
    renaming.add_argument("name", type=_name, help="the new name (1 to 32 characters)")
    suspending = command("suspend", "let a player watch but not play")
    player(suspending)
    suspending.add_argument(
        "--reason",
        required=True,
        type=_reason,
        help="what the player is told (1 to 200 characters)",
    )
    suspending.add_argument(
        "--days", type=_days, help="how long (fractions allowed); without it, until lifted"
    )
    suspending.add_argument(
        "--network",
        action="store_true",
        help="meanwhile, make no new guest from the networks the player used in the last "
        f"{NETWORK_RETENTION_DAYS} days (a person who comes back as a new guest; it may bar "
        "others who share the address)",
    )
    player(command("lift", "end a player's suspension now"))
    reading = command("reports", "read what players reported of others")
    reading.add_argument(
        "--days", type=_days, default=7.0, help="how far back (fractions allowed; 7)"
    )
    reading.add_argument("--all", action="store_true", help="the closed reports too")
    closing = command("close", "close the open reports on a player")
    player(closing)
    closing.add_argument(
        "--upheld",
        action="store_true",
        help="you acted on them (without it: dismissed, nothing to act on)",
    )
    listing = command("appeals", "read suspended players' appeals")
    listing.add_argument("--all", action="store_true", help="the answered appeals too")
    player(
        command("deny-appeal", "keep a suspension after reading its appeal (the player is told)")
    )
    erasing = command("erase", "erase a player for good (as they could themselves)")
    player(erasing)
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


def _words(raw: str, most: int, what: str) -> str:
    """``raw`` with its spaces made single, if it has 1 to ``most`` characters then."""
    text = " ".join(raw.split())
    if not 1 <= len(text) <= most:
        raise argparse.ArgumentTypeError(f"{what} has 1 to {most} characters")
    return text


def _operator(raw: str) -> str:
    return _words(raw, 64, "an operator's name")


def _reason(raw: str) -> str:
    return _words(raw, 200, "a reason")


def _announcement(raw: str) -> str:
    return _words(raw, ANNOUNCEMENT_MAX, "an announcement")


def _number(raw: str, most: float, unit: str) -> float:
    try:
        value = float(raw)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not a number of {unit}: {raw!r}") from error
    if not 0 < value <= most:
        raise argparse.ArgumentTypeError(f"{unit} are more than 0 and at most {most:g}")
    return value


def _days(raw: str) -> float:
    return _number(raw, 36500, "days")


def _hours(raw: str) -> float:
    return _number(raw, 24 * 366, "hours")


def _username(raw: str) -> str:
    try:
        return check_username(raw)
    except RoomError as error:
        raise argparse.ArgumentTypeError(error.message) from error


def _name(raw: str) -> str:
    try:
        return clean_name(raw)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error
