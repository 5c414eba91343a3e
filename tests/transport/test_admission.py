"""The connection gate's bookkeeping: the total first, then the address; a refusal is not
counted, and an address with nothing open is forgotten (its memory is bounded by what is open)."""

from __future__ import annotations

from app.transport.admission import CLOSE_SERVER_BUSY, CLOSE_TOO_MANY, ConnectionGate


async def test_the_gate_counts_per_address_and_in_total_and_forgets_closed_addresses() -> None:
    gate = ConnectionGate(total=3, per_address=2)
    assert await gate.admit("a") is None and await gate.admit("a") is None
    too_many = await gate.admit("a")
    assert too_many is not None and (too_many.code, too_many.close_code) == (
        "too_many_connections",
        CLOSE_TOO_MANY,
    )
    assert await gate.admit("b") is None
    busy = await gate.admit("c")  # the total is checked first, whoever asks
    assert busy is not None and (busy.code, busy.close_code) == ("server_busy", CLOSE_SERVER_BUSY)
    assert gate.count == 3
    gate.release("b")
    assert await gate.admit("c") is None  # a place freed is a place for anyone
    for address in ("a", "a", "c"):
        gate.release(address)
    assert gate.count == 0 and not gate._open
