"""``GET /metrics``: the server's state in the Prometheus text format, for an operator.

Everything is read when the page is asked for (rooms and connections from the manager, the
writer's and the WebSocket endpoint's counters), so serving metrics costs play nothing. The
process collector adds memory, CPU and open files. Turn it off with ``BELOTE_METRICS=false``,
or keep ``/metrics`` behind the reverse proxy: it is not for players.
"""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import APIRouter, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from app.db.store import StoreStats
from app.rooms.manager import RoomManager
from app.transport.ws import WireStats


class _ServerCollector(Collector):
    def __init__(self, rooms: RoomManager, store: StoreStats, wire: WireStats) -> None:
        self._rooms = rooms
        self._store = store
        self._wire = wire

    def collect(self) -> Iterator[Metric]:
        by_status, connections = self._rooms.census()
        rooms = GaugeMetricFamily("belote_rooms", "Rooms in memory, by status.", labels=["status"])
        for status in ("waiting", "playing", "finished"):
            rooms.add_metric([status], by_status.get(status, 0))
        yield rooms
        yield GaugeMetricFamily(
            "belote_connections", "Open WebSocket connections to rooms.", value=connections
        )
        wire = self._wire
        yield CounterMetricFamily(
            "belote_ws_connections", "WebSocket connections accepted.", value=wire.connections
        )
        yield CounterMetricFamily("belote_ws_frames", "Client frames read.", value=wire.frames)
        refusals = CounterMetricFamily(
            "belote_refusals", "Client frames refused, by error code.", labels=["code"]
        )
        for code, count in sorted(wire.refusals.items()):
            refusals.add_metric([code], count)
        yield refusals
        store = self._store
        yield CounterMetricFamily(
            "belote_store_groups",
            "Group commits (one transaction, or one statement, each).",
            value=store.groups,
        )
        yield CounterMetricFamily(
            "belote_store_single_statement_groups",
            "Group commits of actions alone, stored as one statement (PostgreSQL).",
            value=store.single_statement_groups,
        )
        yield CounterMetricFamily(
            "belote_store_batches", "Room batches committed in groups.", value=store.batches
        )
        yield CounterMetricFamily(
            "belote_store_failed_batches",
            "Room batches that could not be stored.",
            value=store.failed_batches,
        )
        yield CounterMetricFamily(
            "belote_store_fenced_batches",
            "Room batches refused because another node holds the room's lease.",
            value=store.fenced_batches,
        )
        node = GaugeMetricFamily(
            "belote_node", 'This server\'s node id in a cluster ("" alone).', labels=["node"]
        )
        node.add_metric([self._rooms.node_id], 1)
        yield node
        yield CounterMetricFamily(
            "belote_store_commit_seconds",
            "Time spent committing groups.",
            value=store.commit_seconds,
        )


def metrics_router(rooms: RoomManager, store: StoreStats, wire: WireStats) -> APIRouter:
    registry = CollectorRegistry()
    ProcessCollector(registry=registry)
    registry.register(_ServerCollector(rooms, store, wire))
    router = APIRouter()

    @router.get("/metrics", tags=["service"], response_class=Response)
    async def metrics() -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    return router
