"""Settings of one bot process, read from the environment or ``.env`` (pydantic-settings).

``DISCORD_TOKEN`` has no prefix because every Discord tool reads it under that name; the
rest carry ``SHANGHAI_``. Tests build ``Settings(discord_token=..., database=...)`` directly.
``.env.example`` documents every field (a test holds the two together).

Files default to ``var/`` under the working directory, never inside a package folder: a volume
mounted there (see ``Dockerfile``) keeps the games across restarts and upgrades.
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.ground.logs import parse_levels
from data.opening import is_postgres_url
from data.shards import ShardSet

#: Three dot-separated base64url parts: the shape of every Discord bot token.
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")


class Settings(BaseSettings):
    """Everything the bot needs to run; every field may also be passed as a keyword."""

    model_config = SettingsConfigDict(
        env_prefix="SHANGHAI_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    discord_token: SecretStr = Field(
        validation_alias=AliasChoices("discord_token", "DISCORD_TOKEN"),
        description="The bot token from the Discord developer portal.",
    )
    #: A SQLite file path, or a ``postgresql://`` URL (``DATABASE_URL``, as platforms inject it).
    database: Path | str = Field(
        default=Path("var/shanghai.sqlite3"),
        validation_alias=AliasChoices("SHANGHAI_DATABASE", "DATABASE_URL"),
    )
    buy_seconds: float = Field(default=8.0, gt=0, le=120)
    turn_seconds: float = Field(default=90.0, gt=0, le=3600)
    dev_guild: int | None = None
    seed: int | None = None
    #: Shortest gap between two edits (or two new messages) in one channel.
    edit_interval: float = Field(default=1.5, ge=0, le=60)
    #: Shortest gap between two redraws of a table message that only spectators read (every
    #: person follows their hand) and that rides on a click, costing the token nothing; None:
    #: ``CARRIED_TURNS`` edit intervals (12 s). Shorter shows spectators the game sooner for
    #: more calls in the channel (``docs/admin.md``).
    spectator_seconds: float | None = Field(default=None, ge=0, le=600)
    #: Timeouts in a row after which a seat is marked away and played at once.
    away_after: int = Field(default=3, ge=1, le=20)
    #: Seconds a computer player waits before each move, so people can follow its play.
    computer_delay: float = Field(default=2.0, ge=0, le=60)
    #: When a person who has not chosen is asked about buying the upcard: ``helps`` (only
    #: when buying is worth it, by the expert's judgement), ``ask`` (every time), or ``never``.
    buy_preference: Literal["ask", "helps", "never"] = "helps"
    #: Whether a game moves into a thread made from its lobby message when it starts (where
    #: the bot may make one); a server's ``/shanghai settings`` and the host's choice win.
    threads: bool = True
    #: Minutes a lobby may wait for Start before it closes itself.
    lobby_minutes: float = Field(default=30.0, gt=0, le=24 * 60)
    #: Hours without any person's action after which a game ends as abandoned.
    idle_hours: float = Field(default=24.0, gt=0, le=24 * 30)
    #: A file the running bot touches while connected; ``python -m bot.process.health`` reads its
    #: age.
    heartbeat: Path = Field(default=Path("var/heartbeat"))
    #: A folder for automatic backups of the database (none are made when unset).
    backup_dir: Path | None = None
    #: Hours between two automatic backups.
    backup_every_hours: float = Field(default=24.0, gt=0, le=24 * 30)
    #: How many automatic backups to keep; older ones are deleted.
    backup_keep: int = Field(default=7, ge=1, le=1000)
    #: Days a server's data is kept after the bot was removed from it (unless it is added back).
    departed_guild_days: float = Field(default=30.0, ge=0, le=3650)

    #: Shards of the whole bot, and the ones this process runs ("0,2"; empty: all of them).
    shard_count: int = Field(default=1, ge=1, le=4096)
    shard_ids: str = Field(default="", pattern=r"^\s*(\d+\s*(,\s*\d+\s*)*)?$")
    #: Seconds a new process waits for another one to let go of its shards (PostgreSQL only).
    shard_wait: float = Field(default=30.0, ge=0, le=3600)
    #: Sync the slash commands even if unchanged since the last sync (``python -m bot --sync``).
    force_sync: bool = False
    #: A move is acknowledged only once it is on disk (SQLite synchronous=FULL, PostgreSQL
    #: synchronous_commit=on). False trades that for speed: a crash of the machine or of the
    #: database server may then lose the last acknowledged moves (never corrupt a game).
    durable_commits: bool = True

    #: Where players read the full rules (the repository's ``docs/RULES.md`` as published);
    #: ``/shanghai rules`` links to it. Unset: it names the file instead.
    rules_url: str = Field(default="", pattern=r"^(https?://\S+)?$")
    #: ``INFO``, ``DEBUG`` ..., optionally with ``logger=LEVEL`` pairs (``bot.ground.logs``).
    log_level: str = "INFO"
    #: The port of the Prometheus metrics (``pip install '.[metrics]'``); off when unset, 0 picks
    #: a free port (tests).
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    #: The address the metrics listen on: loopback unless a scraper elsewhere needs them (in a
    #: container, ``0.0.0.0`` and the compose network, never a published port).
    metrics_address: str = "127.0.0.1"

    @field_validator("database", mode="after")
    @classmethod
    def _path_unless_url(cls, value: Path | str) -> Path | str:
        """A file path from the environment becomes a ``Path``; a URL stays text."""
        return value if is_postgres_url(value) else Path(value)

    @field_validator("metrics_address", mode="after")
    @classmethod
    def _an_ip_address(cls, value: str) -> str:
        try:
            ipaddress.ip_address(value.strip())
        except ValueError:
            raise ValueError("not an IP address (e.g. 127.0.0.1, 0.0.0.0 or ::1)") from None
        return value.strip()

    @field_validator("log_level", mode="after")
    @classmethod
    def _known_levels(cls, value: str) -> str:
        parse_levels(value)  # ValueError names the part that is not a level
        return value

    def shards(self) -> ShardSet:
        """The shards this process owns; ``ValueError`` if an id is out of range."""
        ids = [int(part) for part in self.shard_ids.split(",") if part.strip()]
        return ShardSet.of(self.shard_count, ids or None)

    def token_is_well_formed(self) -> bool:
        """Whether the token has the shape of a Discord bot token (not whether it works)."""
        return bool(_TOKEN_SHAPE.fullmatch(self.discord_token.get_secret_value().strip()))
