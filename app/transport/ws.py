"""The WebSocket endpoint ``/ws/rooms/{code}``: one connection, one client of one room.

The endpoint reads frames, checks size and rate, validates them (``schemas.parse``), and turns
each into a room command; the room answers with events that the connection's outbox sends. The
reply to a command — ``ack`` or ``error``, echoing its id — is queued after the events the
command caused, so a client always sees the new state before it sees its ack. Nothing a client
sends can stop the connection except closing it, overflowing its outbox, or a frame above the
server's hard size limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel

from app.rooms.errors import RoomError
from app.rooms.events import encode
from app.rooms.manager import RoomManager
from app.rooms.ports import Player, PlayerDirectory
from app.rooms.room import Room
from app.transport import schemas as s
from app.transport.ratelimit import TokenBucket

log = logging.getLogger(__name__)

CLOSE_UNKNOWN_ROOM = 4404
CLOSE_TOO_SLOW = 4408
CLOSE_RELOAD = 1012  # "service restart": the room was put away; reconnecting loads it again


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
    max_frame_bytes: int
    rate_per_second: float
    rate_burst: int
    outbox_limit: int


class Connection:
    """A room ``Subscriber`` backed by a WebSocket, with a bounded outbox and a writer task."""

    def __init__(self, websocket: WebSocket, outbox_limit: int) -> None:
        self._websocket = websocket
        self._outbox: asyncio.Queue[str | _Close] = asyncio.Queue()
        self._limit = outbox_limit
        self.player: Player | None = None
        self.overflowed = False
        self.closing = False

    @property
    def player_id(self) -> str | None:
        return None if self.player is None else self.player.id

    def send(self, frame: str) -> None:
        if self.overflowed:
            return
        if self._outbox.qsize() >= self._limit:
            self.overflowed = True  # a client this far behind is cut off, not waited for
            self._outbox.put_nowait(_Close(CLOSE_TOO_SLOW, "client too slow"))
            return
        self._outbox.put_nowait(frame)

    def close(self, code: int, reason: str) -> None:
        """Close once the frames queued before have been sent."""
        self.closing = True
        self._outbox.put_nowait(_Close(code, reason))

    def reply(self, kind: str, data: dict[str, Any]) -> None:
        self.send(encode({"t": kind, "d": data}))

    async def write_loop(self) -> None:
        while True:
            frame = await self._outbox.get()
            if isinstance(frame, _Close):
                await self._websocket.close(frame.code, frame.reason)
                return
            await self._websocket.send_text(frame)


def websocket_router(
    manager: RoomManager, players: PlayerDirectory, limits: WireLimits, stats: WireStats
) -> APIRouter:
    router = APIRouter()

    @router.websocket("/ws/rooms/{code}")
    async def room_socket(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        room = await manager.get(code) if len(code) <= 64 else None
        if room is None:
            await websocket.send_text(
                encode(
                    {
                        "t": "error",
                        "d": {
                            "id": None,
                            "code": "unknown_room",
                            "message": f"No room has the code {code!r}.",
                        },
                    }
                )
            )
            await websocket.close(CLOSE_UNKNOWN_ROOM, "unknown room")
            return
        stats.connections += 1
        connection = Connection(websocket, limits.outbox_limit)
        writer = asyncio.create_task(connection.write_loop())
        session = _Session(room, connection, players, limits, stats)
        try:
            await session.read_loop(websocket)
        except WebSocketDisconnect:
            pass
        finally:
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
        limits: WireLimits,
        stats: WireStats,
    ) -> None:
        self.room = room
        self.stats = stats
        self.connection = connection
        self.players = players
        self.limits = limits
        self.bucket = TokenBucket(limits.rate_per_second, limits.rate_burst)
        self.joined = False
        self.limited = False  # inside a streak of refused frames: one error per streak

    async def read_loop(self, websocket: WebSocket) -> None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            self.stats.frames += 1
            if not self.bucket.take():
                if not self.limited:
                    self.limited = True
                    self._error(None, "rate_limited", "Too many frames: slow down.")
                continue
            self.limited = False
            text = message.get("text")
            if text is None:
                self._error(None, "bad_message", "Only text frames are accepted.")
                continue
            if len(text.encode()) > self.limits.max_frame_bytes:
                self._error(
                    None,
                    "frame_too_large",
                    f"Frames are limited to {self.limits.max_frame_bytes} bytes.",
                )
                continue
            try:
                envelope, data = s.parse(text)
            except s.BadFrame as bad:
                self._error(bad.command_id, bad.code, bad.message)
                continue
            await self._handle(envelope, data)
            if self.room.closed:
                self.connection.close(CLOSE_RELOAD, "room reloaded: reconnect")
                return

    def _error(
        self, command_id: s.CommandId | None, code: str, message: str, rule: str | None = None
    ) -> None:
        self.stats.refusals[code] += 1
        data: dict[str, Any] = {"id": command_id, "code": code, "message": message}
        if rule is not None:
            data["rule"] = rule
        self.connection.reply("error", data)

    async def _handle(self, envelope: s.Envelope, data: BaseModel) -> None:
        try:
            if isinstance(data, s.Hello):
                version = await self._hello(data)
            elif isinstance(data, s.Empty) and envelope.t == "ping":
                version = self.room.version
            else:
                player = self._require_player()
                version = await self._command(player, envelope, data)
        except RoomError as error:
            self._error(envelope.id, error.code, error.message, error.rule)
            return
        self.connection.reply("ack", {"id": envelope.id, "v": version})

    async def _hello(self, hello: s.Hello) -> int:
        if self.joined:
            raise RoomError("already_joined", "This connection has already said hello.")
        if hello.token is not None:
            player = await self.players.by_token(hello.token)
            if player is None:
                raise RoomError("bad_token", "The token is not known; create a player first.")
            self.connection.player = player
        await self.room.connect(self.connection, hello.v)
        self.joined = True
        return self.room.version

    def _require_player(self) -> Player:
        if not self.joined:
            raise RoomError("hello_first", "Say hello (with your token) before anything else.")
        if self.connection.player is None:
            raise RoomError("not_authenticated", "Spectators without a token can only watch.")
        return self.connection.player

    async def _command(self, player: Player, envelope: s.Envelope, data: BaseModel) -> int:
        cid = str(envelope.id)
        room = self.room
        if isinstance(data, s.Act):
            if envelope.v is None:
                raise RoomError("bad_message", "An act must carry v, the version it was based on.")
            action = data.model_dump(exclude_none=True)
            return await room.act(player.id, cid, envelope.v, action)
        if isinstance(data, s.Chat):
            return await room.say(player.id, player.name, cid, data.text)
        if isinstance(data, s.Sit):
            return await room.sit(player.id, player.name, data.seat, cid)
        if isinstance(data, s.Bot):
            return await room.set_bot(player.id, data.seat, data.on, cid)
        if isinstance(data, s.Start):
            return await room.begin(player.id, data.fill_with_bots, cid)
        if envelope.t == "leave":
            return await room.leave(player.id, cid)
        if envelope.t == "rematch":
            return await room.rematch(player.id, cid)
        if envelope.t == "next_deal":
            return await room.next_deal(player.id, cid)
        raise RoomError("unknown_type", f"Unknown message type {envelope.t!r}.")
