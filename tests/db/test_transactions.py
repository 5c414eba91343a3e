"""How the store's writer runs its work on PostgreSQL (``app.db.engine.make_transactions``):
``run`` in a transaction, ``run_single`` outside one (its statement is a transaction of its own,
with no BEGIN or COMMIT round trip), and the connection it keeps between them back in
transactions afterwards."""

from __future__ import annotations

from sqlalchemy import Connection

from app.db.engine import make_engine, make_transactions


def transaction_ids(connection: Connection) -> list[int]:
    """The transaction of each of two statements: the same one inside a transaction."""
    return [int(connection.exec_driver_sql("SELECT txid_current()").scalar_one()) for _ in range(2)]


async def test_run_single_runs_outside_a_transaction_and_run_inside_one(postgres_url: str) -> None:
    engine = make_engine(postgres_url)
    transactions = make_transactions(engine)
    try:
        first, second = await transactions.run(transaction_ids)
        assert first == second
        first, second = await transactions.run_single(transaction_ids)
        assert first != second
        first, second = await transactions.run(transaction_ids)  # the same connection, kept
        assert first == second
    finally:
        await transactions.close()
        await engine.dispose()
