"""The networks a player used lately, so that a suspension can keep its player from coming back
as a new guest (``python -m app.admin suspend … --network``).

A guest is made by anyone who opens the site, so a suspended person could simply make another.
An operator who sees that happen may suspend a player *with their networks*: while the
suspension holds, no new guest is made from a network the player used in the last
``NETWORK_RETENTION_DAYS`` — the players already made there play on. A network is an IPv4
address, or the /64 prefix of an IPv6 one (a household's or phone's: its last 64 bits are the
device's to choose, and change).

Each node learns a player's address when their token is used (``app.db.presence``, which
writes the pairs it saw once a day per pair, with its round); rows not seen for
``NETWORK_RETENTION_DAYS`` are deleted (``app.db.retention``). The player's export
carries them; erasure deletes them.
"""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime

from sqlalchemy import Insert, String, and_, bindparam, distinct, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models as m
from app.db.engine import upsert
from app.db.players import row_for_living, suspension_in_force

NETWORK_RETENTION_DAYS = 30
"""How long a network a player used is kept after they last used it."""


def network_of(address: str) -> str | None:
    """The network an address belongs to (see the module), or None for what is not an address
    (a test client's name, ``?``)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def note_statement(dialect: str) -> Insert:
    """Record that a player used a network at a time (``player_id``, ``network``, ``now``);
    nothing for an erased player."""
    row = row_for_living(
        bindparam("player_id", type_=String),
        bindparam("network", type_=String),
        bindparam("now", type_=m.UtcDateTime()),
    )
    statement = upsert(dialect, m.PlayerNetwork.__table__).from_select(
        ["player_id", "network", "seen_at"], row
    )
    return statement.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=["player_id", "network"], set_={"seen_at": statement.excluded.seen_at}
    )


class Networks:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def barred(self, address: str) -> bool:
        """Whether a suspension in force with its networks covers the network of ``address``."""
        network = network_of(address)
        if network is None:
            return False
        used = m.PlayerNetwork
        suspended = and_(
            m.Player.id == used.player_id,
            m.Player.suspension_networks,
            suspension_in_force(datetime.now(UTC)),
        )
        async with self._sessions() as session:
            found = await session.scalar(
                select(exists().where(used.network == network, exists().where(suspended)))
            )
        return bool(found)

    async def shared(self, player_id: str) -> tuple[int, int]:
        """How many networks the player used lately, and how many other players used one of
        them: whom barring them would touch (those already made play on; newcomers do not)."""
        used = m.PlayerNetwork
        theirs = select(used.network).where(used.player_id == player_id)
        async with self._sessions() as session:
            networks = await session.scalar(select(func.count()).select_from(theirs.subquery()))
            others = await session.scalar(
                select(func.count(distinct(used.player_id))).where(
                    used.network.in_(theirs), used.player_id != player_id
                )
            )
        return int(networks or 0), int(others or 0)
