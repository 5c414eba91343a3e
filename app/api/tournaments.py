"""Tournaments, knockout and Swiss, over REST (``app.rooms.tournaments``): list and create
them, enter and withdraw, and for the host start or cancel one (docs/protocol.md §9); the
server moves it on.

A tournament's tables are private rooms: a table's code is shown only to the players who play
at it (``you.table``), as a private room's code is a capability — others follow the bracket's
results, not the table.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Path
from pydantic import AwareDatetime, BaseModel, Field, field_validator

from app.api.bodies import Body, MatchTarget
from app.api.errors import responses
from app.api.paths import HEX, PlayerId, RoomCode
from app.api.players import CleanName
from app.api.services import PlayerDep, ServicesDep, SignedInCreationLimit, ViewerDep
from app.api.suspension import Unsuspended
from app.rooms.errors import RoomError
from app.rooms.ports import Player
from app.rooms.swiss import MAX_ROUNDS as MAX_SWISS_ROUNDS
from app.rooms.tournaments import CHECK_IN_MINUTES, MAX_ENTRANTS, Game, Tournament
from app.rooms.watching import WATCH_CODE, watch_code
from app.rules import Ruleset

router = APIRouter(
    prefix="/api/tournaments", tags=["tournaments"], responses=responses(401, 413, 422)
)

START_SOONEST, START_LATEST = timedelta(minutes=1), timedelta(days=30)
"""How far ahead a start time may be: time for the address to be shared, and not a
tournament that sits in the listing for months."""
DEFAULT_SWISS_ROUNDS = 3
"""A Swiss tournament's rounds when its host chose none: four units meet each other once."""

TournamentId = Annotated[str, Path(pattern=HEX, description="A tournament's id (16 hex digits).")]


class TournamentIn(Body):
    name: CleanName = Field(examples=["Friday cup"])
    preset: str = Field(default="bulgarian", max_length=32)
    house_rules: dict[str, bool | str] = Field(
        default_factory=dict, description="Every table's house rules (GET /api/rules)."
    )
    target: MatchTarget = Field(
        default=None, description="Every table's match target; default the preset's (151 / 1000)."
    )
    size: int = Field(
        default=8,
        ge=2,
        le=MAX_ENTRANTS,
        description="The most entrants it takes (a game of partners: at least 3; partners are "
        "drawn at the start, and an odd one out plays with a bot).",
    )
    format: Literal["knockout", "swiss"] = Field(
        default="knockout",
        description="`knockout`: a match's loser is out; `swiss`: everyone plays every round "
        "against a unit of the same record, and the standings decide.",
    )
    starts_at: AwareDatetime | None = Field(
        default=None,
        strict=False,  # a moment is a string in JSON (with its offset); `_a_string` keeps it so
        description="When it starts by itself, once two units have entered (a minute to 30 "
        "days ahead); null: when its host starts it. Its host may start it before.",
    )
    rated: bool = Field(
        default=False,
        description="Its matches move ratings: you and every entrant need an account (403 "
        "`account_required`); a table where a bot plays is casual.",
    )
    check_in_minutes: int | None = Field(
        default=None,
        ge=CHECK_IN_MINUTES.start,
        le=CHECK_IN_MINUTES.stop - 1,
        description="With a start time: its entrants check in during these last minutes "
        "before it (`POST /api/tournaments/{id}/check-in`; entering then checks in), and the "
        "start draws only those who did; null: no check-in.",
    )
    rounds: int | None = Field(
        default=None,
        ge=1,
        le=MAX_SWISS_ROUNDS,
        description="A Swiss tournament's rounds (default 3); a knockout's follow from its "
        "entrants.",
    )

    @field_validator("starts_at", mode="before")
    @classmethod
    def _a_string(cls, value: object) -> object:
        """Lax parsing would take a number as a Unix time: the schema says a string."""
        if value is not None and not isinstance(value, str):
            raise ValueError("a moment is an ISO 8601 string with its offset")
        return value


class EntrantOut(BaseModel):
    id: str
    name: str | None = Field(description="None: a deleted player.")


class EntryOut(EntrantOut):
    checked_in: bool = Field(description="They checked in (a tournament with check-in).")
    partner: str | None = Field(
        description="The entrant they will play with: the two asked for each other (a game of "
        "partners; the start draws them as one unit). None: drawn with anyone."
    )


class TableOut(BaseModel):
    round: int = Field(description="From 0; the last round is the final.")
    slot: int
    a: int = Field(description="The unit on the game's first side.")
    b: int | None = Field(description="The unit on the second side; None: a bye, won by `a`.")
    winner: int | None
    scores: list[int] | None = Field(description="The sides' match points, `a`'s first.")
    conceded: bool = Field(description="The loser gave the match up.")
    match_id: str | None = Field(description="The stored match (GET /api/matches/{id}).")
    playing: bool = Field(description="Its table is open and its match not yet decided.")
    watch: str | None = Field(
        description="The watch code of its table (GET /api/rooms/{code}, /ws/rooms/{code}): "
        "anyone may watch it, nobody may play or chat by it. None until the table is open."
    )


class YouOut(BaseModel):
    entered: bool
    checked_in: bool = Field(description="You checked in (a tournament with check-in).")
    removed: bool = Field(description="Its host took you out of it: you may not enter again.")
    partner: str | None = Field(
        description="The entrant you asked to play with (whether or not they asked back)."
    )
    asked_by: list[str] = Field(
        description="The entrants who asked to play with you and whom you have not asked back."
    )
    unit: int | None
    table: str | None = Field(
        description="The code of the table where your unit plays now, for you alone."
    )


class StandingOut(BaseModel):
    unit: int
    wins: int = Field(description="Matches won, a bye counted as one.")
    buchholz: int = Field(description="The wins of the units it met, together.")
    points_for: int = Field(description="Match points scored at its tables.")
    points_against: int
    byes: int


class TournamentOut(BaseModel):
    id: str
    name: str
    preset: str
    house_rules: dict[str, bool | str] = Field(
        description="Every table's house rules (those at their default left out)."
    )
    target: int = Field(description="Every table's match target.")
    host: EntrantOut
    size: int
    status: str = Field(description="`registering`, `playing`, `finished` or `cancelled`.")
    created_at: datetime
    starts_at: datetime | None = Field(description="When it starts by itself (null: by hand).")
    check_in_minutes: int | None = Field(
        description="Its check-in's length before `starts_at` (null: no check-in)."
    )
    check_in_opens_at: datetime | None = Field(
        description="When its entrants may check in, until it starts (null: no check-in)."
    )
    started_at: datetime | None
    finished_at: datetime | None
    entrants: list[EntryOut] = Field(
        description="In the order they entered (once it started: those drawn)."
    )
    units: list[list[EntrantOut]] = Field(description="The drawn units, by number (from 0).")
    format: str = Field(description="`knockout` or `swiss`.")
    rated: bool = Field(description="Its matches move ratings; only accounts enter it.")
    rounds: int = Field(
        description="How many rounds it plays: a Swiss tournament's chosen number; a "
        "knockout's bracket's (0 before the draw)."
    )
    standings: list[StandingOut] = Field(
        description="A Swiss tournament's units, best first, by wins, then buchholz, then "
        "points for less against, then the draw's order (a knockout's: empty)."
    )
    tables: list[TableOut]
    champion: int | None = Field(description="The unit that won the final.")
    you: YouOut | None = Field(description="The reader's part in it (None: no token).")


class TournamentRef(BaseModel):
    id: str
    name: str


class TournamentsOut(BaseModel):
    tournaments: list[TournamentOut]


def tournament_out(tournament: Tournament, reader: Player | None) -> TournamentOut:
    """What anyone may read of ``tournament``, and what ``reader`` alone may."""
    units = tournament.units
    partners = tournament.partners
    game = tournament.game
    you = None
    if reader is not None:
        mine = next((e for e in tournament.entries if e.player_id == reader.id), None)
        unit = None if mine is None else mine.unit
        table = next(
            (
                t.room_code
                for t in tournament.matches
                if t.room_code is not None and t.winner is None and unit in (t.a, t.b)
            ),
            None,
        )
        asked_me = [
            e.player_id
            for e in tournament.entries
            if e.partner_id == reader.id and (mine is None or mine.partner_id != e.player_id)
        ]
        you = YouOut(
            entered=mine is not None,
            checked_in=mine is not None and mine.checked_in,
            removed=reader.id in tournament.removed,
            partner=None if mine is None else mine.partner_id,
            asked_by=asked_me,
            unit=unit,
            table=table,
        )
    return TournamentOut(
        id=tournament.id,
        name=tournament.name,
        preset=game.preset,
        house_rules=dict(game.house_rules),
        target=game.target or Ruleset.from_dict(game.rules).default_target,
        host=EntrantOut(id=tournament.host_id, name=tournament.host_name),
        size=tournament.size,
        status=tournament.status,
        created_at=tournament.created_at,
        starts_at=tournament.starts_at,
        check_in_minutes=tournament.check_in_minutes,
        check_in_opens_at=tournament.check_in_opens,
        started_at=tournament.started_at,
        finished_at=tournament.finished_at,
        entrants=[
            EntryOut(
                id=e.player_id,
                name=e.name,
                checked_in=e.checked_in,
                partner=partners.get(e.player_id),
            )
            for e in tournament.entries
        ],
        units=[
            [EntrantOut(id=e.player_id, name=e.name) for e in units[unit]] for unit in sorted(units)
        ],
        format="knockout" if tournament.swiss_rounds is None else "swiss",
        rated=tournament.rated,
        rounds=tournament.rounds,
        standings=[
            StandingOut.model_validate(s, from_attributes=True) for s in tournament.standings()
        ],
        tables=[
            TableOut(
                round=t.round,
                slot=t.slot,
                a=t.a,
                b=t.b,
                winner=t.winner,
                scores=None if t.scores is None else list(t.scores),
                conceded=t.conceded,
                match_id=t.match_id,
                playing=t.room_code is not None and t.winner is None,
                watch=None if t.room_code is None else watch_code(t.room_code),
            )
            for t in tournament.matches
        ],
        champion=tournament.champion,
        you=you,
    )


@router.get("", response_model=TournamentsOut)
async def listing(services: ServicesDep) -> TournamentsOut:
    """The tournaments being played, and the others made in the last week (taking entries,
    over or called off), the newest first; read by anyone, so each one's `you` is null (read
    one for yours)."""
    found = await services.tournaments.listing()
    return TournamentsOut(tournaments=[tournament_out(t, None) for t in found])


# A tournament opens tables as it goes: its making takes from the address's allowance of new
# rooms, as ``POST /api/rooms`` does.
@router.post(
    "",
    status_code=201,
    response_model=TournamentOut,
    dependencies=[Unsuspended, SignedInCreationLimit],
    responses=responses(400, 403, 429),
)
async def create(body: TournamentIn, player: PlayerDep, services: ServicesDep) -> TournamentOut:
    """A new tournament taking entries, its host entered."""
    game = Game(body.preset, body.house_rules, body.target)
    if body.format == "knockout" and body.rounds is not None:
        raise RoomError("bad_request", "A knockout's rounds follow from its entrants.")
    rounds = (body.rounds or DEFAULT_SWISS_ROUNDS) if body.format == "swiss" else None
    if body.starts_at is not None:
        ahead = body.starts_at - datetime.now(UTC)
        if not START_SOONEST <= ahead <= START_LATEST:
            raise RoomError("bad_request", "A start time is a minute to 30 days ahead.")
    made = await services.tournaments.create(
        player,
        body.name,
        game,
        body.size,
        rounds,
        body.starts_at,
        body.check_in_minutes,
        body.rated,
    )
    return tournament_out(made, player)


@router.get("/{tournament_id}", response_model=TournamentOut, responses=responses(404))
async def read(
    tournament_id: TournamentId, services: ServicesDep, viewer: ViewerDep
) -> TournamentOut:
    """The tournament as it stands. Ask every few seconds while it is played: the server reads
    each table's result when its match ends and opens the next tables."""
    return tournament_out(await services.tournaments.view(tournament_id), viewer)


class TableOfOut(BaseModel):
    tournament: TournamentRef | None = Field(description="None: the room is no tournament's.")


@router.get("/table/{code}", response_model=TableOfOut)
async def of_table(code: RoomCode, services: ServicesDep) -> TableOfOut:
    """The tournament a room is a table of, for the table's page to link back to it; by the
    room's code or its watch code, which the bracket names. This tells a code's holder nothing
    more than which tournament's table it is."""
    if WATCH_CODE.fullmatch(code):
        code = await services.rooms.watched_code(code) or code
    found = await services.tournaments.of_table(code)
    return TableOfOut(
        tournament=None if found is None else TournamentRef(id=found[0], name=found[1])
    )


@router.post(
    "/{tournament_id}/entry",
    response_model=TournamentOut,
    dependencies=[Unsuspended],
    responses=responses(403, 404, 409),
)
async def enter(
    tournament_id: TournamentId, player: PlayerDep, services: ServicesDep
) -> TournamentOut:
    """Enter it while it takes entries (twice changes nothing). 409 `tournament_closed`: it
    started or was cancelled; `tournament_full`; 403 `removed_from_tournament`: its host took
    you out of it; `account_required`: a rated one, and you a guest."""
    return tournament_out(await services.tournaments.enter(tournament_id, player), player)


@router.post(
    "/{tournament_id}/check-in",
    response_model=TournamentOut,
    dependencies=[Unsuspended],
    responses=responses(403, 404, 409),
)
async def check_in(
    tournament_id: TournamentId, player: PlayerDep, services: ServicesDep
) -> TournamentOut:
    """Say you are here to play, during its check-in (twice changes nothing): at the start
    only those who did are drawn. 409 `tournament_closed`, `no_check_in` (it asks for none),
    `check_in_not_open` (not yet: `check_in_opens_at`), `not_entered`."""
    return tournament_out(await services.tournaments.check_in(tournament_id, player.id), player)


class PartnerIn(Body):
    partner: str | None = Field(
        pattern=HEX, description="The entrant to play with; null: with anyone the draw gives."
    )


@router.put(
    "/{tournament_id}/partner",
    response_model=TournamentOut,
    dependencies=[Unsuspended],
    responses=responses(400, 403, 404, 409, 413, 422),
)
async def partner(
    tournament_id: TournamentId, body: PartnerIn, player: PlayerDep, services: ServicesDep
) -> TournamentOut:
    """Ask to play with another entrant, in a game of partners, before the start (asking again
    replaces the ask; null takes it back): two who ask for each other are drawn as one unit,
    the others at random. Only the two of them learn of an ask that is not answered. 409
    `tournament_closed`, `not_entered`, `not_an_entrant` (they have not entered); 422
    `bad_request`: yourself, or a game where each plays alone; 403 `suspended`."""
    chosen = await services.tournaments.partner(tournament_id, player.id, body.partner)
    return tournament_out(chosen, player)


@router.delete(
    "/{tournament_id}/entry", response_model=TournamentOut, responses=responses(404, 409)
)
async def withdraw(
    tournament_id: TournamentId, player: PlayerDep, services: ServicesDep
) -> TournamentOut:
    """Leave it before it starts. 409 `tournament_closed`: it started (your stand-in plays
    your matches if you do not)."""
    return tournament_out(await services.tournaments.withdraw(tournament_id, player.id), player)


@router.delete(
    "/{tournament_id}/entries/{player_id}",
    response_model=TournamentOut,
    responses=responses(403, 404, 409),
)
async def remove(
    tournament_id: TournamentId, player_id: PlayerId, player: PlayerDep, services: ServicesDep
) -> TournamentOut:
    """The host takes an entrant out before the start, for good: they may not enter it again
    (twice changes nothing). 403 `not_host`; 409 `tournament_closed`, `not_an_entrant`; 422
    `bad_request` for the host themselves (they withdraw)."""
    removed = await services.tournaments.remove(tournament_id, player.id, player_id)
    return tournament_out(removed, player)


@router.post(
    "/{tournament_id}/start", response_model=TournamentOut, responses=responses(403, 404, 409)
)
async def start(
    tournament_id: TournamentId, player: PlayerDep, services: ServicesDep
) -> TournamentOut:
    """The host starts it: units drawn (with check-in, of those who checked in), the first
    round's tables opened. 403 `not_host`; 409 `tournament_closed`, `too_few_entrants`,
    `too_few_checked_in`."""
    return tournament_out(await services.tournaments.start(tournament_id, player.id), player)


@router.post(
    "/{tournament_id}/cancel", response_model=TournamentOut, responses=responses(403, 404, 409)
)
async def cancel(
    tournament_id: TournamentId, player: PlayerDep, services: ServicesDep
) -> TournamentOut:
    """The host calls it off before it starts. 403 `not_host`; 409 `tournament_closed`."""
    return tournament_out(await services.tournaments.cancel(tournament_id, player.id), player)
