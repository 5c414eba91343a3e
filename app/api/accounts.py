"""Accounts over REST: claim your guest as an account, log in and out, change the password,
see and revoke your signed-in devices (``app.db.accounts`` holds the rules)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request, Response
from pydantic import AfterValidator, BaseModel, Field, SecretStr

from app.api.bodies import Body
from app.api.erasure import erase_player
from app.api.errors import responses
from app.api.paths import SessionId
from app.api.services import (
    CreationLimit,
    PlayerDep,
    ServicesDep,
    SignedInCreationLimit,
    TokenDep,
    address_of,
)
from app.api.suspension import SuspensionOut, suspension_of

router = APIRouter(prefix="/api/accounts", tags=["accounts"], responses=responses(400, 413, 422))
SIGNED_IN = responses(401, 409)  # a guest or account token; `not_an_account` for a guest

# Long enough for any password manager, short enough that nobody makes the server hash a novel.
SECRET_MAX = 1000


def _text(secret: SecretStr) -> SecretStr:
    """A password is text: JSON lets a string hold a lone surrogate (``"\\ud800"``), which
    pydantic keeps in a ``SecretStr`` (not in a ``str``) and which no hash can encode."""
    try:
        secret.get_secret_value().encode()
    except UnicodeEncodeError:
        raise ValueError("a password is text: no lone surrogates") from None
    return secret


Secret = Annotated[SecretStr, Field(max_length=SECRET_MAX), AfterValidator(_text)]


class CredentialsIn(Body):
    """Claiming and logging in; ``SecretStr`` keeps the password out of any repr or log."""

    username: str = Field(max_length=100, examples=["ivana"])
    password: Secret


class PasswordIn(Body):
    old_password: Secret
    new_password: Secret


class ErasureIn(Body):
    password: Secret


class AccountOut(BaseModel):
    id: str
    name: str
    username: str | None = Field(description="None while the player is a guest.")


class AccountMeOut(AccountOut):
    suspension: SuspensionOut | None = Field(
        description="Set while the site's operator has suspended you: you may watch, not play."
    )


class SignedInOut(AccountOut):
    token: str = Field(description="Secret: this device's session token. Shown only once.")


class SessionOut(BaseModel):
    id: str
    label: str
    created_at: str
    current: bool


UserAgent = Annotated[str, Header(alias="User-Agent")]


BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def device_label(user_agent: str) -> str:
    """ "Firefox · Android": enough for a person to tell their devices apart in the list of
    sessions, without keeping the whole User-Agent string."""
    found = [
        next((name for mark, name in table if mark in user_agent), None)
        for table in (BROWSERS, SYSTEMS)
    ]
    return " · ".join(part for part in found if part) or user_agent[:40]


# The calls that run Argon2 (by design about 0.1 s of a core and 64 MiB) or add a session row
# take from the address's allowance of new guests and rooms (``CreationLimit``): a success is
# not a failed login, so the login limits alone let one address loop them without end. Those of
# a signed-in caller check the token first (401 spends nothing).
HASHING = [CreationLimit]
SIGNED_IN_HASHING = [SignedInCreationLimit]


@router.post(
    "",
    status_code=201,
    response_model=AccountOut,
    responses={**SIGNED_IN, **responses(429)},
    dependencies=SIGNED_IN_HASHING,
)
async def claim(
    body: CredentialsIn,
    player: PlayerDep,
    token: TokenDep,
    services: ServicesDep,
    user_agent: UserAgent = "",
) -> AccountOut:
    """Make the calling guest an account; its matches stay its own and this device stays
    signed in (its token becomes the account's first session)."""
    username = await services.accounts.claim(
        player, token, body.username, body.password.get_secret_value(), device_label(user_agent)
    )
    return AccountOut(id=player.id, name=player.name, username=username)


@router.post(
    "/login", response_model=SignedInOut, responses=responses(401, 429), dependencies=HASHING
)
async def login(
    body: CredentialsIn, request: Request, services: ServicesDep, user_agent: UserAgent = ""
) -> SignedInOut:
    """A new session on this device. Failures are limited per username and per address; an
    account keeps its ``SESSIONS_MAX`` newest sessions (the oldest device is signed out)."""
    signed = await services.accounts.login(
        body.username,
        body.password.get_secret_value(),
        address_of(request),
        device_label(user_agent),
    )
    services.revoked()  # the oldest session may have gone: its sockets with it
    return SignedInOut(
        id=signed.player.id, name=signed.player.name, username=signed.username, token=signed.token
    )


@router.post("/logout", status_code=204, responses=responses(401))
async def logout(token: TokenDep, services: ServicesDep) -> Response:
    """End this device's session (its token stops working)."""
    await services.accounts.logout(token)
    services.revoked()
    return Response(status_code=204)


@router.get("/me", response_model=AccountMeOut, responses=SIGNED_IN)
async def me(player: PlayerDep, services: ServicesDep) -> AccountMeOut:
    username = await services.accounts.username_of(player.id)
    suspension = await suspension_of(services, player.id)
    return AccountMeOut(id=player.id, name=player.name, username=username, suspension=suspension)


@router.put(
    "/me/password",
    status_code=204,
    responses={**SIGNED_IN, **responses(429)},
    dependencies=SIGNED_IN_HASHING,
)
async def change_password(
    body: PasswordIn, request: Request, player: PlayerDep, token: TokenDep, services: ServicesDep
) -> Response:
    """Change the password; every other device is signed out. A wrong old password counts as
    a failed login of the account and of your address."""
    await services.accounts.change_password(
        player.id,
        token,
        body.old_password.get_secret_value(),
        body.new_password.get_secret_value(),
        address_of(request),
    )
    services.revoked()
    return Response(status_code=204)


@router.delete(
    "/me",
    status_code=204,
    responses={**SIGNED_IN, **responses(429)},
    dependencies=SIGNED_IN_HASHING,
)
async def erase(
    body: ErasureIn, request: Request, player: PlayerDep, services: ServicesDep
) -> Response:
    """Erase your account for good, after your password (``app.api.erasure``: not during a
    match; what goes and what stays)."""
    await services.accounts.check_password(
        player.id, body.password.get_secret_value(), address_of(request)
    )
    await erase_player(services, player.id)
    return Response(status_code=204)


@router.get("/sessions", response_model=list[SessionOut], responses=SIGNED_IN)
async def sessions(player: PlayerDep, token: TokenDep, services: ServicesDep) -> list[SessionOut]:
    """Your signed-in devices, oldest first; ``current`` is the one asking."""
    return [
        SessionOut(id=s.id, label=s.label, created_at=s.created_at.isoformat(), current=s.current)
        for s in await services.accounts.sessions_of(player.id, token)
    ]


@router.delete("/sessions/{session_id}", status_code=204, responses={**SIGNED_IN, **responses(404)})
async def revoke(session_id: SessionId, player: PlayerDep, services: ServicesDep) -> Response:
    """Sign a device out."""
    await services.accounts.revoke(player.id, session_id)
    services.revoked()
    return Response(status_code=204)
