"""NDJSON answers in the schema (docs/api.md "Streams and exports"): each line typed by its
response's `x-ndjson.itemSchema`; an answer that is only NDJSON documented as bytes under
NDJSON and `application/octet-stream`, and served under either; an answer negotiated beside
JSON keeps only its JSON content."""

import json

import pytest

SCHEMA = "/api/v1/schema/?format=json"


@pytest.fixture
def schema(api_client, db):
    return api_client.get(SCHEMA).json()


@pytest.mark.parametrize(
    ("path", "line", "content"),
    [
        ("/api/v1/games/{game_id}/stream", "StreamLine",
         ["application/x-ndjson", "application/octet-stream"]),
        ("/api/v1/account/export", "GameOut", ["application/x-ndjson", "application/octet-stream"]),
        ("/api/v1/account/events", "AccountEvent",
         ["application/x-ndjson", "application/octet-stream"]),
        ("/api/v1/players/{username}/games", "GameOut", ["application/json"]),
    ],
)  # fmt: skip
def test_every_ndjson_answer_types_its_lines(schema, path, line, content):
    answer = schema["paths"][path]["get"]["responses"]["200"]
    assert answer["x-ndjson"] == {
        "mediaType": "application/x-ndjson",
        "itemSchema": {"$ref": f"#/components/schemas/{line}"},
    }
    assert list(answer["content"]) == content


def test_stream_lines_are_a_union_keyed_by_type(schema):
    line = schema["components"]["schemas"]["StreamLine"]
    assert line["discriminator"]["propertyName"] == "type"
    action = schema["components"]["schemas"]["StreamActionLine"]
    assert action["properties"]["action"] == {"$ref": "#/components/schemas/ActionOut"}
    assert action["properties"]["game"] == {"$ref": "#/components/schemas/GameOut"}


def test_the_export_and_a_stream_answer_as_bytes_when_asked(auth_client):
    game = auth_client.post("/api/v1/games", {}, format="json").json()
    auth_client.post(f"/api/v1/games/{game['id']}/actions", {"type": "resign"}, format="json")
    for path in ("/api/v1/account/export", f"/api/v1/games/{game['id']}/stream"):
        as_bytes = auth_client.get(path, HTTP_ACCEPT="application/octet-stream")
        as_lines = auth_client.get(path, HTTP_ACCEPT="application/x-ndjson")
        assert as_bytes.status_code == as_lines.status_code == 200
        assert as_bytes["Content-Type"] == "application/octet-stream"
        assert as_lines["Content-Type"].startswith("application/x-ndjson")
    # the same lines (the stream's are read by tests/clients/test_generated_client.py)
    export = "/api/v1/account/export"
    as_bytes = auth_client.get(export, HTTP_ACCEPT="application/octet-stream")
    as_lines = auth_client.get(export, HTTP_ACCEPT="application/x-ndjson")
    lines = [json.loads(line) for line in b"".join(as_bytes.streaming_content).splitlines()]
    assert [line["id"] for line in lines] == [game["id"]]
    assert (
        b"".join(as_lines.streaming_content)
        == json.dumps(lines[0], separators=(",", ":")).encode() + b"\n"
    )
