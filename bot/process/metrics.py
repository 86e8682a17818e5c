"""Optional Prometheus metrics (``SHANGHAI_METRICS_PORT``, ``SHANGHAI_METRICS_ADDRESS``).

``pip install '.[metrics]'`` adds ``prometheus-client`` (the container image has it); without
the setting nothing is imported or served. The endpoint listens on 127.0.0.1 unless
``SHANGHAI_METRICS_ADDRESS`` says otherwise (``0.0.0.0`` in a container, for a scraper on the
compose network): never put it on the internet. Every series is about the process as a whole;
none carries a guild, user or table id (no unbounded labels, nothing personal). What it serves,
at ``/metrics``:

- the standard ``process_*`` (CPU, memory, open files), ``python_info`` and ``python_gc_*``
  series of prometheus-client's own collectors;
- ``shanghai_build_info{version=..., python=...}``: always 1, the version this process runs;
- ``shanghai_gateway_connected{shard=...}`` (1 or 0) and ``shanghai_gateway_latency_seconds``
  (the last heartbeat's round trip) for each shard this process runs;
- ``shanghai_guilds``: the servers this process sees;

- ``shanghai_open_tables{state="lobby"|"playing"|"asleep"}``: tables this process holds, read
  at scrape (``asleep``: open but out of memory until a click or a wake brings it back);
- ``shanghai_pending_timers``: tables whose timer is armed (a deadline, a computer's move),
  asleep or not;
- ``shanghai_actions_total{kind=...}``: committed table changes by the service's kind
  (``act`` a person's or computer's action, ``timeout``, ``away``, ``start``, ``end`` ...);
- ``shanghai_commit_seconds``: a histogram of committed database writes, waits included;
- ``shanghai_discord_requests_total{method=...}`` and
  ``shanghai_discord_request_failures_total{status=...}``: the bot's REST calls to Discord
  (channel messages, edits, direct messages) and the ones Discord refused or that failed on the
  way (``status="network"``). Interaction replies go through discord.py's webhook adapter and
  are not counted here;
- ``shanghai_token_budget_requests_total{priority="urgent"|"ping"|"recap"|"table"}`` and
  ``shanghai_token_budget_waits_total{priority=...}``: the REST calls this process spent from
  its share of the token's budget (``bot.channel.budget``), and those that had to wait for the
  window; ``shanghai_token_budget_limit``: the calls a second that share allows;
- ``shanghai_click_carried_total`` and ``shanghai_click_carried_failures_total``: table-message
  calls carried through people's clicks' webhooks instead of the token
  (``bot.channel.courier``), and those a webhook refused (then made by REST).
"""

from __future__ import annotations

import logging
import math
import platform
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
    start_http_server,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.channel.budget import PRIORITY_NAMES
from bot.process.settings_facts import MetricsProblem, listen_problem
from bot.process.version import version

if TYPE_CHECKING:
    import discord

    from bot.service import Change

log = logging.getLogger(__name__)

#: Commit latency buckets, seconds: SQLite commits take about a millisecond, a busy one more.
COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class _TableCollector(Collector):
    """Open tables and armed timers, counted when scraped (nothing to keep in step)."""

    def __init__(self, bot: discord.AutoShardedClient) -> None:
        self.bot = bot

    def collect(self) -> Iterator[GaugeMetricFamily]:
        service = getattr(self.bot, "service", None)
        tables = list(service.tables.values()) if service is not None else []
        open_tables = GaugeMetricFamily(
            "shanghai_open_tables", "Open tables this process holds", labels=["state"]
        )
        playing = sum(1 for t in tables if t.game is not None)
        asleep = len(service.residency.sleepers) if service is not None else 0
        open_tables.add_metric(["lobby"], len(tables) - playing)
        open_tables.add_metric(["playing"], playing)
        open_tables.add_metric(["asleep"], asleep)  # out of memory until a click or a wake
        yield open_tables
        running = sum(
            1 for t in tables if t.alarm is None and t.timer is not None and not t.timer.done()
        )
        waiting = service.timers.waiting if service is not None else 0
        yield GaugeMetricFamily(
            "shanghai_pending_timers", "Tables whose timer is armed", value=waiting + running
        )


class _GatewayCollector(Collector):
    """Each shard's connection and heartbeat latency, and the servers seen, read at scrape."""

    def __init__(self, bot: discord.AutoShardedClient) -> None:
        self.bot = bot

    def collect(self) -> Iterator[GaugeMetricFamily]:
        connected = GaugeMetricFamily(
            "shanghai_gateway_connected", "1 while the shard's gateway is up", labels=["shard"]
        )
        latency = GaugeMetricFamily(
            "shanghai_gateway_latency_seconds",
            "Round trip of the shard's last gateway heartbeat",
            labels=["shard"],
        )
        ready = self.bot.is_ready() and not self.bot.is_closed()
        for shard_id, shard in sorted(self.bot.shards.items()):
            up = ready and not shard.is_closed()
            connected.add_metric([str(shard_id)], 1 if up else 0)
            if up and math.isfinite(shard.latency):
                latency.add_metric([str(shard_id)], shard.latency)
        yield connected
        yield latency
        yield GaugeMetricFamily(
            "shanghai_guilds", "Servers this process sees", value=len(self.bot.guilds)
        )


class _BudgetCollector(Collector):
    """The token's budget by priority and the calls carried on clicks, read at scrape."""

    def __init__(self, bot: discord.AutoShardedClient) -> None:
        self.bot = bot

    def collect(self) -> Iterator[CounterMetricFamily | GaugeMetricFamily]:
        publisher = getattr(self.bot, "publisher", None)
        budget = getattr(publisher, "budget", None)
        if budget is not None:
            spent = CounterMetricFamily(
                "shanghai_token_budget_requests",
                "REST calls spent from this process's share of the token",
                labels=["priority"],
            )
            waits = CounterMetricFamily(
                "shanghai_token_budget_waits",
                "REST calls that waited for the token's window",
                labels=["priority"],
            )
            for rank, name in PRIORITY_NAMES.items():
                spent.add_metric([name], budget.spent_by.get(rank, 0))
                waits.add_metric([name], budget.waited_by.get(rank, 0))
            yield spent
            yield waits
            yield GaugeMetricFamily(
                "shanghai_token_budget_limit",
                "REST calls a second this process's share of the token allows",
                value=budget.limit / budget.window,
            )
        courier = getattr(publisher, "courier", None)
        if courier is not None:
            yield CounterMetricFamily(
                "shanghai_click_carried",
                "Table-message calls carried through clicks' webhooks, not the token",
                value=courier.carried,
            )
            yield CounterMetricFamily(
                "shanghai_click_carried_failures",
                "Carried calls a click's webhook refused (then made by REST)",
                value=courier.failed,
            )


class Metrics:
    """The bot's metrics in their own registry (tests run several bots in one process)."""

    def __init__(self, bot: discord.AutoShardedClient) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        build = Info("shanghai_build", "The version this process runs", registry=self.registry)
        build.info({"version": version(), "python": platform.python_version()})
        self.registry.register(_TableCollector(bot))
        self.registry.register(_GatewayCollector(bot))
        self.registry.register(_BudgetCollector(bot))
        self.actions = Counter(
            "shanghai_actions", "Committed table changes", ["kind"], registry=self.registry
        )
        self.commits = Histogram(
            "shanghai_commit_seconds",
            "Committed database writes, waits included",
            buckets=COMMIT_BUCKETS,
            registry=self.registry,
        )
        self.discord_calls = Counter(
            "shanghai_discord_requests", "REST calls to Discord", ["method"], registry=self.registry
        )
        self.discord_failures = Counter(
            "shanghai_discord_request_failures",
            "REST calls to Discord that failed",
            ["status"],
            registry=self.registry,
        )
        self.port: int | None = None
        self._server: Any = None

    # -- what feeds it ----------------------------------------------------------------------

    def watched(self, table_id: int) -> tuple[int, ...]:
        """Counting needs no seat's screen."""
        return ()

    def table_changed(self, change: Change) -> None:
        """A service listener: one count per committed change."""
        self.actions.labels(change.kind).inc()

    def committed(self, seconds: float) -> None:
        """The store's ``commit_observer``."""
        self.commits.observe(seconds)

    def watch_http(self, http: Any) -> None:
        """Count the REST calls of discord.py's HTTP client ``http`` (its ``request``)."""
        import aiohttp
        import discord

        original = http.request
        calls, failures = self.discord_calls, self.discord_failures

        async def request(route: Any, **kwargs: Any) -> Any:
            calls.labels(getattr(route, "method", "?")).inc()
            try:
                return await original(route, **kwargs)
            except discord.HTTPException as error:
                failures.labels(str(error.status)).inc()
                raise
            except (aiohttp.ClientError, OSError, TimeoutError):
                failures.labels("network").inc()
                raise

        setattr(http, "request", request)  # noqa: B010 - an instance attribute over the method

    # -- serving ----------------------------------------------------------------------------

    def serve(self, address: str, port: int) -> int:
        """Serve ``/metrics`` on ``address``:``port`` (0: any free port); the port bound.

        ``MetricsProblem`` (one line) when nothing can listen there."""
        try:
            server, _thread = start_http_server(port, addr=address, registry=self.registry)
        except OSError:
            problem = listen_problem(address, port)
            raise MetricsProblem(problem or f"cannot listen on {address}:{port}") from None
        self._server = server
        self.port = int(server.server_address[1])
        log.info("metrics on http://%s:%d/metrics", address, self.port)
        return self.port

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
