"""Room benchmark (not a test): the CPU a room actor spends per action, in-process.

    python -m bench.room --actions 20000 --json
    python -m bench.room --rooms 100 --json
    python -m bench.room --preset bulgarian3 --profile 30

``--rooms`` rooms of the preset (default one) with a person in every seat, each seat a
subscriber that only counts the frames it is given; for each room a task plays a random legal
action for the seat to act through ``Room.act`` (the transport's entry point) as soon as the
last one is answered, through deals, matches and rematches, until ``--actions`` were played in
all. The store records nothing (``NullStore``) and there are no sockets, so what is measured
is ours alone: reading the act, the engine, the actor's mailbox, the seats' views and their
encoding, the events (and the driver's choice of an action, a few percent). ``bench.load``
measures the same action over real WebSockets and a database, ``bench.store`` the store
alone, ``bench.frames`` a frame's reading and ``bench.send_path`` the sending: together they
split a node's CPU per action (docs/architecture.md, "An action's CPU, piece by piece").
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from app.rooms.manager import RoomManager
from app.rooms.ports import Op, StoredRoom
from app.rooms.room import Room, RoomTimings
from app.rules import PRESETS, Ruleset, action_to_dict, legal_actions


class NullStore:
    """Stores nothing and holds no room: the room's own work is all that runs."""

    async def commit(self, code: str, version: int, ops: Sequence[Op]) -> None:
        return None

    async def load_room(self, code: str) -> StoredRoom | None:
        return None

    async def load_rooms(self, codes: Sequence[str]) -> dict[str, StoredRoom]:
        return {}

    async def code_watched_by(self, watch: str) -> str | None:
        return None

    async def active_room_codes(self, waiting_since: datetime | None = None) -> Sequence[str]:
        return []


class Counter:
    """A subscriber that counts its frames."""

    def __init__(self, player_id: str) -> None:
        self._player_id = player_id
        self.frames = 0

    @property
    def player_id(self) -> str | None:
        return self._player_id

    def send(self, frame: str) -> None:
        self.frames += 1

    def moved(self, node: str = "") -> None:
        return None


async def seated_room(preset: str) -> tuple[Room, list[str], list[Counter]]:
    """A started match with a person in every seat, each one subscribed."""
    # The drivers play every card, the last ones included, as before the server played those.
    manager = RoomManager(NullStore(), RoomTimings(bot_delay_seconds=0, last_card_seconds=3600))
    players = [f"p{i}" for i in range(Ruleset.of(preset).seats)]
    room = await manager.create(
        players[0], "P0", {"preset": preset}, target=None, public=False, turn_seconds=0
    )
    for seat, player in enumerate(players[1:], 1):
        await room.sit(player, f"P{seat}", seat)
    counters = [Counter(p) for p in players]
    for counter in counters:
        await room.connect(counter, None)
    await room.begin(players[0], fill_with_bots=False)
    return room, players, counters


class Tally:
    """The actions played so far, in all rooms, and how many to play."""

    def __init__(self, goal: int) -> None:
        self.goal = goal
        self.done = 0


async def drive(room: Room, players: list[str], rng: random.Random, tally: Tally) -> None:
    """Play the seat to act's random legal action, one at a time, until the tally is reached."""
    while tally.done < tally.goal:
        match = room.match
        assert match is not None
        state = match.deal
        if state is None or state.turn is None:
            if match.state.finished:
                for player in players:
                    await room.rematch(player)
            await asyncio.sleep(0)  # the next deal starts on the room's timer
            continue
        action = rng.choice(legal_actions(state))
        await room.act(players[state.turn], None, room.game_version, action_to_dict(action))
        tally.done += 1


async def play(
    preset: str, rooms: int, actions: int, seed: int, profile: cProfile.Profile | None
) -> dict[str, Any]:
    tables = [await seated_room(preset) for _ in range(rooms)]
    tally = Tally(actions)
    start = time.process_time()
    if profile is not None:
        profile.enable()
    drivers = [
        drive(room, players, random.Random(f"{seed}/{i}"), tally)
        for i, (room, players, _counters) in enumerate(tables)
    ]
    await asyncio.gather(*drivers)
    if profile is not None:
        profile.disable()
    cpu = time.process_time() - start
    frames = sum(c.frames for _room, _players, counters in tables for c in counters)
    return {
        "preset": preset,
        "rooms": rooms,
        "actions": tally.done,
        "cpu_us_per_action": round(cpu / tally.done * 1e6, 1),
        "frames_per_action": round(frames / tally.done, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=PRESETS, default="bulgarian")
    parser.add_argument("--rooms", type=int, default=1)
    parser.add_argument("--actions", type=int, default=20_000, help="in all rooms together")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", type=int, default=0, help="print cProfile's N costliest calls to stderr"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    profile = cProfile.Profile() if args.profile else None
    result = asyncio.run(play(args.preset, args.rooms, args.actions, args.seed, profile))
    if profile is not None:
        stats = pstats.Stats(profile, stream=sys.stderr)
        stats.sort_stats("cumulative").print_stats(args.profile)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
