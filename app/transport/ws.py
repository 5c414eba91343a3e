"""The WebSocket endpoint ``/ws/rooms/{code}``: one connection, one client of one room.

The endpoint reads frames, checks size and rate, validates them (``schemas.parse``), and turns
each into a room command; the room answers with events that the connection sends (written
directly to uvicorn's connection, ``app.transport.direct``, or through its outbox). The reply to
a command — ``ack`` or ``error``, echoing its id — is sent after the events the command caused
(an ack by the room's actor itself, right after them: ``Room._call``), so a client always sees
the new state before it sees its ack. Every frame gets exactly one reply, a refused one
included.

A connection is closed by the server only for what would otherwise cost it without bound: too
many connections (``admission``), no ``hello`` in time, frames that keep coming after
``rate_limited`` was answered, an outbox the client does not read, or a frame above the server's
hard size limit. docs/protocol.md §4 lists the limits and the close codes.

In a cluster, a connection for a room another node serves is closed with 4307 and that node's
id as the reason: the client reconnects with ``?node=<id>``, on which the proxy routes
(deploy/haproxy.cfg). A room that moves away (its lease lost, the node stopping) closes its
connections with 1012, and the client reconnects through the proxy to wherever it lives now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel
from starlette.types import Message

from app.rooms.errors import RoomElsewhere, RoomError, server_error
from app.rooms.events import encode
from app.rooms.manager import RoomManager
from app.rooms.ports import Player, PlayerDirectory
from app.rooms.room import Reply, Room
from app.rooms.watching import WATCH_CODE
from app.settings import Settings
from app.transport import schemas as s
from app.transport.admission import Admission, ConnectionGate, Refusal
from app.transport.direct import DirectWriter
from app.transport.ratelimit import PerAddressLimiter, TokenBucket
from app.transport.revocation import TokenWatch

Hold = Callable[[str, str], Callable[[], None]]
"""Note that a player holds a socket open; the returned function says it closed
(``app.db.presence.Presence.hold``)."""

log = logging.getLogger(__name__)

CLOSE_UNKNOWN_ROOM = 4404
CLOSE_TOO_SLOW = 4408  # the client did not read its frames, or did not say hello in time
CLOSE_FLOODING = 1008  # "policy violation"
CLOSE_RELOAD = 1012  # "service restart": the room was put away; reconnecting loads it again
CLOSE_TRY_AGAIN = 1013  # "try again later": a hello failed on the server's side (storage down)
CLOSE_ELSEWHERE = 4307  # another node serves the room; the reason is its id (reconnect there)
CLOSE_SIGNED_OUT = 4401  # its hello's token was revoked (``revocation``): a new hello fails too

# Room codes are URL-safe base64 (app/rooms/manager.py) within their String(32) column: anything
# else is refused before a lookup, so that junk in the path (a NUL byte) never reaches the database.
ROOM_CODE = re.compile(r"[A-Za-z0-9_-]{1,32}")


@dataclass(frozen=True, slots=True)
class _Close:
    """In an outbox: close the connection here, after the frames before it."""

    code: int
    reason: str


@dataclass(slots=True)
class WireStats:
    """What the WebSocket endpoint has seen, for ``/metrics``."""

    connections: int = 0
    frames: int = 0
    refusals: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True, slots=True)
class WireLimits:
    """The transport's knobs of ``app.settings.Settings`` (described there)."""

    max_frame_bytes: int
    rate_per_second: float
    rate_burst: int
    outbox_limit: int
    outbox_chars: int
    hello_seconds: float
    max_connections: int
    per_address: int
    flood_refusals: int
    flood_refusals_per_second: float
    chat_per_second: float
    chat_burst: int
    room_chat_per_second: float
    room_chat_burst: int

    @classmethod
    def from_settings(cls, settings: Settings) -> WireLimits:
        return cls(
            max_frame_bytes=settings.max_frame_bytes,
            rate_per_second=settings.rate_per_second,
            rate_burst=settings.rate_burst,
            outbox_limit=settings.outbox_limit,
            outbox_chars=settings.outbox_chars,
            hello_seconds=settings.hello_seconds,
            max_connections=settings.ws_max_connections,
            per_address=settings.ws_per_address,
            flood_refusals=settings.flood_refusals,
            flood_refusals_per_second=settings.flood_refusals_per_second,
            chat_per_second=settings.chat_per_second,
            chat_burst=settings.chat_burst,
            room_chat_per_second=settings.room_chat_per_second,
            room_chat_burst=settings.room_chat_burst,
        )


class _Wire:
    """What every connection shares: the limits, the counters, the gate, chat allowances."""

    def __init__(
        self,
        limits: WireLimits,
        stats: WireStats,
        gate: Admission | None,
        tokens: TokenWatch | None,
        presence: Hold | None,
    ) -> None:
        self.limits = limits
        self.stats = stats
        self.tokens = tokens
        self.presence = presence
        self.gate = gate or ConnectionGate(limits.max_connections, limits.per_address)
        # Chat is limited per guest (all their sockets together) and per room, not only per
        # socket: it is stored, and one token on many sockets could otherwise write fast.
        self._guest_chat = PerAddressLimiter(limits.chat_per_second, limits.chat_burst)
        self._room_chat = PerAddressLimiter(limits.room_chat_per_second, limits.room_chat_burst)
        # A player's commands over all their sockets share one connection's allowance: each
        # socket alone has it too, and a seat change sends a snapshot to every socket of the
        # player, so 64 sockets of one guest at 20 sit/leave a second each would ask for
        # about 82,000 snapshots a second from one address (64 × 20 × 64, computed).
        self._guest_commands = PerAddressLimiter(limits.rate_per_second, limits.rate_burst)

    def command_allowed(self, player_id: str) -> bool:
        return self._guest_commands.allow(player_id)

    def chat_allowance(self, player_id: str, room_code: str) -> ChatAllowance:
        return ChatAllowance(self._guest_chat, self._room_chat, player_id, room_code)

    async def refuse(self, websocket: WebSocket, refusal: Refusal) -> None:
        """Tell a client it is not served, and close; it may be gone already."""
        self.stats.refusals[refusal.code] += 1
        frame = {"id": None, "code": refusal.code, "message": refusal.message}
        with contextlib.suppress(WebSocketDisconnect, OSError):
            await websocket.send_text(encode({"t": "error", "d": frame}))
            await websocket.close(refusal.close_code, refusal.code)


class ChatAllowance:
    """One chat line's allowance: the guest's (all their sockets) and the room's. A line the
    room refuses spends neither; one it could not store gives both back."""

    def __init__(
        self, guest: PerAddressLimiter, room: PerAddressLimiter, player_id: str, code: str
    ) -> None:
        self._guest, self._room = guest, room
        self._player_id, self._code = player_id, code

    def take(self) -> bool:
        if not self._guest.allow(self._player_id):
            return False
        if self._room.allow(self._code):
            return True
        self._guest.give_back(self._player_id)  # the room's refusal spends nobody's
        return False

    def give_back(self) -> None:
        self._guest.give_back(self._player_id)
        self._room.give_back(self._code)


class Connection:
    """A room ``Subscriber`` backed by a WebSocket: frames are written directly
    (``DirectWriter``) while the transport takes them, else through a bounded outbox and a
    writer task. The outbox is bounded in frames (``outbox_limit``) and in characters
    (``outbox_chars``, None: unbounded): a client past either is cut off."""

    def __init__(
        self,
        websocket: WebSocket,
        outbox_limit: int,
        direct: DirectWriter | None = None,
        *,
        outbox_chars: int | None = None,
    ) -> None:
        self._websocket = websocket
        self._outbox: asyncio.Queue[str | _Close] = asyncio.Queue()
        self._limit = outbox_limit
        self._char_limit = outbox_chars
        self._direct = direct
        self._unsent = 0  # what the outbox holds or the writer is sending: direct writes wait
        self._unsent_chars = 0  # the characters of those frames
        self.player: Player | None = None
        self.overflowed = False
        self.closing = False

    @property
    def player_id(self) -> str | None:
        return None if self.player is None else self.player.id

    @property
    def writes_directly(self) -> bool:
        """Whether the server's connection was found for ``DirectWriter`` (else: ASGI only)."""
        return self._direct is not None

    def send(self, frame: str) -> None:
        if self.overflowed:
            return
        direct = self._direct
        if direct is not None and not self._unsent and direct.usable:
            direct.send(frame)
            return
        if self._outbox.qsize() >= self._limit or (
            self._char_limit is not None and self._unsent_chars >= self._char_limit
        ):
            self.overflowed = True  # a client this far behind is cut off, not waited for
            self._enqueue(_Close(CLOSE_TOO_SLOW, "client too slow"))
            return
        self._enqueue(frame)

    def close(self, code: int, reason: str) -> None:
        """Close once the frames queued before have been sent."""
        self.closing = True
        self._enqueue(_Close(code, reason))

    def _enqueue(self, item: str | _Close) -> None:
        if self._direct is not None:
            self._direct.flush()  # the frames written directly go out before this one
        self._unsent += 1
        if isinstance(item, str):
            self._unsent_chars += len(item)
        self._outbox.put_nowait(item)

    def moved(self, node: str = "") -> None:
        if node:  # handed over: straight to the new owner, as a redirect would
            self.close(CLOSE_ELSEWHERE, node)
        else:
            self.close(CLOSE_RELOAD, "room moved: reconnect")

    def reply(self, kind: str, data: dict[str, Any]) -> None:
        self.send(encode({"t": kind, "d": data}))

    async def write_loop(self) -> None:
        while True:
            frame = await self._outbox.get()
            try:
                if isinstance(frame, _Close):
                    await self._websocket.close(frame.code, frame.reason)
                    return
                await self._websocket.send_text(frame)
            finally:
                self._unsent -= 1
                if isinstance(frame, str):
                    self._unsent_chars -= len(frame)


def websocket_router(
    manager: RoomManager,
    players: PlayerDirectory,
    limits: WireLimits,
    stats: WireStats,
    gate: Admission | None = None,
    tokens: TokenWatch | None = None,
    presence: Hold | None = None,
) -> APIRouter:
    """``gate``: the cluster's count of connections per address (default: this process's);
    ``tokens``: where a socket's token is watched, to close it once that token is revoked;
    ``presence``: told who holds a socket open, so that their friends see them online."""
    router = APIRouter()
    wire = _Wire(limits, stats, gate, tokens, presence)

    @router.websocket("/ws/rooms/{code}")
    async def room_socket(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        address = websocket.client.host if websocket.client is not None else "?"
        refusal = await wire.gate.admit(address)
        if refusal is not None:
            await wire.refuse(websocket, refusal)
            return
        try:
            await serve_room(websocket, code, address)
        finally:
            wire.gate.release(address)

    async def serve_room(websocket: WebSocket, code: str, address: str) -> None:
        try:
            watch_only = WATCH_CODE.fullmatch(code) is not None
            if watch_only:
                room = await manager.get_watched(code)
            else:
                room = await manager.get(code) if ROOM_CODE.fullmatch(code) else None
        except RoomError as error:  # storage down while loading: the manager logged the cause
            await wire.refuse(websocket, Refusal(error.code, error.message, CLOSE_TRY_AGAIN))
            return
        except RoomElsewhere as elsewhere:  # no error frame: nothing went wrong
            with contextlib.suppress(WebSocketDisconnect, OSError):
                await websocket.close(CLOSE_ELSEWHERE, elsewhere.node)
            return
        if room is None:
            unknown = Refusal("unknown_room", "No room has this code.", CLOSE_UNKNOWN_ROOM)
            await wire.refuse(websocket, unknown)
            return
        stats.connections += 1
        connection = Connection(
            websocket,
            limits.outbox_limit,
            DirectWriter.of(websocket.scope),
            outbox_chars=limits.outbox_chars,
        )
        writer = asyncio.create_task(connection.write_loop())
        session = _Session(room, connection, players, wire, address, watch_only)
        try:
            await session.read_loop(websocket)
        except WebSocketDisconnect:
            pass
        finally:
            session.release()
            if session.joined:
                with contextlib.suppress(RoomError):
                    await room.disconnect(connection)
            if connection.closing:  # let the writer send what is queued, then the close
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, timeout=10)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    return router


class _Session:
    """The reading side of one connection: turns frames into room commands."""

    def __init__(
        self,
        room: Room,
        connection: Connection,
        players: PlayerDirectory,
        wire: _Wire,
        address: str,
        watch_only: bool = False,
    ) -> None:
        limits = wire.limits
        self.room = room
        self.watch_only = watch_only
        """Came by the room's watch code: an anonymous spectator whatever token it says."""
        self.address = address
        self.wire = wire
        self.stats = wire.stats
        self.connection = connection
        self.players = players
        self.limits = limits
        self.bucket = TokenBucket(limits.rate_per_second, limits.rate_burst)
        # Refused frames a client may send before it is cut off: a honest client that met the
        # limit slows down, a flooder spends this within a second.
        self.refusals = TokenBucket(limits.flood_refusals_per_second, limits.flood_refusals)
        self.hello_deadline = asyncio.get_running_loop().time() + limits.hello_seconds
        self.joined = False
        self.token: str | None = None
        self.release: Callable[[], None] = lambda: None
        """Once the socket ends: stop watching its token, and its player's presence."""

    async def read_loop(self, websocket: WebSocket) -> None:
        while True:
            try:
                message = await self._receive(websocket)
            except TimeoutError:
                seconds = f"{self.limits.hello_seconds:g}"
                why = f"Say hello within {seconds} s of connecting."
                self._close_with("hello_timeout", why, CLOSE_TOO_SLOW)
                return
            if message["type"] == "websocket.disconnect" or self.connection.closing:
                return  # closing: signed out meanwhile, say; what the client sent is not run
            self.stats.frames += 1
            text = message.get("text")
            too_large = text is not None and len(text.encode()) > self.limits.max_frame_bytes
            if not self.bucket.take():
                command_id = None if text is None or too_large else s.command_id(text)
                self._error(command_id, "rate_limited", "Too many frames: slow down.")
                if not self.refusals.take():
                    why = "Frames kept coming after rate_limited."
                    self._close_with("flooding", why, CLOSE_FLOODING)
                    return
                continue
            if text is None:
                self._error(None, "bad_message", "Only text frames are accepted.")
                continue
            if too_large:
                self._error(
                    None,
                    "frame_too_large",
                    f"Frames are limited to {self.limits.max_frame_bytes} bytes.",
                )
                continue
            try:
                envelope, data = s.parse(text)
            except s.BadFrame as bad:
                log.debug("refused a frame: %s", bad.code)
                self._error(bad.command_id, bad.code, bad.message)
                continue
            await self._handle(envelope, data)
            if self.connection.closing:
                return
            if self.room.closed:
                self.connection.close(CLOSE_RELOAD, "room reloaded: reconnect")
                return

    async def _receive(self, websocket: WebSocket) -> Message:
        """The next message; until the client has said hello, only until its deadline."""
        if self.joined:
            return await websocket.receive()
        async with asyncio.timeout_at(self.hello_deadline):
            return await websocket.receive()

    def _close_with(self, code: str, message: str, close_code: int) -> None:
        """The last frame: an error (about no command), then the close."""
        log.info("closing a connection: %s", code)
        self._error(None, code, message)
        self.connection.close(close_code, code)

    def _error(
        self, command_id: str | int | None, code: str, message: str, rule: str | None = None
    ) -> None:
        self.stats.refusals[code] += 1
        data: dict[str, Any] = {"id": command_id, "code": code, "message": message}
        if rule is not None:
            data["rule"] = rule
        self.connection.reply("error", data)

    async def _handle(self, envelope: s.Envelope, data: BaseModel) -> None:
        """Run one command and reply: the ack of a room command comes from the room's actor
        right after the command's events (``Room._call``), an error from here."""
        command_id = envelope.id
        try:
            if isinstance(data, s.Hello):
                self._ack(command_id, await self._hello(data))
            elif isinstance(data, s.Empty) and envelope.t == "ping":
                self._ack(command_id, self.room.version)
            else:
                player = self._require_player()
                if not self.wire.command_allowed(player.id):
                    raise RoomError(
                        "rate_limited", "Too many commands from your connections together."
                    )
                await self._command(player, envelope, data, lambda v: self._ack(command_id, v))
        except Exception as error:
            refusal = error if isinstance(error, RoomError) else server_error()
            if refusal is not error:  # the details (SQL and its values) are for the log only
                log.error("%s command failed", envelope.t, exc_info=error)
            self._error(command_id, refusal.code, refusal.message, refusal.rule)
            if refusal.code == "server_error" and not self.joined:
                self.connection.close(CLOSE_TRY_AGAIN, "try again later")  # clients reconnect

    def _ack(self, command_id: str | int, version: int) -> None:
        self.connection.reply("ack", {"id": command_id, "v": version})

    async def _hello(self, hello: s.Hello) -> int:
        if self.joined:
            raise RoomError("already_joined", "This connection has already said hello.")
        if self.watch_only:
            await self.room.connect(self.connection, hello.v, watch_only=True)
            self.joined = True
            return self.room.version
        if hello.token is not None:
            player = await self.players.by_token(hello.token)
            if player is None:
                raise RoomError("bad_token", "The token is not known; create a player first.")
            self.connection.player = player
            self.token = hello.token
        await self.room.connect(self.connection, hello.v)
        self.joined = True
        ends: list[Callable[[], None]] = []
        if hello.token is not None and self.wire.tokens is not None:
            connection = self.connection
            ends.append(
                self.wire.tokens.watch(
                    hello.token, lambda: connection.close(CLOSE_SIGNED_OUT, "signed out")
                )
            )
        if self.connection.player is not None and self.wire.presence is not None:
            ends.append(self.wire.presence(self.connection.player.id, self.address))

        def release() -> None:
            for end in ends:
                end()

        self.release = release
        return self.room.version

    async def _as_now(self, player: Player) -> Player:
        """The player as they are now, not as at this connection's hello: a guest who made an
        account since (on another page) may sit in a rated room without reconnecting, and one
        who renamed themselves sits under the new name."""
        now = None if self.token is None else await self.players.by_token(self.token)
        if now is None or now.id != player.id:
            return player
        self.connection.player = now
        return now

    def _require_player(self) -> Player:
        if not self.joined:
            raise RoomError("hello_first", "Say hello (with your token) before anything else.")
        if self.watch_only:
            raise RoomError("watch_only", "A watch link lets you watch this table, nothing more.")
        if self.connection.player is None:
            raise RoomError("not_authenticated", "Spectators without a token can only watch.")
        return self.connection.player

    async def _command(
        self, player: Player, envelope: s.Envelope, data: BaseModel, reply: Reply
    ) -> None:
        """Run a room command; the room acks it by ``reply``, a refusal is raised."""
        cid = envelope.id
        room = self.room
        if isinstance(data, s.Act):
            if envelope.v is None:
                raise RoomError("bad_message", "An act must carry v, the version it was based on.")
            action = data.action()
            call = room.act(player.id, cid, envelope.v, action, reply=reply)
        elif isinstance(data, s.Chat):
            # Charged only for a line the room would store: a spectator's refused lines must
            # not spend the table's allowance (and silence its players).
            code = room.config.code
            call = room.say(
                player.id,
                player.name,
                cid,
                data.text or "",
                phrase=data.phrase,
                reply=reply,
                allowed=self.wire.chat_allowance(player.id, code),
            )
        elif isinstance(data, s.Sit):
            player = await self._as_now(player)  # a seat is taken rarely: a query is cheap
            call = room.sit(
                player.id, player.name, data.seat, cid, account=player.account, reply=reply
            )
        elif isinstance(data, s.Bot):
            call = room.set_bot(player.id, data.seat, data.on, cid, reply=reply)
        elif isinstance(data, s.Remove):
            call = room.remove(player.id, data.seat, cid, reply=reply)
        elif isinstance(data, s.Readmit):
            call = room.readmit(player.id, data.player, cid, reply=reply)
        elif isinstance(data, s.Host):
            call = room.hand_over(player.id, data.seat, cid, reply=reply)
        elif isinstance(data, s.Settings):
            changes = data.model_dump(exclude_unset=True)
            if changes.get("accounts_only") and not player.account:
                player = await self._as_now(player)
            call = room.configure(player.id, changes, cid, account=player.account, reply=reply)
        elif isinstance(data, s.Start):
            call = room.begin(player.id, data.fill_with_bots, cid, reply=reply)
        elif isinstance(data, s.Concede):
            call = room.concede(player.id, data.on, cid, reply=reply)
        elif isinstance(data, s.Entropy):
            call = room.contribute(player.id, data.commitment, data.entropy, reply=reply)
        elif envelope.t == "leave":
            call = room.leave(player.id, cid, reply=reply)
        elif envelope.t == "rematch":
            call = room.rematch(player.id, cid, reply=reply)
        elif envelope.t == "next_deal":
            call = room.next_deal(player.id, cid, reply=reply)
        else:
            raise RoomError("unknown_type", f"Unknown message type {envelope.t!r}.")
        await call
