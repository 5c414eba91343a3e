"""A player's place on a leaderboard, on their profile (``rank`` of ``ranked``): the board
shows its first 100, and one further down could not tell where they stood."""

from __future__ import annotations

import httpx

from app.db import models as m
from app.db.engine import make_engine, make_sessionmaker
from app.settings import Settings


async def rated(settings: Settings, ratings: dict[str, tuple[float, float]]) -> None:
    """Accounts rated in French, stored as such (104 accounts made through the API would meet
    the address's limit on sign-ups)."""
    engine = make_engine(settings.database_url)
    try:
        async with make_sessionmaker(engine).begin() as session:
            for player_id in ratings:
                session.add(m.Player(id=player_id, name=player_id, token_hash=player_id * 4))
            await session.flush()  # the players before what points at them
            for player_id, (mu, sigma) in ratings.items():
                session.add(
                    m.Account(
                        player_id=player_id,
                        username=player_id,
                        username_key=player_id,
                        password_hash="-",
                    )
                )
                session.add(m.Rating(player_id=player_id, preset="french", mu=mu, sigma=sigma))
    finally:
        await engine.dispose()


async def test_a_profile_says_where_the_leaderboard_places_the_player(
    http: httpx.AsyncClient, settings: Settings
) -> None:
    accounts = [f"{i:016x}" for i in range(104)]
    # Ratings 103 … 0 apart from two tied at the same rating (sorted then by id).
    ratings = {a: (3.0 * 8 + 103 - i, 8.0) for i, a in enumerate(accounts)}
    tied = [accounts[50], accounts[51]]
    ratings[tied[1]] = ratings[tied[0]] = (3.0 * 8 + 52.5, 8.0)
    await rated(settings, ratings)

    board = (await http.get("/api/ratings/french")).json()
    assert len(board) == 100

    async def standing(player_id: str) -> tuple[int | None, int | None]:
        profile = (await http.get(f"/api/players/{player_id}/profile")).json()
        (french,) = [r for r in profile["ratings"] if r["preset"] == "french"]
        return french["rank"], french["ranked"]

    for row in (board[0], board[50], board[51], board[99]):  # as the board says
        assert await standing(row["player"]) == (row["rank"], 104)
    assert [await standing(p) for p in tied] == [(51, 104), (52, 104)]
    assert await standing(accounts[103]) == (104, 104)  # off the board, still placed
