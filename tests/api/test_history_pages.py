"""A player's matches a page at a time (``GET /api/players/{id}/matches?before=&limit=``): the
History page showed only the 50 newest, so a regular's older matches could not be found again.
Pages follow a key (the last match shown), so they neither repeat nor skip a match, and a key the
reader may not read is refused as a missing match is (issue 9: not even its existence leaks)."""

from __future__ import annotations

import httpx

from tests.conftest import Guest, new_guest


async def _started(
    http: httpx.AsyncClient, host: Guest, public: bool = False, preset: str = "bulgarian"
) -> str:
    created = await http.post(
        "/api/rooms",
        json={"turn_seconds": 0, "bots": [1, 2, 3], "public": public, "rules": {"preset": preset}},
        headers=host.auth,
    )
    assert created.status_code == 201, created.text
    code = created.json()["room"]["code"]
    assert (await http.post(f"/api/rooms/{code}/start", headers=host.auth)).status_code == 200
    match_id: str = (await http.get(f"/api/rooms/{code}")).json()["room"]["match_id"]
    return match_id


async def test_a_player_reads_every_match_a_page_at_a_time(http: httpx.AsyncClient) -> None:
    ann, bob = await new_guest(http, "Ann"), await new_guest(http, "Bob")
    made = [await _started(http, ann, public=i % 2 == 0) for i in range(5)]
    url = f"/api/players/{ann.id}/matches"
    whole = [m["id"] for m in (await http.get(url, headers=ann.auth)).json()]
    assert sorted(whole) == sorted(made) and whole[0] == made[-1]  # newest first

    async def pages(auth: dict[str, str]) -> list[list[str]]:
        got: list[list[str]] = []
        params: dict[str, str | int] = {"limit": 2}
        while True:
            page = await http.get(url, params=params, headers=auth)
            assert page.status_code == 200, page.text
            ids = [m["id"] for m in page.json()]
            got.append(ids)
            if len(ids) < 2:
                return got
            params["before"] = ids[-1]

    assert await pages(ann.auth) == [whole[0:2], whole[2:4], whole[4:]]
    # Another reader pages through the public ones alone.
    public = [i for i in whole if made.index(i) % 2 == 0]
    assert [i for page in await pages(bob.auth) for i in page] == public
    # A key that is not one of the matches the reader may read: as a match that does not exist.
    private = next(i for i in whole if i not in public)
    for key, auth in ((private, bob.auth), (private, {}), ("NoSuchMatch1", ann.auth)):
        refused = await http.get(url, params={"before": key}, headers=auth)
        assert (refused.status_code, refused.json()["error"]["code"]) == (404, "unknown_match")
        assert refused.json()["error"]["message"] == f"No match has the id {key!r}."
    other = await _started(http, bob, public=True)  # readable, but not one of Ann's
    refused = await http.get(url, params={"before": other}, headers=ann.auth)
    assert refused.status_code == 404
    for bad in ({"limit": 0}, {"limit": 101}, {"before": "no/such"}, {"before": "x" * 33}):
        refused = await http.get(url, params=bad, headers=ann.auth)
        assert (refused.status_code, refused.json()["error"]["code"]) == (422, "bad_request")


async def test_a_player_s_matches_of_one_game(http: httpx.AsyncClient) -> None:
    """``?preset=`` lists one game's matches alone, a page at a time as the rest."""
    ann = await new_guest(http, "Ann")
    french = [await _started(http, ann, preset="french") for _ in range(3)]
    bulgarian = await _started(http, ann)
    url = f"/api/players/{ann.id}/matches"

    async def ids(**params: str | int) -> list[str]:
        page = await http.get(url, params=params, headers=ann.auth)
        assert page.status_code == 200, page.text
        return [m["id"] for m in page.json()]

    assert await ids(preset="french") == french[::-1]
    assert await ids(preset="bulgarian") == [bulgarian]
    assert await ids(preset="open_belot") == []
    first = await ids(preset="french", limit=2)
    assert first == french[:0:-1]
    assert await ids(preset="french", limit=2, before=first[-1]) == [french[0]]
    # A key of another game is not one of the list's: as a missing match.
    refused = await http.get(
        url, params={"preset": "french", "before": bulgarian}, headers=ann.auth
    )
    assert (refused.status_code, refused.json()["error"]["code"]) == (404, "unknown_match")
    for bad in ("belote", "FRENCH", ""):
        refused = await http.get(url, params={"preset": bad}, headers=ann.auth)
        assert (refused.status_code, refused.json()["error"]["code"]) == (422, "bad_request")
