"""The check of REST requests against Discord's OpenAPI description (``tools.discord_api``),
on a small description of the same shape: routes matched most literal first, body keys
read through references and combinations, and the invalid ones named."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tools.discord_api import ApiDescription, check_requests

SPEC: dict[str, Any] = {
    "paths": {
        "/channels/{channel_id}/messages": {
            "parameters": [],
            "post": {
                "requestBody": {
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/M"}}}
                },
                "responses": {},
            },
        },
        "/channels/{channel_id}/messages/{message_id}": {
            "patch": {
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "allOf": [
                                    {"$ref": "#/components/schemas/M"},
                                    {"properties": {"flags": {}}},
                                ]
                            }
                        }
                    }
                },
                "responses": {},
            },
            "delete": {"responses": {}},
        },
        "/channels/{channel_id}/messages/bulk-delete": {
            "post": {
                "requestBody": {
                    "content": {"application/json": {"schema": {"properties": {"messages": {}}}}}
                },
                "responses": {},
            }
        },
    },
    "components": {
        "schemas": {"M": {"type": "object", "properties": {"content": {}, "components": {}}}}
    },
}


def request(method: str, path: str, body: object = None) -> Any:
    return SimpleNamespace(method=method, path=path, json=body)


def test_documented_requests_pass_and_the_others_are_named() -> None:
    api = ApiDescription(SPEC)
    checked = check_requests(
        [
            request("POST", "/channels/1/messages", {"content": "hi", "components": []}),
            request("PATCH", "/channels/1/messages/2", {"flags": 32768}),
            request("DELETE", "/api/v10/channels/1/messages/2"),
            request("POST", "/channels/1/messages/bulk-delete", {"messages": [1]}),
            request("POST", "/channels/1/messages", {"content": "hi", "embedz": []}),
            request("PUT", "/channels/1/messages"),
            request("GET", "/guilds/1"),
        ],
        api,
    )
    assert checked.count == 7
    assert checked.invalid == [
        "POST /channels/{channel_id}/messages: undocumented body keys ['embedz']",
        "PUT /channels/1/messages: no such route",
        "GET /guilds/1: no such route",
    ]


def test_the_most_literal_route_decides() -> None:
    api = ApiDescription(SPEC)
    # bulk-delete documents only "messages": matched as a message id it would allow nothing
    assert api.problem("POST", "/channels/1/messages/bulk-delete", {"content": "x"}) is not None
    assert api.problem("POST", "/channels/1/messages/bulk-delete", {"messages": []}) is None


def test_discord_py_tts_on_an_edit_is_counted_apart() -> None:
    api = ApiDescription(SPEC)
    edit = request("PATCH", "/channels/1/messages/2", {"content": "x", "tts": False})
    checked = check_requests([edit], api)
    assert checked.invalid == [] and checked.library_only == 1
    wrong = request("PATCH", "/channels/1/messages/2", {"tts": False, "embedz": 1})
    assert check_requests([wrong], api).invalid != []
