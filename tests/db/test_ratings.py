"""Ratings: which matches are rated, what OpenSkill makes of them, the leaderboard, the profile
(issue 13). Matches are written through the store exactly as a room writes them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterable
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy.exc import OperationalError

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.db.ratings import Ratings
from app.db.store import SqlStore
from app.rooms.ports import (
    MatchProgress,
    MatchStarted,
    RoomConfig,
    RoomCreated,
    SeatRecord,
    StatusChanged,
)
from app.rooms.rating import Skill, places, rate

PEOPLE = ("ann", "bob", "cid", "dan")  # seats 0..3: teams (ann, cid) and (bob, dan)
GUEST = "gus"  # a guest, with no account


def accounts_of(names: Iterable[str]) -> list[m.Account]:
    """Accounts for these (already stored) players: only accounts are rated (§8.2)."""
    return [m.Account(player_id=n, username=n, username_key=n, password_hash="x") for n in names]


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[tuple[SqlStore, Ratings]]:
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    async with sessions.begin() as session:
        for name in (*PEOPLE, GUEST):
            session.add(m.Player(id=name, name=name.title(), token_hash=name * 16))
        await session.flush()
        session.add_all(accounts_of(PEOPLE))
    store = SqlStore(engine)
    store.start()
    try:
        yield store, Ratings(sessions)
    finally:
        await store.close()
        await engine.dispose()


async def finished_match(
    store: SqlStore,
    match_id: str,
    *,
    rated: bool = True,
    winner: int = 0,
    scores: tuple[int, int] = (151, 90),
    seats: tuple[SeatRecord, ...] | None = None,
    preset: str = "bulgarian",
) -> None:
    """A room and one finished match in it, as ``Room`` writes them."""
    seats = seats or tuple(SeatRecord(p, p.title()) for p in PEOPLE)
    rules: dict[str, Any] = {"preset": preset, "house_rules": {}}
    code = f"room-{match_id}"
    config = RoomConfig(code, "ann", rules, None, False, 0, rated=rated)
    await store.commit(code, 0, [RoomCreated(config, seats)])
    await store.commit(
        code,
        1,
        [
            StatusChanged("playing"),
            MatchStarted(match_id, rules, 151, 0, seats),
            MatchProgress(match_id, {"scores": list(scores)}, True, winner),
            StatusChanged("finished"),
        ],
    )


async def test_a_rated_match_moves_both_teams_as_openskill_computes(
    db: tuple[SqlStore, Ratings],
) -> None:
    store, ratings = db
    await finished_match(store, "m1", winner=1, scores=(120, 155))
    assert await ratings.record("m1") is True
    model = PlackettLuce()
    fresh = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    expected = model.rate(fresh, ranks=[1, 0])  # team 1 (bob, dan) won
    board = {row["player"]: row for row in await ratings.leaderboard("bulgarian")}
    for player, side in (("ann", 0), ("cid", 0), ("bob", 1), ("dan", 1)):
        assert board[player]["mu"] == round(expected[side][0].mu, 2)
        assert board[player]["sigma"] == round(expected[side][0].sigma, 2)
        assert board[player]["rating"] == round(expected[side][0].ordinal(), 2)
    assert [row["player"] for row in await ratings.leaderboard("bulgarian")][:2] == ["bob", "dan"]
    assert board["bob"]["wins"] == 1 and board["ann"]["wins"] == 0
    assert await ratings.leaderboard("french") == []


async def test_a_match_is_rated_once_however_often_it_is_told(
    db: tuple[SqlStore, Ratings],
) -> None:
    store, ratings = db
    await finished_match(store, "m1")
    assert await ratings.record("m1") is True
    assert await ratings.record("m1") is False
    ratings.schedule("m1")
    await ratings.settled()
    assert await ratings.catch_up() == 0
    assert (await ratings.leaderboard("bulgarian"))[0]["matches"] == 1


async def test_casual_rooms_and_matches_with_a_bot_are_not_rated(
    db: tuple[SqlStore, Ratings],
) -> None:
    store, ratings = db
    await finished_match(store, "casual", rated=False)
    with_bot = (*(SeatRecord(p, p) for p in PEOPLE[:3]), SeatRecord(None, "Bot", True))
    await finished_match(store, "bot", seats=with_bot)
    twice = tuple(SeatRecord("ann", "Ann") for _ in PEOPLE)
    await finished_match(store, "twice", seats=twice)
    for match_id in ("casual", "bot", "twice"):
        assert await ratings.record(match_id) is False
    assert await ratings.leaderboard("bulgarian") == []


async def test_a_match_with_a_guest_in_a_seat_is_not_rated(
    db: tuple[SqlStore, Ratings],
) -> None:
    """Anyone can make guests without end: one person seating their own guests in a rated
    room and losing to them with those guests would farm a rating. So a guest's seat makes the
    match casual, however the guest got there (§8.2)."""
    store, ratings = db
    with_guest = (*(SeatRecord(p, p.title()) for p in PEOPLE[:3]), SeatRecord(GUEST, "Gus"))
    await finished_match(store, "guest", seats=with_guest)
    assert await ratings.record("guest") is False
    assert await ratings.leaderboard("bulgarian") == []
    await finished_match(store, "accounts")
    assert await ratings.record("accounts") is True


async def test_the_leaderboard_ranks_accounts_only(
    db: tuple[SqlStore, Ratings], database_url: str
) -> None:
    """A guest's rating from before rated play needed an account stays theirs (the profile
    shows it) but is not ranked."""
    store, ratings = db
    await finished_match(store, "m1")
    assert await ratings.record("m1") is True
    engine = make_engine(database_url)
    async with make_sessionmaker(engine).begin() as session:
        session.add(m.Rating(player_id=GUEST, preset="bulgarian", mu=60.0, sigma=1.0))
    await engine.dispose()
    board = await ratings.leaderboard("bulgarian")
    assert sorted(row["player"] for row in board) == sorted(PEOPLE)
    assert all(row["username"] for row in board)


async def test_catch_up_rates_what_a_stopped_server_finished(
    db: tuple[SqlStore, Ratings],
) -> None:
    store, ratings = db
    await finished_match(store, "m1")
    await finished_match(store, "m2", winner=1, scores=(100, 160))
    assert await ratings.catch_up() == 2
    assert (await ratings.leaderboard("bulgarian"))[0]["matches"] == 2


async def test_the_profile_has_ratings_history_and_win_rate(
    db: tuple[SqlStore, Ratings],
) -> None:
    store, ratings = db
    await finished_match(store, "m1", winner=0)
    await finished_match(store, "m2", winner=1, scores=(100, 160))
    await finished_match(store, "m3", rated=False, winner=0)
    for match_id in ("m1", "m2", "m3"):
        await ratings.record(match_id)
    profile = await ratings.profile("ann")
    assert profile is not None
    assert (profile["matches"], profile["wins"], profile["win_rate"]) == (3, 2, 0.667)
    assert [h["won"] for h in profile["history"]] == [True, False]
    first, second = profile["history"]
    assert first["before"] == 0 and first["after"] > 0 and second["after"] < first["after"]
    assert profile["ratings"][0]["preset"] == "bulgarian"
    assert profile["ratings"][0]["matches"] == 2
    assert await ratings.profile("nobody") is None


async def test_the_profile_counts_each_presets_matches_and_wins_by_its_sides(
    db: tuple[SqlStore, Ratings],
) -> None:
    """Counted by the database (grouped by preset, seat and winner) rather than by reading
    every match: the tallies must be those of each match read on its own."""
    store, ratings = db
    three = tuple(SeatRecord(p, p.title()) for p in ("bob", "cid", "ann"))  # ann: seat 2
    await finished_match(store, "b3-won", rated=False, winner=2, seats=three, preset="bulgarian3")
    await finished_match(store, "b3-lost", rated=False, winner=0, seats=three, preset="bulgarian3")
    two = (SeatRecord("bob", "Bob"), SeatRecord("ann", "Ann"))  # ann: seat 1, side 1
    await finished_match(store, "ob-won", rated=False, winner=1, seats=two, preset="open_belot")
    for match_id, winner in (("fr-1", 0), ("fr-2", 0), ("fr-3", 1)):  # ann: seat 0, side 0
        await finished_match(store, match_id, rated=False, winner=winner, preset="french")
    profile = await ratings.profile("ann")
    assert profile is not None
    assert profile["presets"] == {
        "bulgarian3": {"matches": 2, "wins": 1},
        "french": {"matches": 3, "wins": 2},
        "open_belot": {"matches": 1, "wins": 1},
    }
    assert (profile["matches"], profile["wins"]) == (6, 4)
    assert (await ratings.profile("cid") or {})["presets"]["french"] == {"matches": 3, "wins": 2}
    bob = await ratings.profile("bob")
    assert bob is not None and bob["presets"]["bulgarian3"] == {"matches": 2, "wins": 1}


def test_places_put_the_winner_first_and_share_ties() -> None:
    assert places([151, 90], 0) == [0, 1]
    assert places([160, 160], 1) == [1, 0]  # the match's winner comes first, whatever the score
    assert places([40, 151, 40], 1) == [1, 0, 1]
    assert places([40, 151, 90], 1) == [2, 0, 1]


def test_free_for_all_sides_of_one_rate_as_openskill_computes() -> None:
    """Three players each for themselves (the 3-player presets' sides have one seat each)."""
    model = PlackettLuce()
    after = rate([[Skill()], [Skill()], [Skill()]], [2, 0, 1])
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[2, 0, 1])
    assert [s[0].mu for s in after] == [r[0].mu for r in expected]
    assert after[1][0].mu > after[2][0].mu > after[0][0].mu


async def test_a_first_rating_made_meanwhile_elsewhere_is_read_and_the_match_still_rated(
    db: tuple[SqlStore, Ratings], database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two nodes rating two matches of new players at once: the other node inserts the players'
    first rating rows after this one read that there were none; this one must then read them
    and rate again, not drop its match."""
    store, ratings = db
    await finished_match(store, "m1")
    await finished_match(store, "m2")
    raced = False

    async def other_node_first() -> None:
        engine = make_engine(database_url)
        try:
            assert await Ratings(make_sessionmaker(engine)).record("m2") is True
        finally:
            await engine.dispose()

    def rate_after_the_other_node(sides: Any, ranks: Any) -> Any:
        nonlocal raced
        if not raced:
            raced = True
            # Run the other node's whole rating now, between this one's read and its write.
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=lambda: loop.run_until_complete(other_node_first()))
            thread.start()
            thread.join()
            loop.close()
        return rate(sides, ranks)

    monkeypatch.setattr("app.db.ratings.rate", rate_after_the_other_node)
    assert await ratings.record("m1") is True
    board = {row["player"]: row for row in await ratings.leaderboard("bulgarian")}
    assert board["ann"]["matches"] == 2 and raced


async def test_a_rating_that_fails_is_tried_again_until_it_is_stored(
    db: tuple[SqlStore, Ratings], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed rating was only logged: the match stayed unrated until some node restarted
    (``catch_up``). It is tried again now, after a growing wait."""
    store, _ = db
    ratings = Ratings(_ratings_sessions(db), retry_seconds=0.01)
    await finished_match(store, "m1")
    real = ratings._record
    failures = 0

    async def down_twice(match_id: str) -> bool:
        nonlocal failures
        if failures < 2:
            failures += 1
            raise OperationalError("UPDATE ratings", {}, OSError("database is locked"))
        return await real(match_id)

    monkeypatch.setattr(ratings, "_record", down_twice)
    ratings.schedule("m1")
    await ratings.settled()
    assert failures == 2
    board = await ratings.leaderboard("bulgarian")
    assert sorted(row["player"] for row in board) == sorted(PEOPLE)


async def test_a_stopping_server_does_not_wait_for_a_rating_to_be_tried_again(
    db: tuple[SqlStore, Ratings], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = db
    ratings = Ratings(_ratings_sessions(db), retry_seconds=3600)
    await finished_match(store, "m1")
    tried = asyncio.Event()

    async def down(match_id: str) -> bool:
        tried.set()
        raise OperationalError("UPDATE ratings", {}, OSError("database is locked"))

    monkeypatch.setattr(ratings, "_record", down)
    ratings.schedule("m1")
    await tried.wait()
    await asyncio.wait_for(ratings.close(), 10)  # not the hour's wait: catch_up takes it later
    assert await ratings.leaderboard("bulgarian") == []


def _ratings_sessions(db: tuple[SqlStore, Ratings]) -> Any:
    """The fixture's sessions, for a ``Ratings`` with other retry settings."""
    return db[1]._sessions
