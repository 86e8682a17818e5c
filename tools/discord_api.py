"""Checking the bot's REST requests against Discord's OpenAPI description.

A request is valid when its method and path match a route the description documents (the
most literal route first, as ``.../messages/pins`` before ``.../messages/{message_id}``) and
every top-level key of its JSON body is a property of that route's request body. The
description is not shipped with the bot: tools read it from ``DEFAULT_SPEC`` (or a path given),
and a check without it says so rather than passing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

#: Where the shared copy of Discord's description lives on a development machine.
DEFAULT_SPEC = Path("/work/shared/discord-api-spec/openapi.json")
#: The path prefix Discord's server URL carries, which the description's paths leave out.
API_PREFIX = "/api/v10"


@dataclass(frozen=True)
class Route:
    method: str
    segments: tuple[str, ...]
    body_keys: frozenset[str] | None  # None: the body is not described key by key

    @property
    def literals(self) -> int:
        return sum(1 for segment in self.segments if not segment.startswith("{"))

    def matches(self, method: str, segments: tuple[str, ...]) -> bool:
        if method != self.method or len(segments) != len(self.segments):
            return False
        return all(
            t.startswith("{") or t == s for t, s in zip(self.segments, segments, strict=True)
        )


class ApiDescription:
    """The routes of Discord's OpenAPI description, with the keys of their JSON bodies."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = spec

    @classmethod
    def load(cls, path: Path = DEFAULT_SPEC) -> ApiDescription:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def schema_keys(self, schema: Mapping[str, Any], depth: int = 0) -> set[str] | None:
        """The property names ``schema`` allows at its top level; None when it allows any."""
        if depth > 20:
            return None
        if "$ref" in schema:
            node: Any = self.spec
            for part in str(schema["$ref"]).removeprefix("#/").split("/"):
                node = node[part]
            return self.schema_keys(node, depth + 1)
        keys: set[str] = set(schema.get("properties", {}))
        for combined in ("allOf", "oneOf", "anyOf"):
            for part in schema.get(combined, ()):
                more = self.schema_keys(part, depth + 1)
                if more is None:
                    return None
                keys |= more
        if not keys and schema.get("type") != "object":
            return None
        if schema.get("additionalProperties") not in (None, False):
            return None
        return keys

    @cached_property
    def routes(self) -> list[Route]:
        routes = []
        for path, operations in self.spec["paths"].items():
            segments = tuple(path.strip("/").split("/"))
            for method, operation in operations.items():
                if not isinstance(operation, dict) or "responses" not in operation:
                    continue  # the path's shared parameters, not an operation
                content = operation.get("requestBody", {}).get("content", {})
                schema = content.get("application/json") or next(iter(content.values()), None)
                keys = None if schema is None else self.schema_keys(schema.get("schema", {}))
                body = None if keys is None else frozenset(keys)
                routes.append(Route(method.upper(), segments, body))
        return sorted(routes, key=lambda route: -route.literals)

    def problem(self, method: str, path: str, body: object) -> str | None:
        """Why the request is not one the description documents; None when it is."""
        path = path.split("?", 1)[0].removeprefix(API_PREFIX)
        segments = tuple(path.strip("/").split("/"))
        route = next((r for r in self.routes if r.matches(method, segments)), None)
        if route is None:
            return f"{method} {path}: no such route"
        if isinstance(body, dict) and route.body_keys is not None:
            unknown = sorted(set(body) - route.body_keys)
            if unknown:
                return f"{method} /{'/'.join(route.segments)}: undocumented body keys {unknown}"
        return None


#: Keys discord.py puts in every message body it sends, an edit's too, where Discord's
#: description documents them only for a new message: ``tts`` (always false from this bot,
#: which Discord ignores on an edit). Counted apart, as no code of the bot's can leave them out.
LIBRARY_KEYS: frozenset[str] = frozenset({"tts"})


@dataclass
class Checked:
    count: int
    #: The invalid requests' reasons (routes as the description names them), each once.
    invalid: list[str]
    #: The requests invalid only for ``LIBRARY_KEYS`` of discord.py's own.
    library_only: int = 0


def check_requests(requests: Iterable[Any], description: ApiDescription) -> Checked:
    """Every request (``method``, ``path``, ``json`` as simcord logs them) checked."""
    checked = Checked(0, [])
    invalid: dict[str, None] = {}
    for request in requests:
        checked.count += 1
        body = request.json
        reason = description.problem(request.method, request.path, body)
        if reason is None:
            continue
        if isinstance(body, dict) and LIBRARY_KEYS & set(body):
            trimmed = {key: value for key, value in body.items() if key not in LIBRARY_KEYS}
            if description.problem(request.method, request.path, trimmed) is None:
                checked.library_only += 1
                continue
        invalid[reason] = None
    checked.invalid = list(invalid)
    return checked
